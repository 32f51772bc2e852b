package io.triage.lab;

import io.triage.TestHome;
import io.triage.collect.ProbeBundle;
import io.triage.collect.SshCollector;
import io.triage.collect.SshTarget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code lab --latency}: a delay line in front of the lab's SSH port. What is asserted is a floor that the
 * delay guarantees, never a speed: an SSH look needs several round trips (version exchange, key exchange,
 * authentication, channel open, the exec and its answer), so with a 250 ms round trip it cannot finish in
 * less than three of them, and it still brings back the recorded host intact.
 */
class LabLatencyTest {
    @TempDir
    Path tmp;

    @Test
    void aLookThroughTheDelayLineTakesAtLeastThreeRoundTripsAndIsComplete() throws Exception {
        KeyPair key = LabKeys.generate();
        Duration rtt = Duration.ofMillis(250);
        try (LabServer lab = LabServer.start(LabServer.Config.forHome(TestHome.HOME).withAuthorizedKey(key.getPublic())
                .withLatency(rtt))) {
            Path knownHosts = Files.writeString(tmp.resolve("known_hosts"), lab.knownHostsLine() + "\n");
            Path config = Files.writeString(tmp.resolve("ssh_config"), "");
            try (SshCollector collector = new SshCollector(new SshCollector.Options(knownHosts, false, List.of(), config,
                    Duration.ofSeconds(20), Duration.ofSeconds(60)).withGlobalKnownHosts(List.of()))) {
                collector.addIdentity(key);
                LabHost host = lab.host("gpu-never-launched").orElseThrow();
                long start = System.nanoTime();
                SshCollector.Look look = collector.look(new SshTarget(host.name(), LabServer.ADDRESS, lab.port()),
                        ProbeBundle.forTarget(null, null, null).with(io.triage.TestHome.filters()), host.intent());
                long elapsed = System.nanoTime() - start;
                SshCollector.Collected c = assertInstanceOf(SshCollector.Collected.class, look, look.toString());
                assertTrue(elapsed >= 3 * rtt.toNanos(), "a look through a 250 ms link took only " + elapsed / 1_000_000 + " ms");
                assertEquals("launch-never-happened", TestHome.triage().diagnose(c.capture(), Map.of()).cause());
            }
        }
    }

    @Test
    void latencyOutsideZeroToTenSecondsIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> LabServer.Config.empty().withLatency(Duration.ofMillis(-1)));
        assertThrows(IllegalArgumentException.class, () -> LabServer.Config.empty().withLatency(Duration.ofSeconds(11)));
    }
}
