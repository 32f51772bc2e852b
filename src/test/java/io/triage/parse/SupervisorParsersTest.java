package io.triage.parse;

import io.triage.capture.Capture;
import io.triage.capture.ProbeOutput;
import io.triage.facts.SupervisorEvent;
import io.triage.facts.SupervisorRecord;
import io.triage.facts.Unparseable;
import io.triage.knowledge.KnowledgeBase;
import io.triage.TestHome;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each supervisor parser on the shapes its program prints, the odd ones included, and on garbage. */
class SupervisorParsersTest {
    private static final KnowledgeBase KB = KnowledgeBase.load(TestHome.HOME.resolve("knowledge-base"));

    private static Sink read(String probe, String out) {
        Sink sink = new Sink();
        Map<String, ProbeOutput> probes = new LinkedHashMap<>();
        probes.put(probe, new ProbeOutput(probe, null, out, null, null, null, false));
        SupervisorParsers.read(new Capture("test", probes, Map.of(), Map.of(), List.of()), KB.processes(), sink);
        return sink;
    }

    private static List<SupervisorRecord> records(Sink s) {
        return s.facts().stream().filter(f -> f instanceof SupervisorRecord).map(f -> (SupervisorRecord) f).toList();
    }

    private static List<String> events(Sink s) {
        return s.facts().stream().filter(f -> f instanceof SupervisorEvent).map(f -> ((SupervisorEvent) f).event()).toList();
    }

    private static SupervisorEvent event(Sink s, String id) {
        return s.facts().stream().filter(f -> f instanceof SupervisorEvent e && e.event().equals(id))
                .map(f -> (SupervisorEvent) f).findFirst().orElseThrow(() -> new AssertionError("no " + id + " in " + events(s)));
    }

    @Test
    void systemctlStatusOfAStopThatTimedOutNamesTheSignalAndTheStop() {
        Sink s = read("systemctl_status", """
                × vllm.service - vLLM server
                     Loaded: loaded (/etc/systemd/system/vllm.service; enabled; preset: enabled)
                     Active: failed (Result: timeout) since Tue 2026-12-01 09:01:32 UTC; 12min ago
                   Duration: 6h 48min 11.402s
                   Main PID: 220871 (code=killed, signal=KILL)
                        CPU: 7h 12min 40.118s

                Dec 01 09:00:02 gpu7 systemd[1]: Stopping vllm.service - vLLM server...
                Dec 01 09:01:32 gpu7 systemd[1]: vllm.service: State 'stop-sigterm' timed out. Killing.
                Dec 01 09:01:32 gpu7 systemd[1]: vllm.service: Killing process 220871 (vllm) with signal SIGKILL.
                Dec 01 09:01:32 gpu7 systemd[1]: vllm.service: Main process exited, code=killed, status=9/KILL
                Dec 01 09:01:32 gpu7 systemd[1]: vllm.service: Failed with result 'timeout'.
                """);
        SupervisorRecord r = records(s).get(0);
        assertEquals("systemd", r.kind());
        assertEquals("vllm.service", r.name());
        assertEquals("failed", r.state());
        assertEquals("timeout", r.reason());
        assertEquals("KILL", r.signal());
        assertEquals("Tue 2026-12-01 09:01:32 UTC", r.finishedAt());
        assertFalse(r.oomKilled());
        assertTrue(r.lastLines().contains("Failed with result 'timeout'"));
        assertEquals(List.of("stop-requested", "stop-timeout", "killed-signal"), events(s));
        assertEquals(9, event(s, "killed-signal").count());
        assertEquals("vllm.service", event(s, "stop-timeout").name());
        assertEquals("stop-sigterm", event(s, "stop-timeout").detail());
    }

