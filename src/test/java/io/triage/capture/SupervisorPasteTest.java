package io.triage.capture;

import io.triage.TestHome;
import io.triage.explain.Diagnosis;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Supervisor records pasted with or without prompts, and saved under file names no probe has: each is
 * recognised by its shape, filed where its parser reads it, and the diagnosis says what it was read as.
 */
class SupervisorPasteTest {
    private static final PasteRecognizer RECOGNIZER = new PasteRecognizer(TestHome.triage().knowledge());

    private static List<PasteRecognizer.Kind> kinds(Recognition r) {
        return r.segments().stream().map(PasteSegment::kind).toList();
    }

    @Test
    void sacctScontrolCrictlAndLaunchErrorsAreRecognisedByShape() {
        Recognition r = RECOGNIZER.recognise("""
                JobID           JobName  Partition    Account  AllocCPUS      State ExitCode
                ------------ ---------- ---------- ---------- ---------- ---------- --------
                4471829       vllm-srv        gpu    nlp-lab         32    TIMEOUT      0:0
                4471829.bat+      batch               nlp-lab         32  CANCELLED     0:15

                JobId=4471829 JobName=vllm-srv
                   JobState=TIMEOUT Reason=TimeLimit Dependency=(null)
                   RunTime=12:00:02 TimeLimit=12:00:00 TimeMin=N/A

                CONTAINER           IMAGE               CREATED             STATE               NAME                ATTEMPT             POD ID              POD
                1f2e3d4c5b6a7       a1b2c3d4e5f6        2 minutes ago       Exited              vllm                5                   9a8b7c6d5e4f3       vllm-0

                docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].
                """);
        assertEquals(List.of(PasteRecognizer.Kind.SACCT, PasteRecognizer.Kind.SCONTROL, PasteRecognizer.Kind.CRICTL_PS,
                PasteRecognizer.Kind.DOCKER_RUN), kinds(r), r.summary().toString());
        assertTrue(r.unread().isEmpty(), r.summary().toString());
        assertTrue(r.capture().probes().get("sacct").out().contains("TIMEOUT"));
    }

    @Test
    void promptsNameTheSupervisorCommands() {
        Recognition r = RECOGNIZER.recognise("""
                $ sudo crictl inspect 8e7d6c5b4a39
                {
                  "status": {
                    "id": "8e7d6c5b4a39",
                    "metadata": {"attempt": 4, "name": "vllm"},
                    "state": "CONTAINER_EXITED",
                    "exitCode": 137,
                    "reason": "OOMKilled"
                  }
                }
                $ docker run --gpus all -p 8000:8000 vllm/vllm-openai:v0.11.0 --model Qwen/Qwen3-8B
                nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8, please update your driver to a newer version, or use an earlier cuda container: unknown.
                $ sacct -j 991 -P --format=JobID,JobName,State,ExitCode
                JobID|JobName|State|ExitCode
                991|llm|OUT_OF_MEMORY|0:125
                """);
        assertEquals(List.of(PasteRecognizer.Kind.CRICTL_INSPECT, PasteRecognizer.Kind.DOCKER_RUN, PasteRecognizer.Kind.SACCT),
                kinds(r), r.summary().toString());
    }

    @Test
    void aShapelessCrictlInspectIsRecognisedByItsStatusObject() {
        Recognition r = RECOGNIZER.recognise("""
                {
                  "status": {
                    "id": "8e7d6c5b4a39",
                    "state": "CONTAINER_EXITED",
                    "exitCode": 137,
                    "reason": "OOMKilled"
                  },
                  "info": {}
                }
                """);
        assertEquals(List.of(PasteRecognizer.Kind.CRICTL_INSPECT), kinds(r), r.summary().toString());
    }

    @Test
    void aMisnamedFileInACaptureIsReadByContentAndTheDiagnosisSaysAsWhat() {
        Map<String, ProbeOutput> probes = new LinkedHashMap<>();
        probes.put("what-they-sent", new ProbeOutput("what-they-sent", null, """
                × tgi.service - Text Generation Inference
                     Loaded: loaded (/etc/systemd/system/tgi.service; enabled; preset: enabled)
                     Active: failed (Result: oom-kill) since Tue 2026-12-01 04:17:55 UTC; 38min ago
                   Main PID: 90412 (code=killed, signal=KILL)

                Dec 01 04:17:55 gpu2 systemd[1]: tgi.service: A process of this unit has been killed by the OOM killer.
                Dec 01 04:17:55 gpu2 systemd[1]: tgi.service: Failed with result 'oom-kill'.
                """, null, null, null, false));
        probes.put("random-notes", new ProbeOutput("random-notes", null, "we restarted it twice, then gave up\n",
                null, null, null, false));
        Diagnosis d = TestHome.triage().diagnose(new Capture("test", probes, Map.of(), Map.of(), List.of()), Map.of());
        assertEquals("oom-killer", d.cause());
        List<String> notes = d.coverage().notes();
        assertTrue(notes.stream().anyMatch(n -> n.startsWith("what-they-sent read by its content as systemctl status")
                && n.contains("filed as systemctl_status")), notes.toString());
        assertTrue(notes.stream().anyMatch(n -> n.startsWith("file what-they-sent: recognised by its content as systemctl status")
                && n.contains("not read again as systemctl_status")), "read once: " + notes);
        assertTrue(notes.contains("file random-notes: not recognised by its content, not read"), notes.toString());
    }

    @Test
    void aFileOfAKnownProbeIsNotReadTwice() {
        String describe = """
                Name:             vllm-0
                Namespace:        llm
                Status:           Failed
                Reason:           Evicted
                Message:          The node was low on resource: memory. Threshold quantity: 100Mi, available: 1Mi.
                """;
        Map<String, ProbeOutput> probes = new LinkedHashMap<>();
        probes.put("kubectl_describe_pod", new ProbeOutput("kubectl_describe_pod", null, describe, null, null, null, false));
        probes.put("pod-copy", new ProbeOutput("pod-copy", null, describe, null, null, null, false));
        Diagnosis d = TestHome.triage().diagnose(new Capture("test", probes, Map.of(), Map.of(), List.of()), Map.of());
        assertEquals("external-kill", d.cause());
        assertEquals("eviction", d.subtype());
        assertTrue(d.coverage().notes().stream().anyMatch(n -> n.startsWith("file pod-copy:")
                && n.contains("not read again as kubectl_describe_pod")), d.coverage().notes().toString());
    }

    @Test
    void aSecondDifferentRecordOfAKindIsReadUnderItsOwnName() {
        Map<String, ProbeOutput> probes = new LinkedHashMap<>();
        probes.put("kubectl_describe_pod", new ProbeOutput("kubectl_describe_pod", null, """
                Name:             redis-0
                Namespace:        llm
                Status:           Running
                """, null, null, null, false));
        probes.put("the-pod", new ProbeOutput("the-pod", null, """
                Name:             vllm-0
                Namespace:        llm
                Status:           Failed
                Reason:           Evicted
                Message:          The node was low on resource: memory. Threshold quantity: 100Mi, available: 1Mi.
                """, null, null, null, false));
        Diagnosis d = TestHome.triage().diagnose(new Capture("test", probes, Map.of(), Map.of(), List.of()), Map.of());
        assertEquals("eviction", d.subtype());
        assertTrue(d.coverage().notes().stream().anyMatch(n -> n.startsWith("file the-pod:")
                && n.contains("read as kubectl_describe_the-pod")), d.coverage().notes().toString());
    }
}
