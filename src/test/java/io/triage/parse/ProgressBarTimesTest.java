package io.triage.parse;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** A progress bar's untimed lines get the earliest time they can have been written. */
class ProgressBarTimesTest {
    private static long[] times(List<String> lines, long[] epochs) {
        long[] e = epochs.clone();
        LogParser.progressBarTimes(lines::get, e);
        return e;
    }

    @Test
    void aBarCountsOnFromTheNewestTimestampBeforeItsFirstLine() {
        List<String> lines = List.of(
                "INFO 11-24 09:18:33 [gpu_model_runner.py:2602] Starting to load model",
                "Loading safetensors checkpoint shards:   0% Completed | 0/109 [00:00<?, ?it/s]",
                "Loading safetensors checkpoint shards:  31% Completed | 34/109 [18:06<39:56, 31.95s/it]",
                "(Worker pid=7) Loading safetensors checkpoint shards:  38% Completed | 41/109 [21:50<36:13, 31.97s/it]");
        long t = 1_000_000;
        assertArrayEquals(new long[] {t, t, t + 18 * 60 + 6, t + 21 * 60 + 50}, times(lines, new long[] {t, -1, -1, -1}));
    }

    @Test
    void aBarFirstSeenPartWayIsBasedOnItsOwnCountThen() {
        // the bar's start is cut off: its first line seen was written after the timestamp, 10 minutes into the bar
        List<String> lines = List.of("2026-11-30 10:00:00 INFO loading", "Loading: 50%|█████     | 5/10 [10:00<10:00]",
                "Loading: 60%|██████    | 6/10 [12:00<08:00]");
        long t = 2_000_000;
        assertArrayEquals(new long[] {t, t, t + 120}, times(lines, new long[] {t, -1, -1}));
    }

    @Test
    void aBarRewrittenInPlaceFromItsFirstUpdateCountsFromTheStampBeforeIt() {
        // tqdm's carriage returns join every update on one line, the first (0/37 at 00:00) included: the bar began
        // after the stamped line, so its newest update is at least its own count later
        String bar = "Loading weights from safetensors:   0%|          | 0/37 [00:00<?, ?it/s]\r"
                + "Loading weights from safetensors:   2%|▎         | 1/37 [00:27<16:01, 26.69s/it]\r"
                + "Loading weights from safetensors:  64%|██████▍   | 24/37 [11:58<06:29, 29.92s/it]";
        List<String> lines = List.of("2026-04-02 10:02:31,377 - lmdeploy - INFO - base.py:450 - Building Model.", bar);
        long t = 3_000_000;
        assertArrayEquals(new long[] {t, t + 11 * 60 + 58}, times(lines, new long[] {t, -1}));
        // the same newest update without its first: the bar may have begun before the stamp
        assertArrayEquals(new long[] {t, t}, times(List.of(lines.get(0), bar.substring(bar.indexOf('\r') + 1)),
                new long[] {t, -1}));
    }

    @Test
    void aBarWithNothingTimedBeforeItStaysUntimedAndACountGoingBackIsANewBar() {
        List<String> untimed = List.of("Loading: 50%|█████     | 5/10 [10:00<10:00]");
        assertArrayEquals(new long[] {-1}, times(untimed, new long[] {-1}));
        List<String> twice = List.of("t0", "Capturing CUDA graphs: 90%|█| 60/67 [01:00<00:07]", "t1",
                "Capturing CUDA graphs: 10%|█| 7/67 [00:05<01:00]");
        assertArrayEquals(new long[] {100, 100 + 60 - 60, 500, 500 + 5 - 5}, times(twice, new long[] {100, -1, 500, -1}));
    }

    @Test
    void elapsedAndLabelAreReadByHand() {
        assertEquals(21 * 60 + 50, LogParser.barElapsed("x 38% | 41/109 [21:50<36:13, 31.97s/it]"));
        assertEquals(3600 + 2 * 60 + 3, LogParser.barElapsed("x 38% [1:02:03, 2.1it/s]"));
        assertEquals(5, LogParser.barElapsed("x 5% [00:05]"));
        assertEquals(-1, LogParser.barElapsed("[2026-11-30 10:00:00] 50% done"));
        assertEquals(-1, LogParser.barElapsed("x 50% [5<3]"));
        assertEquals("Loading safetensors checkpoint shards:", LogParser.barLabel("(Worker_TP2 pid=60500) Loading safetensors checkpoint shards:  38% Completed"));
        assertNull(LogParser.barLabel("no percentage [00:05<00:10]"));
        assertNull(LogParser.barLabel("50% at the start"));
    }
}