    @Test
    void anEllipsizedStatusWithAnOomKillIsReadAsFarAsItGoes() {
        Sink s = read("systemctl_status", """
                ● tgi.service - Text Generation Inference
                     Loaded: loaded (/etc/systemd/system/tgi.service; enabled; preset: enabled)
                     Active: failed (Result: oom-kill) since Tue 2026-12-01 04:17:55 UTC; 38min ago
                    Process: 90412 ExecStart=/usr/local/bin/text-generation-launcher --model-id hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4 --port 80… (code=killed, signal=KILL)
                   Main PID: 90412 (code=killed, signal=KILL)

                Dec 01 04:17:55 gpu2 systemd[1]: tgi.service: A process of this unit has been killed by the OOM kil…
                Dec 01 04:17:55 gpu2 systemd[1]: tgi.service: Main process exited, code=killed, status=9/KI…
                Dec 01 04:17:55 gpu2 systemd[1]: tgi.service: Failed with result 'oom-kill'.
                Hint: Some lines were ellipsized, use -l to show in full.
                """);
        SupervisorRecord r = records(s).get(0);
        assertTrue(r.oomKilled(), "Result: oom-kill");
        assertEquals("oom-kill", r.reason());
        assertTrue(events(s).contains("oom-kill"));
        // the status's number survives the terminal's cut of the signal's name
        assertEquals(9, event(s, "killed-signal").count());
        assertEquals("KILL", r.signal(), "from the Main PID line, which was not cut");
        assertTrue(s.facts().stream().noneMatch(f -> f instanceof Unparseable), s.facts().toString());
    }

    @Test
    void journalRestartCounterAndGivingUpAreRestartEvents() {
        Sink s = read("journal", """
                Dec 01 10:02:11 gpu1 systemd[1]: sglang.service: Main process exited, code=exited, status=1/FAILURE
                Dec 01 10:02:11 gpu1 systemd[1]: sglang.service: Failed with result 'exit-code'.
                Dec 01 10:02:16 gpu1 systemd[1]: sglang.service: Scheduled restart job, restart counter is at 7.
                Dec 01 10:02:16 gpu1 systemd[1]: sglang.service: Start request repeated too quickly.
                """);
        assertEquals(List.of("exited", "restart", "restart-limit"), events(s));
        assertEquals(1, event(s, "exited").count());
        assertEquals(7, event(s, "restart").count());
        assertEquals("sglang.service", event(s, "restart").name());
    }

    @Test
    void dockerInspectArrayGivesOneRecordPerContainerWithTheOomFlag() {
        Sink s = read("docker_inspect", """
                [
                  {"Id": "aa", "Name": "/redis", "RestartCount": 0,
                   "State": {"Status": "running", "Running": true, "OOMKilled": false, "ExitCode": 0, "Error": "",
                             "StartedAt": "2026-11-01T00:00:00Z", "FinishedAt": "0001-01-01T00:00:00Z"},
                   "Config": {"Image": "redis:7", "Cmd": ["redis-server"]}},
                  {"Id": "bb", "Name": "/vllm", "RestartCount": 3,
                   "State": {"Status": "exited", "Running": false, "OOMKilled": true, "ExitCode": 137, "Error": "",
                             "StartedAt": "2026-12-01T06:02:12Z", "FinishedAt": "2026-12-01T08:47:55Z"},
                   "Config": {"Image": "vllm/vllm-openai:v0.10.2", "Cmd": ["--model", "x"]}}
                ]
                """);
        List<SupervisorRecord> rs = records(s);
        assertEquals(2, rs.size());
        SupervisorRecord v = rs.get(1);
        assertEquals("vllm", v.name());
        assertTrue(v.oomKilled());
        assertEquals(137, v.exitCode());
        assertEquals("KILL", v.signal());
        assertEquals(3, v.restarts());
        assertEquals("2026-12-01T08:47:55Z", v.finishedAt());
        assertTrue(v.server(), "the vllm image is a server's");
        assertFalse(rs.get(0).server(), "redis is not");
        assertEquals("", rs.get(0).finishedAt(), "Docker's year-1 'never' is no time");
    }

