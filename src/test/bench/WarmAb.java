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
 * Warm diagnosis, A against B, in one process: two builds of the product (each jar in its own class loader,
 * with its own home) diagnose the same captures in alternating rounds, so both see the same machine load.
 * Reports per build: wall and thread-CPU median, p99 and mean of one diagnosis, the parse-to-facts mean, and
 * throughput with two threads; each as the median over the rounds.
 *
 * <pre>
 * java src/test/bench/WarmAb.java A.jar A_HOME B.jar B_HOME CAPTURES_DIR [rounds] [seconds]
 * </pre>
 * Run with the JDK's source launcher (no build step); it only uses the product's public API by reflection
 * ({@code Triage.load(Path)}, {@code reader().read(Path)}, {@code diagnose(Capture, Map)},
 * {@code diagnoser().facts().build(Capture, Map)}), so any two builds that have it can be compared.
 */
public final class WarmAb {
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    /** One build: its class loader, its Triage, and the captures read by its own reader. */
    private static final class Side {
        final String name;
        final ClassLoader loader;
        final Object triage;
        final List<Object> captures = new ArrayList<>();
        final Method diagnose;
        final Object facts;
        final Method build;
        final List<double[]> rounds = new ArrayList<>(); // per round: wall med, wall p99, cpu med, cpu p99, cpu mean, parse cpu mean, thr

        Side(String name, Path jar, Path home, List<Path> dirs) throws Exception {
            this.name = name;
            this.loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
            ClassLoader before = Thread.currentThread().getContextClassLoader();
            Thread.currentThread().setContextClassLoader(loader);
            try {
                Class<?> t = Class.forName("io.triage.Triage", true, loader);
                this.triage = t.getMethod("load", Path.class).invoke(null, home);
                Object reader = t.getMethod("reader").invoke(triage);
                Method read = reader.getClass().getMethod("read", Path.class);
                for (Path d : dirs) {
                    try {
                        captures.add(read.invoke(reader, d));
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        // not a capture
                    }
                }
                Class<?> capture = Class.forName("io.triage.capture.Capture", true, loader);
                this.diagnose = t.getMethod("diagnose", capture, Map.class);
                Object diagnoser = t.getMethod("diagnoser").invoke(triage);
                this.facts = diagnoser.getClass().getMethod("facts").invoke(diagnoser);
                this.build = facts.getClass().getMethod("build", capture, Map.class);
            } finally {
                Thread.currentThread().setContextClassLoader(before);
            }
        }

        Object diagnose(int i) throws Exception {
            // Drools finds its runtime through the context class loader: each build's own
            Thread.currentThread().setContextClassLoader(loader);
            return diagnose.invoke(triage, captures.get(i % captures.size()), Map.of());
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: WarmAb A.jar A_HOME B.jar B_HOME CAPTURES_DIR [rounds] [seconds]");
            System.exit(2);
        }
        List<Path> dirs;
        try (Stream<Path> s = Files.walk(Path.of(args[4]))) {
            dirs = s.filter(Files::isDirectory).filter(WarmAb::hasProbes).sorted().toList();
        }
        int rounds = args.length > 5 ? Integer.parseInt(args[5]) : 5;
        int seconds = args.length > 6 ? Integer.parseInt(args[6]) : 3;
        Side a = new Side("A " + args[0], Path.of(args[0]), Path.of(args[1]), dirs);
        Side b = new Side("B " + args[2], Path.of(args[2]), Path.of(args[3]), dirs);
        System.out.printf("captures: A %d, B %d; rounds %d; load average %.2f%n", a.captures.size(), b.captures.size(),
                rounds, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        for (Side s : List.of(a, b)) { // warm-up: every capture several times, JIT settled
            long end = System.nanoTime() + seconds * 3_000_000_000L;
            for (int i = 0; System.nanoTime() < end; i++) {
                s.diagnose(i);
            }
        }
        for (int r = 0; r < rounds; r++) {
            List<Side> order = r % 2 == 0 ? List.of(a, b) : List.of(b, a);
            for (Side s : order) {
                s.rounds.add(round(s, seconds));
            }
        }
        String[] labels = {"wall median ms", "wall p99 ms", "cpu median ms", "cpu p99 ms", "cpu mean ms",
                "parse cpu mean ms", "throughput/s (2 threads)"};
        System.out.printf("%-26s %12s %12s %8s%n", "median over rounds", "A", "B", "B/A");
        for (int k = 0; k < labels.length; k++) {
            double va = median(a.rounds, k);
            double vb = median(b.rounds, k);
            System.out.printf("%-26s %12.3f %12.3f %8.2f%n", labels[k], va, vb, vb / va);
        }
        for (Side s : List.of(a, b)) {
            StringBuilder sb = new StringBuilder(s.name.substring(0, 1)).append(" rounds:");
            for (double[] v : s.rounds) {
                sb.append(String.format(" [%.2f/%.2f ms cpu %.2f, %.0f/s]", v[0], v[1], v[2], v[6]));
            }
            System.out.println(sb);
        }
        System.out.printf("load average at the end %.2f%n", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private static double[] round(Side s, int seconds) throws Exception {
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(s.loader);
        try {
            int n = s.captures.size() * 4;
            long[] wall = new long[n];
            long[] cpu = new long[n];
            for (int i = 0; i < n; i++) {
                long c0 = CPU.getCurrentThreadCpuTime();
                long w0 = System.nanoTime();
                s.diagnose(i);
                wall[i] = System.nanoTime() - w0;
                cpu[i] = CPU.getCurrentThreadCpuTime() - c0;
            }
            long parse = 0;
            int m = s.captures.size() * 2;
            for (int i = 0; i < m; i++) {
                long c0 = CPU.getCurrentThreadCpuTime();
                s.build.invoke(s.facts, s.captures.get(i % s.captures.size()), Map.of());
                parse += CPU.getCurrentThreadCpuTime() - c0;
            }
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
                            s.diagnose(i);
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
            long[] ws = wall.clone();
            long[] cs = cpu.clone();
            Arrays.sort(ws);
            Arrays.sort(cs);
            return new double[] {ws[n / 2] / 1e6, ws[(int) (n * 0.99)] / 1e6, cs[n / 2] / 1e6, cs[(int) (n * 0.99)] / 1e6,
                    Arrays.stream(cs).average().orElse(0) / 1e6, parse / 1e6 / m, thr};
        } finally {
            Thread.currentThread().setContextClassLoader(before);
        }
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
