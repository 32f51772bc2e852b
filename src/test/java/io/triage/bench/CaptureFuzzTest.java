package io.triage.bench;

import io.triage.TestHome;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fuzz run in small and fixed: 200 hostile captures, one seed; nothing may escape. No timing asserted. */
class CaptureFuzzTest {
    @Test
    void twoHundredHostileCapturesGiveDiagnosesNotExceptions() throws Exception {
        CaptureFuzzer fuzzer = new CaptureFuzzer(TestHome.triage(), TestHome.SCENARIOS, 20261130L, 64 * 1024);
        FuzzRun.Result r = FuzzRun.run(TestHome.triage(), fuzzer, 200);
        assertEquals(0, r.exceptions(), String.join("\n", r.failures()));
        assertEquals(0, r.overBudget(), String.join("\n", r.failures()));
        assertTrue(r.cut() > 0, "the generator makes lines over the cap");
    }
}
