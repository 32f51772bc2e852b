package io.triage.explain;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A scenario's {@code expected.txt}: {@code cause=} and optionally {@code subtype=}, {@code accept=}
 * (other acceptable causes), {@code confidence=}, {@code not=} (causes that must not be supported at
 * all), {@code cites=} (probes the verdict's chain must cite) and {@code steps=} (next steps offered).
 */
public record Expectation(String cause, String subtype, List<String> accept, String confidence, List<String> not,
                          List<String> cites, List<String> steps) {

    public static Expectation read(Path dir) throws IOException {
        String cause = null;
        String subtype = "";
        String confidence = "";
        List<String> accept = new ArrayList<>();
        List<String> not = new ArrayList<>();
        List<String> cites = new ArrayList<>();
        List<String> steps = new ArrayList<>();
        for (String tok : Files.readString(dir.resolve("expected.txt")).split("\\s+")) {
            int eq = tok.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String k = tok.substring(0, eq);
            String v = tok.substring(eq + 1);
            switch (k) {
                case "cause" -> cause = v;
                case "subtype" -> subtype = v;
                case "confidence" -> confidence = v;
                case "accept" -> accept.addAll(list(v));
                case "not" -> not.addAll(list(v));
                case "cites" -> cites.addAll(list(v));
                case "steps" -> steps.addAll(list(v));
                default -> throw new IllegalArgumentException(dir + "/expected.txt: unknown key " + k);
            }
        }
        if (cause == null) {
            throw new IllegalArgumentException(dir + "/expected.txt has no cause=");
        }
        return new Expectation(cause, subtype, accept, confidence, not, cites, steps);
    }

    /** What in {@code d} contradicts this expectation; empty when the diagnosis meets it. */
    public List<String> failures(Diagnosis d) {
        List<String> out = new ArrayList<>();
        String got = d.cause() + (d.subtype().isEmpty() ? "" : "/" + d.subtype()) + " (" + d.confidence() + ")";
        if (!d.cause().equals(cause) && !accept.contains(d.cause())) {
            out.add("verdict " + got + ", expected " + cause + (subtype.isEmpty() ? "" : "/" + subtype)
                    + (accept.isEmpty() ? "" : " or one of " + accept));
            return out;
        }
        if (d.cause().equals(cause) && !subtype.isEmpty() && !subtype.equals(d.subtype())) {
            out.add("subtype of " + got + ", expected " + subtype);
        }
        if (d.cause().equals(cause) && !confidence.isEmpty() && !confidence.equals(d.confidence())) {
            out.add("confidence of " + got + ", expected " + confidence);
        }
        for (String c : not) {
            if (d.hypotheses().stream().anyMatch(h -> h.cause().equals(c) && h.status().equals("supported"))) {
                out.add(c + " must not be concluded, but is supported (verdict " + got + ")");
            }
        }
        if (!cites.isEmpty()) {
            List<String> cited = new ArrayList<>();
            d.hypotheses().get(0).because().forEach(n -> collectProbes(n, cited));
            for (String probe : cites) {
                if (!cited.contains(probe)) {
                    out.add("the verdict's chain should cite " + probe + ", cites " + cited.stream().distinct().toList());
                }
            }
        }
        for (String step : steps) {
            if (d.nextSteps().stream().noneMatch(s -> s.id().equals(step))) {
                out.add("next step " + step + " should be offered; offered "
                        + d.nextSteps().stream().map(Diagnosis.Step::id).toList());
            }
        }
        return out;
    }

    private static void collectProbes(Diagnosis.Node n, List<String> out) {
        if (n.evidence() != null) {
            out.add(n.evidence().probe());
        }
        n.premises().forEach(p -> collectProbes(p, out));
    }

    private static List<String> list(String v) {
        return Arrays.stream(v.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }
}
