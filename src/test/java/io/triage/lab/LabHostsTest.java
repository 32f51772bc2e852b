package io.triage.lab;

import io.triage.TestHome;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bundled lab hosts ({@code knowledge-base/lab/hosts.yaml}) and fleets. */
class LabHostsTest {

    static String expectedCause(Path dir) throws Exception {
        String text = Files.readString(dir.resolve("expected.txt"));
        for (String word : text.split("\\s+")) {
            if (word.startsWith("cause=")) {
                return word.substring("cause=".length());
            }
        }
        throw new AssertionError("no cause in " + dir);
    }

    @Test
    void theBundledHostsLoadAndCoverTheStoriesANewcomerShouldSee() throws Exception {
        try (LabServer lab = LabServer.start(LabServer.Config.forHome(TestHome.HOME))) {
            Map<String, String> required = Map.of(
                    "gpu-healthy", "healthy",
                    "gpu-killed", "external-kill",
                    "gpu-never-launched", "launch-never-happened",
                    "gpu-hung", "hung");
            for (Map.Entry<String, String> e : required.entrySet()) {
                LabHost h = lab.host(e.getKey()).orElseThrow(() -> new AssertionError("missing lab host " + e.getKey()));
                assertEquals(e.getValue(), expectedCause(h.captureDir()), h + ": the capture's expected verdict");
            }
            assertEquals(TestHome.SCENARIOS.resolve("seed-trtllm-backend-never-launched"),
                    lab.host("gpu-never-launched").orElseThrow().captureDir());
            assertEquals("flashinfer_trtllm", lab.host("gpu-never-launched").orElseThrow().intent().get("moe_runner_backend"));
            for (String name : lab.hosts()) {
                LabHost h = lab.host(name).orElseThrow();
                assertTrue(h.captureDir().startsWith(TestHome.HOME.resolve("knowledge-base")), h + " plays a capture of the knowledge base");
                assertFalse(h.note().isEmpty(), h + " has a note");
                assertFalse(h.probes().isEmpty(), h + " has recorded probes");
                assertTrue(Files.isRegularFile(h.captureDir().resolve("expected.txt")), h + " plays a scenario with a known verdict");
            }
        }
    }

    @Test
    void aFleetPlaysTheBundledCapturesRoundRobin() throws Exception {
        try (LabServer lab = LabServer.start(LabServer.Config.forHome(TestHome.HOME).withFleet("lab", 200))) {
            List<String> hosts = lab.hosts();
            int bundled = hosts.size() - 200;
            assertTrue(bundled >= 4, hosts.toString());
            assertEquals("lab-1", hosts.get(bundled));
            assertEquals("lab-200", hosts.get(hosts.size() - 1));
            LabHost first = lab.host(hosts.get(0)).orElseThrow();
            assertEquals(first.captureDir(), lab.host("lab-1").orElseThrow().captureDir());
            assertEquals(first.captureDir(), lab.host("lab-" + (bundled + 1)).orElseThrow().captureDir());
            assertEquals(lab.host(hosts.get(1)).orElseThrow().captureDir(), lab.host("lab-2").orElseThrow().captureDir());
            assertSame(first.capture(), lab.host("lab-1").orElseThrow().capture(), "a fleet shares the recording");
        }
    }

    @Test
    void aFleetWithoutBundledHostsPlaysTheGivenCaptures() throws Exception {
        Path seed = TestHome.SCENARIOS.resolve("seed-trtllm-backend-never-launched");
        try (LabServer lab = LabServer.start(LabServer.Config.empty().withCapture(seed).withFleet("node", 3))) {
            assertEquals(List.of("seed-trtllm-backend-never-launched", "node-1", "node-2", "node-3"), lab.hosts());
            assertNotNull(lab.host("node-3").orElseThrow().capture().probes().get("log_tail"));
        }
        assertThrows(IllegalArgumentException.class, () -> LabServer.start(LabServer.Config.empty().withFleet("node", 3)));
    }

    @Test
    void aBrokenHostsFileIsAnErrorWithItsName(@org.junit.jupiter.api.io.TempDir Path kb) throws Exception {
        Files.createDirectories(kb.resolve("lab"));
        Files.writeString(kb.resolve("lab/hosts.yaml"), "hosts:\n  - name: x\n");
        java.io.IOException e = assertThrows(java.io.IOException.class, () -> LabServer.start(LabServer.Config.of(kb)));
        assertTrue(e.getMessage().contains("hosts.yaml"), e.getMessage());
        Files.writeString(kb.resolve("lab/hosts.yaml"), "hosts:\n  - name: x\n    capture: ../../etc\n");
        assertThrows(java.io.IOException.class, () -> LabServer.start(LabServer.Config.of(kb)));
        Files.writeString(kb.resolve("lab/hosts.yaml"), "hosts:\n  - name: x\n    capture: scenarios/gone\n");
        e = assertThrows(java.io.IOException.class, () -> LabServer.start(LabServer.Config.of(kb)));
        assertTrue(e.getMessage().contains("gone"), e.getMessage());
    }
}
