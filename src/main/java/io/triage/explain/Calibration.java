package io.triage.explain;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * How well the reported confidence matches being right, over scenarios: for each confidence (high, medium,
 * low) how many verdicts named the expected cause, named another cause the scenario accepts, or were wrong;
 * insufficient-evidence verdicts are counted apart (an abstention is neither right nor wrong about a cause).
 * The promise it checks: a {@code high} verdict is never wrong — it names the scenario's own {@code cause=}
 * or one the scenario accepts. Accepted alternatives at high confidence are listed apart, so that what is
 * right but not the scenario's first answer stays visible.
 */
public final class Calibration {
    /** What one verdict was, measured against its scenario. */
    public enum Outcome {
        /** the expected cause (and subtype, when given) */
        RIGHT,
        /** another cause the scenario's {@code accept=} allows, or the right cause with another subtype */
        ACCEPTED,
        /** a cause the scenario neither expects nor accepts */
        WRONG,
        /** insufficient-evidence where a cause was expected */
        ABSTAINED
    }

    /** One scenario's verdict and how it fared. */
    public record Entry(String scenario, String verdict, String confidence, Outcome outcome) { }

    private final List<Entry> entries = new ArrayList<>();

    /** Scores one diagnosis against its scenario's expectation. */
    public Entry add(String scenario, Expectation e, Diagnosis d) {
        String verdict = d.cause() + (d.subtype().isEmpty() ? "" : "/" + d.subtype());
        Outcome o;
        if (d.cause().equals(e.cause())) {
            o = e.subtype().isEmpty() || e.subtype().equals(d.subtype()) ? Outcome.RIGHT : Outcome.ACCEPTED;
        } else if (d.cause().equals(Diagnoser.INSUFFICIENT)) {
            o = Outcome.ABSTAINED;
        } else if (e.accept().contains(d.cause())) {
            o = Outcome.ACCEPTED;
        } else {
            o = Outcome.WRONG;
        }
        Entry entry = new Entry(scenario, verdict, d.confidence(), o);
        entries.add(entry);
        return entry;
    }

    public List<Entry> entries() {
        return List.copyOf(entries);
    }

    /** The verdicts reported at high confidence that the scenario neither expects nor accepts: the promise broken. */
    public List<Entry> highButWrong() {
        return entries.stream().filter(x -> x.confidence().equals("high") && x.outcome() == Outcome.WRONG).toList();
    }

    /** The verdicts reported at high confidence that are an alternative the scenario accepts, not its own cause. */
    public List<Entry> highButAccepted() {
        return entries.stream().filter(x -> x.confidence().equals("high") && x.outcome() == Outcome.ACCEPTED).toList();
    }

    /** Counts by reported confidence (high, medium, low) and outcome. */
    public Map<String, Map<Outcome, Integer>> table() {
        Map<String, Map<Outcome, Integer>> t = new java.util.LinkedHashMap<>();
        for (String c : List.of("high", "medium", "low")) {
            Map<Outcome, Integer> row = new EnumMap<>(Outcome.class);
            for (Outcome o : Outcome.values()) {
                row.put(o, 0);
            }
            t.put(c, row);
        }
        for (Entry x : entries) {
            t.computeIfAbsent(x.confidence(), k -> new EnumMap<>(Outcome.class)).merge(x.outcome(), 1, Integer::sum);
        }
        return t;
    }

    /** The table as text: one row per confidence, with the share of right verdicts. */
    public String render() {
        StringBuilder b = new StringBuilder(String.format("%-11s %6s %9s %6s %10s %6s   %s%n", "confidence", "right",
                "accepted", "wrong", "abstained", "total", "right share"));
        table().forEach((c, row) -> {
            int total = row.values().stream().mapToInt(Integer::intValue).sum();
            b.append(String.format("%-11s %6d %9d %6d %10d %6d   %s%n", c, row.getOrDefault(Outcome.RIGHT, 0),
                    row.getOrDefault(Outcome.ACCEPTED, 0), row.getOrDefault(Outcome.WRONG, 0),
                    row.getOrDefault(Outcome.ABSTAINED, 0), total,
                    total == 0 ? "-" : String.format("%.0f %%", 100.0 * row.getOrDefault(Outcome.RIGHT, 0) / total)));
        });
        return b.toString();
    }
}
