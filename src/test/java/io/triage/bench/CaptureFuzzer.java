package io.triage.bench;

import io.triage.Triage;
import io.triage.capture.Capture;
import io.triage.capture.ProbeOutput;
import io.triage.parse.AdversarialLines;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntFunction;
import java.util.stream.Stream;

/**
 * Makes hostile captures from real ones: the scenarios' captures with their probes' outputs cut,
 * spliced with real lines of other captures, stuffed with repeated fragments, random characters and
 * huge lines. Deterministic: capture {@code i} of a seed is always the same.
 */
public final class CaptureFuzzer {
    /** One generated capture and the mutations that made it. */
    public record Case(int index, String base, Capture capture, List<String> mutations) { }

    private final List<Capture> bases = new ArrayList<>();
    private final List<String> baseNames = new ArrayList<>();
    private final List<String> realLines = new ArrayList<>();
    private final List<IntFunction<String>> families;
    private final long seed;
    private final int hugeMax;

    /**
     * @param hugeMax longest huge line made, characters (1 MiB for the bench; less keeps a unit test quick)
     */
    public CaptureFuzzer(Triage triage, Path scenarios, long seed, int hugeMax) throws IOException {
        this.seed = seed;
        this.hugeMax = hugeMax;
        List<Path> dirs;
        try (Stream<Path> s = Files.walk(scenarios)) {
            dirs = s.filter(d -> Files.isRegularFile(d.resolve("expected.txt"))).sorted().toList();
        }
        for (Path d : dirs) {
            try {
                bases.add(triage.reader().read(d));
                baseNames.add(scenarios.relativize(d).toString());
            } catch (Exception e) {
                throw new IllegalStateException("scenario unreadable: " + d, e);
            }
            try (Stream<Path> s = Files.list(d)) {
                for (Path f : s.filter(f -> f.toString().endsWith(".out")).sorted().toList()) {
                    for (String l : Files.readString(f, StandardCharsets.UTF_8).split("\n")) {
                        if (!l.isBlank()) {
                            realLines.add(l);
                        }
                    }
                }
            }
        }
        if (bases.isEmpty()) {
            throw new IllegalStateException("no scenarios under " + scenarios);
        }
        families = new ArrayList<>(AdversarialLines.families(realLines.subList(0, Math.min(200, realLines.size()))).values());
    }

    public Case make(int index) {
        Random r = new Random(seed * 1_000_003L + index);
        int b = r.nextInt(bases.size());
        Capture base = bases.get(b);
        List<String> did = new ArrayList<>();
        Map<String, ProbeOutput> probes = new LinkedHashMap<>();
        for (ProbeOutput p : base.probes().values()) {
            if (r.nextInt(20) == 0) {
                did.add("drop " + p.name());
                continue;
            }
            String out = p.outOrEmpty();
            int k = r.nextInt(3) == 0 ? 1 + r.nextInt(3) : 0;
            for (int j = 0; j < k; j++) {
                out = mutate(out, r, p.name(), did);
            }
            Integer rc = p.rc();
            if (r.nextInt(30) == 0) {
                rc = r.nextInt(3) == 0 ? null : r.nextInt(256) - 1;
                did.add(p.name() + " rc=" + rc);
            }
            probes.put(p.name(), new ProbeOutput(p.name(), p.cmd(), out, p.err(), rc, p.seconds(), p.truncated()));
        }
        if (r.nextInt(10) == 0) {
            String name = List.of("log_extra", "journal_kernel", "kern_log", "docker_ps").get(r.nextInt(4));
            probes.put(name, new ProbeOutput(name, null, mutate("", r, name, did), "", 0, 0.1, false));
            did.add("add " + name);
        }
        Map<String, String> target = new LinkedHashMap<>(base.target());
        if (r.nextInt(15) == 0) {
            target.put("server", List.of("vllm", "sglang", "tgi", "", "x".repeat(300)).get(r.nextInt(5)));
            did.add("server=" + target.get("server").length() + " chars");
        }
        return new Case(index, baseNames.get(b), new Capture("fuzz#" + index, probes, target, base.intent(),
                base.notes()), did);
    }

    private String mutate(String out, Random r, String probe, List<String> did) {
        List<String> lines = new ArrayList<>(List.of(out.split("\n", -1)));
        int at = lines.isEmpty() ? 0 : r.nextInt(lines.size());
        switch (r.nextInt(9)) {
            case 0 -> {
                if (!lines.isEmpty() && !lines.get(at).isEmpty()) {
                    lines.set(at, lines.get(at).substring(0, r.nextInt(lines.get(at).length())));
                }
                did.add(probe + ": cut line " + at);
            }
            case 1 -> {
                int n = 1 + r.nextInt(40);
                for (int i = 0; i < n; i++) {
                    lines.add(Math.min(lines.size(), at + i), realLines.get(r.nextInt(realLines.size())));
                }
                did.add(probe + ": " + n + " real lines spliced at " + at);
            }
            case 2 -> {
                String src = realLines.get(r.nextInt(realLines.size()));
                int from = r.nextInt(src.length());
                String frag = src.substring(from, Math.min(src.length(), from + 1 + r.nextInt(20)));
                int times = 10 + r.nextInt(20_000);
                lines.add(at, AdversarialLines.repeat(frag, frag.length() * times));
                did.add(probe + ": fragment '" + printable(frag) + "' x" + times);
            }
            case 3 -> {
                int n = 1 + r.nextInt(4096);
                StringBuilder b = new StringBuilder(n);
                for (int i = 0; i < n; i++) {
                    b.append((char) (r.nextInt(4) == 0 ? r.nextInt(0x10000) : r.nextInt(256)));
                }
                lines.add(at, b.toString());
                did.add(probe + ": " + n + " random characters");
            }
            case 4 -> {
                int n = r.nextInt(hugeMax) + 1;
                int f = r.nextInt(families.size());
                lines.add(at, families.get(f).apply(n));
                did.add(probe + ": huge line of family " + f + ", " + n + " characters");
            }
            case 5 -> {
                if (!lines.isEmpty()) {
                    String l = lines.get(at);
                    int n = 1 + r.nextInt(500);
                    for (int i = 0; i < n; i++) {
                        lines.add(at, l);
                    }
                    did.add(probe + ": line " + at + " x" + n);
                }
            }
            case 6 -> {
                java.util.Collections.shuffle(lines, r);
                did.add(probe + ": shuffled");
            }
            case 7 -> {
                if (!lines.isEmpty()) {
                    int n = r.nextInt(lines.size());
                    lines = new ArrayList<>(lines.subList(0, n));
                    did.add(probe + ": cut after line " + n);
                }
            }
            default -> {
                String src = realLines.get(r.nextInt(realLines.size()));
                String l = src.replace(' ', "\t \u001B[0m\r".charAt(r.nextInt(5)));
                lines.add(at, l);
                did.add(probe + ": a real line with its spaces replaced");
            }
        }
        return String.join("\n", lines);
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            b.append(c < 32 || c > 126 ? '?' : c);
        }
        return b.toString();
    }
}
