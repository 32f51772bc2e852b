package io.triage.explain;

import io.triage.TestHome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DESIGN "Partial evidence": what one capture supports, with nothing against it, is named at low or medium
 * confidence with the probe that would confirm it; insufficient-evidence only for nothing supported or two weak
 * causes nothing splits; high only with the differential of {@code knowledge-base/differentials.yaml} done.
 */
class PartialEvidenceTest {
    private static final String XID48 = "[Tue Jan  5 18:50:43 2027] NVRM: Xid (PCI:0000:3a:00): 48, pid=7292, "
            + "name=VLLM::Worker_TP, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer"
            + " at partition 6, subpartition 1.\n";
    private static final String ECC_BODY = "{\"object\":\"error\",\"message\":\"CUDA error: uncorrectable ECC error "
            + "encountered\",\"type\":\"InternalServerError\",\"param\":null,\"code\":500}\n";

    @TempDir
    Path tmp;

    private Diagnosis replay(Map<String, String> files) throws Exception {
        Path dir = Files.createTempDirectory(tmp, "capture");
        for (Map.Entry<String, String> f : files.entrySet()) {
            Files.writeString(dir.resolve(f.getKey()), f.getValue());
        }
        return TestHome.triage().replay(dir, Map.of());
    }

    private static List<Diagnosis.Node> nodes(Diagnosis.HypothesisView h) {
        List<Diagnosis.Node> out = new ArrayList<>();
        h.because().forEach(n -> walk(n, out));
        return out;
    }

    private static void walk(Diagnosis.Node n, List<Diagnosis.Node> out) {
        out.add(n);
        n.premises().forEach(p -> walk(p, out));
    }

    private static boolean asks(Diagnosis d, String question, String about) {
        return d.questions().stream().anyMatch(q -> q.id().equals(question) && q.about().contains(about));
    }

    @Test
    void aPastedKernelLogOfFaultXidsNamesTheGpuFaultAtMediumAndAsksForTheServersSide() throws Exception {
        Diagnosis d = replay(Map.of("dmesg.out", XID48));
        assertEquals("gpu-fault", d.cause());
        assertEquals("xid-48", d.subtype());
        assertEquals("medium", d.confidence(), "one probe: the differential is not done");
        assertTrue(asks(d, "probe-log_tail", "gpu-fault"), "asks for what would confirm it: " + d.questions());
        Diagnosis.HypothesisView verdict = d.hypotheses().get(0);
        assertEquals("medium", verdict.confidence());
        assertTrue(nodes(verdict).stream().anyMatch(n -> n.rule().equals(
                "differential not done: no probe read answers a need of the cause")), "the chain says why not high");
    }

    @Test
    void whatWasReadCanAnswerANeedAsWellAsAProbe() throws Exception {
        // a kubelet that keeps killing the container on its probe, whose log was read: the kill is the supervisor's,
        // it recurs, and the log's end is known, with no process listing or kernel log
        String describe = """
                Name:         vllm-7f9c4d6b8-x2lqp
                Status:       Running
                Containers:
                  vllm:
                    Image:          vllm/vllm-openai:v0.11.0
                    State:          Running
                    Last State:     Terminated
                      Reason:       Error
                      Exit Code:    137
                    Restart Count:  3
                Events:
                  Type     Reason     Age                From     Message
                  ----     ------     ----               ----     -------
                  Warning  Unhealthy  2m (x30 over 9m)   kubelet  Liveness probe failed: Get "http://10.1.2.3:8000/health": dial tcp 10.1.2.3:8000: connect: connection refused
                  Normal   Killing    2m (x3 over 8m)    kubelet  Container vllm failed liveness probe, will be restarted
                  Warning  BackOff    1m (x4 over 6m)    kubelet  Back-off restarting failed container vllm in pod vllm-7f9c4d6b8-x2lqp
                """;
        String previous = "INFO 05-19 16:40:02 [api_server.py:1090] vLLM API server version 0.11.0\n"
                + "(EngineCore_DP0 pid=81) INFO 05-19 16:40:31 [default_loader.py:267] Loading weights took 25.1 seconds\n";
        Diagnosis d = replay(Map.of("kubectl_describe_pod.out", describe, "kubectl_logs_previous.out", previous));
        assertEquals("external-kill", d.cause());
        assertEquals("liveness-probe", d.subtype());
        assertEquals("high", d.confidence(), "every need answered by what was read: " + d.hypotheses().get(0));
        // the same kill recorded once, with no restart: whether a server runs now is open
        Diagnosis once = replay(Map.of("kubectl_describe_pod.out", describe.replace("(x3 over 8m)", "")
                .replace("Restart Count:  3", "Restart Count:  0").lines()
                .filter(l -> !l.contains("BackOff")).reduce("", (a, b) -> a + b + "\n"), "kubectl_logs_previous.out", previous));
        assertEquals("external-kill", once.cause());
        assertEquals("medium", once.confidence());
        // the same kill loop of a server whose log shows it stalled first: the kubelet killed a hung server
        String stalled = previous + "(APIServer pid=1) INFO 05-19 16:41:12 [loggers.py:257] Engine 000: Avg prompt throughput: "
                + "0.0 tokens/s, Avg generation throughput: 0.0 tokens/s, Running: 5 reqs, Waiting: 2 reqs, GPU KV cache usage: 4.1%\n"
                + "(EngineCore_DP0 pid=81) INFO 05-19 16:42:12 [shm_broadcast.py:681] No available shared memory broadcast block"
                + " found in 60 seconds. This typically happens when some processes are hanging or doing some time-consuming work\n";
        Diagnosis hung = replay(Map.of("kubectl_describe_pod.out", describe, "kubectl_logs_previous.out", stalled));
        assertEquals("external-kill", hung.cause());
        assertEquals("medium", hung.confidence(), "a probe that killed a stalled server names the killer, not the why");
    }

