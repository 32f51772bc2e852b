package io.triage.parse;

import io.triage.TestHome;
import io.triage.capture.ProbeOutput;
import io.triage.facts.Gpu;
import io.triage.facts.GpuApp;
import io.triage.facts.Generation;
import io.triage.facts.Health;
import io.triage.facts.KernelEvent;
import io.triage.facts.Proc;
import io.triage.facts.SmiFailure;
import io.triage.facts.Unparseable;
import io.triage.knowledge.ProcessPatterns;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ParsersTest {
    private static ProbeOutput probe(String name, String out, String err, Integer rc) {
        return new ProbeOutput(name, null, out, err, rc, rc == null ? null : 0.01, false);
    }

    private static <T> List<T> of(Sink sink, Class<T> type) {
        return sink.facts().stream().filter(type::isInstance).map(type::cast).toList();
    }

    private static Health health(String out, String err, Integer rc) {
        Sink s = new Sink();
        HealthParser.parse(probe("health", out, err, rc), s);
        return of(s, Health.class).get(0);
    }

    @Test
    void healthReadsCodeTimeAndCurlFailures() {
        assertEquals("ok", health("200 0.000643\n", "", 0).status());
        assertEquals(0.000643, health("200 0.000643\n", "", 0).seconds());
        assertEquals("http-error", health("503 0.01\n", "", 0).status());
        assertEquals("refused", health("000 0.0001\n", "curl: (7) Failed to connect to 127.0.0.1 port 30000", 7).status());
        assertEquals("timeout", health("000 5.002\n", "curl: (28) Operation timed out after 5002 milliseconds", 28).status());
        assertEquals("dns", health("000 0\n", "curl: (6) Could not resolve host: gpu-7", 6).status());
    }

    @Test
    void curlsVerboseOrIncludedHeadersGiveTheAnswersStatus() {
        String verbose = String.join("\n", "*   Trying 127.0.0.1:8000...", "* Connected to 127.0.0.1 port 8000 (#0)",
                "> GET /health HTTP/1.1", "> Host: 127.0.0.1:8000", ">", "< HTTP/1.1 503 Service Unavailable",
                "< server: uvicorn", "< content-length: 0", "<", "* Connection #0 to host 127.0.0.1 left intact", "");
        Health h = health(verbose, "", null);
        assertEquals("http-error", h.status());
        assertEquals(503, h.httpCode());
        // -i after a redirect: the last status line is the answer's
        Health i = health("HTTP/1.1 302 Found\nlocation: /health/\n\nHTTP/2 200 \ncontent-length: 2\n\nOK\n", "", null);
        assertEquals("ok", i.status());
        assertEquals(200, i.httpCode());
        // a request line names HTTP/1.1 too, and a body may quote a status: neither is the answer's status line
        Sink s = new Sink();
        HealthParser.parse(probe("health", "> GET /health HTTP/1.1\n{\"detail\":\"HTTP/1.1 200 expected\"}\n", "", null), s);
        assertTrue(of(s, Health.class).stream().noneMatch(x -> x.httpCode() == 200), of(s, Health.class).toString());
    }

    @Test
    void ollamasServerConfigIsReadAsItsArguments() {
        String line = "2024/12/09 14:21:41 routes.go:1197: INFO server config env=\"map[CUDA_VISIBLE_DEVICES: OLLAMA_DEBUG:false "
                + "OLLAMA_HOST:http://127.0.0.1:11434 OLLAMA_ORIGINS:[http://localhost https://localhost app://*] "
                + "OLLAMA_KEEP_ALIVE:5m0s]\"";
        Map<String, String> args = new java.util.LinkedHashMap<>();
        ArgsDump.parse(line).forEach(e -> args.put(e.getKey(), e.getValue()));
        assertEquals("127.0.0.1:11434", args.get("ollama_host"), "a URL value reads without its scheme: " + args);
        assertEquals("", args.get("cuda_visible_devices"));
        assertEquals("[http://localhost https://localhost app://*]", args.get("ollama_origins"), "a bracketed value is whole");
        assertEquals("5m0s", args.get("ollama_keep_alive"));
        // cut off mid-value: the pairs before the cut
        Map<String, String> cut = new java.util.LinkedHashMap<>();
        ArgsDump.parse(line.substring(0, line.indexOf("OLLAMA_HOST") + 20)).forEach(e -> cut.put(e.getKey(), e.getValue()));
        assertEquals(java.util.Set.of("cuda_visible_devices", "ollama_debug"), cut.keySet());
        // the newer releases' structured line: msg="server config" env="map[…]"
        Map<String, String> slog = new java.util.LinkedHashMap<>();
        ArgsDump.parse("time=2025-06-01T10:00:00.000Z level=INFO source=routes.go:1235 msg=\"server config\" env=\"map["
                + "OLLAMA_HOST:http://0.0.0.0:11434 OLLAMA_NUM_PARALLEL:4]\"").forEach(e -> slog.put(e.getKey(), e.getValue()));
        assertEquals("0.0.0.0:11434", slog.get("ollama_host"));
        assertEquals("4", slog.get("ollama_num_parallel"));
    }

    @Test
    void lmdeploysEngineConfigLineSaysWhichEngineRuns() {
        Map<String, String> args = new java.util.LinkedHashMap<>();
        ArgsDump.parse("2026-12-02 08:14:09,742 - lmdeploy - INFO - async_engine.py:130 - input backend=pytorch, "
                + "backend_config=PytorchEngineConfig(dtype='auto', tp=1, session_len=32768, max_batch_size=1024)")
                .forEach(e -> args.put(e.getKey(), e.getValue()));
        assertEquals("pytorch", args.get("backend"), args.toString());
        assertEquals("32768", args.get("session_len"), args.toString());
        assertEquals("1", args.get("tp"), args.toString());
    }

    @Test
    void aDumpAPasteWrappedIsReadWholeFromItsPieces() {
        String first = "Nov 18 09:40:12 h ollama[48211]: time=2026-11-18T09:40:12.402Z level=INFO source=routes.go:1331"
                + " msg=\"server config\" env=\"map[CUDA_VISIBLE_DEVICES: OLLAMA_CONTEXT_LEN";
        assertTrue(ArgsDump.open(first));
        // a key cut in two is glued back; a wrap at a space (a whole pair, then a key) takes the space back
        String joined = ArgsDump.join(ArgsDump.join(first, "GTH:4096 OLLAMA_KEEP_ALIVE:5m0s"), "OLLAMA_NUM_PARALLEL:1]\"");
        assertFalse(ArgsDump.open(joined));
        Map<String, String> args = new java.util.LinkedHashMap<>();
        ArgsDump.parse(joined).forEach(e -> args.put(e.getKey(), e.getValue()));
        assertEquals("4096", args.get("ollama_context_length"), args.toString());
        assertEquals("5m0s", args.get("ollama_keep_alive"), args.toString());
        assertEquals("1", args.get("ollama_num_parallel"), args.toString());
        // a value cut in two is glued back
        assertTrue(ArgsDump.join("env=\"map[OLLAMA_KEEP_ALIVE:5m", "0s]\"").endsWith("KEEP_ALIVE:5m0s]\""));
        // Python's dict: after a comma the space comes back, mid-word nothing is added
        assertEquals("non-default args: {'model': 'x', 'max_model_len': 4096}",
                ArgsDump.join(ArgsDump.join("non-default args: {'model': 'x',", "'max_mo"), "del_len': 4096}"));
        assertFalse(ArgsDump.open("non-default args: {'model': 'x', 'max_model_len': 4096}"));
        assertFalse(ArgsDump.open("INFO 11-30 00:31:01 loggers.py:118] Engine 000: Avg prompt throughput"));

        // in a log, the pieces that follow the dump's line are joined to it
        String journal = String.join("\n", first, "GTH:4096 OLLAMA_DEBUG:INFO OLLAMA_KEEP_ALIVE:5m0s",
                "OLLAMA_MODELS:/usr/share/ollama/.ollama/models OLLAMA_NUM_PARALLEL:1]\"",
                "Nov 18 09:40:12 h ollama[48211]: time=2026-11-18T09:40:12.405Z level=INFO source=routes.go:1384"
                        + " msg=\"Listening on 127.0.0.1:11434 (version 0.12.3)\"", "");
        io.triage.capture.Capture c = new io.triage.capture.Capture("t", Map.of("journal",
                new ProbeOutput("journal", null, journal, "", 0, 0.01, false)), Map.of("server", "ollama"), Map.of(), List.of());
        Map<String, String> read = new java.util.LinkedHashMap<>();
        new FactBuilder(TestHome.triage().knowledge()).build(c, Map.of()).facts().stream()
                .filter(io.triage.facts.ServerArg.class::isInstance).map(io.triage.facts.ServerArg.class::cast)
                .forEach(a -> read.put(a.name(), a.value()));
        assertEquals("4096", read.get("ollama_context_length"), read.toString());
        assertEquals("1", read.get("ollama_num_parallel"), read.toString());
    }

    @Test
    void aResetOnAFreshConnectionIsNothingServing() {
        // docker's port proxy accepts and resets when nothing listens inside the container
        assertEquals("refused", health("000 0.001\n", "curl: (56) Recv failure: Connection reset by peer", 56).status());
        assertEquals("refused", health("", "curl: (56) Recv failure: Connection reset by peer", null).status());
    }

    private static Generation generation(String out, String err, Integer rc) {
        Sink s = new Sink();
        GenerationParser.parse(probe("generate", out, err, rc), s);
        return of(s, Generation.class).get(0);
    }

    @Test
    void aRealRequestsAnswerKeepsItsCodeTimeAndErrorBody() {
        Generation stub = generation("{\"error\":\"Failed to process the request(s) for model instance 'm_0_0', message: "
                + "Stub process 'm_0_0' is not healthy.\"}\n500 0.004118\n", "", 0);
        assertEquals("http-error", stub.status());
        assertEquals(500, stub.httpCode());
        assertTrue(stub.body().contains("Stub process 'm_0_0' is not healthy"), stub.body());
        assertTrue(stub.excerpt().startsWith("500 0.004118 | {"), stub.excerpt());
        Generation hang = generation("\n000 120.001524\n", "curl: (28) Operation timed out after 120001 milliseconds with 0"
                + " bytes received", null);
        assertEquals("timeout", hang.status());
        assertEquals(120.001524, hang.seconds());
        // a generation may run for minutes: 000 after 120 s is not curl's time-out unless curl says so
        assertEquals("ok", generation("{\"choices\":[{\"text\":\"hi\"}]}\n200 0.8\n", "", null).status());
    }

    @Test
    void anErrorBodyPrintedWithoutCurlsCodeStatesItsOwn() {
        // curl -s pasted: no "%{http_code}" line, but an OpenAI-compatible error body carries the HTTP status
        Generation dead = generation("{\"error\":{\"message\":\"EngineCore encountered an issue. See stack trace (above) for"
                + " the root cause.\",\"type\":\"Internal Server Error\",\"param\":null,\"code\":500}}\n", "", null);
        assertEquals("http-error", dead.status());
        assertEquals(500, dead.httpCode());
        assertEquals(503, generation("{\"object\":\"error\",\"message\":\"x\",\"type\":\"ServiceUnavailable\",\"code\":503}\n",
                "", null).httpCode());
        // words of the body are not curl's: a 400 that says "timeout" is a 400
        Generation bad = generation("{\"object\":\"error\",\"message\":\"extra field timeout not permitted\",\"type\":"
                + "\"BadRequestError\",\"code\":400}\n", "", null);
        assertEquals("http-error", bad.status());
        assertEquals(400, bad.httpCode());
        // a code curl printed wins over the body's; a body with no code, or cut off, states nothing
        assertEquals(502, generation("{\"error\":{\"code\":500}}\n502 0.01\n", "", null).httpCode());
        Sink s = new Sink();
        GenerationParser.parse(probe("generate", "{\"error\":\"Input validation error\",\"error_type\":\"validation\"}\n", "", null), s);
        assertTrue(of(s, Generation.class).isEmpty());
        Sink cut = new Sink();
        GenerationParser.parse(probe("generate", "{\"error\":{\"message\":\"EngineCore enc", "", null), cut);
        assertTrue(of(cut, Generation.class).isEmpty());
    }

    @Test
    void aResetOnARealRequestIsAnAnswerCutOffNotNothingListening() {
        assertEquals("other", generation("", "curl: (56) Recv failure: Connection reset by peer", null).status());
        // an answer whose body quotes a curl error is still the answer
        assertEquals("ok", health("{\"detail\": \"upstream said curl: (7) refused\"}\n200 0.01\n", "", null).status());
        assertEquals("timeout", generation("rc=28\n", "", null).status());
        assertEquals("", generation("rc=28\n", "", null).body(), "the shell's status is not the answer's body");
    }

    @Test
    void theShellsEchoedStatusAfterASilentCurlIsCurlsExitCode() {
        assertEquals("timeout", generation("rc=28\n", "", null).status());
        assertEquals("refused", generation("exit=7\n", "", null).status());
        assertEquals("timeout", health("rc=28\n", "", null).status());
    }

    @Test
    void pastedHealthWithoutExitCodeIsReadFromCurlsText() {
        assertEquals("refused", health("", "curl: (7) Failed to connect to localhost port 8000: Connection refused", null).status());
        assertEquals("ok", health("200\n", "", null).status());
    }

    @Test
    void curlsNoAnswerCodeSavedAloneIsReadByItsTime() {
        // stdout kept without curl's error text or exit code: 000 is "no HTTP answer"; its time says which
        assertEquals("refused", health("000 0.000191\n", "", null).status());
        assertEquals("timeout", health("000 5.001843\n", "", null).status());
        ProbeOutput longer = new ProbeOutput("health", "curl -sS --max-time 10 http://127.0.0.1:8000/health", "000 9.98\n",
                "", null, null, false);
        Sink s = new Sink();
        HealthParser.parse(longer, s);
        assertEquals("timeout", of(s, Health.class).get(0).status(), "curl's own --max-time");
        Sink between = new Sink();
        HealthParser.parse(probe("health", "000 2.5\n", "", null), between);
        assertTrue(of(between, Health.class).isEmpty(), "2.5 s of a 5 s limit, then no answer: neither refused nor timed out");
        assertEquals(1, of(between, Unparseable.class).size());
    }

    @Test
    void aGraphicsOnlyClientInTheTableIsNoComputeApp() {
        String table = """
                | Processes:                                                                              |
                |  GPU   GI   CI              PID   Type   Process name                        GPU Memory |
                |=========================================================================================|
                |    0   N/A  N/A         2291847      C   /usr/bin/python3                      33196MiB |
                |    1   N/A  N/A            2114      G   /usr/lib/xorg/Xorg                      212MiB |
                |    1   N/A  N/A            2390    C+G   /usr/bin/gnome-shell                     38MiB |
                +-----------------------------------------------------------------------------------------+
                """;
        Sink s = new Sink();
        NvidiaSmiParser.table(probe("nvidia_smi_full", table, "", 0), s);
        assertEquals(List.of(2291847, 2390), of(s, io.triage.facts.GpuApp.class).stream().map(io.triage.facts.GpuApp::pid).toList());
    }

    @Test
    void exitCodesThatAreTheAnswerAreNotAProbesFailure() {
        // systemctl status says 3 for a unit that is not active, and prints its status all the same
        ProbeOutput inactive = new ProbeOutput("systemctl_status", null, "\u25cb vllm.service - vLLM\n     Active: inactive (dead)\n",
                "", 3, 0.03, false);
        assertEquals("ok", FactBuilder.status(inactive).status());
        assertEquals("failed", FactBuilder.status(new ProbeOutput("systemctl_status", null, "", "Failed to connect to bus", 3,
                0.03, false)).status(), "3 with nothing printed is no status");
        // a real request curl could not complete is an answer, as health's is
        assertEquals("ok", FactBuilder.status(new ProbeOutput("generate", null, "000 600.0\n", "curl: (28) timed out", 28,
                600.0, false)).status());
        assertEquals("ok", FactBuilder.status(new ProbeOutput("health_generate", null, "000 5.0\n", "curl: (28) timed out", 28,
                5.0, false)).status(), "SGLang's /health_generate runs a real generation");
    }

    @Test
    void aCommandsRefusalSavedWithoutItsExitCodeIsAFailureNotAnEmptyReading() {
        ProbeOutput denied = new ProbeOutput("dmesg", null, "dmesg: read kernel buffer failed: Operation not permitted\n",
                null, null, null, false);
        assertEquals("failed", FactBuilder.status(denied).status());
        ProbeOutput deniedErr = new ProbeOutput("dmesg", null, "", "dmesg: read kernel buffer failed: Operation not permitted",
                null, null, false);
        assertEquals("failed", FactBuilder.status(deniedErr).status());
        ProbeOutput missing = new ProbeOutput("nvidia_smi_full", null, "bash: nvidia-smi: command not found\n", null, null,
                null, false);
        assertEquals("not-found", FactBuilder.status(missing).status());
        ProbeOutput noLog = new ProbeOutput("log_tail", null,
                "tail: cannot open '/var/log/vllm.log' for reading: No such file or directory\n", null, null, null, false);
        assertEquals("missing-file", FactBuilder.status(noLog).status());
        // a log that quotes a denial among its lines is read as a log
        ProbeOutput log = new ProbeOutput("log_tail", null, "INFO starting\nPermissionError: [Errno 13] Permission denied: '/models'\n",
                null, null, null, false);
        assertEquals("no-exit-code", FactBuilder.status(log).status());
        ProbeOutput oneLine = new ProbeOutput("log_markers", null, "PermissionError: [Errno 13] Permission denied: '/models'\n",
                "", 0, 0.01, false);
        assertEquals("ok", FactBuilder.status(oneLine).status(), "a single log line quoting a denial is a log line");
        ProbeOutput collected = new ProbeOutput("log_tail", null, "tail: cannot open '/var/log/x.log' for reading: No such file or directory\n",
                "", 0, 0.01, false);
        assertEquals("missing-file", FactBuilder.status(collected).status(), "with an exit code, the same words say the same");
    }

    @Test
    void garbledHealthOutputIsUnparseableNotAnException() {
        Sink s = new Sink();
        HealthParser.parse(probe("health", "\u0000\u0001garbage", "", null), s);
        assertEquals(1, of(s, Unparseable.class).size());
    }

    @Test
    void gpuCsvWithUnitsNotAvailableAndErrFields() {
        Sink s = new Sink();
        NvidiaSmiParser.gpuCsv(probe("gpus", "0, NVIDIA H200, 25357 MiB, 143771 MiB, 92 %, 382.24 W, 55, P0\n"
                + "1, NVIDIA H200, [N/A], 143771 MiB, ERR!, [N/A], 40, P0\nnot a row\n", "", 0), s);
        List<Gpu> gpus = of(s, Gpu.class);
        assertEquals(2, gpus.size());
        assertEquals(25357, gpus.get(0).memUsedMiB());
        assertEquals(92, gpus.get(0).utilPct());
        assertEquals(382.24, gpus.get(0).powerW());
        assertEquals(-1, gpus.get(1).memUsedMiB());
        assertTrue(gpus.get(1).errField());
        assertEquals("err-field", of(s, SmiFailure.class).get(0).kind());
        assertEquals(1, of(s, Unparseable.class).size());
    }

    @Test
    void nvidiaSmiFailureTexts() {
        String[][] cases = {
            {"Failed to initialize NVML: Driver/library version mismatch", "driver-mismatch"},
            {"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.", "no-driver"},
            {"Unable to determine the device handle for GPU 0000:41:00.0: Unknown Error", "device-handle"},
            {"Unable to determine the device handle for GPU0000:3B:00.0: GPU is lost.  Reboot the system to recover this GPU", "device-handle"},
            {"No devices were found", "no-devices"},
        };
        for (String[] c : cases) {
            Sink s = new Sink();
            NvidiaSmiParser.table(probe("nvidia_smi_full", c[0] + "\n", "", 9), s);
            assertEquals(c[1], of(s, SmiFailure.class).get(0).kind(), c[0]);
        }
        Sink s = new Sink();
        NvidiaSmiParser.gpuCsv(probe("gpus", "", "", 124), s);
        assertEquals("timeout", of(s, SmiFailure.class).get(0).kind());
    }

    @Test
    void humanTableGpusAndProcesses() throws Exception {
        String table = java.nio.file.Files.readString(TestHome.fixture("h200/01-healthy-serving").resolve("nvidia_smi_full.out"));
        Sink s = new Sink();
        NvidiaSmiParser.table(probe("nvidia_smi_full", table, "", 0), s);
        Gpu g = of(s, Gpu.class).get(0);
        assertEquals(0, g.index());
        assertEquals("NVIDIA H200", g.name());
        assertEquals(25357, g.memUsedMiB());
        assertEquals(143771, g.memTotalMiB());
        assertEquals(377, (int) g.powerW());
        assertEquals(44, g.tempC());
        GpuApp a = of(s, GpuApp.class).get(0);
        assertEquals(493, a.pid());
        assertEquals("python3", a.name());
        assertEquals(25348, a.usedMiB());
    }

    @Test
    void aCutOffTableSaysSoInsteadOfInventingAGpu() {
        String cut = "+-----+\n| NVIDIA-SMI 580.159.04   Driver Version: 580.159.04   CUDA Version: 13.0 |\n"
                + "|   0  NVIDIA H200                    On  |   00000000:00:06.0 Off |\n| N/A   44C    P0   ";
        Sink s = new Sink();
        NvidiaSmiParser.table(probe("nvidia_smi_full", cut, "", null), s);
        assertTrue(of(s, Gpu.class).isEmpty());
        assertFalse(of(s, Unparseable.class).isEmpty());
    }

    private static ProcessPatterns patterns() {
        return TestHome.triage().knowledge().processes();
    }

    @Test
    void pgrepNeverTakesTheProbeForTheServer() {
        Map<Integer, Proc> procs = new LinkedHashMap<>();
        ProcessParser.pgrep(probe("pgrep", "493 python3 /srv/llm/launch_server.py --port 30000\n"
                + "560 timeout 10 bash -c pgrep -fa 'sglang|vllm|launch_server|python'\n", "", 0), patterns(), procs, new Sink());
        assertEquals(List.of(493), List.copyOf(procs.keySet()));
        assertEquals("frontend", procs.get(493).role());
    }

    @Test
    void psPastedWithoutItsHeaderIsReadByTheShapeOfItsRows() {
        // ps -ef | grep vllm: UID PID PPID C STIME TTY TIME CMD, the prompt line first, grep itself last
        Map<Integer, Proc> full = new LinkedHashMap<>();
        Sink s = new Sink();
        ProcessParser.ps(probe("ps", "$ ps -ef | grep -i vllm\n"
                + "ubuntu     51790       1  1 Aug14 ?        00:58:12 VLLM::EngineCore\n"
                + "ubuntu     51822       1  6 Aug14 ?        04:52:17 VLLM::Worker_TP0\n"
                + "ubuntu     63310   61207  0 15:40 pts/3    00:00:00 grep --color=auto -i vllm\n", "", null), patterns(), full, s);
        assertEquals("worker", full.get(51822).role());
        assertEquals(1, full.get(51822).ppid());
        assertEquals("", full.get(51822).state(), "ps -ef shows no state");
        assertTrue(of(s, Unparseable.class).isEmpty(), of(s, Unparseable.class).toString());
        // ps aux | grep sglang: USER PID %CPU %MEM VSZ RSS TTY STAT START TIME COMMAND
        Map<Integer, Proc> bsd = new LinkedHashMap<>();
        ProcessParser.ps(probe("ps", "root      7781  0.0  1.2 31281920 6291456 ?   Tl   Nov29   3:05 python3 -m sglang.launch_server --port 30000\n"
                + "root      7902 99.5  2.0 41281920 9291456 ?   Rl   Nov29 1102:11 sglang::scheduler\n", "", null), patterns(), bsd, new Sink());
        assertEquals("T", bsd.get(7781).state());
        assertEquals("frontend", bsd.get(7781).role());
        assertEquals(6291456, bsd.get(7781).rssKiB());
        assertEquals("R", bsd.get(7902).state());
        // the standard probe's columns, headerless, are still read as such
        Map<Integer, Proc> std = new LinkedHashMap<>();
        ProcessParser.ps(probe("ps", "  756     1 Tl        11 758284 python3 /srv/llm/launch_server.py --port 30001\n", "", 0),
                patterns(), std, new Sink());
        assertEquals(11, std.get(756).elapsedSec());
    }

    @Test
    void psReadsStateElapsedAndParentAndRecognisesRenamedWorkers() {
        Map<Integer, Proc> procs = new LinkedHashMap<>();
        ProcessParser.ps(probe("ps", "  PID  PPID STAT ELAPSED   RSS COMMAND\n"
                + "  756     1 Tl        11 758284 python3 /srv/llm/launch_server.py --port 30001\n"
                + " 1201   756 Rl      3605 912000 VLLM::EngineCore\n"
                + " 1202   756 Dl        60 912000 VLLM::Worker_TP1\n"
                + " 1300     1 Z          5      0 [python3] <defunct>\n", "", 0), patterns(), procs, new Sink());
        assertEquals("T", procs.get(756).state());
        assertEquals(11, procs.get(756).elapsedSec());
        assertEquals("worker", procs.get(1201).role());
        assertEquals("vllm", procs.get(1201).server());
        assertEquals(756, procs.get(1201).ppid());
        assertEquals("D", procs.get(1202).state());
    }

    @Test
    void psWithEtimeAndOtherColumnOrder() {
        Map<Integer, Proc> procs = new LinkedHashMap<>();
        ProcessParser.ps(probe("ps", "USER PID STAT ELAPSED COMMAND\nroot 42 Sl 1-02:03:04 python -m sglang.launch_server --port 30000\n",
                "", null), patterns(), procs, new Sink());
        assertEquals(((24 + 2) * 60 + 3) * 60 + 4, procs.get(42).elapsedSec());
        assertEquals("sglang", procs.get(42).server());
    }

    @Test
    void psPastedUnderAUserAtHostPromptIsReadByItsOwnHeader() {
        // the prompt names the columns only in its -o list: the header line after it says which column is which
        Map<Integer, Proc> procs = new LinkedHashMap<>();
        ProcessParser.ps(probe("ps", "dev@ws-a6000:~$ ps -o pid,stat,etime,time,rss,cmd -C llama-server\n"
                + "    PID STAT     ELAPSED     TIME   RSS CMD\n"
                + " 733104 Dl+        24:07 00:01:09 40118732 /opt/llama.cpp/build/bin/llama-server -m /m.gguf --port 8080\n"
                + "dev@ws-a6000:~$ \n", "", null), patterns(), procs, new Sink());
        Proc p = procs.get(733104);
        assertEquals("D", p.state());
        assertEquals(24 * 60 + 7, p.elapsedSec(), "ELAPSED, not the CPU TIME beside it");
        assertEquals(40118732, p.rssKiB());
    }

    @Test
    void kernelLogOomKillerFormatsXidAndFallenOffTheBus() {
        Sink s = new Sink();
        KernelLogParser.parse(probe("dmesg", String.join("\n",
                "[Tue Sep 15 03:12:27 2026] oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),task_memcg=/user.slice,task=python3,pid=4242,uid=0",
                "[Tue Sep 15 03:12:27 2026] Out of memory: Killed process 4242 (python3) total-vm:81290112kB, anon-rss:1061248kB",
                "[Tue Sep 15 03:12:28 2026] Memory cgroup out of memory: Killed process 777 (VLLM::EngineCor) total-vm:1kB",
                "[  512.000] Out of memory: Kill process 999 (python) score 900 or sacrifice child",
                "[Tue Sep 15 03:15:00 2026] NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off the bus.",
                "[Tue Sep 15 03:16:00 2026] NVRM: Xid (PCI:0000:41:00): 13, pid=1234, name=python3, Graphics SM Warp Exception"), "", 0), s, 2026);
        List<KernelEvent> ev = of(s, KernelEvent.class);
        List<KernelEvent> oom = ev.stream().filter(e -> e.kind().equals("oom-kill")).toList();
        assertEquals(List.of(4242, 777, 999), oom.stream().map(KernelEvent::pid).toList());
        assertEquals("VLLM::EngineCor", oom.get(1).process());
        assertTrue(oom.get(0).epoch() > 0);
        assertEquals(List.of(79, 13), ev.stream().filter(e -> e.kind().equals("xid")).map(KernelEvent::code).toList());
        assertTrue(ev.stream().anyMatch(e -> e.kind().equals("fallen-off-bus")));
    }

    @Test
    void argumentDumpsOfEachServer() {
        assertEquals(Map.entry("moe_runner_backend", "flashinfer_cutlass"), ArgsDump.parse(
                "[2026-11-30 00:30:55] server_args=ServerArgs(model_path='demo/x', tp_size=1, moe_runner_backend='flashinfer_cutlass', log_level='info')").get(2));
        List<Map.Entry<String, String>> v = ArgsDump.parse("INFO 11-30 10:00:01 [utils.py:326] non-default args: {'model': 'Qwen/Qwen3-8B', 'max_model_len': 8192, 'enforce_eager': True}");
        assertEquals(List.of(Map.entry("model", "Qwen/Qwen3-8B"), Map.entry("max_model_len", "8192"), Map.entry("enforce_eager", "true")), v);
        List<Map.Entry<String, String>> t = ArgsDump.parse("2024-05-09T16:43:10Z INFO text_generation_launcher: Args { model_id: \"google/gemma-7b-it\", revision: None, sharded: None, port: 80 }");
        assertEquals(Map.entry("model_id", "google/gemma-7b-it"), t.get(0));
        assertEquals(Map.entry("port", "80"), t.get(3));
        // a dump cut off mid-way keeps the complete pairs only
        List<Map.Entry<String, String>> cut = ArgsDump.parse("server_args=ServerArgs(model_path='m', port=8000, nccl_port=None, che...");
        assertEquals(3, cut.size());
        assertEquals(List.of(Map.entry("moe_runner_backend", "flashinfer_trtllm"), Map.entry("port", "30000"), Map.entry("trust_remote_code", "true")),
                ArgsDump.commandLine("python3 launch_server.py --moe-runner-backend flashinfer_trtllm --port=30000 --trust-remote-code"));
    }

    @Test
    void dmesgTimesAreTheHostsLocalTimeAndDockerJsonRecordsCarryTheirOwn() {
        java.time.ZoneOffset minus5 = java.time.ZoneOffset.ofHours(-5);
        long utc = java.time.LocalDateTime.of(2025, 3, 11, 14, 2, 7).toEpochSecond(java.time.ZoneOffset.UTC);
        assertEquals(utc, Timestamps.dmesg("[Tue Mar 11 09:02:07 2025] Out of memory: Killed process 3656 (python3)", minus5));
        // a json-file record: its time field, not the zone-less time inside the line, says when it was written
        String rec = "{\"log\":\"INFO 03-11 14:02:04 metrics.py:449] Avg prompt throughput: 9.1 tokens/s\\n\","
                + "\"stream\":\"stdout\",\"time\":\"2025-03-11T14:02:04.611852643Z\"}";
        assertEquals(utc - 3, LogParser.dockerJsonTime(rec));
        assertEquals(-1, LogParser.dockerJsonTime("INFO 03-11 14:02:04 metrics.py:449] \"time\":\"2025-03-11T14:02:04Z\""));
    }

    @Test
    void timestampsOfEachFormat() {
        java.time.ZoneOffset utc = java.time.ZoneOffset.UTC;
        long t = java.time.LocalDateTime.of(2026, 11, 30, 0, 31, 1).toEpochSecond(utc);
        assertEquals(t, Timestamps.log("[2026-11-30 00:31:01] The server is fired up", utc, 2026));
        assertEquals(t, Timestamps.log("[2026-11-30 00:31:01 TP0] Decode batch.", utc, 2026));
        assertEquals(t, Timestamps.log("INFO 11-30 00:31:01 [loggers.py:118] Engine 000", utc, 2026));
        assertEquals(t, Timestamps.log("2026-11-30T00:31:01.214Z  INFO text_generation_router", utc, 2026));
        assertEquals(t - 3600, Timestamps.log("2026-11-30T00:31:01+01:00 x", utc, 2026));
        assertEquals(-1, Timestamps.log("INFO:     127.0.0.1:43912 - \"POST /v1/completions HTTP/1.1\" 200 OK", utc, 2026));
        assertEquals(-1, Timestamps.log("[2026-13-45 99:99:99] impossible", utc, 2026));
        // date's default output in a zone whose abbreviation names one offset, and one that names several
        assertEquals(java.time.LocalDateTime.of(2026, 12, 15, 13, 20, 16).toEpochSecond(utc),
                Timestamps.plainDate("Tue Dec 15 14:20:16 CET 2026").toEpochSecond());
        assertEquals(null, Timestamps.plainDate("Tue Dec 15 14:20:16 CST 2026"));
        assertTrue(LoadParser.partial("-rw-r--r-- 1 a a 12 14:21 x.gguf.downloadInProgress"));
        assertTrue(LoadParser.partial("-rw-r--r-- 1 a a 12 14:21 sha256-3291abe70f16-partial"));
        assertFalse(LoadParser.partial("-rw-r--r-- 1 a a 12 14:21 model.safetensors"));
    }

    private static List<io.triage.facts.LogMarker> markers(String log) {
        io.triage.capture.Capture c = new io.triage.capture.Capture("t", Map.of("log_tail",
                new ProbeOutput("log_tail", null, log, "", 0, 0.01, false)), Map.of("server", "sglang"), Map.of(), List.of());
        return new FactBuilder(TestHome.triage().knowledge()).build(c, Map.of()).facts().stream()
                .filter(io.triage.facts.LogMarker.class::isInstance).map(io.triage.facts.LogMarker.class::cast).toList();
    }

    private static List<KernelEvent> kernelEvents(Map<String, String> files) {
        Map<String, ProbeOutput> probes = new LinkedHashMap<>();
        files.forEach((n, out) -> probes.put(n, new ProbeOutput(n, null, out, "", null, null, false)));
        io.triage.capture.Capture c = new io.triage.capture.Capture("t", probes, Map.of(), Map.of(), List.of());
        return new FactBuilder(TestHome.triage().knowledge()).build(c, Map.of()).facts().stream()
                .filter(KernelEvent.class::isInstance).map(KernelEvent.class::cast).toList();
    }

    @Test
    void kernelJournalsSavedUnderJournalctlNamesAreKernelLogsEachOne() {
        String oom = "Jul 14 23:52:07 h kernel: Memory cgroup out of memory: Killed process 58214 (ollama) total-vm:1kB,"
                + " anon-rss:1kB, file-rss:0kB, shmem-rss:0kB, UID:997 pgtables:8kB oom_score_adj:0\n";
        String xid = "Jul 14 23:50:01 h kernel: NVRM: Xid (PCI:0000:17:00): 79, pid=1, name=python, GPU has fallen off the bus.\n";
        assertEquals(List.of("oom-kill"), kernelEvents(Map.of("journalctl_k", oom)).stream().map(KernelEvent::kind)
                .filter(k -> k.startsWith("oom")).distinct().toList());
        // beside a journal_kernel already there, and a second kernel journal: neither is dropped
        List<String> kinds = kernelEvents(Map.of("journal_kernel", "-- No entries --\n", "journalctl_k", xid,
                "journalctl_dmesg", oom)).stream().map(KernelEvent::kind).toList();
        assertTrue(kinds.contains("xid"), kinds.toString());
        assertTrue(kinds.stream().anyMatch(k -> k.startsWith("oom")), kinds.toString());
        // a unit's journal (kubelet) is not the kernel's
        assertFalse(FactBuilder.isKernelJournal("journalctl_kubelet"));
        assertFalse(FactBuilder.isKernelJournal("journal_k8s"));
        assertTrue(FactBuilder.isKernelJournal("journal_k"));
    }

    private static List<io.triage.facts.LogMarker> markers(String server, Map<String, String> files) {
        return facts(Map.of("server", server), files).stream()
                .filter(io.triage.facts.LogMarker.class::isInstance).map(io.triage.facts.LogMarker.class::cast).toList();
    }

    @Test
    void aSupervisorsJournalOfLaunchesThatRanDoesNotOutdateTheUntimedLogThoseLaunchesWrote() {
        String tail = String.join("\n", "build: 6400 (a1b2c3d4) with cc 13.3.0 for x86_64-linux-gnu",
                "main: binding port with default address family",
                "main: couldn't bind HTTP server socket, hostname: 0.0.0.0, port: 8080",
                "srv    operator(): operator(): cleaning up before exit...", "");
        String ran = String.join("\n",
                "Nov 20 10:14:36 ws systemd[1]: Started llama-server.service - llama.cpp server.",
                "Nov 20 10:14:36 ws systemd[1]: llama-server.service: Main process exited, code=exited, status=1/FAILURE",
                "Nov 20 10:14:36 ws systemd[1]: llama-server.service: Failed with result 'exit-code'.",
                "Nov 20 10:14:41 ws systemd[1]: llama-server.service: Start request repeated too quickly.", "");
        // the unit's launches ran the server, whose output is the file: the file's bind failure is the newest run's
        assertTrue(markers("llamacpp", Map.of("log_tail", tail, "journal", ran)).stream()
                .anyMatch(m -> m.kind().equals("address-in-use") && m.currentRun()));
        // the newest start never ran the main process (a pre-start check failed): it is newer than the file's runs
        String neverRan = String.join("\n",
                "Nov 20 09:00:00 ws systemd[1]: Started llama-server.service - llama.cpp server.",
                "Nov 20 10:14:36 ws systemd[1]: Stopped llama-server.service - llama.cpp server.",
                "Nov 20 10:14:36 ws systemd[1]: Starting llama-server.service - llama.cpp server...",
                "Nov 20 10:14:36 ws systemd[1]: llama-server.service: Control process exited, code=exited, status=1/FAILURE", "");
        assertTrue(markers("llamacpp", Map.of("log_tail", tail, "journal", neverRan)).stream()
                .noneMatch(m -> m.kind().equals("address-in-use") && m.currentRun()));
        // the main process never ran (systemd's 203/EXEC): its launches wrote nothing to the file
        assertTrue(markers("llamacpp", Map.of("log_tail", tail, "journal", ran.replace("status=1/FAILURE", "status=203/EXEC")))
                .stream().noneMatch(m -> m.kind().equals("address-in-use") && m.currentRun()));
        // a timed log is ordered by its times, as before: the journal stays after it
        String timed = "[2026-11-20 10:14:36] main: couldn't bind HTTP server socket, hostname: 0.0.0.0, port: 8080\n";
        assertTrue(markers("llamacpp", Map.of("log_tail", timed, "journal", String.join("\n",
                "Nov 20 10:20:00 ws systemd[1]: Started llama-server.service - llama.cpp server.",
                "Nov 20 10:20:01 ws systemd[1]: llama-server.service: Main process exited, code=exited, status=1/FAILURE", "")))
                .stream().noneMatch(m -> m.kind().equals("address-in-use") && m.currentRun()));
    }

    @Test
    void aSecondTableInOnePsOutputIsReadWithItsOwnHeader() {
        // top's table, then "ps -o pid,ppid,stat,etimes,rss,wchan:20,args" pasted after it: one ps probe, two headers
        String ps = String.join("\n",
                "    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND",
                "  48213 root      20   0   57.3g  24.6g  24.1g R 100.0  39.2  25:38.61 llama-server",
                "   1422 root      20   0 1264772  31856  14208 S   0.0   0.0   0:04.37 llama-swap",
                "    PID    PPID STAT ELAPSED   RSS WCHAN                COMMAND",
                "  48213    1422 Rl      1577 25803112 -                    /opt/llama.cpp/bin/llama-server --port 5801 -m /m/q.gguf",
                "");
        List<Object> f = facts(Map.of("ps", ps));
        assertTrue(f.stream().noneMatch(o -> o instanceof io.triage.facts.Unparseable), f::toString);
        io.triage.facts.Proc p = f.stream().filter(o -> o instanceof io.triage.facts.Proc q && q.pid() == 48213)
                .map(o -> (io.triage.facts.Proc) o).findFirst().orElseThrow();
        assertEquals("/opt/llama.cpp/bin/llama-server --port 5801 -m /m/q.gguf", p.args(), "the second header's columns");
        assertEquals(1422, p.ppid());
        assertEquals(1577, p.elapsedSec());
    }

    @Test
    void procStatusSaysWhetherASigkillWaitsAndGivesPgrepsProcessItsState() {
        String status = String.join("\n", "State:\tR (running)", "Threads:\t37", "SigPnd:\t0000000000000000",
                "ShdPnd:\t0000000000000100", "");
        Map<String, ProbeOutput> probes = new LinkedHashMap<>();
        probes.put("pgrep", new ProbeOutput("pgrep", null, "48213 /opt/llama.cpp/bin/llama-server --port 5801\n", "", 0, 0.01, false));
        probes.put("proc_status", new ProbeOutput("proc_status", "grep -E '^(State|SigPnd|ShdPnd)' /proc/48213/status",
                status, "", 0, 0.01, false));
        List<Object> f = new FactBuilder(TestHome.triage().knowledge())
                .build(new io.triage.capture.Capture("t", probes, Map.of(), Map.of(), List.of()), Map.of()).facts();
        io.triage.facts.ProcStatus st = f.stream().filter(o -> o instanceof io.triage.facts.ProcStatus)
                .map(o -> (io.triage.facts.ProcStatus) o).findFirst().orElseThrow();
        assertEquals(48213, st.pid(), "the PID the command names");
        assertTrue(st.killPending(), "ShdPnd bit 9: SIGKILL");
        assertEquals("R", f.stream().filter(o -> o instanceof io.triage.facts.Proc q && q.pid() == 48213)
                .map(o -> ((io.triage.facts.Proc) o).state()).findFirst().orElseThrow(), "pgrep gave no state; the status does");
        // another pending signal (SIGTERM, bit 15) is not a SIGKILL; garbage is said, not guessed
        probes.put("proc_status", new ProbeOutput("proc_status", "cat /proc/48213/status",
                "State:\tS (sleeping)\nSigPnd:\t0000000000004000\n", "", 0, 0.01, false));
        List<Object> g = new FactBuilder(TestHome.triage().knowledge())
                .build(new io.triage.capture.Capture("t", probes, Map.of(), Map.of(), List.of()), Map.of()).facts();
        assertTrue(g.stream().noneMatch(o -> o instanceof io.triage.facts.ProcStatus s && s.killPending()));
        probes.put("proc_status", new ProbeOutput("proc_status", null, "\u001b[31mnot a status\u00ff\n", "", 0, 0.01, false));
        List<Object> h = new FactBuilder(TestHome.triage().knowledge())
                .build(new io.triage.capture.Capture("t", probes, Map.of(), Map.of(), List.of()), Map.of()).facts();
        assertTrue(h.stream().anyMatch(o -> o instanceof io.triage.facts.Unparseable u && u.probe().equals("proc_status")));
        assertTrue(h.stream().noneMatch(o -> o instanceof io.triage.facts.ProcStatus));
    }

    private static List<Object> facts(Map<String, String> files) {
        return facts(Map.of(), files);
    }

    /** The facts of a capture of these probe outputs (each rc 0), with this target. */
    private static List<Object> facts(Map<String, String> target, Map<String, String> files) {
        Map<String, ProbeOutput> probes = new LinkedHashMap<>();
        files.forEach((n, out) -> probes.put(n, new ProbeOutput(n, null, out, "", 0, 0.01, false)));
        io.triage.capture.Capture c = new io.triage.capture.Capture("t", probes, target, Map.of(), List.of());
        return new FactBuilder(TestHome.triage().knowledge()).build(c, Map.of()).facts();
    }

    @Test
    void aWarningJustBeforeTheFirstStartIsThatLaunchsAndWorkLongAfterARunsEndIsALaterRun() {
        String log = String.join("\n",
                "WARNING 06-27 09:41:12 _custom_ops.py:14] Failed to import from vllm._C with ImportError('libcudart.so.12:"
                        + " cannot open shared object file: No such file or directory')",
                "INFO 06-27 09:41:17 api_server.py:177] vLLM API server version 0.5.0.post1", "");
        assertTrue(markers("vllm", Map.of("log_tail", log)).stream()
                .anyMatch(m -> m.markerId().equals("common.shared-object-missing") && m.currentRun()));
        // the same warning an hour before the start: an earlier run's
        String early = log.replace("09:41:12", "08:41:12");
        assertTrue(markers("vllm", Map.of("log_tail", early)).stream()
                .anyMatch(m -> m.markerId().equals("common.shared-object-missing") && !m.currentRun()));
        // a start that failed yesterday, then served work today with its own start unread: the failure is history
        String tgi = String.join("\n",
                "{\"timestamp\":\"2026-12-02T18:24:51.930114Z\",\"level\":\"ERROR\",\"fields\":{\"message\":\"Shard 0 failed to start\"},\"target\":\"text_generation_launcher\"}",
                "Error: ShardCannotStart",
                "{\"timestamp\":\"2026-12-03T10:12:14.871204Z\",\"level\":\"INFO\",\"message\":\"Success\",\"target\":\"text_generation_router::server\"}", "");
        List<io.triage.facts.LogMarker> m = markers("tgi", Map.of("log_tail", tgi));
        assertTrue(m.stream().anyMatch(x -> x.kind().equals("progress") && x.currentRun()), m.toString());
        assertTrue(m.stream().filter(x -> x.kind().equals("error")).noneMatch(io.triage.facts.LogMarker::currentRun), m.toString());
    }

    @Test
    void probesATakenAgainUnderTheirNameWithASuffixAreASecondLook() {
        String ps1 = "    PID STAT     TIME ELAPSED COMMAND\n  4821 Sl   00:09:42    4081 python3 -m sglang.launch_server --port 30000\n"
                + "  4840 Rl   01:19:07    4067 sglang::scheduler_TP0\n";
        String ps2 = "    PID STAT     TIME ELAPSED COMMAND\n  4821 Sl   00:09:43    4087 python3 -m sglang.launch_server --port 30000\n"
                + "  4840 Rl   01:19:14    4073 sglang::scheduler_TP0\n";
        String log1 = "[2026-03-10 14:06:40] Prefill batch, #new-seq: 1, #new-token: 8192\n[2026-03-10 14:06:41] Prefill batch, #new-seq: 1\n";
        Map<String, String> files = new LinkedHashMap<>();
        files.put("date", "2026-03-10T14:06:41+00:00\n");
        files.put("date_2", "2026-03-10T14:06:47+00:00\n");
        files.put("log_tail", log1);
        files.put("log_tail_2", log1 + "[2026-03-10 14:06:43] Prefill batch, #new-seq: 1, #new-token: 8192\n");
        files.put("ps_cpu", ps1);
        files.put("ps_cpu_2", ps2);
        files.put("gpus", "0, NVIDIA H100, 74911 MiB, 81559 MiB, 100 %, 683.41 W, 71, P0\n");
        files.put("gpus_2", "0, NVIDIA H100, 74911 MiB, 81559 MiB, 97 %, 690.10 W, 72, P0\n");
        io.triage.facts.SecondLook look = facts(files).stream().filter(io.triage.facts.SecondLook.class::isInstance)
                .map(io.triage.facts.SecondLook.class::cast).findFirst().orElseThrow();
        assertEquals(6000, look.intervalMs());
        assertEquals("log,cpu", look.moved(), look.excerpt());
        assertEquals(8.0, look.cpuSeconds(), 0.001);
        assertEquals("S,R", look.states());
        assertEquals(97, look.gpuUtilSecond());
        // what the log gained is only a health poll and a complaint: the log did not move with work
        files.put("log_tail_2", log1 + "[2026-03-10 14:06:44] INFO:     127.0.0.1:5 - \"GET /health HTTP/1.1\" 503\n"
                + "{\"timestamp\":\"2026-03-10T14:06:45Z\",\"level\":\"ERROR\",\"message\":\"no permits available\"}\n");
        files.put("ps_cpu_2", ps1.replace("4081", "4087").replace("4067", "4073"));
        look = facts(files).stream().filter(io.triage.facts.SecondLook.class::isInstance)
                .map(io.triage.facts.SecondLook.class::cast).findFirst().orElseThrow();
        assertEquals("", look.moved(), look.excerpt());
        assertEquals("log,cpu,gpu-memory", look.still(), look.excerpt());
        // the second take of the log is not read as more of the log
        assertTrue(facts(files).stream().filter(io.triage.facts.LogMarker.class::isInstance)
                .map(io.triage.facts.LogMarker.class::cast).noneMatch(m -> m.probe().equals("log_tail_2")));
    }

    @Test
    void aProcessStatusAndALogsSizeTakenTwiceSayWhetherTheMainThreadRanAndTheLogGrew() {
        String st = "State:\tD (disk sleep)\nThreads:\t35\nvoluntary_ctxt_switches:\t48117\nnonvoluntary_ctxt_switches:\t2203\nfolio_wait_bit_common\n";
        Map<String, String> files = new LinkedHashMap<>();
        files.put("date", "2026-03-08T03:15:21+00:00\n");
        files.put("date_2", "2026-03-08T03:15:31+00:00\n");
        files.put("proc_status", st);
        files.put("proc_status_2", st);
        files.put("log_stat", "7419 2026-03-08 03:03:37.284511902 +0000\n");
        files.put("log_stat_2", "7419 2026-03-08 03:03:37.284511902 +0000\n");
        io.triage.facts.SecondLook look = secondLook(files);
        assertEquals("", look.moved(), look.excerpt());
        assertEquals("switches,log", look.still(), look.excerpt());
        assertEquals("D", look.states());
        // the thread was switched in between (it may only have polled): not still, and not work either
        files.put("proc_status_2", st.replace("48117", "48121"));
        files.put("log_stat_2", "7600 2026-03-08 03:15:30.1 +0000\n");
        look = secondLook(files);
        assertEquals("log-size", look.moved(), look.excerpt());
        assertEquals("", look.still(), look.excerpt());
        // another process in the second take, or garbage: nothing compared, nothing guessed
        files.put("proc_status", "Pid:\t118352\n" + st);
        files.put("proc_status_2", "Pid:\t118999\n" + st);
        files.put("log_stat_2", "\u001b[31m7419\u00ff\n");
        assertTrue(facts(files).stream().noneMatch(io.triage.facts.SecondLook.class::isInstance));
    }

    @Test
    void procStatLinesGiveCpuSecondsAndGpuMemoryThatMovesIsASecondLookSignal() {
        // raw /proc/PID/stat: utime and stime are fields 14 and 15, in clock ticks; the comm may hold spaces
        assertArrayEquals(new long[] {4821, 123, 'R'}, LoadParser.statLine(
                "4821 (sglang::sched TP) R 4800 4800 4800 0 -1 4194560 912 0 3 0 11000 1300 0 0 20 0 103 0 5000 1 2"));
        assertArrayEquals(new long[] {28392, 246, 'S'}, LoadParser.statLine("28392 (sglang::schedul) S utime=22438 stime=2257 threads=103"));
        assertNull(LoadParser.statLine("28392 sglang::schedul S utime=22438"));
        assertNull(LoadParser.statLine("\u001b[31m1 (x) R garbage\u00ff"));
        Map<String, String> files = new LinkedHashMap<>();
        files.put("date", "2026-03-08T03:15:21+00:00\n");
        files.put("date_2", "2026-03-08T03:15:51+00:00\n");
        files.put("gpus", "0, NVIDIA H100, 74318 MiB, 81559 MiB, 100 %, 512.37 W, 61, P0\n1, NVIDIA H100, 74312 MiB, 81559 MiB, 100 %, 498.02 W, 58, P0\n");
        files.put("gpus_2", "0, NVIDIA H100, 74830 MiB, 81559 MiB, 100 %, 488.40 W, 61, P0\n1, NVIDIA H100, 74312 MiB, 81559 MiB, 43 %, 231.17 W, 55, P0\n");
        files.put("proc", "100 (python) R utime=121933 stime=9614 threads=41\n");
        files.put("proc_2", "100 (python) R utime=124024 stime=9678 threads=41\n");
        io.triage.facts.SecondLook look = secondLook(files);
        assertEquals("cpu,gpu-memory", look.moved(), look.excerpt());
        assertEquals(22.0, look.cpuSeconds(), 0.001, "1315 s, then 1337 s: each take's ticks in whole seconds");
        // the same memory to the MiB on every GPU is still, beside another signal compared
        files.put("gpus_2", files.get("gpus"));
        assertEquals("gpu-memory", secondLook(files).still());
        // alone it is no second look: a serving engine's memory does not move
        files.remove("proc");
        files.remove("proc_2");
        assertTrue(facts(files).stream().noneMatch(io.triage.facts.SecondLook.class::isInstance));
    }

    @Test
    void aComposeListingAndACrictlListingSayWhichContainerIsTheServers() {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("docker_compose_ps", String.join("\n",
                "NAME            IMAGE                                          COMMAND                  SERVICE   CREATED        STATUS                          PORTS",
                "llm-llama-1     ghcr.io/ggml-org/llama.cpp:server-cuda-b4991   \"/app/llama-server -…\"   llama     7 weeks ago    Restarting (1) 9 seconds ago",
                "llm-webui-1     ghcr.io/open-webui/open-webui:main             \"bash start.sh\"          webui     7 weeks ago    Up 26 minutes (healthy)         0.0.0.0:3000->8080/tcp",
                "garbage \u001b[2J\u00ff", ""));
        List<Object> f = facts(files);
        io.triage.facts.Container llama = f.stream().filter(o -> o instanceof io.triage.facts.Container c && c.name().equals("llm-llama-1"))
                .map(io.triage.facts.Container.class::cast).findFirst().orElseThrow();
        assertEquals(1, llama.exitCode(), "Restarting (1): the last exit's code");
        assertTrue(llama.server());
        assertTrue(f.stream().anyMatch(o -> o instanceof io.triage.facts.Container c && c.name().equals("llm-webui-1") && !c.server()));
        assertTrue(f.stream().anyMatch(o -> o instanceof io.triage.facts.Unparseable u && u.probe().equals("docker_compose_ps")));
        String crictl = String.join("\n",
                "CONTAINER           IMAGE               CREATED              STATE               NAME                ATTEMPT             POD ID              POD",
                "9d41c07e2b3a5       5b9c0e1f2a7d3       3 minutes ago        Exited              tgi                 46                  c8a1e5f02d7b4       tgi-llama-8b-6c9f7d8b5-x2kqp",
                "52e0b7a9c1d84       1f7a3c9e0b6d2       4 hours ago          Running             jupyter             0                   e07d2b9a4c1f8       debug-notebook-0",
                "b3f6d1e8a0c27       5b9c0e1f2a7d3       3 days ago           Running             tgi                 0                   4a9e7c2d1b0f6       tgi-mistral-7b-7d4b9c6f8-q8wzn", "");
        Map<String, String> target = Map.of("server", "tgi", "port", "8080",
                "log", "/var/log/pods/llm_tgi-llama-8b-6c9f7d8b5-x2kqp_3f0b6c2e-9a41-4d5e-b7a2-1c8e2d0f5a93/tgi/46.log");
        List<Object> g = facts(target, Map.of("crictl_ps", crictl));
        List<String> servers = g.stream().filter(o -> o instanceof io.triage.facts.SupervisorRecord r && r.server())
                .map(o -> ((io.triage.facts.SupervisorRecord) o).name()).toList();
        assertEquals(List.of("tgi-llama-8b-6c9f7d8b5-x2kqp/tgi"), servers, "the pod the target's log path names");
        // no log path: the containers that name a server, not the notebook
        List<String> named = facts(Map.of("crictl_ps", crictl)).stream().filter(o -> o instanceof io.triage.facts.SupervisorRecord r && r.server())
                .map(o -> ((io.triage.facts.SupervisorRecord) o).name()).toList();
        assertEquals(2, named.size(), named.toString());
        assertTrue(named.stream().noneMatch(n -> n.contains("jupyter")));
    }

    @Test
    void aDockerListingInAFormatOfOnesOwnIsReadByItsFields() {
        List<Object> f = facts(Map.of("docker_ps", "NAMES\tIMAGE\tSTATUS\nollama\tollama/ollama:0.17.6\tUp 3 weeks\n"
                + "vllm-a\tExited (137) 2 minutes ago\nnot\ta\trow\n"));
        List<io.triage.facts.Container> c = f.stream().filter(io.triage.facts.Container.class::isInstance)
                .map(io.triage.facts.Container.class::cast).toList();
        assertEquals(2, c.size(), c.toString());
        assertEquals("ollama/ollama:0.17.6", c.get(0).image());
        assertTrue(c.get(0).server(), "the image names a server");
        assertEquals(137, c.get(1).exitCode(), "Names and Status only: the name stands in for the image");
    }

    @Test
    void theBodyOfAFailedAnswerIsFoundAfterCurlsHeadersAndReadForTheServersErrors() {
        assertEquals("{\"error\":\"unable to load model: /m/blob\"}", GenerationParser.body(List.of(
                "HTTP/1.1 500 Internal Server Error", "Content-Type: application/json; charset=utf-8", "Content-Length: 40", "",
                "{\"error\":\"unable to load model: /m/blob\"}")));
        assertEquals("{\"ok\":1}", GenerationParser.body(List.of("* Trying 127.0.0.1:11434...", "> POST /api/chat HTTP/1.1",
                "< HTTP/1.1 200 OK", "< Content-Type: application/json", "<", "{\"ok\":1}")));
        assertEquals("", GenerationParser.body(List.of("500", "curl: (22) The requested URL returned error: 500")));
        // a plain-text body that reads like a header line, after the headers or without them, is the body
        assertEquals("Error: unable to load model: /m/blob", GenerationParser.body(List.of("HTTP/1.1 500 Internal Server Error",
                "Content-Type: text/plain", "", "Error: unable to load model: /m/blob")));
        assertEquals("RuntimeError: CUDA error: an illegal memory access", GenerationParser.body(List.of(
                "RuntimeError: CUDA error: an illegal memory access")));
        Map<String, String> target = Map.of("server", "ollama", "port", "11434");
        List<Object> f = facts(target, Map.of("generate", "HTTP/1.1 500 Internal Server Error\nContent-Type: application/json\n\n"
                + "{\"error\":\"unable to load model: /root/.ollama/models/blobs/sha256-4be1\"}\n"));
        assertTrue(f.stream().anyMatch(o -> o instanceof io.triage.facts.LogMarker m && m.probe().equals("generate")
                && m.markerId().equals("ollama.unable-to-load-model") && m.subtype().equals("model-load-error")), f.toString());
        // a 4xx is the client's mistake: its body says nothing of the server
        List<Object> g = facts(target, Map.of("generate", "HTTP/1.1 400 Bad Request\n\n{\"error\":\"unable to load model: /x\"}\n"));
        assertTrue(g.stream().noneMatch(o -> o instanceof io.triage.facts.LogMarker m && m.probe().equals("generate")));
    }

    @Test
    void aModelListingSaysTheContextLengthInEffect() {
        List<Object> f = facts(Map.of("models", "{\"object\":\"list\",\"data\":[{\"id\":\"DeepSeek-R1\",\"object\":\"model\","
                + "\"max_model_len\":16384}]}\n"));
        assertTrue(f.stream().anyMatch(o -> o instanceof io.triage.facts.ServerArg a && a.source().equals("effective")
                && a.name().equals("max_model_len") && a.value().equals("16384")), f.toString());
        // a length that is not a positive number is not one
        List<Object> g = facts(Map.of("models", "{\"data\":[{\"id\":\"m\",\"max_model_len\":\"\u001b[2Jlots\"}]}\n"));
        assertTrue(g.stream().noneMatch(o -> o instanceof io.triage.facts.ServerArg a && a.source().equals("effective")));
    }

    private static io.triage.facts.SecondLook secondLook(Map<String, String> files) {
        return facts(files).stream().filter(io.triage.facts.SecondLook.class::isInstance)
                .map(io.triage.facts.SecondLook.class::cast).findFirst().orElseThrow();
    }

    @Test
    void uncorrectableMemoryErrorsAndAPendingRepairAreReadFromAnNvidiaSmiQueryReport() {
        String q = String.join("\n", "==============NVSMI LOG==============", "", "Attached GPUs : 2",
                "GPU 00000000:4E:00.0", "    ECC Errors", "        Volatile", "            DRAM Correctable              : 3",
                "            DRAM Uncorrectable            : 2", "        Aggregate", "            DRAM Uncorrectable            : 9",
                "    Remapped Rows", "        Correctable Error                 : 0", "        Pending                           : Yes",
                "        Remapping Failure Occurred        : No",
                "GPU 00000000:4F:00.0", "    ECC Errors", "        Volatile", "            DRAM Uncorrectable            : 0",
                "        Aggregate", "            DRAM Uncorrectable            : 4",
                "    Remapped Rows", "        Pending                           : No", "");
        List<io.triage.facts.GpuMemoryErrors> e = facts(Map.of("nvidia_smi_q", q)).stream()
                .filter(io.triage.facts.GpuMemoryErrors.class::isInstance).map(io.triage.facts.GpuMemoryErrors.class::cast).toList();
        // the second GPU's errors are its lifetime's (Aggregate), nothing since the driver loaded, nothing pending
        assertEquals(1, e.size(), e.toString());
        assertEquals("00000000:4E:00.0", e.get(0).gpu());
        assertEquals(2, e.get(0).volatileUncorrectable());
        assertTrue(e.get(0).repairPending());
        assertFalse(e.get(0).remapFailed());
    }

    @Test
    void theSecondTakeOfALogIsComparedByItsLastLinesAsABlock() {
        List<String> a = List.of("x", "srv all slots are idle", "request: POST /completion 200", "srv all slots are idle");
        // four lines added, the last of the first take among them again: the block says where the first take ended
        List<String> b = new java.util.ArrayList<>(a);
        b.addAll(List.of("slot launch", "request: POST /completion 200", "srv all slots are idle", "done"));
        assertEquals(4, LoadParser.endOfBlock(a, b));
        assertEquals(a.size(), LoadParser.endOfBlock(a, a));
        assertEquals(0, LoadParser.endOfBlock(a, List.of("all new", "lines")));
        // the block twice: what was added cannot be told
        List<String> twice = new java.util.ArrayList<>(a);
        twice.addAll(a.subList(1, 4));
        assertTrue(LoadParser.endOfBlock(a, twice) < 0);
    }

    @Test
    void aPrettyPrintedArgsDumpIsReadToItsClosingBrace() {
        StringBuilder log = new StringBuilder("2024-05-01T10:00:00.000000Z  INFO text_generation_launcher: Args {\n");
        for (int i = 0; i < 40; i++) {
            log.append("    field_").append(i).append(": ").append(i).append(",\n");
        }
        log.append("    port: 8080,\n    max_total_tokens: 131072,\n}\n");
        io.triage.capture.Capture c = new io.triage.capture.Capture("t", Map.of("log_tail",
                new ProbeOutput("log_tail", null, log.toString(), "", 0, 0.01, false)), Map.of("server", "tgi"), Map.of(), List.of());
        Map<String, String> read = new java.util.LinkedHashMap<>();
        new FactBuilder(TestHome.triage().knowledge()).build(c, Map.of()).facts().stream()
                .filter(io.triage.facts.ServerArg.class::isInstance).map(io.triage.facts.ServerArg.class::cast)
                .forEach(x -> read.put(x.name(), x.value()));
        assertEquals("131072", read.get("max_total_tokens"), read.toString());
    }

    @Test
    void unfinishedDownloadsListedTwiceInOnePasteAreASecondLook() {
        String ls = String.join("\n", "$ date; ls -l ~/.cache/llama.cpp/", "Tue Dec 15 14:20:16 CET 2026",
                "-rw-rw-r-- 1 ana ana 12257615872 14:20:16 m-00002-of-00003.gguf.downloadInProgress",
                "$ sleep 60; date; ls -l ~/.cache/llama.cpp/ | grep downloadInProgress", "Tue Dec 15 14:21:16 CET 2026",
                "-rw-rw-r-- 1 ana ana 13354651648 14:21:16 m-00002-of-00003.gguf.downloadInProgress", "");
        io.triage.facts.SecondLook look = facts(Map.of("ls_cache", ls)).stream()
                .filter(io.triage.facts.SecondLook.class::isInstance).map(io.triage.facts.SecondLook.class::cast)
                .findFirst().orElseThrow();
        assertEquals(13354651648L - 12257615872L, look.downloadBytes());
        assertEquals(60_000, look.intervalMs());
        assertEquals("download", look.moved());
    }

    @Test
    void aNetworkFileServerTheKernelLastSaidDoesNotAnswerIsAnEvent() {
        String silent = "[Fri Nov 14 03:01:14 2025] nfs: server nas-ml01 not responding, still trying\n";
        assertEquals(List.of("nas-ml01"), kernelEvents(Map.of("dmesg", silent)).stream()
                .filter(k -> k.kind().equals("storage-not-responding")).map(KernelEvent::process).toList());
        // it answered again since: no event
        assertTrue(kernelEvents(Map.of("dmesg", silent + "[Fri Nov 14 03:02:00 2025] nfs: server nas-ml01 OK\n")).stream()
                .noneMatch(k -> k.kind().equals("storage-not-responding")));
        assertEquals(List.of("fs01"), kernelEvents(Map.of("dmesg",
                "[Fri Nov 14 03:01:14 2025] CIFS: VFS: \\\\fs01 has not responded in 180 seconds. Reconnecting...\n")).stream()
                .filter(k -> k.kind().equals("storage-not-responding")).map(KernelEvent::process).toList());
    }

    @Test
    void healthPollsAndServerErrorsAreNotServedWork() {
        List<io.triage.facts.LogMarker> m = markers(String.join("\n",
                "INFO:     10.0.0.1:1 - \"POST /v1/completions HTTP/1.1\" 200 OK",
                "INFO:     10.0.0.1:2 - \"GET /health HTTP/1.1\" 200 OK",
                "INFO:     10.0.0.1:3 - \"POST /v1/chat/completions HTTP/1.1\" 503 Service Unavailable", ""));
        assertEquals(List.of("access", "access-noise", "access-noise"), m.stream().map(io.triage.facts.LogMarker::kind).toList());
    }

    @Test
    void aThousandRequestsAreAHandfulOfFactsKeepingTheFirstAndTheLast() {
        StringBuilder b = new StringBuilder("[2026-11-30 00:00:00] server_args=ServerArgs(port=30000)\n");
        for (int i = 0; i < 1000; i++) {
            b.append("INFO:     10.0.0.1:").append(i).append(" - \"POST /v1/completions HTTP/1.1\" 200 OK\n");
        }
        List<io.triage.facts.LogMarker> access = markers(b.toString()).stream().filter(x -> x.kind().equals("access")).toList();
        assertEquals(2, access.size(), access.toString());
        assertTrue(access.get(0).excerpt().contains(":0 "));
        assertTrue(access.get(1).excerpt().contains(":999 "));
    }

    @Test
    void colourCodesAndCarriageReturnOverwritesAreCleanedFromLogLines() {
        assertEquals("INFO 02-21 14:19:58 loading", LogParser.clean("\u001B[1;36mINFO\u001B[0m 02-21 14:19:58 loading"));
        assertEquals("shards:  60% Completed | 6/10", LogParser.clean("shards:   0% Completed | 0/10\rshards:  60% Completed | 6/10\r"));
        assertEquals("plain", LogParser.clean("plain"));
        // srun --label: the task's number before each of its lines
        assertEquals("[2025-03-26 14:03:14] Received sigquit from a child process.",
                LogParser.clean("1: [2025-03-26 14:03:14] Received sigquit from a child process."));
        assertEquals("12:34:56 INFO up", LogParser.clean("12:34:56 INFO up"), "a time of day is no label");
        assertEquals("85:Killed", LogParser.clean("85:Killed"), "nor grep -n's number");
    }

    @Test
    void dockerPsRowsGiveContainersWithTheirExitCodes() {
        io.triage.capture.Capture c = new io.triage.capture.Capture("t", Map.of("docker_ps", new ProbeOutput("docker_ps", null,
                "CONTAINER ID   IMAGE                          COMMAND                  CREATED       STATUS                        PORTS                    NAMES\n"
                + "4be1c0a7e9d2   lmsysorg/sglang:v0.5.3-cu126   \"bash -c 'python3 -m…\"   6 hours ago   Exited (137) 12 minutes ago                            sglang-llama8b\n"
                + "9f03d2b1a6c4   michaelf34/infinity:0.0.76     \"infinity_emb v2 --m…\"   3 days ago    Up 3 days                     0.0.0.0:7997->7997/tcp   embed\n",
                "", null, null, false)), Map.of(), Map.of(), List.of());
        List<io.triage.facts.Container> cs = new FactBuilder(TestHome.triage().knowledge()).build(c, Map.of()).facts().stream()
                .filter(io.triage.facts.Container.class::isInstance).map(io.triage.facts.Container.class::cast).toList();
        assertEquals(2, cs.size(), cs.toString());
        assertEquals(137, cs.get(0).exitCode());
        assertEquals("sglang-llama8b", cs.get(0).name());
        assertEquals(-1, cs.get(1).exitCode());
        assertEquals("embed", cs.get(1).name());
    }

    @Test
    void gpuCsvColumnsComeFromTheQueryThatRanAndACutRowIsReported() {
        Sink s = new Sink();
        NvidiaSmiParser.gpuCsv(new ProbeOutput("gpus", "nvidia-smi --query-gpu=index,memory.used,memory.total,utilization.gpu,power.draw --format=csv,noheader",
                "0, 0 MiB, 97887 MiB, 0 %, 34.10 W\n1, 0 MiB, 97887 MiB, 0 %, 33.80 W\n2, 0 MiB, 978\n", "", 0, 0.05, false), s);
        List<Gpu> gpus = of(s, Gpu.class);
        assertEquals(2, gpus.size());
        assertEquals(0, gpus.get(1).memUsedMiB());
        assertEquals(97887, gpus.get(1).memTotalMiB());
        assertEquals(33.8, gpus.get(1).powerW());
        assertTrue(of(s, Unparseable.class).get(0).reason().contains("cut off"), of(s, Unparseable.class).toString());
    }
}
