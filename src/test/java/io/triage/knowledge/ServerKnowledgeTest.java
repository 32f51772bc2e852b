package io.triage.knowledge;

import io.triage.TestHome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The servers the knowledge base knows, as data: each kind's port, health path and serving traits, its process
 * names, and its log lines - taken verbatim from the servers' sources - landing on the marker meant for them.
 */
class ServerKnowledgeTest {
    private static final KnowledgeBase KB = KnowledgeBase.load(TestHome.HOME.resolve("knowledge-base"));

    @Test
    void everyServerKindSaysHowItServes() {
        Set<String> kinds = KB.markers().stream().map(Marker::server).filter(s -> !s.equals("common"))
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(new TreeSet<>(List.of("llamacpp", "lmdeploy", "ollama", "sglang", "tgi", "triton", "trtllm",
                "vllm")), kinds);
        for (String k : kinds) {
            KnowledgeBase.ServesSpec s = KB.serves().get(k);
            assertTrue(s != null && s.health().startsWith("/"), k + ": " + s);
        }
        Map<String, Integer> ports = Map.of("triton", 8000, "trtllm", 8000, "lmdeploy", 23333, "ollama", 11434,
                "llamacpp", 8080, "sglang", 30000, "vllm", 8000);
        ports.forEach((k, p) -> assertEquals(p, KB.serves().get(k).port(), k));
        assertEquals("/v2/health/ready", KB.serves().get("triton").health());
        assertEquals("/", KB.serves().get("ollama").health(), "Ollama answers GET / with 'Ollama is running'");
    }

    @Test
    void otherSpellingsOfAServerKindMeanThatKind() {
        assertEquals("llamacpp", KB.serverKind("llama.cpp"));
        assertEquals("llamacpp", KB.serverKind(" Llama-Server "));
        assertEquals("triton", KB.serverKind("tritonserver"));
        assertEquals("trtllm", KB.serverKind("trtllm-serve"));
        assertEquals("tgi", KB.serverKind("text-generation-inference"));
        assertEquals("vllm", KB.serverKind("VLLM"));
        assertEquals("someserver", KB.serverKind("someServer"), "an unknown kind stays what it was");
        assertEquals("", KB.serverKind(null));
    }

    @Test
    void processNamesOfTheFiveServersAreTheirsNotGeneric() {
        String[][] cases = {
            {"/opt/tritonserver/bin/tritonserver --model-repository=/models", "frontend", "triton"},
            {"/opt/tritonserver/backends/python/triton_python_backend_stub /models/pre/1/model.py triton_python_backend_shm_region_1 1048576 1048576 1 /opt/tritonserver/backends/python 336 pre_0_0", "worker", "triton"},
            {"/usr/bin/python3 /usr/local/bin/trtllm-serve meta-llama/Llama-3.1-8B-Instruct --tp_size 2 --port 8000", "frontend", "trtllm"},
            {"/opt/py/bin/python3 /opt/py/bin/lmdeploy serve api_server internlm/internlm2_5-7b-chat --server-port 23333", "frontend", "lmdeploy"},
            {"/usr/local/bin/ollama serve", "frontend", "ollama"},
            {"/usr/local/bin/ollama runner --ollama-engine --model /root/.ollama/models/blobs/sha256-6a0746a1ec1a --port 41235", "worker", "ollama"},
            {"/usr/lib/ollama/runners/cuda_v12_avx/ollama_llama_server runner --model /root/.ollama/models/blobs/sha256-1 --ctx-size 8192 --port 36789", "worker", "ollama"},
            {"./build/bin/llama-server -m /models/qwen2.5-7b-instruct-q4_k_m.gguf -ngl 99 --port 8080", "frontend", "llamacpp"},
        };
        for (String[] c : cases) {
            ProcessPatterns.Role r = KB.processes().classify(c[0]);
            assertEquals(c[1] + "/" + c[2], r.role() + "/" + r.server(), c[0]);
        }
        assertEquals("other", KB.processes().classify("vim /etc/ollama.conf").role().replace("probe", "other"));
        assertTrue(KB.processes().serverComm("tritonserver") && KB.processes().serverComm("ollama"));
        assertTrue(KB.processes().serverContainer("ollama/ollama:0.9.0", "/bin/ollama serve"));
    }

