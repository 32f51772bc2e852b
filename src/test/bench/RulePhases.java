package io.triage.engine;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Benchmark, not a test: where a cold load of the rules from the cache goes, one phase after another on one thread
 * (no overlap), in a fresh JVM: the entry's key, reading and checking it, deserialising the packages, building the
 * network, the first session and the first diagnosis. Each phase's wall and thread-CPU milliseconds are printed, with
 * the classes loaded during it.
 *
 * <pre>
 * javac -cp target/triage.jar -d /tmp/rp src/test/bench/RulePhases.java
 * java [JVM options] -cp target/triage.jar:/tmp/rp io.triage.engine.RulePhases HOME CAPTURE_DIR
 * </pre>
 * It sits in the engine's package to reach the cache's steps one by one; the cache directory is the user's
 * ({@code XDG_CACHE_HOME}), so run the product once before to fill it.
 */
public final class RulePhases {
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
    private static long wall = System.nanoTime();
    private static long cpu = CPU.getCurrentThreadCpuTime();
    private static long classes = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
    private static final List<String> lines = new ArrayList<>();

    private static void phase(String name) {
        long w = System.nanoTime(), c = CPU.getCurrentThreadCpuTime();
        long k = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
        lines.add(String.format("%-28s %7.1f %7.1f %6d", name, (w - wall) / 1e6, (c - cpu) / 1e6, k - classes));
        wall = w;
        cpu = c;
        classes = k;
    }

    public static void main(String[] args) throws Exception {
        long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
        Path home = Path.of(args[0]).toAbsolutePath();
        Path capture = Path.of(args[1]).toAbsolutePath();
        phase("(harness start)");
        RuleBaseCache cache = RuleBaseCache.forUser(System.getenv(), Path.of(System.getProperty("user.home")));
        phase("cache (build stamp)");
        RuleBaseCache.droolsVersion();
        phase("Drools version");
        java.security.MessageDigest.getInstance("SHA-256").digest(new byte[1]);
        phase("SHA-256 provider");
        Path rules = home.resolve("rules"), kb = home.resolve("knowledge-base");
        Map<Path, byte[]> sources = RuleBase.sources(RuleBase.ruleFiles(rules, null));
        phase("list + read rule files");
        String key = cache.key(rules, sources, kb, null);
        phase("key (hash + knowledge files)");
        String unsafe = cache.unsafe();
        if (unsafe != null) {
            throw new IllegalStateException(unsafe);
        }
        RuleBaseCache.Entry e = cache.read(cache.dir().resolve(key + ".rulebase"), key);
        phase("read + digest + inflate");
        // the steps of RuleBase.fromPackages, one by one
        org.drools.kiesession.rulebase.InternalKnowledgeBase base =
                org.drools.kiesession.rulebase.KnowledgeBaseFactory.newKnowledgeBase();
        phase("new empty KieBase");
        List<org.kie.api.definition.KiePackage> read = new ArrayList<>();
        try (org.drools.base.common.DroolsObjectInputStream in = new org.drools.base.common.DroolsObjectInputStream(
                new java.io.ByteArrayInputStream(e.packages()), base.getRootClassLoader())) {
            for (Object p : (List<?>) in.readObject()) {
                read.add((org.kie.api.definition.KiePackage) p);
            }
        }
        phase("deserialise packages");
        base.addPackages(read);
        phase("addPackages (network)");
        org.kie.api.runtime.KieSession s = base.newKieSession();
        phase("first session");
        s.dispose();
        io.triage.Triage t = io.triage.Triage.load(home, io.triage.safety.RedactionKey.perProcess(), cache);
        phase("Triage.load (kb + rules again)");
        t.replay(capture, Map.of());
        phase("first replay");
        t.replay(capture, Map.of());
        phase("second replay");
        System.out.printf("%-28s %7s %7s %6s%n", "phase", "wall_ms", "cpu_ms", "class");
        lines.forEach(System.out::println);
        System.out.printf("JVM start to main: %d ms%n", jvmStart == 0 ? -1
                : ManagementFactory.getRuntimeMXBean().getUptime() - (System.nanoTime() - wall) / 1_000_000);
    }
}
