package io.triage.collect;

import io.triage.knowledge.KnowledgeBase;
import io.triage.knowledge.LogFilter;
import io.triage.knowledge.PosixEre;
import io.triage.knowledge.ProcessPatterns;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the probe script selects on a host, generated from the knowledge base so that the script and the
 * client read the same catalogue: the log lines (from the markers), the process lines and the discovery of
 * the server process (from {@code processes.yaml}). Nothing here is written by hand; a marker or a server
 * added to {@code knowledge-base/} changes the script with no code change.
 *
 * @param servers the server kinds the catalogue knows ({@code --server} accepts these)
 * @param log the fixed strings that select marker lines
 * @param serverEre POSIX ERE: a command line of a server front end or worker (any server, or generic)
 * @param frontendEre POSIX ERE: a command line of a server front end
 * @param clientEre POSIX ERE: a command line of a known client (empty when none can be said in POSIX)
 * @param commEre POSIX ERE: a kernel process name of a server (as {@code ss -p} and {@code /proc/PID/comm} show it)
 * @param ignoreEre POSIX ERE: the probe's own tools and wrappers (empty when none can be said in POSIX)
 * @param kindEre per server kind, POSIX ERE of that kind's front ends and workers (preferred when the kind is given)
 * @param listingEre POSIX ERE over a whole {@code ps} line (the command line after the columns): server processes
 *                   and known clients, so a reader of the listing sees both
 * @param serverWords fixed strings, lower case, one of which the name of a server's systemd unit, container (image or
 *                    command) or Slurm job contains: the server kinds, their other spellings ({@code aliases:} of
 *                    the markers files) and the literals of {@code containers:} in {@code processes.yaml}; matched
 *                    as fixed strings, without regard to case, never as patterns
 * @param metricSeries the Prometheus series the second look keeps from {@code /metrics}: every series of
 *                     {@code cadence.yaml}, matched by exact name
 */
public record HostFilters(List<String> servers, LogFilter log, String serverEre, String frontendEre, String clientEre,
                          String commEre, String ignoreEre, Map<String, String> kindEre, String listingEre,
                          Map<String, Integer> defaultPorts, Map<String, String> healthPaths, List<String> serverWords,
                          List<String> metricSeries) {
    /** A word the supervisor probes can look for: printable ASCII, at least 3 characters, no quote of any kind. */
    private static final java.util.regex.Pattern WORD = java.util.regex.Pattern.compile("[\\x21-\\x7e&&[^'\"`\\\\|]]{3,64}");
    /** A Prometheus series name (what {@code cadence.yaml} accepts). */
    private static final java.util.regex.Pattern SERIES = java.util.regex.Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]{0,199}");
    /** A command line's start inside a {@code ps} line: the line's start or the space after the last column. */
    private static final String AFTER_COLUMNS = "(^|[[:space:]])";

    public HostFilters {
        servers = List.copyOf(servers);
        defaultPorts = Map.copyOf(defaultPorts);
        healthPaths = Map.copyOf(healthPaths);
        kindEre = Map.copyOf(kindEre);
        serverWords = words(serverWords);
        metricSeries = metricSeries.stream().filter(m -> m != null && SERIES.matcher(m).matches()).distinct().toList();
    }

    /**
     * The words, lower case, each once, without those that contain another (a line holding the longer word holds
     * the shorter), without any that could not stand in a shell word or an awk field ({@link #WORD}).
     */
    static List<String> words(List<String> words) {
        java.util.Set<String> all = new java.util.TreeSet<>();
        for (String w : words) {
            String l = w == null ? "" : w.strip().toLowerCase(java.util.Locale.ROOT);
            if (WORD.matcher(l).matches()) {
                all.add(l);
            }
        }
        List<String> kept = new ArrayList<>();
        for (String w : all) {
            if (all.stream().noneMatch(o -> !o.equals(w) && w.contains(o))) {
                kept.add(w);
            }
        }
        return List.copyOf(kept);
    }

    /**
     * The filters of a knowledge base.
     *
     * @throws io.triage.knowledge.KnowledgeException when a pattern can be selected on a host neither by its POSIX
     *         form nor by a fixed string it requires
     */
    public static HostFilters of(KnowledgeBase kb) {
        ProcessPatterns p = kb.processes();
        Map<String, String> kinds = new LinkedHashMap<>();
        for (String k : p.servers()) {
            List<String> r = p.serverRegexes(k);
            if (!r.isEmpty()) {
                kinds.put(k, PosixEre.union(r));
            }
        }
        List<String> listed = new ArrayList<>(p.serverRegexes());
        listed.addAll(p.clientRegexes());
        listed.addAll(p.compilerRegexes());
        return new HostFilters(p.servers(), LogFilter.of(kb.markers()), PosixEre.union(p.serverRegexes()),
                PosixEre.union(p.frontendRegexes()), exclusion(p.clientRegexes()), PosixEre.union(p.commRegexes()),
                exclusion(p.ignoreRegexes()), kinds, PosixEre.union(listed, AFTER_COLUMNS), ports(kb), healths(kb),
                serverWords(kb), metricSeries(kb));
    }

    /** What names a server's unit, container or job: its kind, its other spellings, the literals of {@code containers:}. */
    private static List<String> serverWords(KnowledgeBase kb) {
        List<String> w = new ArrayList<>(kb.processes().servers());
        w.addAll(kb.serverAliases());
        w.addAll(kb.processes().containerLiterals());
        return w;
    }

    /** Every Prometheus series {@code cadence.yaml} names, of every server and role, sorted (a stable script). */
    private static List<String> metricSeries(KnowledgeBase kb) {
        java.util.Set<String> out = new java.util.TreeSet<>();
        for (io.triage.knowledge.Cadence.Server s : kb.cadence().servers().values()) {
            s.metrics().values().forEach(v -> out.add(io.triage.knowledge.Cadence.seriesName(v)));
        }
        return List.copyOf(out);
    }

    /** Each server kind's default port, from its markers file's {@code serves:} (knowledge, not code). */
    private static Map<String, Integer> ports(KnowledgeBase kb) {
        Map<String, Integer> out = new LinkedHashMap<>();
        kb.serves().forEach((k, s) -> {
            if (s.port() != null) {
                out.put(k, s.port());
            }
        });
        return out;
    }

    /** Each server kind's health or readiness path, from its markers file's {@code serves:}. */
    private static Map<String, String> healths(KnowledgeBase kb) {
        Map<String, String> out = new LinkedHashMap<>();
        kb.serves().forEach((k, s) -> {
            if (s.health() != null) {
                out.put(k, s.health());
            }
        });
        return out;
    }

    /** The path the health probe asks for a server of this kind: its own, else {@code /health}. */
    public String healthPath(String server) {
        return healthPaths.getOrDefault(server == null ? "" : server, "/health");
    }

    /**
     * Patterns that rule a process out, in POSIX where they have a POSIX form; one without is left to the client
     * (its literals, a much looser stand-in, could rule out the server itself). The POSIX form is itself a little
     * looser (word boundaries are dropped), which can only make the script pass over a process the client then
     * classifies from the listing.
     */
    private static String exclusion(List<String> regexes) {
        List<String> kept = new ArrayList<>();
        for (String r : regexes) {
            if (PosixEre.translate(r).isPresent()) {
                kept.add(r);
            }
        }
        return kept.isEmpty() ? "" : PosixEre.union(kept);
    }

}