    @Test
    void aFrontEndThatAnswersWhileARealRequestGetsNothingIsADeadEngine() throws Exception {
        String terminal = """
                $ curl -sS -m 5 -w '\\n%{http_code} %{time_total}\\n' http://127.0.0.1:8000/health

                200 0.002
                $ curl -sS -m 60 -w '\\n%{http_code} %{time_total}\\n' http://127.0.0.1:8000/v1/chat/completions -d '{"model":"m","messages":[{"role":"user","content":"hi"}]}'
                curl: (28) Operation timed out after 60001 milliseconds with 0 bytes received

                000 60.001
                """;
        Diagnosis d = replay(Map.of("terminal.txt", terminal));
        assertEquals("engine-dead", d.cause(), d.hypotheses().toString());
        assertTrue(nodes(d.hypotheses().get(0)).stream().anyMatch(n -> n.rule().equals("a real request got nothing")),
                "the chain cites the request that got nothing");
        // the same request answered: the engine produces
        Diagnosis answered = replay(Map.of("terminal.txt", terminal.replace(
                "curl: (28) Operation timed out after 60001 milliseconds with 0 bytes received\n\n000 60.001",
                "{\"choices\":[{\"message\":{\"content\":\"hello\"}}]}\n200 0.9")));
        assertNotEquals("engine-dead", answered.cause());
    }

    @Test
    void theSameXidWithTheServersSideReadIsDecided() throws Exception {
        Diagnosis d = TestHome.triage().replay(TestHome.SCENARIOS.resolve("34-gpu-fault-xid48-double-bit-ecc"), Map.of());
        assertEquals("gpu-fault", d.cause());
        assertEquals("high", d.confidence());
        assertTrue(d.questions().stream().noneMatch(q -> q.about().contains("gpu-fault") && q.id().equals("probe-log_tail")));
    }

    @Test
    void aLogEndingInABindFailureIsAPortConflictThatAsksWhoHoldsThePort() throws Exception {
        Diagnosis d = TestHome.triage().replay(TestHome.SCENARIOS.resolve("field/05-port-in-use-bind-failure"), Map.of());
        assertEquals("port-conflict", d.cause());
        assertEquals("medium", d.confidence(), "the log names the owner, but nothing read says who holds the port now");
        assertTrue(asks(d, "probe-ps", "port-conflict"), d.questions().toString());
    }

    @Test
    void anApiErrorBodyInTheHealthAnswerReachesTheMarkers() throws Exception {
        Diagnosis d = replay(Map.of("health.out", ECC_BODY + "500 0.004\n"));
        assertEquals("gpu-fault", d.cause());
        assertNotEquals("high", d.confidence());
        assertTrue(d.coverage().notes().stream().anyMatch(n -> n.contains("health read by its content")),
                d.coverage().notes().toString());
    }