    /** Lines as the servers print them (message text from their sources), and the marker each must hit. */
    @Test
    void sourceLinesLandOnTheirMarkers() {
        String[][] cases = {
            {"I1201 00:08:14.112340 1 http_server.cc:4971] \"Started HTTPService at 0.0.0.0:8000\"", "triton.http-started"},
            {"I1201 00:08:14.112002 1 grpc_server.cc:2584] Started GRPCInferenceService at 0.0.0.0:8001", "triton.grpc-started"},
            {"E1201 00:10:01.530871 1 model_lifecycle.cc:654] \"failed to load 'llama' version 1: Internal: unable to create TensorRT engine\"", "triton.model-failed-to-load"},
            {"| llama | 1       | UNAVAILABLE: Internal: unable to create TensorRT engine |", "triton.model-unavailable-row"},
            {"error: creating server: Internal - failed to load all models", "triton.creating-server-failed"},
            {"Signal (15) received.", "triton.signal-stop"},
            {"Signal (11) received.", "triton.error-signal"},
            {"E1201 00:10:01.1 1 http_server.cc:224] \"Socket '0.0.0.0:8000' already in use \"", "triton.socket-in-use"},
            {"[12/01/2026-00:29:51] [TRT-LLM] [E] Failed to initialize executor on rank 0: tuple index out of range", "trtllm.executor-init-failed"},
            {"RuntimeError: Executor worker returned error", "trtllm.worker-returned-error"},
            {"RuntimeError: Executor creation failed due to insufficient GPU memory.", "trtllm.executor-oom"},
            {"INFO:     Application startup complete.", "trtllm.uvicorn-startup-complete"},
            {"HINT:    Please open \u001b[93m\u001b[1mhttp://0.0.0.0:23333\u001b[0m in a browser for detailed api usage!!!", "lmdeploy.open-in-browser"},
            {"RuntimeError: No enough gpu memory for kv cache.", "lmdeploy.no-memory-for-kv-cache"},
            {"2026-12-01 00:39:55,871 - lmdeploy - ERROR - engine.py:625 - Engine main loop failed.", "lmdeploy.engine-loop-failed"},
            {"time=2026-12-01T00:31:05.123Z level=INFO source=routes.go:1834 msg=\"Listening on 127.0.0.1:11434 (version 0.9.0)\"", "ollama.listening"},
            {"time=2026-12-01T00:33:01.001Z level=ERROR source=sched.go:567 msg=\"error loading llama server\" error=\"llama runner process has terminated: error loading model: unable to allocate CUDA0 buffer\"", "ollama.runner-terminated"},
            {"time=2026-12-01T00:33:01.001Z level=WARN source=server.go:1080 msg=\"model requires more system memory (70.4 GiB) than is available (31.2 GiB)\"", "ollama.system-memory"},
            {"[GIN] 2026/12/01 - 00:31:09 | 200 |  1.502113s |       127.0.0.1 | POST     \"/api/generate\"", "ollama.gin-access"},
            {"main: server is listening on http://127.0.0.1:8080 - starting the main loop", "llamacpp.listening"},
            {"main: HTTP server is listening, hostname: 127.0.0.1, port: 8080, http threads: 31", "llamacpp.http-listening-loading"},
            {"start: couldn't bind HTTP server socket, hostname: 0.0.0.0, port: 8080", "llamacpp.bind-failed"},
            {"srv    load_model: failed to load model, '/models/x.gguf'", "llamacpp.failed-to-load-model"},
            {"srv  log_server_r: request: POST /v1/chat/completions 127.0.0.1 200", "llamacpp.access"},
            {"ggml_backend_cuda_buffer_type_alloc_buffer: allocating 40543.11 MiB on device 0: cudaMalloc failed: out of memory", "ggml.cuda-alloc-failed"},
            {"Dec 01 00:29:12 hgx-07 nv-fabricmanager[2214]: fabric manager NVIDIA GPU driver interface version 580.95.05 don't match with driver version 580.82.07. Please update with matching NVIDIA driver package.", "gpu-host.fabric-manager-version-mismatch"},
            {"Nov 05 13:55:26 node1 nv-fabricmanager[104230]: fabric manager NVIDIA GPU driver interface version 550.127.05 doesn't match with driver version 550.120. Please update with the matching NVIDIA driver package.", "gpu-host.fabric-manager-version-mismatch"},
            {"UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 802: system not yet initialized", "gpu-host.cuda-system-not-ready"},
            {"RuntimeError: CUDA error: invalid device ordinal", "gpu-host.invalid-device-ordinal"},
            {"ValueError: World size (8) is larger than the number of available GPUs (4) in this node.", "gpu-host.world-size-exceeds-gpus"},
            {"[rank0]:     assert self.total_num_heads % tp_size == 0", "gpu-host.heads-not-divisible-assert"},
            {"node:311:311 [1] misc/shmutils.cc:87 NCCL WARN Error: failed to extend /dev/shm/nccl-lJ7ooR to 9637892 bytes", "gpu-host.nccl-shm-too-small"},
            {"         Link 3: Replay Errors: 2353", "gpu-host.nvlink-error-counter"},
            {"  MIG 3g.40gb     Device  0: (UUID: MIG-2e3b4c5d-6e7f-5a1b-9c2d-3e4f5a6b7c8d)", "gpu-host.mig-enabled"},
        };
        for (String[] c : cases) {
            List<String> hit = hits(c[0]);
            assertTrue(hit.contains(c[1]), c[1] + " should match: " + c[0] + " (matched " + hit + ")");
        }
        // the zero counters and a healthy status row are not findings
        assertFalse(hits("         Link 0: CRC Errors: 0").contains("gpu-host.nvlink-error-counter"));
        assertFalse(hits("| llama | 1       | READY  |").contains("triton.model-unavailable-row"));
        assertFalse(hits("Signal (15) received.").contains("triton.error-signal"));
    }