    @Test
    void anInspectFormatTemplateGivesTheRestartCountItPrintedBesideTheState() {
        // docker inspect --format '{{.Name}} {{.Config.Image}} RestartCount={{.RestartCount}} {{json .State}}'
        Sink s = read("docker_inspect", "/llama70b vllm/vllm-openai:v0.10.1.1 RestartCount=23 RestartPolicy=unless-stopped "
                + "{\"Status\":\"running\",\"Running\":true,\"OOMKilled\":false,\"ExitCode\":0,\"Error\":\"\","
                + "\"StartedAt\":\"2025-09-03T10:13:35Z\",\"FinishedAt\":\"2025-09-03T10:13:35Z\"}\n");
        SupervisorRecord r = records(s).get(0);
        assertEquals("llama70b", r.name());
        assertEquals(23, r.restarts());
        SupervisorEvent e = event(s, "restart");
        assertEquals(23, e.count());

        Sink once = read("docker_inspect", "/llama70b RestartCount=1 {\"Status\":\"running\",\"Running\":true,"
                + "\"OOMKilled\":false,\"ExitCode\":0}\n");
        assertEquals(1, records(once).get(0).restarts());
        assertEquals(List.of(), events(once), "one restart is no loop");

        Sink words = read("docker_inspect", "x".repeat(1_000) + " RestartCount=abc {\"Status\":\"exited\",\"ExitCode\":1}");
        assertEquals(-1, records(words).get(0).restarts(), "a count that is no number is no count");
    }

    @Test
    void dockerRunRefusalsNameTheRuntimeAndTheDriverCondition() {
        Sink s = read("docker_run", """
                docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].
                docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'
                nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.4, please update your driver to a newer version, or use an earlier cuda container: unknown.
                """);
        assertEquals(List.of("no-gpu-runtime", "driver-too-old"), events(s));
        assertEquals("cuda>=12.4", event(s, "driver-too-old").detail());
        assertEquals("docker", event(s, "no-gpu-runtime").kind());
    }

    @Test
    void crictlInspectAndPsReadTheCriView() {
        Sink s = read("crictl_inspect", """
                {
                  "status": {
                    "id": "8e7d6c5b4a39",
                    "metadata": {"attempt": 4, "name": "vllm"},
                    "state": "CONTAINER_EXITED",
                    "createdAt": "2026-12-01T08:01:09Z",
                    "startedAt": "2026-12-01T08:01:10Z",
                    "finishedAt": "2026-12-01T08:06:39Z",
                    "exitCode": 137,
                    "reason": "OOMKilled",
                    "message": "",
                    "labels": {"io.kubernetes.pod.name": "vllm-0", "io.kubernetes.container.name": "vllm"}
                  },
                  "info": {"sandboxID": "ff", "pid": 0}
                }
                """);
        SupervisorRecord r = records(s).get(0);
        assertEquals("containerd", r.kind());
        assertEquals("vllm-0/vllm", r.name());
        assertTrue(r.oomKilled());
        assertEquals(4, r.restarts());
        assertEquals(137, r.exitCode());

        Sink ps = read("crictl_ps", """
                CONTAINER           IMAGE               CREATED             STATE               NAME                ATTEMPT             POD ID              POD
                1f2e3d4c5b6a7       a1b2c3d4e5f6        2 minutes ago       Exited              vllm                5                   9a8b7c6d5e4f3       vllm-0
                """);
        SupervisorRecord row = records(ps).get(0);
        assertEquals("vllm-0/vllm", row.name());
        assertEquals("Exited", row.state());
        assertEquals(5, row.restarts());
        assertEquals(List.of("restart"), events(ps));
    }

