package io.triage.parse;

import io.triage.TestHome;
import io.triage.explain.Diagnosis;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** "I started it at 16:15" is read on the host's clock: the latest such moment at or before the look. */
class IntentTimeOfDayTest {
    private static final String KILLED = "04-external-kill-shell-killed-clean-dmesg"; // looked at 16:20:05, log until 16:08

    private static Diagnosis replay(String launchedAt) throws Exception {
        return TestHome.triage().replay(TestHome.fixture(KILLED), Map.of("launched_at", launchedAt));
    }

    @Test
    void aTimeOfDayAfterTheNewestLogLineIsALaunchThatNeverHappened() throws Exception {
        assertEquals("launch-never-happened", replay("16:15").cause());
        assertEquals("launch-never-happened", replay("16:15:30").cause());
        assertEquals("launch-never-happened", replay("2026-12-06T16:15:00Z").cause(), "the ISO form agrees");
    }

    @Test
    void aTimeOfDayLaterThanTheLookIsYesterday() throws Exception {
        // 16:25 has not come yet at 16:20 on the host: it was the day before, long before this log
        assertEquals("external-kill", replay("16:25").cause());
    }

    @Test
    void somethingThatIsNotATimeIsNoTime() throws Exception {
        assertEquals("external-kill", replay("25:99").cause());
        assertEquals("external-kill", replay("teatime").cause());
    }
}
