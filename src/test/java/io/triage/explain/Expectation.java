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
record Expectation(String cause, String subtype, List<String> accept, String confidence, List<String> not,
                   List<String> cites, List<String> steps) {

    static Expectation read(Path dir) throws IOException {
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

    private static List<String> list(String v) {
        return Arrays.stream(v.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }
}
