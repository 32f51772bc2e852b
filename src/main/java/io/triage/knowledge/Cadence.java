package io.triage.knowledge;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * How often each server logs a line of work while it works, and how to read the request counts and
 * throughput on that line ({@code knowledge-base/cadence.yaml}). Silence in the log is measured against
 * it: with work pending, no line of work for longer than {@link #stallFactor} cadences is a stall.
 *
 * @param stallFactor how many cadences of silence, with work pending, make a stall
 * @param minStallSeconds the shortest silence ever called a stall, seconds
 * @param workLines lines of work needed, the last within the stall window, to call work continuing
 * @param cpuMovedPercent in a second look, CPU use above this share of one core (percent) counts as moving
 */
public record Cadence(double stallFactor, long minStallSeconds, int workLines, double cpuMovedPercent,
                      Map<String, Server> servers) {
    /**
     * One server's rhythm.
     *
     * @param everySeconds how often a line of work is written while the server works, seconds; 0 when it
     *                     writes nothing periodic (one line per finished request)
     * @param markers ids of the markers whose lines are its lines of work
     * @param running reads the requests running from such a line (group {@code v}), or null
     * @param waiting reads the requests waiting, or null
     * @param throughput reads the generation throughput in tokens/s, or null
     * @param prompt reads the prompt (prefill) throughput in tokens/s, or null
     * @param metrics Prometheus series by role: {@code running}, {@code waiting}, {@code generated} (a counter of
     *                work done: tokens, or requests completed), {@code steps} (a counter of the engine's iterations)
     * @param zeroLoggedOnce the server logs an interval in which nothing was produced once, then its line of work
     *                       falls silent (vLLM V1 logs the next ones at DEBUG): one such line with requests counted on
     *                       it, and answers logged after it, is the engine producing nothing since
     * @param everyBatch the server logs a line of work for every batch it schedules (SGLang's "Prefill batch" for
     *                   each prefill): requests accepted without such a line after them never reached its scheduler
     */
    public record Server(String name, long everySeconds, Set<String> markers, LinePattern running,
                         LinePattern waiting, LinePattern throughput, LinePattern prompt, Map<String, String> metrics,
                         boolean zeroLoggedOnce, boolean everyBatch) {
        public Server {
            metrics = Map.copyOf(metrics);
        }
    }

    /** The roles a Prometheus series can have in {@code metrics:}. */
    public static final Set<String> METRIC_ROLES = Set.of("running", "waiting", "generated", "steps");

    /** A series name, optionally with one label it must carry: {@code name} or {@code name{label="value"}}. */
    private static final java.util.regex.Pattern SERIES_SPEC = java.util.regex.Pattern.compile(
            "([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[a-zA-Z_][a-zA-Z0-9_]*=\"[^\"{}\\\\]*\"\\})?");

    /** The series name of a {@code metrics:} value, without the label it selects. */
    public static String seriesName(String spec) {
        int brace = spec.indexOf('{');
        return brace < 0 ? spec : spec.substring(0, brace);
    }

    public record CadenceFile(Double stallFactor, Long minStallSeconds, Integer workLines, Double cpuMovedPercent,
                              Map<String, ServerSpec> servers) { }

    public record ServerSpec(Long everySeconds, List<String> markers, String running, String waiting,
                             String throughput, String prompt, Map<String, String> metrics, Boolean zeroLoggedOnce,
                             Boolean everyBatch, String note) { }

    public Cadence {
        servers = Map.copyOf(servers);
    }

    /** The rhythm of a server kind, if the knowledge base has one. */
    public Optional<Server> server(String kind) {
        return Optional.ofNullable(kind == null ? null : servers.get(kind));
    }

    /** The server and role of a Prometheus series name ({@code running}, {@code waiting}, {@code generated}). */
    public Optional<Map.Entry<String, String>> metricRole(String series) {
        return metricRole(series, "");
    }

    /**
     * The server and role of a Prometheus sample: its series name and its labels as written ({@code {a="1",b="2"}},
     * or empty). A role that selects a label ({@code name{label="value"}}) holds only the samples carrying it.
     */
    public Optional<Map.Entry<String, String>> metricRole(String series, String labels) {
        for (Server s : servers.values()) {
            for (Map.Entry<String, String> m : s.metrics().entrySet()) {
                String spec = m.getValue();
                int brace = spec.indexOf('{');
                if (brace < 0 ? spec.equals(series)
                        : spec.regionMatches(0, series, 0, brace) && series.length() == brace
                                && labels.contains(spec.substring(brace + 1, spec.length() - 1))) {
                    return Optional.of(Map.entry(s.name(), m.getKey()));
                }
            }
        }
        return Optional.empty();
    }

    /** The server whose lines of work a marker marks, if any. */
    public Optional<Server> byMarker(String markerId) {
        for (Server s : servers.values()) {
            if (s.markers().contains(markerId)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    static Cadence load(ObjectMapper yaml, Path file, Set<String> markerIds) {
        CadenceFile f = KnowledgeBase.read(yaml, file, CadenceFile.class);
        KnowledgeBase.require(f.stallFactor() != null && f.stallFactor() >= 1, file, "stallFactor must be >= 1");
        KnowledgeBase.require(f.minStallSeconds() != null && f.minStallSeconds() > 0, file, "minStallSeconds must be > 0");
        KnowledgeBase.require(f.workLines() != null && f.workLines() >= 2, file, "workLines must be >= 2");
        KnowledgeBase.require(f.cpuMovedPercent() != null && f.cpuMovedPercent() > 0, file, "cpuMovedPercent must be > 0");
        KnowledgeBase.require(f.servers() != null && !f.servers().isEmpty(), file, "needs 'servers:'");
        Map<String, Server> servers = new LinkedHashMap<>();
        for (Map.Entry<String, ServerSpec> e : f.servers().entrySet()) {
            ServerSpec s = e.getValue();
            String where = "server " + e.getKey();
            KnowledgeBase.require(s != null && s.everySeconds() != null && s.everySeconds() >= 0, file,
                    where + ": everySeconds must be >= 0");
            KnowledgeBase.require(s.markers() != null && (!s.markers().isEmpty() || s.everySeconds() == 0), file,
                    where + ": needs markers (the lines of work its cadence is about)");
            for (String m : s.markers()) {
                KnowledgeBase.require(markerIds.contains(m), file, where + ": unknown marker '" + m + "'");
            }
            Map<String, String> metrics = s.metrics() == null ? Map.of() : s.metrics();
            for (Map.Entry<String, String> m : metrics.entrySet()) {
                KnowledgeBase.require(METRIC_ROLES.contains(m.getKey()), file, where + ": metrics role '" + m.getKey()
                        + "' is not one of " + METRIC_ROLES);
                KnowledgeBase.require(m.getValue() != null && SERIES_SPEC.matcher(m.getValue()).matches(), file,
                        where + ": metrics " + m.getKey() + " is not a Prometheus series name (with at most one label="
                                + "\"value\" it must carry)");
            }
            servers.put(e.getKey(), new Server(e.getKey(), s.everySeconds(), Set.copyOf(s.markers()),
                    pattern(s.running(), file, where + " running"), pattern(s.waiting(), file, where + " waiting"),
                    pattern(s.throughput(), file, where + " throughput"), pattern(s.prompt(), file, where + " prompt"),
                    metrics, Boolean.TRUE.equals(s.zeroLoggedOnce()), Boolean.TRUE.equals(s.everyBatch())));
        }
        return new Cadence(f.stallFactor(), f.minStallSeconds(), f.workLines(), f.cpuMovedPercent(), servers);
    }

    private static LinePattern pattern(String regex, Path file, String where) {
        if (regex == null) {
            return null;
        }
        LinePattern p = KnowledgeBase.compileLinear(regex, List.of("v"), file, where);
        KnowledgeBase.require(p.groups().contains("v"), file, where + ": needs the named group 'v'");
        return p;
    }
}
