package io.triage.look;

import io.triage.Triage;
import io.triage.collect.ProbeBundle;
import io.triage.collect.SshCollector;
import io.triage.collect.SshTarget;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Run in a child JVM with a small heap by {@link HostLooksTest}: sweeps {@code count} hosts (one login name each
 * on one hostile server) with the product's own use case and prints one line per host and a summary. Exits 0
 * when every host has an outcome.
 *
 * <p>Arguments: home port known_hosts identity ssh_config count.
 */
public final class FloodFleet {
    private FloodFleet() {
    }

    public static void main(String[] args) throws Exception {
        Path home = Path.of(args[0]);
        int port = Integer.parseInt(args[1]);
        int count = Integer.parseInt(args[5]);
        SshCollector.Options o = new SshCollector.Options(Path.of(args[2]), false, List.of(Path.of(args[3])),
                Path.of(args[4]), Duration.ofSeconds(20), Duration.ofSeconds(120), null);
        List<SshTarget> targets = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            targets.add(new SshTarget("u" + i, "127.0.0.1", port));
        }
        // as the command line does: the rules compile while the first hosts are looked at
        CompletableFuture<Triage> triage = CompletableFuture.supplyAsync(() -> Triage.load(home));
        List<HostLooks.Outcome> outcomes;
        long start = System.nanoTime();
        try (SshCollector collector = new SshCollector(o)) {
            outcomes = new HostLooks(triage, collector).sweep(targets, io.triage.TestHome.bundle("sglang", 30000, null),
                    Map.of(), null, 32, out -> System.out.println("host " + out.host() + " " + out.verdict()));
        }
        double sweepSeconds = (System.nanoTime() - start) / 1e9;
        triage.join();
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        System.out.println("outcomes=" + outcomes.size() + " of=" + count + " maxHeapMiB=" + (Runtime.getRuntime().maxMemory() >> 20)
                + " peakHeapMiB=" + (peak >> 20) + " sweepSeconds=" + String.format(java.util.Locale.ROOT, "%.1f", sweepSeconds));
        System.exit(outcomes.size() == count ? 0 : 1);
    }
}
