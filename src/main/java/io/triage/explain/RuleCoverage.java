package io.triage.explain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.triage.facts.CaptureClock;
import io.triage.facts.Health;
import io.triage.facts.Intent;
import io.triage.facts.LogMarker;
import io.triage.facts.LogState;
import io.triage.knowledge.KnowledgeBase;
import io.triage.knowledge.Marker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * What the scenarios exercise, gathered as {@code rules test --coverage} runs them: the rules no scenario fired, the
 * causes and subtypes no scenario expects, the log markers no scenario line matched, and for each threshold of
 * {@code thresholds.yaml} how many scenarios had the compared value on each side of it (read from the facts).
 */
public final class RuleCoverage {
    /**
     * How a threshold is measured in a scenario's facts: the value the rules compare with it, when the scenario has one.
     * A threshold of {@code thresholds.yaml} without a measure here is reported as not measured.
     */
    private static final Map<String, Function<List<Object>, Optional<Double>>> MEASURES = Map.of(
            "healthSlowSeconds", f -> facts(f, Health.class).stream().filter(h -> h.status().equals("ok"))
                    .map(h -> h.seconds()).findFirst(),
            "logStalledSeconds", f -> facts(f, LogState.class).stream().filter(l -> l.present() && l.ageSeconds() >= 0)
                    .map(l -> (double) l.ageSeconds()).findFirst(),
            "progressRecentSeconds", f -> newestAge(f, List.of("progress", "access")),
            "loadingRecentSeconds", f -> newestAge(f, List.of("loading")),
            "launchSlackSeconds", RuleCoverage::launchLead);

    /** One threshold: its value and how many scenarios fell at or below it, and above it. */
    public record Threshold(String name, double value, boolean measured, int atOrBelow, int above) {
        public boolean bothSides() {
            return atOrBelow > 0 && above > 0;
        }
    }

    /** The report. */
    public record Report(int scenarios, int rules, List<String> rulesNeverFired, List<String> causesNotExpected,
                         List<String> subtypesNotExpected, int markers, List<String> markersNeverMatched,
                         List<Threshold> thresholds) { }

    private final KnowledgeBase kb;
    private final Set<String> allRules;
    private final Map<String, String> locations;
    private final Set<String> subtypes = new TreeSet<>();
    private final Map<String, Double> thresholdValues = new LinkedHashMap<>();
    private final Set<String> fired = new LinkedHashSet<>();
    private final Set<String> expectedCauses = new LinkedHashSet<>();
    private final Set<String> expectedSubtypes = new LinkedHashSet<>();
    private final Set<String> matchedMarkers = new LinkedHashSet<>();
    private final Map<String, int[]> sides = new LinkedHashMap<>();
    private int scenarios;

