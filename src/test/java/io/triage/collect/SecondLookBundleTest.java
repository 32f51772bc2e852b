package io.triage.collect;

import com.sun.net.httpserver.HttpServer;
import io.triage.capture.Capture;
import io.triage.capture.ProbeOutput;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The second look, run by a local bash against a stand-in server process on loopback: it samples twice
 * only when health failed or was slow while a server process lives, and says when it skipped.
 */
class SecondLookBundleTest {
    @TempDir
    Path tmp;
    private Process fake;
    private HttpServer http;

    @AfterEach
    void stop() {
        if (fake != null) {
            fake.destroyForcibly();
        }
        if (http != null) {
            http.stop(0);
        }
    }

    /** A process the bundle's discovery takes for an SGLang server (it only sleeps). */
    private void fakeServer() throws Exception {
        fake = new ProcessBuilder("bash", "-c", "exec -a 'python3 -m sglang.launch_server --port 1' sleep 60").start();
        Thread.sleep(300);
    }

    /** A health endpoint on loopback answering 200 after {@code delayMs}, and a /metrics page. */
    private int health(long delayMs) throws Exception {
        http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/health", ex -> {
            try {
                Thread.sleep(delayMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        http.createContext("/metrics", ex -> {
            byte[] b = ("# HELP sglang:num_running_reqs x\nsglang:num_running_reqs{model_name=\"m\"} 3.0\n"
                    + "sglang:num_queue_reqs{model_name=\"m\"} 2.0\nsglang:e2e_request_latency_seconds_bucket{le=\"1\"} 4\n")
                    .getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        http.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(2));
        http.start();
        return http.getAddress().getPort();
    }

    private Capture run(ProbeBundle b) throws Exception {
        return BundleOutput.parse("local", b, ProbeBundleTest.bash(b.script()), Map.of(), List.of());
    }

    @Test
    void healthRefusedWhileTheServerProcessLivesSamplesTwiceAtTheInterval() throws Exception {
        fakeServer();
        Path log = Files.writeString(tmp.resolve("server.log"), "[2026-11-30 00:30:55] Decode batch. #running-req: 3\n");
        Capture c = run(ProbeBundle.forTarget("sglang", 1, log.toString()).with(io.triage.TestHome.filters()).withSecondLook(800));
        ProbeOutput first = c.probes().get("first_look");
        ProbeOutput second = c.probes().get("second_look");
        assertTrue(first != null && second != null, c.probes().keySet() + " " + c.notes());
        assertEquals(0, second.rc(), second.err());
        long t1 = tMs(first.out());
        long t2 = tMs(second.out());
        assertTrue(t2 - t1 >= 800 && t2 - t1 < 10_000, "interval " + (t2 - t1) + " ms");
        assertTrue(second.out().contains("interval_target_ms 800"), second.out());
        assertTrue(second.out().lines().anyMatch(l -> l.matches("proc \\d+ [A-Za-z] \\d+")), second.out());
        assertTrue(second.out().contains("log_size " + Files.size(log)), second.out());
        assertTrue(second.out().contains("log_last [2026-11-30 00:30:55] Decode batch"), second.out());
        assertFalse(c.notes().stream().anyMatch(n -> n.contains("second look skipped")), c.notes().toString());
    }

    @Test
    void aSlowButSuccessfulHealthAnswerAlsoTakesTheSecondLookAndItsMetrics() throws Exception {
        fakeServer();
        int port = health(1300);
        Capture c = run(ProbeBundle.forTarget("sglang", port, null).with(io.triage.TestHome.filters()).withSecondLook(300));
        assertTrue(c.probes().get("health").out().startsWith("200 "), c.probes().get("health").out());
        ProbeOutput second = c.probes().get("second_look");
        assertTrue(second != null, c.probes().keySet() + " " + c.notes());
        assertTrue(second.out().contains("metric sglang:num_running_reqs{model_name=\"m\"} 3.0"), second.out());
        assertFalse(second.out().contains("_bucket"), "histograms are not sampled");
        assertTrue(c.probes().get("metrics").out().contains("sglang:num_queue_reqs"), c.probes().get("metrics").out());
        assertFalse(c.probes().get("metrics").out().contains("_bucket"), "histogram buckets are dropped from the metrics probe");
    }

    @Test
    void aFastHealthAnswerSkipsTheSecondLookAndSaysSo() throws Exception {
        fakeServer();
        int port = health(0);
        Capture c = run(ProbeBundle.forTarget("sglang", port, null).with(io.triage.TestHome.filters()));
        assertNull(c.probes().get("first_look"));
        assertNull(c.probes().get("second_look"));
        assertTrue(c.notes().stream().anyMatch(n -> n.startsWith("second look skipped")), c.notes().toString());
    }

    @Test
    void noServerProcessSkipsIt() throws Exception {
        ProbeBundle b = ProbeBundle.forTarget("sglang", 1, null).with(io.triage.TestHome.filters());
        String script = b.script();
        Capture c = run(b);
        assertNull(c.probes().get("second_look"), "port 1 refuses, but no server process lives here");
        assertTrue(script.contains("p second_look "), "the script carries the probe; the host decides");
    }

    @Test
    void turnedOffTheScriptDoesNotCarryIt() {
        ProbeBundle off = ProbeBundle.forTarget("vllm", 8000, null).with(io.triage.TestHome.filters()).withSecondLook(0);
        assertFalse(off.script().contains("first_look"));
        assertFalse(off.script().contains("second_look"));
        assertEquals(ProbeBundle.ALL.stream().map(ProbeBundle.Probe::name).toList(),
                off.probes().stream().map(ProbeBundle.Probe::name).toList(), "the standard and supervisor probes, no sample");
        assertEquals(0, off.renewed().secondLookMs(), "a renewed bundle keeps the setting");
        assertThrows(IllegalArgumentException.class, () -> ProbeBundle.forTarget(null, null, null).withSecondLook(-1));
        assertThrows(IllegalArgumentException.class, () -> ProbeBundle.forTarget(null, null, null).withSecondLook(30_001));
    }

    private static long tMs(String sample) {
        return sample.lines().filter(l -> l.startsWith("t_ms ")).map(l -> Long.parseLong(l.substring(5).strip()))
                .findFirst().orElseThrow();
    }
}