    @Test
    void kubectlDescribeWithInitContainersAndTwoContainersReadsEachBlock() {
        Sink s = read("kubectl_describe_pod", """
                Name:             vllm-0
                Namespace:        llm
                Status:           Running
                Init Containers:
                  fetch:
                    Image:          hf-sync:1
                    State:          Terminated
                      Reason:       Completed
                      Exit Code:    0
                      Started:      Tue, 01 Dec 2026 07:48:14 +0000
                      Finished:     Tue, 01 Dec 2026 07:51:02 +0000
                    Ready:          True
                    Restart Count:  0
                Containers:
                  vllm:
                    Image:          vllm/vllm-openai:v0.11.0
                    State:          Waiting
                      Reason:       CrashLoopBackOff
                    Last State:     Terminated
                      Reason:       OOMKilled
                      Exit Code:    137
                      Started:      Tue, 01 Dec 2026 08:01:10 +0000
                      Finished:     Tue, 01 Dec 2026 08:06:39 +0000
                    Ready:          False
                    Restart Count:  5
                    Limits:
                      memory:          64Gi
                      nvidia.com/gpu:  1
                  metrics-sidecar:
                    Image:          exporter:2
                    State:          Running
                      Started:      Tue, 01 Dec 2026 07:51:03 +0000
                    Ready:          True
                    Restart Count:  0
                Events:
                  Type     Reason     Age                  From     Message
                  ----     ------     ----                 ----     -------
                  Warning  Unhealthy  5m (x9 over 20m)     kubelet  Liveness probe failed: HTTP probe failed with statuscode: 503
                  Normal   Killing    5m (x3 over 18m)     kubelet  Container vllm failed liveness probe, will be restarted
                  Warning  BackOff    2m (x21 over 15m)    kubelet  Back-off restarting failed container vllm in pod vllm-0_llm(0f1e2d3c)
                """);
        List<SupervisorRecord> rs = records(s);
        assertEquals(4, rs.size(), rs.toString());
        SupervisorRecord init = rs.get(0);
        assertEquals("vllm-0/fetch (init)", init.name());
        assertEquals("Completed", init.reason());
        assertFalse(init.server(), "an init container is not the server");
        SupervisorRecord v = rs.get(1);
        assertEquals("vllm-0/vllm", v.name());
        assertEquals("Waiting", v.state());
        assertEquals("OOMKilled", v.reason(), "the last termination tells how the last run ended");
        assertTrue(v.oomKilled());
        assertEquals(137, v.exitCode());
        assertEquals("KILL", v.signal());
        assertEquals(5, v.restarts());
        assertEquals("Tue, 01 Dec 2026 08:06:39 +0000", v.finishedAt());
        assertEquals("Running", rs.get(2).state());
        assertEquals("vllm-0", rs.get(3).name());
        assertEquals(List.of("back-off", "restart", "liveness-failed", "liveness-kill", "back-off"), events(s));
        assertEquals("vllm", event(s, "liveness-kill").name());
    }

    @Test
    void aPendingPodWithoutGpusIsAnInsufficientGpuEvent() {
        Sink s = read("kubectl_describe_pod", """
                Name:             sglang-0
                Status:           Pending
                Containers:
                  sglang:
                    Image:      lmsysorg/sglang:v0.5.4
                Events:
                  Type     Reason            Age                  From               Message
                  ----     ------            ----                 ----               -------
                  Warning  FailedScheduling  3m12s (x9 over 43m)  default-scheduler  0/5 nodes are available: 4 Insufficient nvidia.com/gpu. preemption: 0/5 nodes are available: 4 No preemption victims found for incoming pod.
                """);
        SupervisorEvent e = event(s, "insufficient-gpu");
        assertTrue(e.detail().startsWith("0/5 nodes are available"), e.detail());
        assertEquals("sglang-0", e.name());
        assertEquals("Pending", records(s).get(records(s).size() - 1).state());
    }

    @Test
    void anEvictedPodSaysWhatTheNodeRanShortOf() {
        Sink s = read("kubectl_describe_pod", """
                Name:             tgi-1
                Status:           Failed
                Reason:           Evicted
                Message:          The node was low on resource: memory. Threshold quantity: 100Mi, available: 42468Ki.
                """);
        assertTrue(events(s).contains("evicted"));
        assertTrue(event(s, "evicted").detail().startsWith("The node was low on resource: memory."));
    }

    @Test
    void kubectlGetPodsReadsStatusAndRestartsWithTheirAge() {
        Sink s = read("kubectl_get", """
                NAME                          READY   STATUS             RESTARTS       AGE
                vllm-mixtral-5c8d7f9b6-p4kzn  0/1     CrashLoopBackOff   6 (2m11s ago)  19m
                tgi-0                         0/1     OOMKilled          2 (40s ago)    3h
                redis-0                       1/1     Running            0              12d
                """);
        List<SupervisorRecord> rs = records(s);
        assertEquals(3, rs.size());
        assertEquals(6, rs.get(0).restarts());
        assertTrue(rs.get(1).oomKilled());
        assertEquals(List.of("back-off", "restart", "oom-kill", "restart"), events(s));
    }