    @Test
    void anApiErrorBodyPastedUnderAnyNameReachesTheMarkers() throws Exception {
        Diagnosis d = replay(Map.of("completion_response.out", ECC_BODY));
        assertEquals("gpu-fault", d.cause());
        assertEquals("ecc-uncorrectable", d.subtype());
        assertNotEquals("high", d.confidence());
        assertTrue(d.coverage().notes().stream().anyMatch(n -> n.contains("completion_response read by its content")),
                d.coverage().notes().toString());
    }

    @Test
    void aKernelLogUnderAnotherNameIsReadAsTheKernelLog() throws Exception {
        Diagnosis d = replay(Map.of("kernel_messages.out", XID48));
        assertEquals("gpu-fault", d.cause());
        assertEquals("xid-48", d.subtype());
    }

    @Test
    void aFileWhoseNameIsReadIsNotReadAgainByContent() throws Exception {
        Diagnosis d = replay(Map.of("dmesg.out", XID48, "other.out", XID48));
        assertTrue(d.coverage().notes().stream().anyMatch(n -> n.contains("other read by its content as kernel log")),
                d.coverage().notes().toString());
        assertTrue(d.coverage().notes().stream().noneMatch(n -> n.startsWith("dmesg read by its content")),
                d.coverage().notes().toString());
    }

    @Test
    void oneWeakCauseIsNamedAtLowConfidenceNotWithheld() throws Exception {
        Diagnosis d = replay(Map.of("dmesg.out", "[Tue Jan  5 18:50:43 2027] NVRM: Xid (PCI:0000:3a:00): 987, pid=7292,"
                + " name=python3, an Xid no catalogue knows\n"));
        assertEquals("gpu-fault", d.cause());
        assertEquals("low", d.confidence());
        assertTrue(asks(d, "probe-log_tail", "gpu-fault"), d.questions().toString());
    }

    @Test
    void twoWeakCausesNothingSplitsAreInsufficientEvidenceWithBothNamed() throws Exception {
        String log = "(VllmWorker rank=1 pid=4418) INFO 01-05 18:40:02 [pynccl.py:70] vLLM is using nccl==2.26.2\n"
                + "node1:4418:4418 [1] NCCL INFO comm 0x5581 rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 3b000 commId 0x9c - Init COMPLETE\n";
        Diagnosis alone = replay(Map.of("log_tail.out", log, "target.txt", "server=vllm\n"));
        assertEquals("hung", alone.cause(), "the stall after NCCL set-up alone is a weak hung");
        assertEquals("low", alone.confidence());
        Diagnosis d = replay(Map.of("log_tail.out", log, "target.txt", "server=vllm\n", "dmesg.out",
                "[Tue Jan  5 18:50:43 2027] NVRM: Xid (PCI:0000:3a:00): 987, pid=4418, name=python3, unknown\n"));
        assertEquals(Diagnoser.INSUFFICIENT, d.cause());
        List<String> supported = d.hypotheses().stream().filter(h -> h.status().equals("supported"))
                .map(Diagnosis.HypothesisView::cause).toList();
        assertTrue(supported.containsAll(List.of("hung", "gpu-fault")), supported.toString());
        assertTrue(nodes(d.hypotheses().get(0)).stream().anyMatch(n -> n.rule().equals(
                "two weak causes that nothing present splits")), "the chain names the rule");
    }

    @Test
    void nothingSupportedIsInsufficientEvidence() throws Exception {
        Diagnosis d = replay(Map.of("notes_from_chat.out", "the server stopped answering, no idea why\n"));
        assertEquals(Diagnoser.INSUFFICIENT, d.cause());
        assertEquals("low", d.confidence());
    }

    @Test
    void everyCauseOfTheDifferentialsIsACauseAndItsFirstProbeCanBeAskedFor() throws IOException {
        var kb = TestHome.triage().knowledge();
        assertTrue(kb.differentials().size() >= 10, kb.differentials().toString());
        for (var n : kb.differentials()) {
            assertTrue(kb.causes().containsKey(n.cause()), n.toString());
            assertTrue(kb.question("probe-" + n.first()).isPresent(), n.toString());
        }
    }
}