    /**
     * @param allRules  the names of every compiled rule
     * @param whyNot    the rule files parsed (for each rule's place and the subtypes concluded literally)
     * @param thresholdsFile {@code knowledge-base/thresholds.yaml}: every numeric top-level key is a threshold
     */
    public RuleCoverage(KnowledgeBase kb, Set<String> allRules, WhyNot whyNot, Path thresholdsFile) throws IOException {
        this.kb = kb;
        this.allRules = allRules;
        this.locations = whyNot.ruleLocations();
        subtypes.addAll(whyNot.literalSubtypes());
        for (Marker m : kb.markers()) {
            if (m.subtype() != null && !m.subtype().isEmpty() && m.kind().equals("error")) {
                subtypes.add("crash/" + m.subtype());
            }
        }
        JsonNode y = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(thresholdsFile));
        for (Iterator<Map.Entry<String, JsonNode>> it = y.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().isNumber()) {
                thresholdValues.put(e.getKey(), e.getValue().asDouble());
                sides.put(e.getKey(), new int[2]);
            }
        }
    }

    /** Counts one scenario: its expectation, its diagnosis and the working memory the rules ended with. */
    public void add(Expectation e, Diagnosis d, List<Object> workingMemory) {
        scenarios++;
        if (d.engine() != null) {
            fired.addAll(d.engine().rulesFiredNames());
        }
        expectedCauses.add(e.cause());
        if (!e.subtype().isEmpty()) {
            expectedSubtypes.add(e.cause() + "/" + e.subtype());
        }
        for (LogMarker m : facts(workingMemory, LogMarker.class)) {
            matchedMarkers.add(m.markerId());
        }
        for (Map.Entry<String, Double> t : thresholdValues.entrySet()) {
            Function<List<Object>, Optional<Double>> measure = MEASURES.get(t.getKey());
            if (measure == null) {
                continue;
            }
            measure.apply(workingMemory).ifPresent(v -> sides.get(t.getKey())[v > t.getValue() ? 1 : 0]++);
        }
    }

    public Report report() {
        List<String> never = allRules.stream().filter(r -> !fired.contains(r))
                .sorted(Comparator.comparing((String r) -> locations.getOrDefault(r, "~")).thenComparing(r -> r))
                .map(r -> "\"" + r + "\"" + (locations.containsKey(r) ? " (" + locations.get(r) + ")" : "")).toList();
        List<String> causes = kb.causes().keySet().stream().filter(c -> !expectedCauses.contains(c)).toList();
        List<String> subs = subtypes.stream().filter(s -> !expectedSubtypes.contains(s)).toList();
        Map<String, String> markerServer = new LinkedHashMap<>();
        kb.markers().forEach(m -> markerServer.putIfAbsent(m.id(), m.server()));
        List<String> markers = markerServer.keySet().stream().filter(id -> !matchedMarkers.contains(id)).sorted().toList();
        List<Threshold> ts = new ArrayList<>();
        thresholdValues.forEach((k, v) -> ts.add(new Threshold(k, v, MEASURES.containsKey(k), sides.get(k)[0], sides.get(k)[1])));
        return new Report(scenarios, allRules.size(), never, causes, subs, markerServer.size(), markers, ts);
    }

    // ---- views

    public static String text(Report r) {
        StringBuilder sb = new StringBuilder();
        sb.append("coverage over ").append(r.scenarios()).append(" scenarios\n");
        list(sb, "rules no scenario fired (" + r.rulesNeverFired().size() + " of " + r.rules() + ")", r.rulesNeverFired());
        list(sb, "causes no scenario expects (" + r.causesNotExpected().size() + ")", r.causesNotExpected());
        list(sb, "subtypes no scenario expects (" + r.subtypesNotExpected().size() + ")", r.subtypesNotExpected());
        list(sb, "markers no scenario line matched (" + r.markersNeverMatched().size() + " of " + r.markers() + ")",
                r.markersNeverMatched());
        sb.append("thresholds (scenarios at or below / above):\n");
        for (Threshold t : r.thresholds()) {
            sb.append("  ").append(t.name()).append(" = ").append(number(t.value())).append(": ");
            if (!t.measured()) {
                sb.append("not measured (no fact here holds the value it is compared with)\n");
            } else {
                sb.append(t.atOrBelow()).append(" / ").append(t.above())
                        .append(t.bothSides() ? "" : "  NOT TESTED " + (t.atOrBelow() == 0 && t.above() == 0 ? "on either side"
                                : t.atOrBelow() == 0 ? "at or below" : "above")).append('\n');
            }
        }
        return sb.toString();
    }

    public static Map<String, Object> json(Report r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("scenarios", r.scenarios());
        m.put("rules", Map.of("total", r.rules(), "neverFired", r.rulesNeverFired()));
        m.put("causesNotExpected", r.causesNotExpected());
        m.put("subtypesNotExpected", r.subtypesNotExpected());
        m.put("markers", Map.of("total", r.markers(), "neverMatched", r.markersNeverMatched()));
        List<Map<String, Object>> ts = new ArrayList<>();
        for (Threshold t : r.thresholds()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("name", t.name());
            x.put("value", t.value());
            x.put("measured", t.measured());
            x.put("atOrBelow", t.atOrBelow());
            x.put("above", t.above());
            x.put("bothSides", t.bothSides());
            ts.add(x);
        }
        m.put("thresholds", ts);
        return m;
    }

    private static void list(StringBuilder sb, String title, List<String> items) {
        sb.append(title).append(items.isEmpty() ? ": none\n" : ":\n");
        items.forEach(i -> sb.append("  ").append(i).append('\n'));
    }

    private static String number(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }

    // ---- measures

    private static <T> List<T> facts(List<Object> wm, Class<T> type) {
        return wm.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /** Seconds from the newest timestamped current-run marker of these kinds to the capture's clock. */
    private static Optional<Double> newestAge(List<Object> wm, List<String> kinds) {
        Optional<CaptureClock> clock = facts(wm, CaptureClock.class).stream().findFirst();
        if (clock.isEmpty()) {
            return Optional.empty();
        }
        return facts(wm, LogMarker.class).stream().filter(m -> m.currentRun() && m.epoch() >= 0 && kinds.contains(m.kind()))
                .max(Comparator.comparingInt(LogMarker::seq)).map(m -> (double) (clock.get().epoch() - m.epoch()));
    }

    /** Seconds by which the newest run's first line precedes the operator's launch time. */
    private static Optional<Double> launchLead(List<Object> wm) {
        Optional<Intent> launch = facts(wm, Intent.class).stream().filter(i -> i.key().equals("launched_at") && i.epoch() >= 0).findFirst();
        if (launch.isEmpty()) {
            return Optional.empty();
        }
        return facts(wm, LogMarker.class).stream()
                .filter(m -> m.currentRun() && m.epoch() >= 0 && (m.kind().equals("server-args") || m.kind().equals("run-start")))
                .min(Comparator.comparingInt(LogMarker::seq)).map(m -> (double) (launch.get().epoch() - m.epoch()));
    }
}
