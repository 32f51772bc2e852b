package io.triage.parse;

import io.triage.TestHome;
import io.triage.capture.ProbeOutput;
import io.triage.facts.Gpu;
import io.triage.facts.GpuActivity;
import io.triage.facts.GpuProfile;
import io.triage.facts.LogProgress;
import io.triage.facts.SecondLook;
import io.triage.facts.ServerLoad;
import io.triage.facts.Unparseable;
import io.triage.knowledge.Cadence;
import io.triage.knowledge.KnowledgeBase;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The signals that tell busy from hung: lines of work against the cadence, /metrics, the second look, the GPUs together. */
class ProgressSignalsTest {
    private static final Cadence CADENCE = KnowledgeBase.load(TestHome.HOME.resolve("knowledge-base")).cadence();
    private static final long CLOCK = 1_800_000_000L;

    private static String vllm(double prompt, double gen, int running, int waiting) {
        return "INFO 01-01 00:00:00 [loggers.py:127] Engine 000: Avg prompt throughput: " + prompt
                + " tokens/s, Avg generation throughput: " + gen + " tokens/s, Running: " + running + " reqs, Waiting: "
                + waiting + " reqs, GPU KV cache usage: 3.0%";
    }

    /** {@code n} vLLM stats lines {@code every} seconds apart, the last {@code silence} seconds before the clock. */
    private static List<WorkLog.Line> vllmLines(int n, long every, long silence, String text) {
        List<WorkLog.Line> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long epoch = CLOCK - silence - (n - 1 - i) * every;
            out.add(new WorkLog.Line("progress", "vllm.throughput-stats", epoch, text, "log_tail", i + 1));
        }
        return out;
    }

    private static LogProgress progress(String server, List<WorkLog.Line> lines) {
        Sink sink = new Sink();
        new WorkLog(CADENCE, server).read(lines, CLOCK, "log_tail", sink);
        return sink.facts().stream().filter(LogProgress.class::isInstance).map(LogProgress.class::cast).findFirst().orElseThrow();
    }

    @Test
    void workAtTheCadenceUpToTheLookIsContinuingAndItsQueueIsRead() {
        LogProgress p = progress("vllm", vllmLines(12, 10, 8, vllm(900.0, 450.5, 64, 240)));
        assertEquals("continuing", p.state());
        assertEquals(64, p.running());
        assertEquals(240, p.waiting());
        assertEquals(450.5, p.throughput());
        assertEquals(8, p.silenceSeconds());
        assertEquals(30, p.stallAfterSeconds(), "3 x vLLM's 10 s");
    }

    @Test
    void theSameWorkSilentForSeventySecondsWithRequestsRunningIsStalled() {
        LogProgress p = progress("vllm", vllmLines(12, 10, 70, vllm(900.0, 450.5, 8, 0)));
        assertEquals("stalled", p.state(), "70 s is inside the old 120 s 'recent' window, but 7 of vLLM's intervals");
    }

    @Test
    void oneLineOfWorkIsOneMomentNotARhythm() {
        assertEquals("single", progress("vllm", vllmLines(1, 10, 5, vllm(900.0, 450.5, 8, 0))).state());
        assertEquals("stalled", progress("vllm", vllmLines(1, 10, 45, vllm(900.0, 450.5, 8, 0))).state());
    }

    @Test
    void statisticsThatKeepComingWithZeroTokensAreNotWork() {
        LogProgress p = progress("vllm", vllmLines(6, 10, 4, vllm(0.0, 0.0, 6, 31)));
        assertEquals("zero-throughput", p.state());
        assertEquals(6, p.zeroLines());
        assertEquals("zero-throughput", progress("vllm", vllmLines(6, 10, 4, vllm(0.0, 0.0, 0, 12))).state(),
                "requests waiting and nothing scheduled is no work either");
        assertEquals("continuing", progress("vllm", vllmLines(6, 10, 4, vllm(52000.0, 0.0, 4, 0))).state(),
                "a long prefill: prompt tokens processed, none generated yet");
    }

    @Test
    void vllmsOneLineOfNothingProducedThenOnlyAnswersIsAStuckEngine() {
        // V1 logs the first interval that produced nothing at INFO and the next ones at DEBUG: one zero line with
        // requests counted, then the 200s of streams whose headers went out, untimed
        List<WorkLog.Line> lines = new ArrayList<>(vllmLines(3, 10, 600, vllm(900.0, 450.5, 14, 0)));
        lines.addAll(vllmLines(1, 10, 590, vllm(0.0, 0.0, 14, 2)));
        for (int i = 0; i < 3; i++) {
            lines.add(new WorkLog.Line("access", "common.uvicorn-access", -1,
                    "INFO:     10.0.0.1:4000 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK", "log_tail", 10 + i));
        }
        Sink sink = new Sink();
        new WorkLog(CADENCE, "vllm").read(lines, -1, "log_tail", sink);
        LogProgress p = sink.facts().stream().filter(LogProgress.class::isInstance).map(LogProgress.class::cast)
                .findFirst().orElseThrow();
        assertEquals("zero-throughput", p.state(), p.toString());
        assertEquals(14, p.running());
        // the same zero line with nothing logged after it: one moment, nothing to say yet
        assertEquals("untimed", progressUntimed(lines.subList(0, 4)).state());
    }

    private static LogProgress progressUntimed(List<WorkLog.Line> lines) {
        Sink sink = new Sink();
        new WorkLog(CADENCE, "vllm").read(lines, -1, "log_tail", sink);
        return sink.facts().stream().filter(LogProgress.class::isInstance).map(LogProgress.class::cast).findFirst().orElseThrow();
    }

    @Test
    void nothingRunningOrWaitingIsIdleWhateverTheSilence() {
        assertEquals("idle", progress("vllm", vllmLines(3, 10, 900, vllm(0.0, 0.0, 0, 0))).state());
    }

    @Test
    void aServerWithoutAPeriodicLineIsNotJudgedByACadence() {
        List<WorkLog.Line> tgi = List.of(new WorkLog.Line("progress", "tgi.request-success", CLOCK - 400,
                "generate{total_time=\"400s\"}: text_generation_router::server: Success", "log_tail", 1));
        LogProgress p = progress("tgi", tgi);
        assertEquals("no-cadence", p.state());
        assertEquals(-1, p.stallAfterSeconds());
    }

    @Test
    void aLogSlowerThanTheKnownCadenceIsMeasuredByItsOwnRhythm() {
        LogProgress p = progress("sglang", sglangLines(8, 40, 60));
        assertEquals("observed", p.cadenceSource());
        assertEquals(40, p.cadenceSeconds());
        assertEquals("continuing", p.state(), "60 s of silence is 1.5 of this server's own intervals");
    }

    private static List<WorkLog.Line> sglangLines(int n, long every, long silence) {
        List<WorkLog.Line> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new WorkLog.Line("progress", "sglang.batch-stats", CLOCK - silence - (n - 1 - i) * every,
                    "Decode batch. #running-req: 3, #token: 9211, token usage: 0.09, gen throughput (token/s): 31.20, #queue-req: 1,",
                    "log_tail", i + 1));
        }
        return out;
    }

    @Test
    void stallWarningsAfterTheLastLineOfWorkAreCounted() {
        List<WorkLog.Line> lines = new ArrayList<>(vllmLines(4, 10, 200, vllm(10.0, 10.0, 2, 0)));
        for (int i = 0; i < 3; i++) {
            lines.add(new WorkLog.Line("health-check-failed", "vllm.shm-broadcast-stall", CLOCK - 180 + 60L * i,
                    "No available shared memory broadcast block found in 60 seconds.", "log_tail", 10 + i));
        }
        LogProgress p = progress("vllm", lines);
        assertEquals(3, p.stallWarnings());
        assertEquals("stalled", p.state());
    }

    @Test
    void withoutAClockOrTimestampsSilenceIsUnknown() {
        Sink sink = new Sink();
        new WorkLog(CADENCE, "vllm").read(vllmLines(3, 10, 5, vllm(1.0, 1.0, 1, 0)), -1, "log_tail", sink);
        assertEquals("untimed", ((LogProgress) sink.facts().get(0)).state());
        assertEquals("none", progress("vllm", List.of()).state());
    }

    private static ProbeOutput probe(String name, String out, Integer rc) {
        return new ProbeOutput(name, null, out, "", rc, 0.01, false);
    }

    @Test
    void metricsAreSummedOverTheirLabelSetsAndOnlyKnownSeriesCount() {
        Sink sink = new Sink();
        new LoadParser(CADENCE).metrics(probe("metrics", String.join("\n",
                "# HELP vllm:num_requests_running Number of requests in model execution batches.",
                "vllm:num_requests_running{engine=\"0\",model_name=\"m\"} 3.0",
                "vllm:num_requests_running{engine=\"1\",model_name=\"m\"} 4.0",
                "vllm:num_requests_waiting{engine=\"0\",model_name=\"m\"} 11",
                "vllm:generation_tokens_total{model_name=\"m\"} 1.2e6 1700000000000",
                "vllm:e2e_request_latency_seconds_sum{model_name=\"m\"} 99.0",
                "vllm:num_requests_waiting{engine=\"1\",model_name=\"m\"} NaN", ""), 0), sink);
        ServerLoad l = (ServerLoad) sink.facts().stream().filter(ServerLoad.class::isInstance).findFirst().orElseThrow();
        assertEquals("vllm", l.server());
        assertEquals(7, l.running());
        assertEquals(11, l.waiting(), "NaN is no count");
        assertEquals(1.2e6, l.generated());
        assertTrue(l.workPending());
    }

    @Test
    void generationRequestsAcceptedAfterAnIdleLineAndNeverReportedAreNotTaken() {
        // vLLM logs its statistics whenever its engine works: an idle line, then requests accepted for longer than
        // the stall window with no line after it, is an engine that takes none of them
        java.util.function.BiFunction<Long, String, LogProgress> look = (silence, access) -> {
            List<WorkLog.Line> lines = new ArrayList<>(vllmLines(5, 10, silence, vllm(0.0, 0.0, 0, 0)));
            // twelve: a few could be a test sent moments before the look (scenario review-12/01 has two)
            for (int i = 0; i < 12; i++) {
                lines.add(new WorkLog.Line("access", "common.uvicorn-access", -1,
                        "INFO:     10.8.3.23:5255" + i + " - \"" + access + " HTTP/1.1\" 200 OK", "log_tail", 10 + i));
            }
            return progress("vllm", lines);
        };
        assertEquals("not-taken", look.apply(723L, "POST /v1/chat/completions").state());
        assertEquals("idle", look.apply(12L, "POST /v1/chat/completions").state(), "within the window: not yet a line");
        assertEquals("idle", look.apply(723L, "GET /health").state(), "health polls are not work for the engine");
        assertEquals("idle", look.apply(723L, "POST /tokenize").state(), "the front end answers that alone");
        // SGLang logs its batches every N steps, and logs nothing when idle either: its cadence has no such promise
        List<WorkLog.Line> sg = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            sg.add(new WorkLog.Line("progress", "sglang.batch-stats", CLOCK - 723 - (4 - i) * 10L,
                    "Decode batch, #running-req: 0, #token: 0, token usage: 0.00, gen throughput (token/s): 0.00, #queue-req: 0,",
                    "log_tail", i + 1));
        }
        for (int i = 0; i < 6; i++) {
            sg.add(new WorkLog.Line("access", "common.uvicorn-access", -1,
                    "INFO:     10.8.3.23:5255" + i + " - \"POST /v1/chat/completions HTTP/1.1\" 200 OK", "log_tail", 10 + i));
        }
        assertFalse(progress("sglang", sg).state().equals("not-taken"));
    }

    @Test
    void aPasteOfTheSameScrapeTwiceIsWhatMovedBetweenThemNotTheirSum() {
        String scrape = String.join("\n",
                "nv_inference_request_success{model=\"ensemble\",version=\"1\"} %d",
                "nv_inference_request_success{model=\"tensorrt_llm\",version=\"1\"} %d",
                "nv_trt_llm_request_metrics{model=\"tensorrt_llm\",request_type=\"context\",version=\"1\"} 0",
                "nv_trt_llm_request_metrics{model=\"tensorrt_llm\",request_type=\"active\",version=\"1\"} 64",
                "nv_trt_llm_general_metrics{general_type=\"iteration_counter\",model=\"tensorrt_llm\",version=\"1\"} %d",
                "nv_trt_llm_general_metrics{general_type=\"timestamp\",model=\"tensorrt_llm\",version=\"1\"} 1764727117");
        for (long[] c : new long[][] {{412077, 412077, 5812330, 5812330}, {412077, 412077, 5812330, 5813902}}) {
            Sink sink = new Sink();
            new LoadParser(CADENCE).metrics(probe("metrics", String.join("\n",
                    "ops@trt-a100-03:~$ date -u; curl -s localhost:8002/metrics | grep -E '^nv_'",
                    "Wed Dec  3 02:14:40 UTC 2025",
                    String.format(scrape, c[0], c[1], c[2]),
                    "ops@trt-a100-03:~$ sleep 45",
                    "ops@trt-a100-03:~$ date -u; curl -s localhost:8002/metrics | grep -E '^nv_'",
                    "Wed Dec  3 02:15:26 UTC 2025",
                    String.format(scrape, c[0], c[1], c[3]),
                    "ops@trt-a100-03:~$ "), 0), sink);
            SecondLook s = (SecondLook) sink.facts().stream().filter(SecondLook.class::isInstance).findFirst().orElseThrow();
            ServerLoad l = (ServerLoad) sink.facts().stream().filter(ServerLoad.class::isInstance).findFirst().orElseThrow();
            assertEquals(46_000, s.intervalMs(), "from the two dates");
            assertEquals(0.0, s.tokens(), "no request completed");
            assertEquals(c[3] == c[2] ? "" : "tokens", s.moved(), "the engine's iterations are work too: " + s.excerpt());
            assertEquals(64, l.running(), "only the active requests, of the last scrape");
            assertEquals(824154.0, l.generated(), "the last scrape's counters, not both scrapes summed");
        }
        // one scrape: no second look
        Sink one = new Sink();
        new LoadParser(CADENCE).metrics(probe("metrics", String.format(scrape, 1, 1, 1), 0), one);
        assertFalse(one.facts().stream().anyMatch(SecondLook.class::isInstance));
        assertEquals(64, ((ServerLoad) one.facts().stream().filter(ServerLoad.class::isInstance).findFirst().orElseThrow()).running());
    }

    @Test
    void hostileMetricsGiveAnUnparseableNotAnException() {
        Sink sink = new Sink();
        String huge = "vllm:num_requests_running{a=\"" + "{".repeat(5000) + "\"} 1e99999";
        new LoadParser(CADENCE).metrics(probe("metrics", "<html>502 Bad Gateway</html>\n\u0000\u0001\n" + huge + "\n", 0), sink);
        assertFalse(sink.facts().stream().anyMatch(ServerLoad.class::isInstance));
        assertTrue(sink.facts().stream().anyMatch(Unparseable.class::isInstance));
    }

    private static String sample(long tMs, long ticks, long logSize, String last, int util, String gen, String hf) {
        return "t_ms " + tMs + "\ninterval_target_ms 5000\npid 100\nclk_tck 100\nproc 100 S " + ticks + "\nproc 101 R " + (ticks * 2)
                + "\nlog_size " + logSize + "\nlog_last " + last + "\ngpu 0, " + util + ", 70000\ngpu 1, " + util + ", 70000\n"
                + (gen == null ? "" : "metric vllm:generation_tokens_total{model_name=\"m\"} " + gen
                + "\nmetric vllm:num_requests_running{model_name=\"m\"} 4\n")
                + (hf == null ? "" : "hf_incomplete " + hf + " 3\n");
    }

    private static SecondLook look(String first, String second, Sink sink) {
        new LoadParser(CADENCE).secondLook(probe("first_look", first, 0), probe("second_look", second, 0), sink);
        return sink.facts().stream().filter(SecondLook.class::isInstance).map(SecondLook.class::cast).findFirst().orElse(null);
    }

    @Test
    void theSecondLookSaysWhatMovedAndWhatStayedStill() {
        SecondLook moving = look(sample(1000, 500, 9000, "a", 99, "100", null), sample(6000, 900, 9300, "b", 98, "4100", null), new Sink());
        assertEquals(5000, moving.intervalMs());
        assertEquals("log,cpu,tokens", moving.moved());
        assertEquals(300, moving.logGrowthBytes());
        assertEquals(12.0, moving.cpuSeconds(), 1e-9, "(900-500) + (1800-1000) ticks at 100 per second");
        assertEquals(4000, moving.tokens());
        assertEquals("S,R", moving.states());
        assertEquals(4, moving.running());

        SecondLook still = look(sample(1000, 500, 9000, "a", 0, "100", null), sample(6000, 500, 9000, "a", 0, "100", null), new Sink());
        assertEquals("", still.moved());
        assertEquals("log,cpu,tokens", still.still());
        assertFalse(still.movedAny());
    }

    @Test
    void aDownloadGrowingOrALogRotatedCountsAsMoving() {
        SecondLook dl = look(sample(0, 5, 100, "x", 0, null, "1000"), sample(5000, 5, 100, "x", 0, null, "90000"), new Sink());
        assertEquals(89000, dl.downloadBytes());
        assertTrue(dl.moved().contains("download"));
        SecondLook rotated = look(sample(0, 5, 900000, "x", 0, null, null), sample(5000, 5, 120, "y", 0, null, null), new Sink());
        assertTrue(rotated.moved().contains("log"), rotated.toString());
    }

    @Test
    void unusableSamplesAreSaidSoAndCompareNothing() {
        Sink failed = new Sink();
        new LoadParser(CADENCE).secondLook(probe("first_look", "t_ms 1\n", 124), probe("second_look", "t_ms 2\n", 0), failed);
        assertFalse(failed.facts().stream().anyMatch(SecondLook.class::isInstance));
        assertTrue(failed.facts().stream().anyMatch(Unparseable.class::isInstance));
        Sink garbage = new Sink();
        assertEquals(null, look("proc 1 S 99999999999999999999999\n\u0000", "t_ms -5\nt_ms abc\n", garbage));
        assertTrue(garbage.facts().stream().anyMatch(Unparseable.class::isInstance));
    }

    @Test
    void theGpusTogetherAreAllPinnedAllIdleOrSplit() {
        GpuProfile p0 = new GpuProfile(0, "t", 100, 1000, 90, 5);
        GpuProfile p1 = new GpuProfile(1, "t", 100, 1000, 90, 5);
        Map<Integer, GpuProfile> profiles = Map.of(0, p0, 1, p1);
        assertEquals("all-pinned", LoadParser.gpuActivity(List.of(gpu(0, 70000, 100), gpu(1, 70000, 97)), profiles).pattern());
        assertEquals("all-idle", LoadParser.gpuActivity(List.of(gpu(0, 70000, 0), gpu(1, 70000, 2)), profiles).pattern());
        GpuActivity mixed = LoadParser.gpuActivity(List.of(gpu(0, 70000, 100), gpu(1, 70000, 0)), profiles);
        assertEquals("mixed", mixed.pattern());
        assertEquals(1, mixed.pinned());
        assertEquals("working", LoadParser.gpuActivity(List.of(gpu(0, 70000, 45), gpu(1, 70000, 50)), profiles).pattern());
        assertEquals("none", LoadParser.gpuActivity(List.of(gpu(0, 10, 100), gpu(1, 70000, -1)), profiles).pattern(),
                "a GPU with no model, and one whose utilisation was not read, say nothing");
    }

    private static Gpu gpu(int index, long mem, int util) {
        return new Gpu(index, "NVIDIA H100", mem, 81559, util, 300, 50, "P0", false, "gpus", index + 1, "");
    }

    @Test
    void aPartialDownloadInTheWeightsCacheIsDatedAgainstTheLook() {
        long clock = java.time.OffsetDateTime.parse("2026-08-14T13:31:02Z").toEpochSecond();
        String seconds = String.join("\n",
                "total 74436212",
                "-rw-r--r-- 1 root root 4584408792 13:17:44 0ab1d1f2b0f6a5f0e6b8e2c7d1a3c9f6",
                "-rw-r--r-- 1 root root 3127934976 13:31:02 a1e36f8a0c2e4b6d8f0a2c4e6b8d0f2a.incomplete",
                "-rw-r--r-- 1 root root  604241920 13:30:41 f6d8be3f5b7d9a1c3e5f7b9d1a3c5e7f.incomplete");
        io.triage.facts.WeightDownload d = download(seconds, clock);
        assertEquals(0, d.ageSeconds());
        assertEquals(3127934976L, d.sizeBytes());
        // ls -l's own style (month, day, minute) and long-iso
        assertEquals(2 * 3600 + 2 * 60 + 2, download("-rw-r--r-- 1 u g 12345 Aug 14 11:29 x.incomplete", clock).ageSeconds());
        assertEquals(86400 + 62, download("-rw-r--r-- 1 u g 12345 2026-08-13 13:30 x.incomplete", clock).ageSeconds());
        // no partial file, a garbled time, no clock: nothing
        Sink sink = new Sink();
        new LoadParser(CADENCE).partialDownloads(probe("hf_cache", "-rw-r--r-- 1 u g 1 13:31:02 done.safetensors\n"
                + "-rw-r--r-- 1 u g 1 25:61:00 x.incomplete\n", 0), clock, java.time.ZoneOffset.UTC, sink);
        new LoadParser(CADENCE).partialDownloads(probe("hf_cache", seconds, 0), -1, java.time.ZoneOffset.UTC, sink);
        assertTrue(sink.facts().stream().noneMatch(f -> f instanceof io.triage.facts.WeightDownload), sink.facts()::toString);
    }

    private static io.triage.facts.WeightDownload download(String listing, long clock) {
        Sink sink = new Sink();
        new LoadParser(CADENCE).partialDownloads(probe("hf_cache", listing + "\n", 0), clock, java.time.ZoneOffset.UTC, sink);
        return sink.facts().stream().filter(f -> f instanceof io.triage.facts.WeightDownload)
                .map(f -> (io.triage.facts.WeightDownload) f).findFirst().orElseThrow(() -> new AssertionError(sink.facts()));
    }

    @Test
    void aLogEndingInOneMessageRepeatedIsALoopAndShortOrMixedEndsAreNot(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        assertEquals("#-#-#T#:#:#.#Z INFO radix.rs:#: Prefix # - Suffix #",
                LogParser.numbersAside("2025-01-09T16:41:51.388552Z INFO radix.rs:108: Prefix 0 - Suffix 13715"));
        StringBuilder loop = new StringBuilder("2025-01-09T16:20:00.000000Z INFO router: Success\n");
        for (int i = 0; i < LogParser.LOOP_LINES; i++) {
            loop.append("2025-01-09T16:41:51.").append(100000 + i * 39).append("Z INFO radix.rs:108: Prefix 0 - Suffix 13715\n");
        }
        assertEquals(List.of(LogParser.LOOP_LINES), loops(tmp.resolve("a"), loop.toString()));
        // one line short of the loop, and a tail that alternates, are not a loop
        assertEquals(List.of(), loops(tmp.resolve("b"), loop.substring(loop.indexOf("\n") + 1).replaceFirst("^[^\n]*\n", "")));
        StringBuilder mixed = new StringBuilder();
        for (int i = 0; i < 2 * LogParser.LOOP_LINES; i++) {
            mixed.append(i % 2 == 0 ? "INFO waiting for shard " + i : "INFO shard ready " + i).append('\n');
        }
        assertEquals(List.of(), loops(tmp.resolve("c"), mixed.toString()));
    }

    private static List<Integer> loops(java.nio.file.Path dir, String log) throws Exception {
        java.nio.file.Files.createDirectories(dir);
        java.nio.file.Files.writeString(dir.resolve("log_tail.out"), log);
        return TestHome.triage().examine(dir, Map.of()).workingMemory().stream()
                .filter(io.triage.facts.LogLoop.class::isInstance).map(f -> ((io.triage.facts.LogLoop) f).lines()).toList();
    }
}