    @Test
    void sacctDefaultColumnsAndParsableRowsGiveTheJobsEnd() {
        Sink s = read("sacct", """
                JobID           JobName  Partition    Account  AllocCPUS      State ExitCode
                ------------ ---------- ---------- ---------- ---------- ---------- --------
                4471829       vllm-srv        gpu    nlp-lab         32    TIMEOUT      0:0
                4471829.bat+      batch               nlp-lab         32  CANCELLED     0:15
                """);
        assertEquals(List.of("time-limit"), events(s), "the job's row decides, not its cancelled step");
        assertEquals("TERM", records(s).get(1).signal());
        assertEquals("4471829 (vllm-srv)", records(s).get(0).name());

        Sink p = read("sacct", """
                JobID|JobName|State|ExitCode|Start|End
                991|llm|CANCELLED by 1000|0:15|2026-12-01T01:00:00|2026-12-01T03:10:00
                992|llm|OUT_OF_MEMORY|0:125|2026-12-01T01:00:00|2026-12-01T02:00:00
                993|llm|NODE_FAIL|1:0|2026-12-01T01:00:00|2026-12-01T02:30:00
                """);
        assertEquals(List.of("cancelled", "oom-kill", "node-fail"), events(p));
        assertTrue(records(p).get(1).oomKilled());
        assertEquals("2026-12-01T03:10:00", records(p).get(0).finishedAt());
    }

    @Test
    void slurmstepdAndScontrolNameTheTimeLimit() {
        Sink s = read("log_tail", """
                INFO:     10.3.1.40:44020 - "POST /v1/completions HTTP/1.1" 200 OK
                slurmstepd: error: *** JOB 4471829 ON gpu-node-14 CANCELLED AT 2026-12-01T06:00:02 DUE TO TIME LIMIT ***
                slurmstepd: error: *** STEP 4471830.0 ON gpu-node-15 CANCELLED AT 2026-12-01T06:00:02 ***
                slurmstepd: error: Detected 1 oom_kill event in StepId=4471831.batch. Some of the step tasks have been OOM Killed.
                """);
        assertEquals(List.of("time-limit", "cancelled", "oom-kill"), events(s));
        assertEquals("4471829", event(s, "time-limit").name());

        // srun ends the other tasks of a step one of whose tasks failed: the task's failure is an exit of its own
        Sink f = read("log_tail", """
                srun: error: gpu-a12: task 0: Exited with exit code 1
                srun: Terminating StepId=48213.0
                slurmstepd: error: *** STEP 48213.0 ON gpu-a12 CANCELLED AT 2025-02-22T01:31:50 ***
                srun: error: gpu-a13: tasks 1-7: Exited with exit code 137
                srun: error: gpu-a13: task 8: Exited with exit code 0
                """);
        assertEquals(List.of("task-exited", "step-terminating", "cancelled"), events(f),
                "a killed task (137) or a clean one is no failure of its own; srun's ending of the step is its own event");
        assertEquals(1, event(f, "task-exited").count());

        Sink c = read("scontrol", """
                JobId=4471829 JobName=vllm-srv
                   UserId=ana(1000) GroupId=ana(1000) MCS_label=N/A
                   JobState=TIMEOUT Reason=TimeLimit Dependency=(null)
                   RunTime=12:00:02 TimeLimit=12:00:00 TimeMin=N/A
                   StartTime=2026-11-30T18:00:00 EndTime=2026-12-01T06:00:02 Deadline=N/A
                   ExitCode=0:0
                """);
        assertEquals(List.of("time-limit"), events(c));
        assertEquals("2026-12-01T06:00:02", records(c).get(0).finishedAt());
    }

