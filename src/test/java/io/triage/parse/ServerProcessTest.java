package io.triage.parse;

import io.triage.TestHome;
import io.triage.explain.Diagnosis;
import io.triage.facts.Proc;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server is the process that serves: the owner of the target port's listener, or a server's own command line.
 * A program that only names the port — a benchmark, a curl loop, this product run on the GPU host itself — is a
 * client, and a capture of a killed server with such a client running is still a kill from outside.
 */
class ServerProcessTest {
    @TempDir
    Path tmp;

    /** The recorded H200 host whose SGLang server (port 30000) was killed with SIGKILL: nothing serves any more. */
    private Path killedServerWith(String... psRows) throws IOException {
        Path dir = tmp.resolve("capture-" + System.nanoTime());
        Path from = TestHome.fixture("h200/02-external-kill");
        Files.createDirectories(dir);
        try (Stream<Path> s = Files.list(from)) {
            for (Path p : s.toList()) {
                Files.copy(p, dir.resolve(p.getFileName().toString()));
            }
        }
        StringBuilder ps = new StringBuilder();
        StringBuilder pgrep = new StringBuilder();
        int pid = 7001;
        for (String args : psRows) {
            ps.append(String.format("%5d     1 S       300 10240 %s%n", pid, args));
            pgrep.append(pid).append(' ').append(args).append('\n');
            pid++;
        }
        Files.writeString(dir.resolve("ps.out"), ps.toString(), StandardOpenOption.APPEND);
        Files.writeString(dir.resolve("pgrep.out"), pgrep.toString(), StandardOpenOption.APPEND);
        return dir;
    }

    private static Diagnosis diagnose(Path capture) throws Exception {
        return TestHome.triage().replay(capture, Map.of());
    }

    private static void assertKilledFromOutside(Diagnosis d, String what) {
        assertEquals("external-kill", d.cause(), what + ": " + d.summary());
        assertEquals(List.of(), d.host().processes(), what + " is not a server process");
    }

    @Test
    void theUnchangedCaptureIsAKillFromOutside() throws Exception {
        assertKilledFromOutside(diagnose(killedServerWith()), "nothing");
    }

    @Test
    void aBenchmarkClientNamingThePortIsNotTheServer() throws Exception {
        for (String bench : List.of(
                "python3 -m sglang.bench_serving --backend sglang --host 127.0.0.1 --port 30000 --num-prompts 1000",
                "/usr/bin/python3 /usr/local/bin/vllm bench serve --model m --port 30000",
                "python benchmarks/benchmark_serving.py --backend sglang --port 30000",
                "/opt/venv/bin/python3 /opt/venv/bin/genai-perf profile -m m --url localhost:30000",
                "/usr/bin/python3 /usr/local/bin/locust -f load.py --host http://127.0.0.1:30000")) {
            assertKilledFromOutside(diagnose(killedServerWith(bench)), bench);
        }
    }

    @Test
    void aCurlLoopNamingThePortIsNotTheServer() throws Exception {
        assertKilledFromOutside(diagnose(killedServerWith(
                "bash -c while true; do curl -s http://127.0.0.1:30000/health; sleep 1; done",
                "curl -s http://127.0.0.1:30000/generate -d {\"text\":\"hi\"}",
                "wget -q -O- http://localhost:30000/v1/models")), "a curl loop");
    }

    @Test
    void triageItselfOnTheGpuHostIsNotTheServer() throws Exception {
        assertKilledFromOutside(diagnose(killedServerWith(
                "/usr/lib/jvm/java-17-openjdk-amd64/bin/java -XX:TieredStopAtLevel=1 -jar /opt/triage/target/triage.jar"
                        + " diagnose 127.0.0.1 --server sglang --port 30000",
                "/bin/sh /opt/triage/target/triage diagnose 127.0.0.1 --server sglang --port 30000",
                "java -cp target/classes:lib/* io.triage.cli.Main diagnose 127.0.0.1 --port 30000",
                "timeout -k 2 5 bash -c ps -eo pid,ppid,stat,etimes,rss,args | grep -E -e '^ *PID ' -e sglang")),
                "triage and its probe");
    }

    @Test
    void anUnknownProgramNamingThePortIsStillTakenForTheServerWhenNothingSaysOtherwise() throws Exception {
        // the contrast that shows the cases above are decided by the clients list, not by chance
        Diagnosis d = diagnose(killedServerWith("python3 /srv/my_model_server.py --port 30000"));
        assertTrue(!d.cause().equals("external-kill"), d.cause());
        assertEquals(List.of(7001), d.host().processes().stream().map(Diagnosis.ProcessView::pid).toList());
    }

