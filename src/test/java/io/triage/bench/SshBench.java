package io.triage.bench;

import io.triage.Triage;
import io.triage.collect.ProbeBundle;
import io.triage.collect.SshCollector;
import io.triage.collect.SshTarget;
import io.triage.explain.Diagnosis;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Benchmark, not a test: one live diagnosis against a loopback OpenSSH server versus the OpenSSH
 * client running the same bundle ({@code ssh host bash -s < bundle}), alternating in one run.
 * Run: {@code java -cp target/classes:target/test-classes:$(cat target/cp.txt) io.triage.bench.SshBench [runs]}
 * after {@code mvn -q dependency:build-classpath -Dmdep.outputFile=target/cp.txt}.
 */
public final class SshBench {
    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        io.triage.collect.OpenSshd sshd = new io.triage.collect.OpenSshd();
        Path dir = sshd.dir;
        int port = sshd.port;
        Path kh = sshd.knownHosts;
        Path log = Files.writeString(dir.resolve("server.log"), "[2026-11-30 00:31:01] The server is fired up and ready to roll!\n");
        String user = System.getProperty("user.name");
        Triage triage = Triage.load(Path.of("").toAbsolutePath());
        try (SshCollector c = new SshCollector(new SshCollector.Options(kh, false, List.of(dir.resolve("user_key")),
                Files.writeString(dir.resolve("ssh_config"), "#\n"), Duration.ofSeconds(10), Duration.ofSeconds(60)))) {
            SshTarget t = SshTarget.parse(user + "@127.0.0.1:" + port);
            long[] ours = new long[runs];
            long[] openssh = new long[runs];
            for (int i = -2; i < runs; i++) {
                ProbeBundle b = io.triage.TestHome.bundle("sglang", 1, log.toString());
                long s = System.nanoTime();
                SshCollector.Look look = c.look(t, b, Map.of());
                Diagnosis d = triage.diagnose(((SshCollector.Collected) look).capture(), Map.of());
                long mid = System.nanoTime();
                Process p = new ProcessBuilder("/usr/bin/ssh", "-p", String.valueOf(port), "-i", dir.resolve("user_key").toString(),
                        "-o", "UserKnownHostsFile=" + kh, "-o", "StrictHostKeyChecking=yes", "-o", "BatchMode=yes",
                        "-F", "/dev/null", user + "@127.0.0.1", "bash -s").start();
                p.getOutputStream().write(b.script().getBytes(StandardCharsets.UTF_8));
                p.getOutputStream().close();
                p.getInputStream().readAllBytes();
                p.waitFor();
                long end = System.nanoTime();
                if (i >= 0) {
                    ours[i] = mid - s;
                    openssh[i] = end - mid;
                }
                if (d.cause().isEmpty()) {
                    throw new IllegalStateException();
                }
            }
            double a = median(ours) / 1e6;
            double o = median(openssh) / 1e6;
            System.out.printf("live diagnosis (MINA look + rules), median of %d: %.1f ms%n", runs, a);
            System.out.printf("OpenSSH client, same bundle, median of %d:      %.1f ms%n", runs, o);
            System.out.printf("ratio: %.2fx; execs per diagnosis: %.2f%n", a / o, c.execs() / (double) (runs + 2));
        } finally {
            sshd.close();
        }
    }

    private static double median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    private SshBench() {
    }
}
