package io.triage.explain;

import io.triage.TestHome;
import io.triage.capture.Capture;
import io.triage.capture.CaptureReader;
import io.triage.capture.ProbeOutput;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * busy/gpu-throttled (rules/36-gpu-throttle.drl): the throttling probe refines a busy verdict, on both sides of what
 * counts as a slowdown, and never makes one of its own. Beside the gpu-throttle scenarios, which cannot say "no
 * subtype".
 */
class GpuThrottleRulesTest {
    private static final Path HOT = TestHome.SCENARIOS.resolve("gpu-throttle/01-busy-vllm-a100-two-gpus-thermal-slowdown");
    private static final String HEADER = "index, clocks_event_reasons.active, clocks_event_reasons.sw_power_cap, "
            + "clocks_event_reasons.hw_slowdown, clocks_event_reasons.hw_thermal_slowdown, "
            + "clocks_event_reasons.hw_power_brake_slowdown, clocks_event_reasons.sw_thermal_slowdown, temperature.gpu, "
            + "power.limit [W], power.default_limit [W], clocks.current.sm [MHz], clocks.max.sm [MHz]\n";

    /** The hot scenario with another answer of the throttling probe (null: without the probe). */
    private static Diagnosis withThrottle(String out) throws Exception {
        Capture c = new CaptureReader().read(HOT);
        Map<String, ProbeOutput> probes = new LinkedHashMap<>(c.probes());
        if (out == null) {
            probes.remove("gpu_throttle");
        } else {
            probes.put("gpu_throttle", new ProbeOutput("gpu_throttle", null, out, "", 0, 0.05, false));
        }
        return TestHome.triage().diagnose(new Capture(c.source(), probes, c.target(), c.intent(), c.notes()), Map.of());
    }

    private static String row(int gpu, String mask, String cap, String limit) {
        return gpu + ", " + mask + ", " + cap + ", Not Active, Not Active, Not Active, Not Active, 66, " + limit
                + " W, 400.00 W, 1275 MHz, 1410 MHz\n";
    }

    @Test
    void aThermalSlowdownOnAGpuOfTheModelNamesTheSubtypeAtTheBusyVerdictsConfidence() throws Exception {
        Diagnosis d = TestHome.triage().replay(HOT, Map.of());
        assertEquals("busy", d.cause());
        assertEquals("gpu-throttled", d.subtype());
        assertEquals("medium", d.confidence(), "one look: as sure as the busy verdict it refines, never more");
        assertTrue(d.nextSteps().stream().anyMatch(s -> s.id().equals("wait-dont-restart")), "do not restart stands");
    }

    @Test
    void thePowerCapOfABoardAtItsDefaultLimitIsNotASlowdown() throws Exception {
        Diagnosis d = withThrottle(HEADER + row(0, "0x0000000000000004", "Active", "400.00")
                + row(1, "0x0000000000000004", "Active", "400.00") + row(2, "0x0000000000000000", "Not Active", "400.00")
                + row(3, "0x0000000000000004", "Active", "400.00"));
        assertEquals("busy", d.cause());
        assertEquals("", d.subtype(), "the ordinary power cap at full load");
        assertTrue(d.nextSteps().stream().noneMatch(s -> s.id().equals("check-gpu-cooling")), d.nextSteps().toString());
    }

    @Test
    void thePowerCapUnderALimitSetBelowTheDefaultIsASlowdown() throws Exception {
        Diagnosis d = withThrottle(HEADER + row(0, "0x0000000000000004", "Active", "300.00"));
        assertEquals("gpu-throttled", d.subtype());
    }

    @Test
    void withoutTheProbeTheVerdictIsBusyAndTheProbeIsNamedAsNotRun() throws Exception {
        Diagnosis d = withThrottle(null);
        assertEquals("busy", d.cause());
        assertEquals("", d.subtype());
        assertTrue(d.coverage().absent().contains("gpu_throttle"), d.coverage().absent().toString());
    }

