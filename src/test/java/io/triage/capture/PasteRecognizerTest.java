package io.triage.capture;

import io.triage.TestHome;
import io.triage.capture.PasteRecognizer.How;
import io.triage.capture.PasteRecognizer.Kind;
import io.triage.explain.Diagnosis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PasteRecognizerTest {
    private static final PasteRecognizer RECOGNIZER = new PasteRecognizer(TestHome.triage().knowledge());
    /** The probes a person would paste, in the order they would run them. */
    private static final List<String> ORDER = List.of("date", "health", "gpus", "gpu_apps", "nvidia_smi_full", "pgrep",
            "ps", "listen", "log_tail", "dmesg");

    /** A paste built from a scenario's probe files, and where each probe's block landed. */
    private record Built(String text, Map<String, int[]> ranges) { }

    /**
     * Concatenates a scenario's probe outputs (stdout, then stderr, as a terminal shows them), each under a
     * prompt naming its recorded command when {@code prompts}; records each block's 1-based line range.
     */
    private static Built paste(String scenario, boolean prompts, List<String> probes) throws IOException {
        Path dir = TestHome.fixture(scenario);
        StringBuilder b = new StringBuilder();
        Map<String, int[]> ranges = new LinkedHashMap<>();
        int line = 0;
        for (String p : probes) {
            Path out = dir.resolve(p + ".out");
            if (!Files.exists(out)) {
                continue;
            }
            String text = Files.readString(out);
            Path err = dir.resolve(p + ".err");
            if (Files.exists(err)) {
                text += Files.readString(err);
            }
            if (!text.isEmpty() && !text.endsWith("\n")) {
                text += "\n";
            }
            int n = text.isEmpty() ? 0 : (int) text.chars().filter(c -> c == '\n').count();
            int first = line + 1;
            if (prompts) {
                b.append("user@gpu-node-3:~$ ").append(Files.readString(dir.resolve(p + ".cmd")).strip()).append('\n');
                line++;
            }
            b.append(text);
            line += n;
            ranges.put(p, new int[] {first, line});
        }
        return new Built(b.toString(), ranges);
    }

    private static Map<String, String> intent(String scenario) throws IOException {
        Path f = TestHome.fixture(scenario).resolve("intent.txt");
        Map<String, String> m = new LinkedHashMap<>();
        if (Files.exists(f)) {
            for (String l : Files.readAllLines(f)) {
                int eq = l.indexOf('=');
                if (eq > 0 && !l.startsWith("#")) {
                    m.put(l.substring(0, eq).strip(), l.substring(eq + 1).strip());
                }
            }
        }
        return m;
    }

    private static PasteSegment only(Recognition r, Kind kind) {
        List<PasteSegment> s = r.segments().stream().filter(x -> x.kind() == kind).toList();
        assertEquals(1, s.size(), () -> "one " + kind + " segment expected in " + r.summary());
        return s.get(0);
    }

    // ------------------------------------------------------------------ real shapes from the scenarios

    @Test
    void everyProbeUnderItsPromptIsASegmentWithTheProbesLinesAndOutput() throws IOException {
        String scenario = "06-oom-killer-host-ram-during-load";
        Built b = paste(scenario, true, ORDER);
        Recognition r = RECOGNIZER.recognise(b.text());
        Map<String, Kind> kinds = Map.of("date", Kind.DATE, "health", Kind.HEALTH, "gpus", Kind.GPU_CSV,
                "gpu_apps", Kind.GPU_APPS_CSV, "nvidia_smi_full", Kind.NVIDIA_SMI_TABLE, "pgrep", Kind.PGREP, "ps", Kind.PS,
                "listen", Kind.LISTENERS, "log_tail", Kind.SERVER_LOG, "dmesg", Kind.KERNEL_LOG);
        assertEquals(b.ranges().size(), r.segments().size(), r.summary()::toString);
        for (PasteSegment s : r.segments()) {
            int[] range = b.ranges().get(s.probe());
            assertNotNull(range, "unexpected segment " + s.describe());
            assertEquals(kinds.get(s.probe()), s.kind());
            assertEquals(How.PROMPT, s.how());
            assertEquals(range[0], s.fromLine(), s::describe);
            assertEquals(range[1], s.toLine(), s::describe);
        }
        assertTrue(r.unread().isEmpty(), r.summary()::toString);
        Path dir = TestHome.fixture(scenario);
        for (String p : List.of("log_tail", "dmesg", "nvidia_smi_full", "gpus", "pgrep")) {
            assertEquals(Files.readString(dir.resolve(p + ".out")), r.capture().probe(p).orElseThrow().out(), p);
        }
        assertEquals(Files.readString(dir.resolve("gpus.cmd")).strip(), r.capture().probe("gpus").orElseThrow().cmd());
        assertEquals(null, r.capture().probe("health").orElseThrow().rc(), "pasted output has no exit code");
        assertTrue(r.capture().probe("health").orElseThrow().err().startsWith("curl: (7)"), "curl's error is its stderr");
        assertEquals("30000", r.capture().target().get("port"), "the port comes from the pasted health command");
    }

    @ParameterizedTest
    @ValueSource(strings = {"04-external-kill-shell-killed-clean-dmesg", "06-oom-killer-host-ram-during-load",
            "33-gpu-fault-xid79-fallen-off-bus", "25-hung-stopped-vllm-ctrl-z", "11-crash-cuda-oom-vllm-graph-capture"})
    void withoutPromptsTheShapesCutThePasteWhereTheProbesMeet(String scenario) throws IOException {
        List<String> probes = List.of("date", "health", "nvidia_smi_full", "ps", "log_tail", "dmesg");
        Built b = paste(scenario, false, probes);
        Recognition r = RECOGNIZER.recognise(b.text());
        Map<String, Kind> kinds = Map.of("date", Kind.DATE, "health", Kind.HEALTH, "nvidia_smi_full",
                Kind.NVIDIA_SMI_TABLE, "ps", Kind.PS, "log_tail", Kind.SERVER_LOG, "dmesg", Kind.KERNEL_LOG);
        for (Map.Entry<String, int[]> e : b.ranges().entrySet()) {
            if (e.getValue()[1] < e.getValue()[0]) {
                continue; // an empty output leaves nothing to recognise without its prompt
            }
            PasteSegment s = only(r, kinds.get(e.getKey()));
            assertEquals(How.SHAPE, s.how());
            assertEquals(e.getValue()[0], s.fromLine(), s::describe);
            assertEquals(e.getValue()[1], s.toLine(), s::describe);
        }
        assertTrue(r.unread().isEmpty(), r.summary()::toString);
    }

    // ------------------------------------------------------------------ hand-written odd pastes

    @Test
    void aClientSdksTimeoutIsTheCallersOutputNotTheServersLog() {
        String paste = """
                PS C:\\eval> python run_eval.py --concurrency 16
                INFO:openai._base_client:Retrying request to /chat/completions in 0.447211 seconds
                Traceback (most recent call last):
                  File "C:\\eval\\.venv\\Lib\\site-packages\\httpx\\_transports\\default.py", line 101, in map_httpcore_exceptions
                    yield
                httpx.ReadTimeout: timed out

                The above exception was the direct cause of the following exception:

                Traceback (most recent call last):
                  File "C:\\eval\\.venv\\Lib\\site-packages\\openai\\_base_client.py", line 982, in request
                    response = self._client.send(
                openai.APITimeoutError: Request timed out.
                """;
        Recognition r = RECOGNIZER.recognise(paste);
        assertTrue(r.segments().stream().noneMatch(s -> s.probe().equals("log_tail")), r.summary()::toString);
        assertTrue(r.segments().stream().anyMatch(s -> s.kind() == Kind.CLIENT_OUTPUT), r.summary()::toString);
        assertTrue(r.capture().probe("log_tail").isEmpty());
    }

    @Test
    void aClientSdksErrorStatusCarryingTheServersFaultStaysEvidence() {
        String paste = """
                Traceback (most recent call last):
                  File "/home/u/.venv/lib/python3.11/site-packages/openai/_base_client.py", line 1047, in request
                    raise self._make_status_error_from_response(err.response) from None
                openai.InternalServerError: Error code: 500 - {'error': 'CUDA error: uncorrectable ECC error encountered'}
                """;
        Recognition r = RECOGNIZER.recognise(paste);
        assertTrue(r.segments().stream().noneMatch(s -> s.kind() == Kind.CLIENT_OUTPUT), r.summary()::toString);
        assertTrue(r.capture().probe("log_tail").isPresent(), r.summary()::toString);
    }

    @Test
    void aCountOfThingsIsNoProcessLine() {
        String paste = """
                PING 10.0.0.12 (10.0.0.12) 56(84) bytes of data.
                From 10.0.0.11 icmp_seq=1 Destination Host Unreachable

                --- 10.0.0.12 ping statistics ---
                3 packets transmitted, 0 received, +3 errors, 100% packet loss, time 2047ms
                64 bytes from 10.0.0.12: icmp_seq=1 ttl=64 time=0.211 ms
                """;
        Recognition r = RECOGNIZER.recognise(paste);
        assertTrue(r.capture().probe("pgrep").isEmpty(), r.summary()::toString);
        // a real pgrep -a line still is one
        assertTrue(RECOGNIZER.recognise("48133 python3 -m sglang.launch_server --port 30000\n").capture().probe("pgrep")
                .isPresent());
    }

    @Test
    void tritonsClientDeadlineIsTheCallersOutputButTritonsOwnUnavailableStaysEvidence() {
        String frames = """
                Traceback (most recent call last):
                  File "/home/u/venv/lib/python3.10/site-packages/tritonclient/grpc/_client.py", line 1572, in infer
                    raise_error_grpc(rpc_error)
                  File "/home/u/venv/lib/python3.10/site-packages/tritonclient/grpc/_utils.py", line 77, in raise_error_grpc
                    raise get_error_grpc(rpc_error) from None
                """;
        for (String client : List.of("[StatusCode.DEADLINE_EXCEEDED] Deadline Exceeded",
                "[StatusCode.UNAVAILABLE] failed to connect to all addresses; last error: UNKNOWN: ipv4:10.0.0.7:8001: Connection refused")) {
            Recognition r = RECOGNIZER.recognise(frames + "tritonclient.utils.InferenceServerException: " + client + "\n");
            assertTrue(r.segments().stream().anyMatch(s -> s.kind() == Kind.CLIENT_OUTPUT), r.summary()::toString);
            assertTrue(r.capture().probe("log_tail").isEmpty(), r.summary()::toString);
        }
        // Triton answers a request for a model that failed to load with UNAVAILABLE too: the server's word
        Recognition r = RECOGNIZER.recognise(frames + "tritonclient.utils.InferenceServerException: [StatusCode.UNAVAILABLE]"
                + " Request for unknown model: 'llama' has no available versions\n");
        assertTrue(r.segments().stream().noneMatch(s -> s.kind() == Kind.CLIENT_OUTPUT), r.summary()::toString);
        assertTrue(r.capture().probe("log_tail").isPresent(), r.summary()::toString);
    }

    @Test
    void aCommandContinuedOverLinesAndALoopOverOneCommandAreReadByThatCommand() {
        String paste = """
                ```console
                $ curl -s http://10.0.0.7:8000/v1/models
                {"object":"list","data":[{"id":"m","object":"model","created":1,"owned_by":"vllm"}]}
                $ curl -s http://10.0.0.7:8000/v1/chat/completions -H 'Content-Type: application/json' \\
                > -d '{"model":"m","messages":[{"role":"user","content":"ping"}],"max_tokens":4}'
                {"error":{"message":"EngineCore encountered an issue.","type":"Internal Server Error","param":null,"code":500}}
                $ for i in 1 2; do curl -s -o /dev/null -w '%{http_code} %{time_total}\\n' http://10.0.0.7:8000/v1/completions; done
                500 0.004127
                500 0.003881
                ```
                """;
        Recognition r = RECOGNIZER.recognise(paste);
        assertEquals("models", only(r, Kind.MODELS).probe());
        // the continued line is the command's, not the answer: the answer is the error body alone
        assertTrue(r.capture().probe("generate").orElseThrow().outOrEmpty().startsWith("{\"error\""), r.summary()::toString);
        assertFalse(r.capture().probe("generate").orElseThrow().outOrEmpty().contains("-d '"), r.summary()::toString);
        // the loop's answers are requests' answers too, not a health probe's
        assertTrue(r.segments().stream().noneMatch(s -> s.kind() == Kind.HEALTH), r.summary()::toString);
        assertTrue(r.capture().probe("health").isEmpty());
        // a model list printed without its prompt is known by its shape
        Recognition bare = RECOGNIZER.recognise("{\"object\":\"list\",\"data\":[{\"id\":\"m\",\"object\":\"model\"}]}\n");
        assertEquals("models", only(bare, Kind.MODELS).probe());
        Recognition spaced = RECOGNIZER.recognise("{\"object\": \"list\", \"data\": [{\"id\": \"m\", \"object\": \"model\"}]}\n");
        assertEquals("models", only(spaced, Kind.MODELS).probe());
    }

    @Test
    void aCommandAChatClientWrappedKeepsItsArgumentsAndItsOutputIsReadByThem() {
        String paste = """
                camille@gpu-02:~/tgi$ curl -s -o /dev/null -w '%{http_code} %{time_total}\\n'
                localhost:8080/health
                000 0.000412
                camille@gpu-02:~/tgi$ nvidia-smi
                --query-gpu=index,name,memory.used,utilization.gpu --format=csv
                index, name, memory.used [MiB], utilization.gpu [%]
                0, NVIDIA L40S, 0 MiB, 0 %
                camille@gpu-02:~/tgi$ echo done
                --verbose
                """;
        Recognition r = RECOGNIZER.recognise(paste);
        assertEquals("000 0.000412", r.capture().probe("health").orElseThrow().outOrEmpty().strip(), r.summary()::toString);
        assertTrue(r.capture().probe("gpus").isPresent(), r.summary()::toString);
        assertTrue(r.capture().probe("nvidia_smi_full").isEmpty(), r.summary()::toString);
        // a short command line followed by a short option-like line was not wrapped: that line is its output
        assertFalse(PasteRecognizer.wrappedArguments("  --verbose"));
        assertFalse(PasteRecognizer.wrappedArguments("0, NVIDIA L40S, 0 MiB, 0 %"));
        assertTrue(PasteRecognizer.wrappedArguments("localhost:8080/health"));
    }

    @Test
    void dmesgWithHumanTimesAndJournalctlKernelLinesAreKernelLogs() {
        String paste = """
                $ sudo dmesg -T | tail -3
                [Mon Nov 30 00:30:28 2026] NVRM: Xid (PCI:0000:18:00): 79, pid=2231, name=python3, GPU has fallen off the bus.
                [Mon Nov 30 00:30:28 2026] NVRM: GPU 0000:18:00.0: GPU has fallen off the bus.
                $ journalctl -k --since -1h
                Nov 30 00:41:02 gpu-node-3 kernel: Out of memory: Killed process 88123 (python3) total-vm:912339492kB, anon-rss:498123412kB
                Nov 30 00:41:02 gpu-node-3 kernel: oom_reaper: reaped process 88123 (python3), now anon-rss:0kB
                """;
        Recognition r = RECOGNIZER.recognise(paste);
        assertEquals(2, r.segments().size(), r.summary()::toString);
        assertTrue(r.segments().stream().allMatch(s -> s.kind() == Kind.KERNEL_LOG && s.how() == How.PROMPT));
        assertEquals(List.of(1, 4), r.segments().stream().map(PasteSegment::fromLine).toList());
        String dmesg = r.capture().probe("dmesg").orElseThrow().out();
        assertTrue(dmesg.contains("Xid") && dmesg.contains("oom_reaper"), "both kernel pastes are read as one kernel log");

        Recognition bare = RECOGNIZER.recognise(paste.lines().filter(l -> !l.startsWith("$")).reduce("", (a, l) -> a + l + "\n"));
        PasteSegment k = only(bare, Kind.KERNEL_LOG);
        assertEquals(1, k.fromLine());
        assertEquals(4, k.toLine());
        assertEquals(How.SHAPE, k.how());
    }

    @Test
    void psAuxWithoutItsHeaderGetsTheAuxColumnsAndPsEoKeepsItsOwn() {
        String aux = """
                user@gpu:~$ ps aux | grep vllm
                root      41877 98.2  4.1 71234560 5412340 ?    Rl   00:29 152:11 python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-32B --port 8000
                root      41990  0.0  0.0   6480  2300 pts/0    S+   02:41   0:00 grep --color=auto vllm
                """;
        Recognition r = RECOGNIZER.recognise(aux);
        PasteSegment s = only(r, Kind.PS);
        assertEquals(1, s.fromLine());
        assertEquals(3, s.toLine());
        String out = r.capture().probe("ps").orElseThrow().out();
        assertTrue(out.startsWith("USER PID %CPU %MEM VSZ RSS TTY STAT START TIME COMMAND\n"), out);

        String eo = """
                $ ps -eo pid,ppid,stat,etimes,args | grep -i vllm
                41877     1 Rl      8011 python3 -m vllm.entrypoints.openai.api_server --port 8000
                41901 41877 Sl      7990 VLLM::EngineCore
                """;
        Recognition r2 = RECOGNIZER.recognise(eo);
        assertTrue(r2.capture().probe("ps").orElseThrow().out().startsWith("PID PPID STAT ETIMES ARGS\n"));
        Recognition bare = RECOGNIZER.recognise(eo.substring(eo.indexOf('\n') + 1));
        assertEquals(Kind.PS, bare.segments().get(0).kind(), bare.summary()::toString);
        assertEquals(2, bare.segments().get(0).toLine());
    }

    @Test
    void aTableCutAtTheTopWithCrlfColoursAndAChatIndentIsStillATable() throws IOException {
        String table = Files.readString(TestHome.fixture("06-oom-killer-host-ram-during-load").resolve("nvidia_smi_full.out"));
        List<String> lines = table.lines().toList();
        StringBuilder b = new StringBuilder();
        for (String l : lines.subList(4, lines.size())) { // cut at the top: no date, border or version line
            b.append("  ").append(l).append("\r\n");
        }
        b.append("  \u001B[1;31m[2026-11-30 00:30:28] ERROR Engine core proc EngineCore_0 died unexpectedly\u001B[0m\r\n");
        Recognition r = RECOGNIZER.recognise(b.toString());
        PasteSegment t = only(r, Kind.NVIDIA_SMI_TABLE);
        assertEquals(1, t.fromLine());
        assertEquals(lines.size() - 4, t.toLine());
        PasteSegment log = only(r, Kind.SERVER_LOG);
        assertEquals(lines.size() - 3, log.fromLine());
        String out = r.capture().probe("nvidia_smi_full").orElseThrow().out();
        assertFalse(out.contains("\r"), "CRLF line ends are read as line ends");
        assertTrue(out.startsWith("|"), "the chat client's indent is removed: " + out.substring(0, 20));
        assertFalse(r.capture().probe("log_tail").orElseThrow().out().contains("\u001B"), "colour codes are removed");
        List<Object> facts = new io.triage.parse.FactBuilder(TestHome.triage().knowledge()).build(r.capture(), Map.of()).facts();
        assertTrue(facts.stream().anyMatch(f -> f instanceof io.triage.facts.Gpu g && g.probe().equals("nvidia_smi_full")),
                "the cut table's GPU row is read");
    }

    @Test
    void aPasteThatIsOnlyATracebackIsReadAsTheLog() {
        String paste = """
                Traceback (most recent call last):
                  File "/usr/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 512, in run_engine_core
                    engine_core.run_busy_loop()
                  File "/usr/lib/python3.12/site-packages/torch/cuda/memory.py", line 88, in empty_cache
                    torch._C._cuda_emptyCache()
                torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.06 GiB is free.
                """;
        Recognition r = RECOGNIZER.recognise("```\n" + paste + "```\n");
        PasteSegment s = only(r, Kind.TRACEBACK);
        assertEquals(2, s.fromLine(), "inside a chat's code fence");
        assertEquals(7, s.toLine());
        assertEquals("log_tail", s.probe());
        assertTrue(r.unread().isEmpty());
        Diagnosis d = TestHome.triage().diagnose(r.capture(), Map.of());
        assertEquals("crash", d.cause(), "a CUDA OOM traceback is a crash");
        assertEquals("cuda-oom", d.subtype());
    }

    @Test
    void continuationLinesOfALogStayInTheLogButChatAfterItIsNotRead() {
        String paste = """
                2026-11-30T00:30:01.123456Z  INFO text_generation_launcher: Args {
                    model_id: "meta-llama/Llama-3.1-8B-Instruct",
                    sharded: None,
                }
                [rank1]:[W1130 00:30:41.102884361 ProcessGroupNCCL.cpp:1250] Warning: process group has NOT been destroyed
                (EngineCore_DP0 pid=5521)     raise RuntimeError("Engine core initialization failed. ")
                12:[2026-11-30 00:30:40] server_args=ServerArgs(model_path='x', port=30000)
                13:    raise ValueError(
                any idea what is going on?
                """;
        Recognition r = RECOGNIZER.recognise(paste);
        assertEquals(List.of(Kind.SERVER_LOG, Kind.LOG_GREP), r.segments().stream().map(PasteSegment::kind).toList(),
                r.summary()::toString);
        assertEquals(6, r.segments().get(0).toLine());
        assertEquals(7, r.segments().get(1).fromLine());
        assertEquals(8, r.segments().get(1).toLine());
        assertEquals(List.of(new Recognition.LineRange(9, 9)), r.unread());
        assertEquals("log_markers", r.segments().get(1).probe());
    }

    @Test
    void supervisorOutputsAreNamedAndTheirJournalLinesReadAsTheLog() {
        String paste = """
                root@node:/# systemctl status vllm
                × vllm.service - vLLM OpenAI server
                     Loaded: loaded (/etc/systemd/system/vllm.service; enabled; preset: enabled)
                     Active: failed (Result: signal) since Mon 2026-11-30 00:31:07 UTC; 2h ago
                   Main PID: 41877 (code=killed, signal=KILL)

                Nov 30 00:29:58 node python3[41877]: INFO:     Started server process [41877]
                Nov 30 00:31:07 node systemd[1]: vllm.service: Main process exited, code=killed, status=9/KILL
                Nov 30 00:31:07 node systemd[1]: vllm.service: Failed with result 'signal'.
                root@node:/# kubectl describe pod vllm-0
                Name:         vllm-0
                Namespace:    inference
                Containers:
                  vllm:
                    State:          Waiting
                      Reason:       CrashLoopBackOff
                    Last State:     Terminated
                      Reason:       OOMKilled
                      Exit Code:    137
                Events:
                  Type     Reason   Age   From     Message
                  Warning  BackOff  2m    kubelet  Back-off restarting failed container
                root@node:/# kubectl logs vllm-0 --previous
                INFO 11-30 00:30:01 [api_server.py:1024] vLLM API server version 0.11.0
                INFO 11-30 00:30:50 [loader.py:458] Loading weights took 40.2 seconds
                root@node:/#
                this line is chat, not output
                """;
        Recognition r = RECOGNIZER.recognise(paste);
        assertEquals(List.of(Kind.SYSTEMCTL_STATUS, Kind.KUBECTL_DESCRIBE, Kind.KUBECTL_LOGS),
                r.segments().stream().map(PasteSegment::kind).toList(), r.summary()::toString);
        assertEquals(List.of(1, 10, 23), r.segments().stream().map(PasteSegment::fromLine).toList());
        assertEquals(List.of(9, 22, 25), r.segments().stream().map(PasteSegment::toLine).toList());
        assertEquals(List.of(new Recognition.LineRange(27, 27)), r.unread());
        assertTrue(r.capture().probe(PasteRecognizer.STATUS_JOURNAL_PROBE).orElseThrow().out().contains("status=9/KILL"));
        assertTrue(r.capture().probe("kubectl_describe_pod").orElseThrow().out().contains("OOMKilled"));
        assertTrue(r.capture().probe("kubectl_logs").isPresent());
        List<Object> facts = new io.triage.parse.FactBuilder(TestHome.triage().knowledge()).build(r.capture(), Map.of()).facts();
        assertTrue(facts.stream().anyMatch(f -> f instanceof io.triage.facts.LogMarker m && m.probe().equals("kubectl_logs")),
                "the kubectl logs are read as a log: its lines match markers");
        assertTrue(facts.stream().anyMatch(f -> f instanceof io.triage.facts.LogMarker m
                && m.probe().equals(PasteRecognizer.STATUS_JOURNAL_PROBE)), "so are the journal lines of systemctl status");
    }

    @Test
    void anEchoOfTheExitStatusIsTheCommandsBeforeIt() {
        String paste = """
                ops@gpu-h01:~$ time curl -sN -m 180 http://localhost:8000/v1/completions -d '{"prompt":"ping"}'

                real	3m0.004s
                user	0m0.007s
                sys	0m0.005s
                ops@gpu-h01:~$ echo $?
                28
                ops@gpu-h01:~$ curl -s -o /dev/null -w '%{http_code}\\n' http://localhost:8000/health
                200
                ops@gpu-h01:~$ echo "rc=$?"
                rc=0
                """;
        Recognition r = RECOGNIZER.recognise(paste);
        assertTrue(r.unread().isEmpty(), () -> r.unread().toString());
        assertEquals(28, r.capture().probe("generate").orElseThrow().rc());
        assertEquals(0, r.capture().probe("health").orElseThrow().rc());
        List<Object> facts = new io.triage.parse.FactBuilder(TestHome.triage().knowledge()).build(r.capture(), Map.of()).facts();
        io.triage.facts.Generation g = facts.stream().filter(f -> f instanceof io.triage.facts.Generation)
                .map(f -> (io.triage.facts.Generation) f).findFirst().orElseThrow();
        assertEquals("timeout", g.status(), "curl's exit code 28: no answer in its --max-time");
        assertEquals(180.004, g.seconds(), 1e-6, "the shell's 'real' count is the wait");
    }

    @Test
    void anEchoThatIsNotOneNumberIsOutputOfItsOwn() {
        String paste = """
                $ curl -s -o /dev/null -w '%{http_code}\\n' http://localhost:8000/health
                503
                $ echo $?
                0 1
                """;
        Recognition r = RECOGNIZER.recognise(paste);
        assertNull(r.capture().probe("health").orElseThrow().rc());
    }

    @Test
    void anEmptyOutputBetweenPromptsIsEvidenceButTheLastCommandWithoutOutputIsNot() {
        String paste = """
                $ pgrep -af vllm
                $ curl -s -i http://127.0.0.1:8000/health
                HTTP/1.1 503 Service Unavailable
                content-length: 0

                $ nvidia-smi
                """;
        Recognition r = RECOGNIZER.recognise(paste);
        PasteSegment pgrep = only(r, Kind.PGREP);
        assertEquals(1, pgrep.toLine());
        assertEquals("", r.capture().probe("pgrep").orElseThrow().out());
        assertEquals("503\ncontent-length: 0\n", r.capture().probe("health").orElseThrow().out());
        assertTrue(r.capture().probe("nvidia_smi_full").isEmpty());
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("not read as an empty output")), r.notes()::toString);
    }

    @Test
    void aToolsComplaintIsItsStderrNotTheLog() {
        String paste = """
                $ tail -n 60 /var/log/vllm/server.log
                tail: cannot open '/var/log/vllm/server.log' for reading: No such file or directory
                $ ss -ltnp
                bash: ss: command not found
                $ date -Is
                2026-11-30T02:41:00+00:00
                """;
        Recognition r = RECOGNIZER.recognise(paste);
        ProbeOutput log = r.capture().probe("log_tail").orElseThrow();
        assertEquals("", log.out(), "the complaint is not a log line");
        assertTrue(log.err().startsWith("tail: cannot open"));
        assertEquals("/var/log/vllm/server.log", r.capture().target().get("log"));
        assertEquals("", r.capture().probe("listen").orElseThrow().out());
        assertTrue(r.capture().probe("listen").orElseThrow().err().contains("command not found"));
        assertTrue(r.unread().isEmpty());
    }

    // ------------------------------------------------------------------ end to end: same cause as the directory

    @ParameterizedTest
    @ValueSource(strings = {"04-external-kill-shell-killed-clean-dmesg", "11-crash-cuda-oom-vllm-graph-capture",
            "06-oom-killer-host-ram-during-load", "07-oom-killer-cgroup-enginecore", "25-hung-stopped-vllm-ctrl-z",
            "24-hung-idle-sglang-deadlock", "01-healthy-vllm-h100", "33-gpu-fault-xid79-fallen-off-bus",
            "34-gpu-fault-xid48-double-bit-ecc", "12-crash-cuda-illegal-address-sglang", "30-config-mismatch-vllm-max-model-len"})
    void aPasteOfTheProbesGetsTheSameCauseAsTheCaptureDirectory(String scenario) throws Exception {
        Diagnosis fromDir = TestHome.triage().replay(TestHome.fixture(scenario), Map.of());
        for (boolean prompts : new boolean[] {true, false}) {
            Recognition r = RECOGNIZER.recognise(paste(scenario, prompts, ORDER).text());
            Diagnosis fromPaste = TestHome.triage().diagnose(r.capture(), intent(scenario));
            assertEquals(fromDir.cause(), fromPaste.cause(), scenario + " prompts=" + prompts + " " + r.summary());
            assertEquals(fromDir.subtype(), fromPaste.subtype(), scenario + " prompts=" + prompts);
        }
    }

    @Test
    void allScenariosPastedTogetherAreRecognisedSegmentBySegment() throws Exception {
        StringBuilder all = new StringBuilder();
        int scenarios = 0;
        for (String s : List.of("04-external-kill-shell-killed-clean-dmesg", "11-crash-cuda-oom-vllm-graph-capture",
                "06-oom-killer-host-ram-during-load", "25-hung-stopped-vllm-ctrl-z", "01-healthy-vllm-h100",
                "33-gpu-fault-xid79-fallen-off-bus")) {
            all.append(paste(s, true, ORDER).text());
            scenarios++;
        }
        Recognition r = RECOGNIZER.recognise(all.toString());
        assertTrue(r.unread().isEmpty(), r.summary()::toString);
        assertTrue(r.segments().size() >= scenarios * 8, r.summary()::toString);
    }

    @Test
    void withoutTheKernelLogAnOomKillIsNotConcluded() throws Exception {
        String scenario = "06-oom-killer-host-ram-during-load";
        List<String> noDmesg = ORDER.stream().filter(p -> !p.equals("dmesg")).toList();
        Recognition r = RECOGNIZER.recognise(paste(scenario, true, noDmesg).text());
        Diagnosis d = TestHome.triage().diagnose(r.capture(), Map.of());
        assertNotEquals("oom-killer", d.cause(), "the OOM kill is only in the kernel log");
        assertTrue(d.hypotheses().stream().noneMatch(h -> h.cause().equals("oom-killer") && h.status().equals("supported")));
    }

    // ------------------------------------------------------------------ hostile input

    @Test
    void hostileInputNeverThrowsAndSaysWhatWasCut() {
        Random rnd = new Random(42);
        byte[] bytes = new byte[200_000];
        rnd.nextBytes(bytes);
        List<String> inputs = new ArrayList<>();
        inputs.add(new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1));
        inputs.add(new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
        inputs.add("");
        inputs.add(null);
        inputs.add("$ \n$ nvidia-smi\nroot@node:/# \nuser@h:~$ ps aux\n$\n#\n");
        inputs.add("[".repeat(1_000_000));
        inputs.add("|" + "-".repeat(1_000_000) + "|");
        inputs.add("user@host:~$ " + "a |".repeat(300_000));
        inputs.add("0, " + "1 MiB, ".repeat(200_000));
        inputs.add("\r\r\r\n\u001B[\u001B]\u001B".repeat(50_000));
        inputs.add("Traceback (most recent call last):\n".repeat(400_000)); // 14 MB, 400k lines
        for (String in : inputs) {
            Recognition r = RECOGNIZER.recognise(in);
            assertNotNull(r.capture());
            TestHome.triage().diagnose(r.capture(), Map.of());
        }
        Recognition big = RECOGNIZER.recognise("x".repeat(1_000_000));
        assertTrue(big.notes().stream().anyMatch(n -> n.contains("cut to that length")), big.notes()::toString);
        Recognition many = RECOGNIZER.recognise("Traceback (most recent call last):\n".repeat(400_000));
        assertTrue(many.notes().stream().anyMatch(n -> n.contains("only its last")), many.notes()::toString);
        assertEquals(400_000, many.lines());
        assertEquals(400_000, many.segments().get(many.segments().size() - 1).toLine(),
                "line numbers count from the start of the paste, cut or not");
    }
}
