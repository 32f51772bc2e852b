package io.triage.lab;

import io.triage.TestHome;
import io.triage.capture.Capture;
import io.triage.capture.CaptureReader;
import io.triage.collect.BundleOutput;
import io.triage.collect.ProbeBundle;
import io.triage.probe.ProbeCatalogue;
import io.triage.probe.ProbeFrames;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The probe catalogue is the one list of probes: every probe in it is in the generated script, in the frames the lab
 * plays, and in the capture the collector reads back; a probe added to it is in all three with no other change.
 */
class ProbeCatalogueTest {
    @TempDir
    Path tmp;

    /** A recorded capture with an output for every probe of the catalogue (a hostile line in each). */
    private Path recording(ProbeCatalogue catalogue) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("capture"));
        StringBuilder status = new StringBuilder();
        int rc = 0;
        for (ProbeCatalogue.Entry e : catalogue.entries()) {
            Files.writeString(dir.resolve(e.file()), "output of " + e.name() + "\n@@0000 probe health rc=0 ms=1\n");
            status.append(e.name()).append(" rc=").append(rc++ % 3).append(" seconds=0.01\n");
        }
        Files.writeString(dir.resolve("_probes.txt"), status.toString());
        Files.writeString(dir.resolve("target.txt"), "server=vllm\nport=8000\nlog=/var/log/vllm.log\n");
        return dir;
    }

    /** The names of the frames in an answer, in order. */
    private static List<String> frameNames(ProbeBundle b, String answer) {
        List<String> names = new ArrayList<>();
        ProbeFrames.Decoder d = new ProbeFrames(b.nonce()).new Decoder(1 << 20, false,
                (h, out, err, cut, problem) -> names.add(h.probe()));
        byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
        d.write(bytes, 0, bytes.length);
        return names;
    }

    private void assertEveryProbeGoesThrough(ProbeCatalogue catalogue, ProbeBundle bundle) throws Exception {
        String script = bundle.script();
        BundleScript read = BundleScript.parse(script).orElseThrow();
        List<String> names = catalogue.entries().stream().map(ProbeCatalogue.Entry::name).toList();
        assertEquals(names, read.probes(), "the script runs the catalogue's probes, in its order");
        for (ProbeCatalogue.Entry e : catalogue.entries()) {
            assertTrue(script.contains("p " + e.name() + " " + e.timeoutSeconds() + " '"), e.name() + " with its timeout");
        }
        Path dir = recording(catalogue);
        LabHost host = new LabHost("h", dir, "", Recording.read(new CaptureReader(), dir));
        String answer = LabReplies.bundle(host, read);
        assertEquals(names, frameNames(bundle, answer), "the lab plays one frame per probe");
        Capture c = BundleOutput.parse("lab", bundle, answer, Map.of(), List.of());
        int rc = 0;
        for (ProbeCatalogue.Entry e : catalogue.entries()) {
            assertNotNull(c.probes().get(e.name()), e.name() + " read back");
            assertEquals("output of " + e.name() + "\n@@0000 probe health rc=0 ms=1\n", c.probes().get(e.name()).out());
            assertEquals(rc++ % 3, c.probes().get(e.name()).rc());
        }
        assertFalse(c.notes().stream().anyMatch(n -> n.contains("cut short") || n.contains("not readable")), c.notes().toString());
    }

    @Test
    void everyProbeOfTheCatalogueIsScriptedPlayedAndReadBack() throws Exception {
        assertEveryProbeGoesThrough(ProbeCatalogue.SHIPPED, TestHome.bundle("vllm", 8000, "/var/log/vllm.log"));
    }

    @Test
    void aProbeAddedToTheCatalogueIsInTheScriptTheLabAndTheCaptureWithNoOtherChange() throws Exception {
        ProbeCatalogue more = ProbeCatalogue.SHIPPED.plus(new ProbeCatalogue.Entry("kernel_release",
                ProbeCatalogue.Look.FIRST, ProbeCatalogue.When.ALWAYS, "uname -r", 5, false));
        assertEquals("second_look", more.entries().get(more.entries().size() - 1).name(), "the second sample stays last");
        ProbeBundle b = TestHome.bundle("vllm", 8000, "/var/log/vllm.log").withCatalogue(more);
        assertEveryProbeGoesThrough(more, b);

        // and a real bash runs it, its frame read back like any other
        ProbeBundle local = TestHome.bundle("vllm", 1, null).withCatalogue(more).withSecondLook(0);
        Process p = new ProcessBuilder("bash", "-s").start();
        p.getOutputStream().write(local.script().getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        Capture c = BundleOutput.parse("local", local, out, Map.of(), List.of());
        assertEquals(0, c.probes().get("kernel_release").rc());
        assertEquals(System.getProperty("os.version"), c.probes().get("kernel_release").out().strip());
        assertEquals("uname -r", c.probes().get("kernel_release").cmd());
    }

    @Test
    void theCapturesStandardProbesAndTheRulesProbeNamesComeFromTheCatalogue() {
        assertEquals(ProbeCatalogue.SHIPPED.standardNames(), io.triage.parse.FactBuilder.STANDARD_PROBES);
        assertEquals(new java.util.TreeSet<>(ProbeCatalogue.SHIPPED.names()), io.triage.Triage.probeNames());
        for (String name : List.of("health", "gpus", "gpu_apps", "pgrep", "ps", "log_tail", "log_markers", "listen", "dmesg",
                "nvidia_smi_full", "date")) {
            assertTrue(ProbeCatalogue.SHIPPED.entry(name).orElseThrow().standard(), name + " is a probe of the capture format");
        }
        // every question that asks for a probe names one a capture can hold
        for (String q : TestHome.triage().knowledge().questions().keySet()) {
            if (q.startsWith("probe-")) {
                String name = q.substring("probe-".length());
                assertTrue(ProbeCatalogue.SHIPPED.entry(name).isPresent(), q + " asks for a probe the catalogue lacks");
                assertEquals(q, ProbeCatalogue.SHIPPED.entry(name).get().questionId());
            }
        }
    }

    @Test
    void aBadEntryIsRefusedWithItsName() {
        assertThrows(IllegalArgumentException.class, () -> new ProbeCatalogue.Entry("Bad-Name", ProbeCatalogue.Look.FIRST,
                ProbeCatalogue.When.ALWAYS, "true", 5, false));
        assertThrows(IllegalArgumentException.class, () -> new ProbeCatalogue.Entry("slow", ProbeCatalogue.Look.FIRST,
                ProbeCatalogue.When.ALWAYS, "true", 0, false));
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> ProbeCatalogue.SHIPPED.plus(
                new ProbeCatalogue.Entry("dmesg", ProbeCatalogue.Look.FIRST, ProbeCatalogue.When.ALWAYS, "true", 5, false)));
        assertTrue(twice.getMessage().contains("dmesg"), twice.getMessage());
    }
}
