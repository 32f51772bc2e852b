package io.triage.bench;

import io.triage.Triage;
import io.triage.safety.RedactionKey;
import io.triage.server.RuleReloader;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Benchmark, not a test: the time from saving a rule file to the new base serving, for the shipped rules and
 * knowledge (a copy of them in a temporary home, watched as {@code triage serve} watches its own). Each run appends
 * a comment to a rule file and waits until the reloader has swapped in the new base: the debounce (300 ms), the
 * compile, the consistency check and the swap. Prints every run and the median.
 * Run: {@code java -cp target/classes:target/test-classes:$(cat target/cp.txt) io.triage.bench.ReloadBench [runs] [HOME]}
 */
public final class ReloadBench {
    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        Path source = args.length > 1 ? Path.of(args[1]) : Path.of("").toAbsolutePath();
        Path home = Files.createTempDirectory("triage-reload-bench");
        for (String d : List.of("rules", "knowledge-base")) {
            Path from = source.resolve(d);
            Path scenarios = source.resolve("knowledge-base/scenarios");
            try (Stream<Path> s = Files.walk(from)) {
                for (Path p : s.filter(p -> !p.startsWith(scenarios)).toList()) {
                    Path to = home.resolve(d).resolve(from.relativize(p).toString());
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(to);
                    } else {
                        Files.copy(p, to);
                    }
                }
            }
        }
        Function<Path, Triage> loader = h -> Triage.load(h, RedactionKey.perProcess(), null, true);
        Triage first = loader.apply(home);
        double[] secs = new double[runs];
        try (RuleReloader r = new RuleReloader(first, loader, false, Duration.ofMillis(300))) {
            r.start();
            Path file = home.resolve("rules/60-advice.drl");
            for (int i = 0; i < runs; i++) {
                long swaps = r.swaps();
                long t0 = System.nanoTime();
                Files.writeString(file, Files.readString(file) + "// edit " + i + "\n");
                while (r.swaps() == swaps) {
                    if (r.last() != null && !r.last().ok() && System.nanoTime() - t0 > 1_000_000_000L) {
                        throw new IllegalStateException("reload refused: " + r.last());
                    }
                    Thread.sleep(5);
                }
                secs[i] = (System.nanoTime() - t0) / 1e9;
                System.out.printf("run %d: saved -> serving in %.2f s (build and check %.2f s)%n", i + 1, secs[i],
                        r.last().seconds());
                Thread.sleep(500);
            }
        }
        double[] sorted = secs.clone();
        Arrays.sort(sorted);
        System.out.printf("median of %d: %.2f s (min %.2f, max %.2f)%n", runs, sorted[runs / 2], sorted[0], sorted[runs - 1]);
        List<Path> all = new ArrayList<>();
        try (Stream<Path> s = Files.walk(home)) {
            all.addAll(s.sorted(java.util.Comparator.reverseOrder()).toList());
        }
        for (Path p : all) {
            Files.deleteIfExists(p);
        }
    }
}
