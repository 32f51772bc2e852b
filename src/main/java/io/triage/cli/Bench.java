package io.triage.cli;

import io.triage.Triage;
import io.triage.capture.Capture;
import io.triage.capture.CaptureException;
import io.triage.engine.RuleBase;
import io.triage.explain.Diagnosis;
import io.triage.knowledge.KnowledgeBase;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * {@code triage rules bench}: what the rules cost. Measures, in this process: building the rule base
 * (repeated, median), diagnosing one capture warm (median and p99 over every capture given, after a
 * warm-up), and throughput with several threads. Captures are read once; the timed part is parse +
 * rules + explanation, as in a server that already holds the capture.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measure rule base build time, warm diagnosis latency and throughput on captures.")
final class Bench implements java.util.concurrent.Callable<Integer> {
    @ParentCommand
    Main.Rules rules;

    @Parameters(paramLabel = "DIR", arity = "0..*",
            description = "Capture directories, or directories holding them (default: knowledge-base/scenarios).")
    List<Path> dirs = new ArrayList<>();

    @Option(names = "--builds", defaultValue = "5", description = "Rule base builds to time (default: ${DEFAULT-VALUE}).")
    int builds;

    @Option(names = "--warmup", defaultValue = "3", description = "Warm-up seconds before timing (default: ${DEFAULT-VALUE}).")
    int warmupSeconds;

    @Option(names = "--samples", defaultValue = "20000", description = "Timed single-thread diagnoses (default: ${DEFAULT-VALUE}).")
    int samples;

    @Option(names = "--threads", defaultValue = "2", description = "Threads for the throughput run (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--seconds", defaultValue = "5", description = "Length of the throughput run (default: ${DEFAULT-VALUE}).")
    int seconds;

    @Override
    public Integer call() throws Exception {
        Main main = (Main) rules.spec.parent().userObject();
        PrintWriter out = rules.spec.commandLine().getOut();
        Path home = Triage.findHome(main.home);
        io.triage.knowledge.Overlay overlay = main.overlay();

        long[] buildNanos = new long[builds];
        RuleBase rb = null;
        for (int i = 0; i < builds; i++) {
            long t0 = System.nanoTime();
            rb = RuleBase.load(home.resolve("rules"), overlay == null ? null : overlay.rulesDir());
            buildNanos[i] = System.nanoTime() - t0;
        }
        long t0 = System.nanoTime();
        KnowledgeBase kb = KnowledgeBase.load(home.resolve("knowledge-base"), overlay);
        long kbNanos = System.nanoTime() - t0;
        Triage triage = overlay == null ? new Triage(home, kb, rb)
                : Triage.load(home, io.triage.safety.RedactionKey.perProcess(), null, false, kb, overlay);
        out.printf("rule base build: first %.0f ms, median of %d %.0f ms (%d rules); knowledge base load %.0f ms%n",
                buildNanos[0] / 1e6, builds, median(buildNanos) / 1e6,
                rb.kieBase().getKiePackages().stream().mapToInt(p -> p.getRules().size()).sum(), kbNanos / 1e6);

        List<Capture> captures = read(triage, dirs.isEmpty() ? List.of(home.resolve("knowledge-base/scenarios")) : dirs);
        if (captures.isEmpty()) {
            out.println("no captures found");
            return Main.BAD_INPUT;
        }
        out.printf("captures: %d%n", captures.size());

        long end = System.nanoTime() + warmupSeconds * 1_000_000_000L;
        long sink = 0;
        for (int i = 0; System.nanoTime() < end; i++) {
            sink += triage.diagnose(captures.get(i % captures.size()), Map.of()).engine().rulesFired();
        }
        long[] lat = new long[samples];
        long[] cpu = new long[samples];
        long parseOnly = 0;
        java.lang.management.ThreadMXBean cpuClock = java.lang.management.ManagementFactory.getThreadMXBean();
        for (int i = 0; i < samples; i++) {
            Capture c = captures.get(i % captures.size());
            long c0 = cpuClock.getCurrentThreadCpuTime();
            long s = System.nanoTime();
            Diagnosis d = triage.diagnose(c, Map.of());
            lat[i] = System.nanoTime() - s;
            cpu[i] = cpuClock.getCurrentThreadCpuTime() - c0;
            sink += d.engine().rulesFired();
        }
        for (int i = 0; i < Math.min(samples, 5000); i++) {
            long s = System.nanoTime();
            sink += triage.diagnoser().facts().build(captures.get(i % captures.size()), Map.of()).facts().size();
            parseOnly += System.nanoTime() - s;
        }
        long[] sorted = lat.clone();
        Arrays.sort(sorted);
        out.printf("warm diagnosis, 1 thread: median %.3f ms, p99 %.3f ms, max %.3f ms over %d diagnoses"
                        + " (parse to facts alone: mean %.3f ms)%n",
                sorted[sorted.length / 2] / 1e6, sorted[(int) (sorted.length * 0.99)] / 1e6,
                sorted[sorted.length - 1] / 1e6, samples, parseOnly / 1e6 / Math.min(samples, 5000));
        // CPU time of the diagnosing thread: what a diagnosis costs even when other processes share the cores
        long[] cpuSorted = cpu.clone();
        Arrays.sort(cpuSorted);
        out.printf("  its thread's CPU time: median %.3f ms, p99 %.3f ms, mean %.3f ms%n", cpuSorted[cpuSorted.length / 2] / 1e6,
                cpuSorted[(int) (cpuSorted.length * 0.99)] / 1e6, Arrays.stream(cpu).average().orElse(0) / 1e6);

        ExecutorService pool = Executors.newFixedThreadPool(threads);
        AtomicLong done = new AtomicLong();
        long stop = System.nanoTime() + seconds * 1_000_000_000L;
        long start = System.nanoTime();
        List<Future<?>> fs = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int offset = t;
            fs.add(pool.submit(() -> {
                for (int i = offset; System.nanoTime() < stop; i++) {
                    triage.diagnose(captures.get(i % captures.size()), Map.of());
                    done.incrementAndGet();
                }
            }));
        }
        for (Future<?> f : fs) {
            f.get();
        }
        double secs = (System.nanoTime() - start) / 1e9;
        pool.shutdown();
        out.printf("throughput, %d threads: %.0f captures/s (%d in %.1f s; %d cores available)%n", threads,
                done.get() / secs, done.get(), secs, Runtime.getRuntime().availableProcessors());
        out.printf("(checksum %d)%n", sink);
        return Main.OK;
    }

    private static List<Capture> read(Triage triage, List<Path> roots) throws IOException {
        List<Capture> out = new ArrayList<>();
        for (Path root : roots) {
            List<Path> dirs;
            try (Stream<Path> s = Files.walk(root)) {
                dirs = s.filter(Files::isDirectory).filter(d -> hasProbes(d)).sorted().toList();
            }
            for (Path d : dirs) {
                try {
                    out.add(triage.reader().read(d));
                } catch (CaptureException e) {
                    // not a capture: skip
                }
            }
        }
        return out;
    }

    private static boolean hasProbes(Path d) {
        try (Stream<Path> s = Files.list(d)) {
            return s.anyMatch(p -> p.toString().endsWith(".out"));
        } catch (IOException e) {
            return false;
        }
    }

    private static long median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