    @Test
    void theOwnerOfThePortsListenerIsTheServerAndAnotherProcessNamingThePortIsNot() throws Exception {
        Path dir = killedServerWith("python3 /srv/serve.py --port 30000", "python3 /srv/poll.py --port 30000");
        Files.writeString(dir.resolve("listen.out"), """
                State  Recv-Q Send-Q Local Address:Port  Peer Address:Port Process
                LISTEN 0      128          0.0.0.0:22         0.0.0.0:*     users:(("sshd",pid=811,fd=3))
                LISTEN 0      2048         0.0.0.0:30000      0.0.0.0:*     users:(("python3",pid=7001,fd=9))
                """);
        Files.writeString(dir.resolve("_probes.txt"), Files.readString(dir.resolve("_probes.txt"))
                .replace("listen rc=127", "listen rc=0"));
        Observation o = new FactBuilder(TestHome.triage().knowledge()).build(TestHome.triage().reader().read(dir), Map.of());
        List<Proc> procs = o.facts().stream().filter(f -> f instanceof Proc).map(f -> (Proc) f).toList();
        assertEquals("frontend", procs.stream().filter(p -> p.pid() == 7001).findFirst().orElseThrow().role());
        assertEquals("other", procs.stream().filter(p -> p.pid() == 7002).findFirst().orElseThrow().role());
        assertTrue(o.notes().stream().anyMatch(n -> n.contains("7001") && n.contains("owns the port's listener")), o.notes().toString());
        assertTrue(o.notes().stream().anyMatch(n -> n.contains("process 7002") && n.contains("a client")), o.notes().toString());
    }

    @Test
    void whenNothingListensOnThePortAClientIsStillNoServer() throws Exception {
        Path dir = killedServerWith("python3 -m sglang.bench_serving --port 30000");
        Files.writeString(dir.resolve("listen.out"), """
                State  Recv-Q Send-Q Local Address:Port  Peer Address:Port Process
                LISTEN 0      128          0.0.0.0:22         0.0.0.0:*     users:(("sshd",pid=811,fd=3))
                """);
        Files.writeString(dir.resolve("_probes.txt"), Files.readString(dir.resolve("_probes.txt"))
                .replace("listen rc=127", "listen rc=0"));
        assertKilledFromOutside(diagnose(dir), "a bench client with ss showing nothing on the port");
    }

    @Test
    void aScriptGivenTheServersUrlIsItsClient() throws Exception {
        Diagnosis d = diagnose(killedServerWith("/home/u/env/bin/python run_eval.py --base-url http://127.0.0.1:30000/v1 --concurrency 48"));
        assertKilledFromOutside(d, "an evaluation script given the server's URL");
    }

    @Test
    void aCompilerUnderAServerProcessIsItsStartUpAtWorkAndOneElsewhereIsNot() throws Exception {
        Path dir = tmp.resolve("compiling");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("target.txt"), "server=sglang\nport=30000\n");
        Files.writeString(dir.resolve("ps.out"), """
                    PID    PPID STAT ELAPSED   RSS COMMAND
                    100       1 Sl       900 90000 python3 -m sglang.launch_server --model-path m --port 30000
                    101     100 Sl       890 80000 sglang::scheduler_TP0
                    102     101 S        300  9000 /usr/bin/python3 /usr/local/bin/ninja -v -C /root/.cache/deep_gemm/x
                    103     102 S          5  9000 /usr/local/cuda/bin/nvcc -c kernel.cu -o kernel.o
                    200       1 S         20  9000 /usr/local/cuda/bin/nvcc -c someone_elses.cu
                """);
        List<Object> wm = TestHome.triage().examine(dir, Map.of()).workingMemory();
        List<io.triage.facts.Compiling> c = wm.stream().filter(io.triage.facts.Compiling.class::isInstance)
                .map(io.triage.facts.Compiling.class::cast).toList();
        assertEquals(List.of(102, 103), c.stream().map(io.triage.facts.Compiling::pid).sorted().toList(), c::toString);
        assertTrue(c.stream().allMatch(x -> x.serverPid() == 101), c::toString);
        // compilers are not server processes: they neither keep a killed server alive nor count as its workers
        assertTrue(wm.stream().filter(Proc.class::isInstance).map(Proc.class::cast)
                .filter(p -> p.pid() >= 102).allMatch(p -> p.role().equals("other")));
    }
}
