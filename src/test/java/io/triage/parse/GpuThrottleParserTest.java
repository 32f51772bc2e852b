package io.triage.parse;

import io.triage.capture.ProbeOutput;
import io.triage.facts.GpuThrottle;
import io.triage.facts.Unparseable;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The gpu_throttle probe: nvidia-smi's clock event reasons, in the CSV query and in {@code nvidia-smi -q}. */
class GpuThrottleParserTest {
    private static final String HEADER_535 = "index, clocks_event_reasons.active, clocks_event_reasons.sw_power_cap, "
            + "clocks_event_reasons.hw_slowdown, clocks_event_reasons.hw_thermal_slowdown, "
            + "clocks_event_reasons.hw_power_brake_slowdown, clocks_event_reasons.sw_thermal_slowdown, temperature.gpu, "
            + "power.limit [W], power.default_limit [W], clocks.current.sm [MHz], clocks.max.sm [MHz]\n";

    private static Sink parse(String cmd, String out) {
        Sink sink = new Sink();
        GpuThrottleParser.parse(new ProbeOutput("gpu_throttle", cmd, out, "", 0, 0.05, false), sink);
        return sink;
    }

    private static List<GpuThrottle> throttles(Sink s) {
        return s.facts().stream().filter(GpuThrottle.class::isInstance).map(GpuThrottle.class::cast).toList();
    }

    private static List<Unparseable> unparseable(Sink s) {
        return s.facts().stream().filter(Unparseable.class::isInstance).map(Unparseable.class::cast).toList();
    }

    @Test
    void theBitmaskAndTheNamedReasonsOfTheCsvSayWhichLimitHoldsEachGpu() {
        Sink s = parse(null, HEADER_535
                + "0, 0x0000000000000004, Active, Not Active, Not Active, Not Active, Not Active, 66, 400.00 W, 400.00 W, 1275 MHz, 1410 MHz\n"
                + "1, 0x0000000000000068, Not Active, Active, Active, Not Active, Active, 91, 400.00 W, 400.00 W, 705 MHz, 1410 MHz\n"
                + "2, 0x0000000000000080, Not Active, Not Active, Not Active, Not Active, Not Active, 40, 300.00 W, 400.00 W, 345 MHz, 1410 MHz\n");
        List<GpuThrottle> t = throttles(s);
        assertEquals(3, t.size(), s.facts().toString());
        assertTrue(t.get(0).powerCap() && !t.get(0).powerLimitLowered() && !t.get(0).thermal() && !t.get(0).hardware(),
                "the power cap at the board's default limit: " + t.get(0));
        assertTrue(t.get(1).thermal() && t.get(1).hardware(), t.get(1).toString());
        assertEquals("hw_slowdown,sw_thermal_slowdown,hw_thermal_slowdown", t.get(1).reasons());
        assertEquals(91, t.get(1).tempC());
        assertEquals(705, t.get(1).smMHz());
        assertEquals(1410, t.get(1).maxSmMHz());
        assertEquals(3, t.get(1).line());
        // the named columns say Not Active, the bitmask says power brake: the bitmask is what the driver holds
        assertTrue(t.get(2).hardware(), t.get(2).toString());
        assertTrue(t.get(2).powerLimitLowered(), "300 W of 400 W: " + t.get(2));
        assertTrue(unparseable(s).isEmpty(), unparseable(s).toString());
    }

    @Test
    void preDriver535NamesAndAnOtherColumnOrderAreReadByTheHeader() {
        Sink s = parse(null, "clocks_throttle_reasons.sw_thermal_slowdown, index, clocks_throttle_reasons.active\n"
                + "Active, 3, 0x0000000000000020\n");
        List<GpuThrottle> t = throttles(s);
        assertEquals(1, t.size(), s.facts().toString());
        assertEquals(3, t.get(0).gpu());
        assertTrue(t.get(0).thermal());
        assertEquals(-1, t.get(0).tempC(), "not queried: unknown");
    }

    @Test
    void withoutAHeaderTheRecordedCommandNamesTheColumns() {
        Sink s = parse("nvidia-smi --query-gpu=index,clocks_throttle_reasons.active --format=csv,noheader",
                "0, 0x0000000000000000\n1, 0x0000000000000040\n");
        List<GpuThrottle> t = throttles(s);
        assertEquals(2, t.size());
        assertFalse(t.get(0).thermal() || t.get(0).hardware() || t.get(0).powerCap());
        assertTrue(t.get(1).thermal(), "0x40 is the hardware thermal slowdown");
    }