    /** What an engineer pastes: the hot scenario's own capture, its throttle probe replaced by a pasted report. */
    private static Diagnosis withPaste(String paste) throws Exception {
        Capture c = new CaptureReader().read(HOT);
        Map<String, ProbeOutput> probes = new LinkedHashMap<>(c.probes());
        probes.remove("gpu_throttle");
        Capture pasted = new io.triage.capture.PasteRecognizer(TestHome.triage().knowledge()).recognise(paste).capture();
        pasted.probes().forEach((k, v) -> {
            if (k.startsWith("nvidia_smi_q") || k.startsWith("gpu_throttle")) {
                probes.put(k, v);
            }
        });
        return TestHome.triage().diagnose(new Capture(c.source(), probes, c.target(), c.intent(), c.notes()), Map.of());
    }

    private static String section(String bus, String hw, String swThermal) {
        return "GPU " + bus + "\n"
                + "    Performance State                     : P0\n"
                + "    Clocks Event Reasons\n"
                + "        Idle                              : Not Active\n"
                + "        Applications Clocks Setting       : Not Active\n"
                + "        SW Power Cap                      : Not Active\n"
                + "        HW Slowdown                       : " + hw + "\n"
                + "            HW Thermal Slowdown           : " + hw + "\n"
                + "            HW Power Brake Slowdown       : Not Active\n"
                + "        Sync Boost                        : Not Active\n"
                + "        SW Thermal Slowdown               : " + swThermal + "\n"
                + "        Display Clock Setting             : Not Active\n"
                + "    Sparse Operation Mode                 : N/A\n";
    }

    private static final String Q_HEAD = "$ nvidia-smi -q -d PERFORMANCE\n\n==============NVSMI LOG==============\n\n"
            + "Timestamp                                 : Mon Nov 30 15:40:40 2026\n"
            + "Driver Version                            : 570.172.08\n"
            + "CUDA Version                              : 12.8\n\n";

    @Test
    void aPastedNvidiaSmiQReportWithItsClocksEventReasonsIsReadToo() throws Exception {
        Diagnosis d = withPaste(Q_HEAD + "Attached GPUs                             : 4\n"
                + section("00000000:07:00.0", "Not Active", "Not Active") + section("00000000:0F:00.0", "Active", "Active")
                + section("00000000:47:00.0", "Not Active", "Not Active") + section("00000000:4E:00.0", "Not Active", "Not Active"));
        assertEquals("gpu-throttled", d.subtype(), "every GPU's section, in index order: the second is GPU 1");
    }

    @Test
    void aReportOfOneGpuOfSeveralNamesItByBusIdOnlySoItIsNotTakenForGpuZero() throws Exception {
        Diagnosis d = withPaste(Q_HEAD.replace("-d PERFORMANCE", "-d PERFORMANCE -i 1")
                + "Attached GPUs                             : 4\n" + section("00000000:0F:00.0", "Active", "Active"));
        assertEquals("busy", d.cause());
        assertEquals("", d.subtype(), "which GPU the section is cannot be told from its bus id here");
    }

    @Test
    void aPastedThrottleQueryIsFiledAsTheProbeNotAsTheGpuTable() throws Exception {
        Diagnosis d = withPaste("$ nvidia-smi --query-gpu=index,clocks_throttle_reasons.active --format=csv\n"
                + "index, clocks_event_reasons.active\n0, 0x0000000000000020\n1, 0x0000000000000000\n");
        assertEquals("gpu-throttled", d.subtype());
        Diagnosis cool = withPaste("$ nvidia-smi --query-gpu=index,clocks_throttle_reasons.active --format=csv\n"
                + "index, clocks_event_reasons.active\n0, 0x0000000000000004\n1, 0x0000000000000000\n");
        assertEquals("", cool.subtype(), "the power cap without the limits: nothing says it was lowered");
    }

    @Test
    void throttledGpusBehindADeadServerAreNotBusy() throws Exception {
        Diagnosis d = TestHome.triage().replay(TestHome.SCENARIOS.resolve(
                "gpu-throttle/04-orphaned-workers-vllm-power-brake-not-busy"), Map.of());
        assertEquals("orphaned-workers", d.cause());
        assertTrue(d.hypotheses().stream().noneMatch(h -> h.cause().equals("busy") && h.status().equals("supported")),
                d.hypotheses().toString());
    }
}
