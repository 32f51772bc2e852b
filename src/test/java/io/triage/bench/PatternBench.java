package io.triage.bench;

import io.triage.parse.AdversarialLines;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.stream.Stream;

/**
 * Benchmark, not a test: every pattern that runs on capture text (the markers, and the parsers' own,
 * found by reflection) on every adversarial line family, at 6 KiB, 64 KiB and 1 MiB; prints the
 * slowest. Written against reflection only, so that the same class measures an older build too: run
 * {@code java -cp <build's classes and dependencies>:target/test-classes io.triage.bench.PatternBench [cap]}
 * where {@code cap} is the line cap that build applies before matching (0: none).
 * A search that reads its line more than {@value #LIMIT} times is stopped and reported as such.
 */
public final class PatternBench {
    private static final long LIMIT = 400_000_000L;

    private record Row(String pattern, String family, int size, long reads, double ms, boolean stopped) { }

    private static final class Stop extends RuntimeException {
        Stop() {
            super(null, null, false, false);
        }
    }

    /** Counts reads; stops past the limit. */
    private static final class Counted implements CharSequence {
        final String s;
        final int from;
        final int to;
        final long[] reads;

        Counted(String s, int from, int to, long[] reads) {
            this.s = s;
            this.from = from;
            this.to = to;
            this.reads = reads;
        }

        public int length() {
            return to - from;
        }

        public char charAt(int i) {
            if (++reads[0] > LIMIT) {
                throw new Stop();
            }
            return s.charAt(from + i);
        }

        public CharSequence subSequence(int a, int b) {
            return new Counted(s, from + a, from + b, reads);
        }

        public String toString() {
            return s.substring(from, to);
        }
    }

    public static void main(String[] args) throws Exception {
        int cap = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        Path home = Path.of("").toAbsolutePath();
        Class<?> triage = Class.forName("io.triage.Triage");
        Object t = triage.getMethod("load", Path.class).invoke(null, home);
        Object kb = triage.getMethod("knowledge").invoke(t);
        List<Object[]> patterns = new ArrayList<>(); // name, compiled
        for (Object m : (List<?>) kb.getClass().getMethod("markers").invoke(kb)) {
            Object id = m.getClass().getMethod("id").invoke(m);
            patterns.add(new Object[] {"marker " + id, m.getClass().getMethod("pattern").invoke(m)});
        }
        Path dir = Path.of(triage.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> classes = new ArrayList<>();
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.list(dir.resolve("io/triage/parse"))) {
                s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".class")).forEach(classes::add);
            }
        } else {
            try (java.util.jar.JarFile jar = new java.util.jar.JarFile(dir.toFile())) {
                jar.stream().map(java.util.jar.JarEntry::getName).filter(n -> n.startsWith("io/triage/parse/")
                        && n.endsWith(".class")).map(n -> n.substring("io/triage/parse/".length())).forEach(classes::add);
            }
        }
        for (String c : classes) {
            Class<?> type = Class.forName("io.triage.parse." + c.replace(".class", ""));
            for (Field f : type.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) && f.getType().getSimpleName().equals("Pattern")) {
                    f.setAccessible(true);
                    patterns.add(new Object[] {type.getSimpleName() + "." + f.getName(), f.get(null)});
                }
            }
        }
        Map<String, IntFunction<String>> families = AdversarialLines.families(List.of("Traceback", "CUDA error:",
                "Killed process", "NCCL INFO", "INFO:", "Loading safetensors checkpoint shards:"));
        List<Row> rows = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int size : new int[] {6 * 1024, 64 * 1024, 1 << 20}) {
            for (Map.Entry<String, IntFunction<String>> f : families.entrySet()) {
                String line = f.getValue().apply(size);
                if (cap > 0 && line.length() > cap) {
                    line = line.substring(0, cap);
                }
                for (Object[] p : patterns) {
                    rows.add(run((String) p[0], p[1], f.getKey(), size, line));
                }
            }
        }
        System.out.printf("%d patterns x %d families x 3 sizes in %.1f s (cap %s)%n", patterns.size(), families.size(),
                (System.nanoTime() - t0) / 1e9, cap > 0 ? cap : "none");
        for (int size : new int[] {6 * 1024, 64 * 1024, 1 << 20}) {
            List<Row> at = rows.stream().filter(r -> r.size() == size).sorted(Comparator.comparingDouble(Row::ms).reversed())
                    .limit(5).toList();
            System.out.println("slowest at " + size + " characters:");
            for (Row r : at) {
                System.out.printf("  %9.1f ms %14d reads%s  %s on %s%n", r.ms(), r.reads(), r.stopped() ? " (stopped)" : "",
                        r.pattern(), r.family());
            }
            // the clock is noisy on a shared machine; the reads are not
            List<Row> most = rows.stream().filter(r -> r.size() == size).sorted(Comparator.comparingLong(Row::reads).reversed())
                    .limit(3).toList();
            System.out.println("most reads at " + size + " characters:");
            for (Row r : most) {
                System.out.printf("  %9.1f ms %14d reads%s  %s on %s%n", r.ms(), r.reads(), r.stopped() ? " (stopped)" : "",
                        r.pattern(), r.family());
            }
        }
    }

    private static Row run(String name, Object compiled, String family, int size, String line) throws Exception {
        long[] reads = new long[1];
        Counted c = new Counted(line, 0, line.length(), reads);
        long t = System.nanoTime();
        boolean stopped = false;
        try {
            if (compiled instanceof java.util.regex.Pattern p) {
                java.util.regex.Matcher m = p.matcher(c);
                if (m.find()) {
                    m.group();
                }
            } else if (compiled instanceof com.google.re2j.Pattern p) {
                p.matcher(c).find();
            } else {
                Method find = compiled.getClass().getMethod("find", CharSequence.class);
                find.invoke(compiled, c);
            }
        } catch (java.lang.reflect.InvocationTargetException e) {
            if (e.getCause() instanceof Stop) {
                stopped = true;
            } else if (e.getCause() instanceof StackOverflowError) {
                return new Row(name, family, size, reads[0], (System.nanoTime() - t) / 1e6, true);
            } else {
                throw e;
            }
        } catch (Stop | StackOverflowError e) {
            stopped = true;
        }
        return new Row(name + (stopped && reads[0] <= LIMIT ? " (StackOverflowError)" : ""), family, size, reads[0],
                (System.nanoTime() - t) / 1e6, stopped);
    }

}