    @Test
    void anOlderDriverThatRefusesAFieldLeavesTheFallbackBitmaskReadAndSaysSo() {
        Sink s = parse(null, "Field \"clocks_throttle_reasons.hw_thermal_slowdown\" is not a valid field to query.\n"
                + "index, clocks_throttle_reasons.active\n0, 0x0000000000000020\n");
        assertEquals(1, throttles(s).size(), s.facts().toString());
        assertTrue(throttles(s).get(0).thermal());
        assertEquals(1, unparseable(s).size(), "the refusal is noted: " + s.facts());
    }

    @Test
    void theClocksEventReasonsOfNvidiaSmiQAreReadPerGpuWithLimitsAndClocks() {
        String q = """

                ==============NVSMI LOG==============

                Timestamp                                 : Thu Mar  4 15:44:31 2027
                Driver Version                            : 570.172.08

                Attached GPUs                             : 2
                GPU 00000000:18:00.0
                    Performance State                     : P0
                    Clocks Event Reasons
                        Idle                              : Not Active
                        SW Power Cap                      : Active
                        HW Slowdown                       : Not Active
                            HW Thermal Slowdown           : Not Active
                            HW Power Brake Slowdown       : Not Active
                        Sync Boost                        : Not Active
                        SW Thermal Slowdown               : Not Active
                    Clocks Event Reasons Counters
                        SW Power Capping                  : 26311409114 us
                        SW Thermal Slowdown               : 5000 us
                    Temperature
                        GPU Current Temp                  : 58 C
                    GPU Power Readings
                        Instantaneous Power Draw          : 448.91 W
                        Current Power Limit               : 450.00 W
                        Default Power Limit               : 700.00 W
                    Clocks
                        Graphics                          : 1335 MHz
                        SM                                : 1335 MHz
                    Max Clocks
                        SM                                : 1980 MHz
                GPU 00000000:2A:00.0
                    Performance State                     : P0
                    Clocks Throttle Reasons
                        Idle                              : Not Active
                        SW Power Cap                      : Not Active
                        HW Slowdown                       : Active
                            HW Thermal Slowdown           : Active
                            HW Power Brake Slowdown       : Not Active
                        SW Thermal Slowdown               : Active
                """;
        Sink s = parse("nvidia-smi -q -d PERFORMANCE,TEMPERATURE,POWER,CLOCK", q);
        List<GpuThrottle> t = throttles(s);
        assertEquals(2, t.size(), s.facts().toString());
        GpuThrottle a = t.get(0);
        assertTrue(a.powerCap() && a.powerLimitLowered(), a.toString());
        assertFalse(a.thermal(), "the counters are history, not the present: " + a);
        assertEquals(58, a.tempC());
        assertEquals(450.0, a.powerLimitW());
        assertEquals(700.0, a.defaultPowerLimitW());
        assertEquals(1335, a.smMHz());
        assertEquals(1980, a.maxSmMHz());
        GpuThrottle b = t.get(1);
        assertEquals(1, b.gpu());
        assertTrue(b.thermal() && b.hardware() && !b.powerCap(), "the pre-535 section name: " + b);
    }

    @Test
    void garbageAndCutRowsAreReportedNeverGuessed() {
        Sink s = parse(null, HEADER_535 + "0, 0x00000000000000zz, Active\n1, banana, a, b, c, d, e, f, g, h, i, j\n");
        assertTrue(throttles(s).isEmpty(), s.facts().toString());
        assertEquals(2, unparseable(s).size(), s.facts().toString());
        Sink empty = parse(null, "");
        assertTrue(empty.facts().isEmpty());
        Sink hostile = parse(null, " ".repeat(8000) + ":" + "x".repeat(8000) + "\nGPU 00000000:18:00.0\n" + "\u001b[31m".repeat(500));
        assertTrue(throttles(hostile).isEmpty());
        assertEquals(1, unparseable(hostile).size(), "a GPU without its reasons: " + hostile.facts());
    }

    @Test
    void aDriverThatCannotAnswerIsAFailureOfNvidiaSmiNotThrottling() {
        Sink s = parse(null, "Failed to initialize NVML: Driver/library version mismatch\n");
        assertTrue(throttles(s).isEmpty());
        assertTrue(s.facts().stream().anyMatch(f -> f instanceof io.triage.facts.SmiFailure), s.facts().toString());
    }
}