    private static List<String> hits(String line) {
        List<String> out = new ArrayList<>();
        String clean = line.replaceAll("\u001B\\[[0-9;?]*[ -/]*[@-~]", "");
        for (Marker m : KB.markers()) {
            if (m.pattern().find(clean) != null && !out.contains(m.id())) {
                out.add(m.id());
            }
        }
        return out;
    }

    @Test
    void noErrorMarkerNamesASubtypeOutsideTheList() {
        for (Marker m : KB.markers()) {
            List<String> allowed = m.kind().equals("error") ? Marker.SUBTYPES
                    : m.kind().equals("loading") ? Marker.LOADING_SUBTYPES
                    : m.kind().equals("shutdown") ? Marker.SHUTDOWN_SUBTYPES : List.of();
            assertTrue(m.subtype().isEmpty() || allowed.contains(m.subtype()), m.id() + ": " + m.subtype());
        }
        assertFalse(Marker.SUBTYPES.contains("fatal"));
        assertTrue(KB.markers().stream().anyMatch(m -> m.subtype().equals("wait")), "a launcher's wait line is known");
        assertTrue(KB.markers().stream().anyMatch(m -> m.subtype().equals("complete")), "a shutdown's last line is known");
    }

    @Test
    void aNeedAnsweredByASymptomNobodyNamesIsRefused(@TempDir Path tmp) throws IOException {
        Path kb = copy(tmp);
        Path f = kb.resolve("differentials.yaml");
        String text = Files.readString(f);
        String typo = text.replace("evidence: [log-killed, supervisor-oom-kill]", "evidence: [log-kiled, supervisor-oom-kill]");
        assertFalse(typo.equals(text), "the shipped oom-killer need names its evidence");
        Files.writeString(f, typo);
        KnowledgeException e = assertThrows(KnowledgeException.class, () -> KnowledgeBase.load(kb));
        assertTrue(e.getMessage().contains("differentials.yaml") && e.getMessage().contains("log-kiled"), e.getMessage());
    }

    @Test
    void onlyALoadingMarkerMaySayItWaitsAndNothingElse(@TempDir Path tmp) throws IOException {
        for (String entry : List.of("kind: progress\n    subtype: wait", "kind: loading\n    subtype: stalled")) {
            Path kb = copy(tmp.resolve(entry.replaceAll("\\W", "")));
            Files.writeString(kb.resolve("markers/common.yaml"), "\n  - id: common.test-wait\n    " + entry
                    + "\n    pattern: 'still waiting'\n", StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
            KnowledgeException e = assertThrows(KnowledgeException.class, () -> KnowledgeBase.load(kb), entry);
            assertTrue(e.getMessage().contains("common.test-wait") && e.getMessage().contains("only error markers"),
                    e.getMessage());
        }
    }

    @Test
    void aSubtypeOutsideTheListIsRefusedWithFileAndEntry(@TempDir Path tmp) throws IOException {
        Path kb = copy(tmp);
        Files.writeString(kb.resolve("markers/common.yaml"), "\n  - id: common.test-fatal\n    kind: error\n"
                + "    subtype: fatal\n    priority: 10\n    pattern: 'it broke'\n", StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.APPEND);
        KnowledgeException e = assertThrows(KnowledgeException.class, () -> KnowledgeBase.load(kb));
        assertTrue(e.getMessage().contains("common.yaml") && e.getMessage().contains("common.test-fatal")
                && e.getMessage().contains("leave it out"), e.getMessage());
    }

    @Test
    void aHealthPathThatIsNotAPathIsRefused(@TempDir Path tmp) throws IOException {
        Path kb = copy(tmp);
        Path f = kb.resolve("markers/ollama.yaml");
        Files.writeString(f, Files.readString(f).replace("  health: /\n", "  health: '/; rm -rf ~'\n"));
        KnowledgeException e = assertThrows(KnowledgeException.class, () -> KnowledgeBase.load(kb));
        assertTrue(e.getMessage().contains("ollama.yaml") && e.getMessage().contains("serves.health"), e.getMessage());
    }

    private static Path copy(Path tmp) throws IOException {
        Path src = TestHome.HOME.resolve("knowledge-base");
        try (Stream<Path> s = Files.walk(src)) {
            for (Path p : s.toList()) {
                Path rel = src.relativize(p);
                if (rel.startsWith("scenarios")) {
                    continue;
                }
                Path to = tmp.resolve(rel.toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
        }
        return tmp;
    }
}
