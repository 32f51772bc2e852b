package io.triage.lab;

import com.sun.net.httpserver.HttpServer;
import io.triage.capture.Capture;
import io.triage.capture.CaptureWriter;
import io.triage.collect.BundleOutput;
import io.triage.collect.ProbeBundle;
import org.apache.sshd.client.session.ClientSession;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Benchmark, not a test: what the second look adds to a look's wall time.
 * <ol>
 * <li>On this machine, the bundle run by bash against a stand-in server process whose port refuses
 *     (second look taken), on and off alternating; and with a fast 200 health answer (second look skipped).</li>
 * <li>The lab over loopback SSH playing a capture recorded in step 1 (probes paced at their recorded
 *     durations), the bundle with the second look on and off, alternating.</li>
 * </ol>
 * Run: {@code java -cp target/classes:target/test-classes:$(cat target/cp.txt) io.triage.lab.SecondLookBench [runs]}
 * after {@code mvn -q dependency:build-classpath -Dmdep.outputFile=target/cp.txt}.
 */
public final class SecondLookBench {
    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        Path dir = Files.createTempDirectory("second-look-bench");
        Path log = dir.resolve("server.log");
        Process fake = new ProcessBuilder("bash", "-c", "exec -a 'python3 -m sglang.launch_server --port 1' sleep 3600").start();
        Thread writer = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Files.writeString(log, "[2026-12-01 01:00:00 TP0] Decode batch. #running-req: 3, #queue-req: 0,\n",
                            StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
                    Thread.sleep(1000);
                }
            } catch (IOException | InterruptedException e) {
                // stop writing
            }
        });
        writer.setDaemon(true);
        writer.start();
        HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/health", ex -> {
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        http.start();
        try {
            Thread.sleep(300);
            long[] on = new long[runs];
            long[] off = new long[runs];
            long[] fast = new long[runs];
            long[] fastOff = new long[runs];
            String recorded = null;
            ProbeBundle recordedBundle = null;
            for (int i = -1; i < runs; i++) {
                ProbeBundle bOn = ProbeBundle.forTarget("sglang", 1, log.toString()).with(io.triage.TestHome.filters());
                long t0 = System.nanoTime();
                String out = bash(bOn.script());
                long t1 = System.nanoTime();
                bash(ProbeBundle.forTarget("sglang", 1, log.toString()).with(io.triage.TestHome.filters()).withSecondLook(0).script());
                long t2 = System.nanoTime();
                int port = http.getAddress().getPort();
                bash(ProbeBundle.forTarget("sglang", port, log.toString()).with(io.triage.TestHome.filters()).script());
                long t3 = System.nanoTime();
                bash(ProbeBundle.forTarget("sglang", port, log.toString()).with(io.triage.TestHome.filters()).withSecondLook(0).script());
                long t4 = System.nanoTime();
                if (i >= 0) {
                    on[i] = t1 - t0;
                    off[i] = t2 - t1;
                    fast[i] = t3 - t2;
                    fastOff[i] = t4 - t3;
                }
                if (i == 0) {
                    recorded = out;
                    recordedBundle = bOn;
                }
            }
            System.out.printf("bash on this host, health refused, server process alive: on %.0f ms, off %.0f ms, added %.0f ms (median of %d)%n",
                    median(on), median(off), median(on) - median(off), runs);
            System.out.printf("bash on this host, health 200 fast (second look skipped): on %.0f ms, off %.0f ms (median of %d)%n",
                    median(fast), median(fastOff), runs);

            Capture c = BundleOutput.parse("bench", recordedBundle, recorded, Map.of(), List.of());
            Path capture = dir.resolve("capture");
            CaptureWriter.write(c, capture);
            KeyPair key = LabKeys.generate();
            try (LabServer lab = LabServer.start(LabServer.Config.empty().withCapture(capture)
                    .withAuthorizedKey(key.getPublic()).withPacing(Duration.ofSeconds(30)));
                 SshTestClient ssh = new SshTestClient(key, lab.hostKey())) {
                long[] labOn = new long[runs];
                long[] labOff = new long[runs];
                for (int i = -1; i < runs; i++) {
                    long t0 = System.nanoTime();
                    lookOverLab(ssh, lab, ProbeBundle.forTarget(null, null, null).with(io.triage.TestHome.filters()));
                    long t1 = System.nanoTime();
                    lookOverLab(ssh, lab, ProbeBundle.forTarget(null, null, null).with(io.triage.TestHome.filters()).withSecondLook(0));
                    long t2 = System.nanoTime();
                    if (i >= 0) {
                        labOn[i] = t1 - t0;
                        labOff[i] = t2 - t1;
                    }
                }
                System.out.printf("lab over loopback SSH, recorded capture paced: on %.0f ms, off %.0f ms, added %.0f ms (median of %d)%n",
                        median(labOn), median(labOff), median(labOn) - median(labOff), runs);
                System.out.println("recorded: " + c.probes().get("first_look").seconds() + " s first_look, "
                        + c.probes().get("second_look").seconds() + " s second_look");
            }
        } finally {
            writer.interrupt();
            http.stop(0);
            fake.destroyForcibly();
        }
    }

    private static void lookOverLab(SshTestClient ssh, LabServer lab, ProbeBundle b) throws Exception {
        try (ClientSession s = ssh.connect(lab, "capture")) {
            SshTestClient.Result r = SshTestClient.exec(s, b.script(), null);
            if (r.status() != 0) {
                throw new IllegalStateException(r.err());
            }
        }
    }

    private static String bash(String script) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", "-s").start();
        p.getOutputStream().write(script.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(120, TimeUnit.SECONDS);
        return out;
    }

    private static double median(long[] ns) {
        long[] s = ns.clone();
        Arrays.sort(s);
        return s[s.length / 2] / 1e6;
    }
}
