import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The rules engine's share of a warm diagnosis, A against B, in one process: each build (its jar in its own
 * class loader, with its own home) parses every capture to facts once, then runs only the engine over those
 * facts ({@code Engine.run}) in alternating rounds, so both see the same machine load. Reports per build: wall
 * and thread-CPU median, p99 and mean of one engine run, throughput with two threads, and two figures that
 * suffer less from a loaded machine: the CPU time's 10th percentile and the bytes allocated per run; each the
 * median over the rounds. Parsing, redaction and the diagnosis' assembly are not timed (see WarmAb for the whole).
 *
 * <pre>
 * java src/test/bench/EngineAb.java A.jar A_HOME B.jar B_HOME CAPTURES_DIR [rounds] [seconds]
 * </pre>
 * Each side's engine is made as its {@code Triage} makes it: with the standing knowledge facts
 * ({@code FactBuilder.standing(KnowledgeBase)}) when the build has them, else with the rule base alone.
 */
public final class EngineAb {
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private static final class Side {
        final String name;
        final ClassLoader loader;
        final Object engine;
        final Method run;
        final List<List<Object>> facts = new ArrayList<>();
        final List<double[]> rounds = new ArrayList<>();

        Side(String name, Path jar, Path home, List<Path> dirs) throws Exception {
            this.name = name;
            this.loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
            ClassLoader before = Thread.currentThread().getContextClassLoader();
            Thread.currentThread().setContextClassLoader(loader);
            try {
                Class<?> t = Class.forName("io.triage.Triage", true, loader);
                Object triage = t.getMethod("load", Path.class).invoke(null, home);
                Object reader = t.getMethod("reader").invoke(triage);
                Object redactor = t.getMethod("redactor").invoke(triage);
                Class<?> capture = Class.forName("io.triage.capture.Capture", true, loader);
                Method read = reader.getClass().getMethod("read", Path.class);
                Method redact = redactor.getClass().getMethod("redact", capture);
                Object diagnoser = t.getMethod("diagnoser").invoke(triage);
                Object builder = diagnoser.getClass().getMethod("facts").invoke(diagnoser);
                Method build = builder.getClass().getMethod("build", capture, Map.class);
                for (Path d : dirs) {
                    Object c;
                    try {
                        c = redact.invoke(redactor, read.invoke(reader, d));
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        continue; // not a capture
                    }
                    Object obs = build.invoke(builder, c, Map.of());
                    @SuppressWarnings("unchecked")
                    List<Object> f = (List<Object>) obs.getClass().getMethod("facts").invoke(obs);
                    facts.add(f);
                }
                Object rules = t.getMethod("rules").invoke(triage);
                Object kb = t.getMethod("knowledge").invoke(triage);
                Class<?> engineClass = Class.forName("io.triage.engine.Engine", true, loader);
                Class<?> ruleBase = Class.forName("io.triage.engine.RuleBase", true, loader);
                Object e;
                try {
                    Method standing = builder.getClass().getMethod("standing", kb.getClass());
                    e = engineClass.getConstructor(ruleBase, List.class).newInstance(rules, standing.invoke(null, kb));
                } catch (NoSuchMethodException old) {
                    e = engineClass.getConstructor(ruleBase).newInstance(rules);
                }
                this.engine = e;
                this.run = engineClass.getMethod("run", List.class);
            } finally {
                Thread.currentThread().setContextClassLoader(before);
            }
        }

        void run(int i) throws Exception {
            run.invoke(engine, facts.get(i % facts.size()));
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: EngineAb A.jar A_HOME B.jar B_HOME CAPTURES_DIR [rounds] [seconds]");
            System.exit(2);
        }
        List<Path> dirs;
        try (Stream<Path> s = Files.walk(Path.of(args[4]))) {
            dirs = s.filter(Files::isDirectory).filter(EngineAb::hasProbes).sorted().toList();
        }
        int rounds = args.length > 5 ? Integer.parseInt(args[5]) : 5;
        int seconds = args.length > 6 ? Integer.parseInt(args[6]) : 3;
        Side a = new Side("A " + args[0], Path.of(args[0]), Path.of(args[1]), dirs);
        Side b = new Side("B " + args[2], Path.of(args[2]), Path.of(args[3]), dirs);
        System.out.printf("captures: A %d, B %d; rounds %d; load average %.2f%n", a.facts.size(), b.facts.size(),
                rounds, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        for (Side s : List.of(a, b)) { // warm-up: every capture several times, JIT settled
            within(s, () -> {
                long end = System.nanoTime() + seconds * 3_000_000_000L;
                for (int i = 0; System.nanoTime() < end; i++) {
                    s.run(i);
                }
                return null;
            });
        }
        for (int r = 0; r < rounds; r++) {
            for (Side s : r % 2 == 0 ? List.of(a, b) : List.of(b, a)) {
                s.rounds.add(within(s, () -> round(s, seconds)));
            }
        }
        String[] labels = {"wall median ms", "wall p99 ms", "cpu median ms", "cpu p99 ms", "cpu mean ms",
                "throughput/s (2 threads)", "cpu p10 ms", "allocated KiB/run"};
        System.out.printf("%-26s %12s %12s %8s%n", "engine only, median/rounds", "A", "B", "B/A");
        for (int k = 0; k < labels.length; k++) {
            double va = median(a.rounds, k);
            double vb = median(b.rounds, k);
            System.out.printf("%-26s %12.3f %12.3f %8.2f%n", labels[k], va, vb, vb / va);
        }
        for (Side s : List.of(a, b)) {
            StringBuilder sb = new StringBuilder(s.name.substring(0, 1)).append(" rounds:");
            for (double[] v : s.rounds) {
                sb.append(String.format(" [%.3f/%.3f ms cpu %.3f, %.0f/s]", v[0], v[1], v[2], v[5]));
            }
            System.out.println(sb);
        }
        System.out.printf("load average at the end %.2f%n", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private interface Work<T> {
        T call() throws Exception;
    }

    private static <T> T within(Side s, Work<T> w) throws Exception {
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(s.loader); // Drools finds its runtime through it
        try {
            return w.call();
        } finally {
            Thread.currentThread().setContextClassLoader(before);
        }
    }

    private static double[] round(Side s, int seconds) throws Exception {
        int n = s.facts.size() * 4;
        long[] wall = new long[n];
        long[] cpu = new long[n];
        com.sun.management.ThreadMXBean mem = (com.sun.management.ThreadMXBean) CPU;
        long a0 = mem.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < n; i++) {
            long c0 = CPU.getCurrentThreadCpuTime();
            long w0 = System.nanoTime();
            s.run(i);
            wall[i] = System.nanoTime() - w0;
            cpu[i] = CPU.getCurrentThreadCpuTime() - c0;
        }
        double alloc = (mem.getCurrentThreadAllocatedBytes() - a0) / 1024.0 / n;
        AtomicLong done = new AtomicLong();
        long stop = System.nanoTime() + seconds * 1_000_000_000L;
        long start = System.nanoTime();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            int offset = t * 7;
            Thread th = new Thread(() -> {
                Thread.currentThread().setContextClassLoader(s.loader);
                try {
                    for (int i = offset; System.nanoTime() < stop; i++) {
                        s.run(i);
                        done.incrementAndGet();
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            th.start();
            threads.add(th);
        }
        for (Thread th : threads) {
            th.join();
        }
        double thr = done.get() / ((System.nanoTime() - start) / 1e9);
        Arrays.sort(wall);
        Arrays.sort(cpu);
        return new double[] {wall[n / 2] / 1e6, wall[(int) (n * 0.99)] / 1e6, cpu[n / 2] / 1e6, cpu[(int) (n * 0.99)] / 1e6,
                Arrays.stream(cpu).average().orElse(0) / 1e6, thr, cpu[n / 10] / 1e6, alloc};
    }

    private static double median(List<double[]> rounds, int k) {
        double[] v = rounds.stream().mapToDouble(r -> r[k]).sorted().toArray();
        return v[v.length / 2];
    }

    private static boolean hasProbes(Path d) {
        try (Stream<Path> s = Files.list(d)) {
            return s.anyMatch(p -> p.toString().endsWith(".out"));
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
