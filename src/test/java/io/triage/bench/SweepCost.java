package io.triage.bench;

import io.triage.Triage;
import io.triage.collect.HostFilters;
import io.triage.collect.ProbeBundle;
import io.triage.collect.SshCollector;
import io.triage.collect.SshTarget;
import io.triage.look.HostLooks;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Benchmark, not a test: where a sweep's client CPU goes, in one process against a lab running in another
 * ({@code triage lab --fleet N --state DIR}). Each round looks at every fleet host, 32 at once, with a new SSH
 * client, and prints the round's wall time and this process's CPU per host: {@code look} only collects,
 * {@code diag} collects and diagnoses as a sweep does. Round 0 is cold code; later rounds show the warm cost.
 * Run with the launcher's JIT to see what a command pays:
 * {@code java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp target/triage.jar:target/test-classes
 * io.triage.bench.SweepCost PORT STATE_DIR [HOSTS=100] [ROUNDS=4] [look|diag]}
 */
public final class SweepCost {
    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: SweepCost PORT STATE_DIR [HOSTS] [ROUNDS] [look|diag]");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        Path state = Path.of(args[1]);
        int hosts = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 4;
        boolean diagnose = args.length > 4 && args[4].equals("diag");
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        Triage triage = Triage.load(Triage.findHome(null));
        System.out.printf("product loaded: %.0f ms, CPU %.0f ms%n", (System.nanoTime() - t0) / 1e6,
                (os.getProcessCpuTime() - cpu0) / 1e6);
        ProbeBundle template = ProbeBundle.forTarget(null, null, null);
        ProbeBundle ready = template.with(HostFilters.of(triage.knowledge()));
        List<SshTarget> targets = new ArrayList<>();
        for (int i = 1; i <= hosts; i++) {
            targets.add(SshTarget.parse("lab-" + i + "@127.0.0.1:" + port));
        }
        Path config = Files.writeString(Files.createTempFile("sweep-cost", ".config"), "# no aliases\n");
        try {
            for (int r = 0; r < rounds; r++) {
                cpu0 = os.getProcessCpuTime();
                t0 = System.nanoTime();
                AtomicInteger failed = new AtomicInteger();
                try (SshCollector c = new SshCollector(new SshCollector.Options(state.resolve("known_hosts"), false,
                        List.of(state.resolve("client_key")), config, Duration.ofSeconds(10), Duration.ofSeconds(90)))) {
                    if (diagnose) {
                        new HostLooks(CompletableFuture.completedFuture(triage), c).sweep(targets, template, Map.of(), null,
                                32, o -> {
                                    if (o.failed()) {
                                        failed.incrementAndGet();
                                    }
                                });
                    } else {
                        ExecutorService pool = Executors.newFixedThreadPool(32);
                        try {
                            List<Future<?>> looks = new ArrayList<>();
                            for (SshTarget t : targets) {
                                looks.add(pool.submit(() -> {
                                    if (c.look(t, ready.renewed(), Map.of()) instanceof SshCollector.Failed) {
                                        failed.incrementAndGet();
                                    }
                                }));
                            }
                            for (Future<?> f : looks) {
                                f.get();
                            }
                        } finally {
                            pool.shutdownNow();
                        }
                    }
                }
                long cpu = os.getProcessCpuTime() - cpu0;
                System.out.printf("round %d (%s): wall %.0f ms, CPU %.0f ms, %.1f ms per host, %d failed%n", r,
                        diagnose ? "look + diagnosis" : "look", (System.nanoTime() - t0) / 1e6, cpu / 1e6,
                        cpu / 1e6 / hosts, failed.get());
            }
        } finally {
            Files.deleteIfExists(config);
        }
    }

    private SweepCost() {
    }
}