    @Test
    void garbageNeverThrowsAndIsNamedUnreadable() {
        Random rnd = new Random(11);
        List<String> probes = List.of("systemctl_status", "journal", "docker_inspect", "podman_inspect", "crictl_inspect",
                "crictl_ps", "kubectl_get", "kubectl_describe_pod", "sacct", "scontrol", "docker_run", "log_tail");
        List<String> inputs = List.of("", "\0\0\0", "[".repeat(100_000), "{\"State\":".repeat(5000),
                "[{\"State\": {\"ExitCode\": 1e999999, \"OOMKilled\": \"yes\"}}]", "JobID\n" + "-".repeat(9000),
                "● x.service - y\n     Active: (Result: \n   Main PID: (code=killed, signal=\n",
                "Name: p\nContainers:\n  c:\n    State:\n      Exit Code: 99999999999999999999\n    Restart Count: -\n",
                "Main process exited, code=killed, status=", "*** JOB  CANCELLED AT ", "Scheduled restart job, restart counter is at ",
                "could not select device driver", "unsatisfied condition: cuda");
        for (String probe : probes) {
            for (String in : inputs) {
                read(probe, in);
            }
            for (int i = 0; i < 20; i++) {
                StringBuilder b = new StringBuilder();
                int n = rnd.nextInt(3000);
                for (int k = 0; k < n; k++) {
                    b.append((char) (rnd.nextInt(10) == 0 ? '\n' : rnd.nextInt(0x3000)));
                }
                read(probe, b.toString());
            }
        }
        Sink bad = read("docker_inspect", "[".repeat(100_000));
        assertTrue(bad.facts().stream().anyMatch(f -> f instanceof Unparseable u && u.reason().startsWith("not a JSON")),
                bad.facts().toString());
    }

    @Test
    void theCgroupSaysWhoOwnsTheServersProcess() {
        assertEquals("the systemd unit vllm.service", SupervisorParsers.owner("0::/system.slice/vllm.service\n"));
        assertEquals("a docker container 9c41e07a5d3b", SupervisorParsers.owner(
                "0::/system.slice/docker-9c41e07a5d3b2f18c6e4a9d0b7f25c3e1a8d6f4b2c0e9a7d5b3f1c8e6a4d2b0f.scope\n"));
        assertEquals("a docker container 9c41e07a5d3b", SupervisorParsers.owner(
                "12:memory:/docker/9c41e07a5d3b2f18c6e4a9d0b7f25c3e1a8d6f4b2c0e9a7d5b3f1c8e6a4d2b0f\n"));
        assertEquals("a podman container 5d4c3b2a1f0e", SupervisorParsers.owner(
                "0::/machine.slice/libpod-5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c.scope/container\n"));
        assertEquals("a Kubernetes pod (uid 7c1d2e3f-4a5b-6c7d-8e9f-0a1b2c3d4e5f)", SupervisorParsers.owner(
                "0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod7c1d2e3f_4a5b_6c7d_8e9f_0a1b2c3d4e5f.slice/"
                        + "cri-containerd-8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c6b5a4938271605f4e3d2c1b0a9f.scope\n"));
        assertEquals("Slurm job 4471829", SupervisorParsers.owner("0::/system.slice/slurmstepd.scope/job_4471829/step_batch/user/task_0\n"));
        assertEquals("", SupervisorParsers.owner("0::/user.slice/user-1000.slice/session-12.scope\n"), "a login session supervises nothing");
        assertEquals("", SupervisorParsers.owner("0::/\n"));
        assertEquals("", SupervisorParsers.owner(":".repeat(100_000)));
    }

    @Test
    void aCleanStopAndAnImageThatCannotBePulledAreEventsToo() {
        Sink s = read("journal", """
                Dec 01 11:00:00 gpu1 systemd[1]: Stopping sglang.service - SGLang server...
                Dec 01 11:00:04 gpu1 systemd[1]: sglang.service: Deactivated successfully.
                Dec 01 11:00:04 gpu1 systemd[1]: Stopped sglang.service - SGLang server.
                """);
        assertEquals(List.of("stop-requested", "exited-cleanly"), events(s));
        assertEquals("sglang.service", event(s, "stop-requested").name());

        Sink k = read("kubectl_get", """
                NAME      READY   STATUS             RESTARTS   AGE
                vllm-0    0/1     ImagePullBackOff   0          4m
                """);
        assertEquals(List.of("image-pull"), events(k));
        Sink d = read("docker_run", "docker: Error response from daemon: pull access denied for vllm/vllm-openai-typo, repository does not exist or may require 'docker login'.\n");
        assertTrue(event(d, "image-pull").detail().startsWith("pull access denied for vllm/vllm-openai-typo"));
    }
}
