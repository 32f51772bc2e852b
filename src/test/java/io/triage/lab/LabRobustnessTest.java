package io.triage.lab;

import io.triage.TestHome;
import io.triage.capture.Capture;
import io.triage.collect.BundleOutput;
import io.triage.collect.ProbeBundle;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ClientChannelEvent;
import org.apache.sshd.client.future.ConnectFuture;
import org.apache.sshd.client.session.ClientSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Hundreds of sessions at once, clients that leave mid-output, huge inputs: the lab stays up. */
class LabRobustnessTest {
    @TempDir
    Path tmp;

    final KeyPair key = LabKeys.generate();
    LabServer lab;
    SshTestClient ssh;

    @AfterEach
    void stop() {
        if (ssh != null) {
            ssh.close();
        }
        if (lab != null) {
            lab.close();
        }
    }

    void start(LabServer.Config config) throws Exception {
        lab = LabServer.start(config.withAuthorizedKey(key.getPublic()));
        ssh = new SshTestClient(key, lab.hostKey());
    }

    static Set<String> standardProbes(LabHost h) {
        Set<String> s = new HashSet<>(h.probes());
        s.retainAll(java.util.stream.Stream.concat(ProbeBundle.ALL.stream(), ProbeBundle.SECOND_LOOK_PROBES.stream())
                .map(ProbeBundle.Probe::name).toList());
        return s;
    }

    @Test
    void twoHundredHostsAnswerTheBundleAtOnce() throws Exception {
        start(LabServer.Config.forHome(TestHome.HOME).withFleet("lab", 200));
        List<String> fleet = lab.hosts().stream().filter(h -> h.startsWith("lab-")).toList();
        assertEquals(200, fleet.size());
        ProbeBundle bundle = io.triage.TestHome.bundle(null, null, null);
        long t0 = System.nanoTime();
        List<ConnectFuture> connects = new ArrayList<>();
        for (String h : fleet) {
            connects.add(ssh.client.connect(h, LabServer.ADDRESS, lab.port()));
        }
        List<ClientSession> sessions = new ArrayList<>();
        try {
            for (ConnectFuture f : connects) {
                ClientSession s = f.verify(SshTestClient.TIMEOUT).getSession();
                s.addPublicKeyIdentity(key);
                sessions.add(s);
            }
            List<org.apache.sshd.client.future.AuthFuture> auths = new ArrayList<>();
            for (ClientSession s : sessions) {
                auths.add(s.auth());
            }
            for (org.apache.sshd.client.future.AuthFuture a : auths) {
                a.verify(SshTestClient.TIMEOUT);
            }
            List<ChannelExec> channels = new ArrayList<>();
            List<ByteArrayOutputStream> outs = new ArrayList<>();
            for (ClientSession s : sessions) {
                ChannelExec ch = s.createExecChannel(bundle.script());
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                ch.setOut(out);
                ch.setErr(new ByteArrayOutputStream());
                ch.open();
                channels.add(ch);
                outs.add(out);
            }
            for (int i = 0; i < channels.size(); i++) {
                ChannelExec ch = channels.get(i);
                Set<ClientChannelEvent> ev = ch.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), SshTestClient.TIMEOUT);
                assertTrue(ev.contains(ClientChannelEvent.CLOSED), fleet.get(i) + " did not finish: " + ev);
                assertEquals(0, ch.getExitStatus(), fleet.get(i));
                Capture c = BundleOutput.parse(fleet.get(i), bundle, outs.get(i).toString(StandardCharsets.UTF_8), Map.of(), List.of());
                LabHost h = lab.host(fleet.get(i)).orElseThrow();
                assertEquals(standardProbes(h), c.probes().keySet(), fleet.get(i) + " plays " + h.captureDir().getFileName());
                assertEquals(h.capture().target().get("log"), c.target().get("log"));
            }
        } finally {
            sessions.forEach(s -> s.close(true));
        }
        System.err.printf("LabRobustnessTest: 200 lab hosts, connect + auth + bundle, all at once: %d ms%n",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }

    /** A copy of the seed capture whose log probes print several megabytes. */
    Path bigCapture() throws Exception {
        Path src = TestHome.SCENARIOS.resolve("seed-trtllm-backend-never-launched");
        Path dir = Files.createDirectories(tmp.resolve("big-host"));
        try (Stream<Path> files = Files.list(src)) {
            for (Path f : files.toList()) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        StringBuilder b = new StringBuilder();
        int i = 0;
        while (b.length() < 1_900_000) {
            b.append("[2026-11-30 00:0").append(i % 10).append(":00] Decode batch. #running-req: 8, #token: ")
                    .append(i++).append(", gen throughput (token/s): 1866.01\n");
        }
        Files.writeString(dir.resolve("log_tail.out"), b);
        Files.writeString(dir.resolve("log_markers.out"), b);
        return dir;
    }

    @Test
    void clientsThatLeaveMidOutputDoNotHurtTheLab() throws Exception {
        start(LabServer.Config.empty().withCapture(bigCapture()));
        ProbeBundle bundle = io.triage.TestHome.bundle("sglang", null, null);
        for (int round = 0; round < 10; round++) {
            ClientSession s = ssh.connect(lab, "big-host");
            CountDownLatch someOutput = new CountDownLatch(1);
            AtomicLong got = new AtomicLong();
            ChannelExec ch = s.createExecChannel(bundle.script());
            ch.setOut(new OutputStream() {
                @Override
                public void write(int b) {
                    write(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] b, int off, int len) {
                    if (got.addAndGet(len) > 100_000) {
                        someOutput.countDown();
                    }
                }
            });
            ch.setErr(new ByteArrayOutputStream());
            ch.open().verify(SshTestClient.TIMEOUT);
            assertTrue(someOutput.await(30, TimeUnit.SECONDS), "no output arrived");
            s.close(true); // gone, mid-output
        }
        // the lab still answers in full
        try (ClientSession s = ssh.connect(lab, "big-host")) {
            SshTestClient.Result r = SshTestClient.exec(s, bundle.script(), null);
            assertEquals(0, r.status());
            Capture c = BundleOutput.parse("lab", bundle, r.out(), Map.of(), List.of());
            // what the bundle prints of a probe on a real host: its first MAX_OUT bytes (head -c)
            byte[] recorded = lab.host("big-host").orElseThrow().capture().probes().get("log_tail").out()
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(new String(java.util.Arrays.copyOf(recorded, ProbeBundle.MAX_OUT), java.nio.charset.StandardCharsets.UTF_8),
                    c.probes().get("log_tail").out());
        }
        long until = System.currentTimeMillis() + 15_000;
        while (lab.activeWorkers() > 0 && System.currentTimeMillis() < until) {
            Thread.sleep(50);
        }
        assertEquals(0, lab.activeWorkers(), "a client that left still holds a worker");
    }

    @Test
    void hugeInputsAreRefusedOrIgnoredNotSwallowed() throws Exception {
        Path seed = TestHome.SCENARIOS.resolve("seed-trtllm-backend-never-launched");
        start(LabServer.Config.empty().withCapture(seed));
        String host = "seed-trtllm-backend-never-launched";
        byte[] junk = new byte[8 << 20];
        Arrays.fill(junk, (byte) 'x');
        try (ClientSession s = ssh.connect(lab, host)) {
            SshTestClient.Result big = SshTestClient.exec(s, "bash -s", junk);
            assertEquals(2, big.status(), big.err());
            assertTrue(big.err().contains("larger than"), big.err());

            SshTestClient.Result date = SshTestClient.exec(s, "date", junk);
            assertEquals(0, date.status());
            assertEquals(Files.readString(seed.resolve("date.out")), date.out());

            ProbeBundle bundle = io.triage.TestHome.bundle("sglang", null, null);
            byte[] script = bundle.script().getBytes(StandardCharsets.UTF_8);
            byte[] scriptThenJunk = Arrays.copyOf(script, script.length + junk.length);
            System.arraycopy(junk, 0, scriptThenJunk, script.length, junk.length);
            SshTestClient.Result r = SshTestClient.exec(s, "bash -s", scriptThenJunk);
            assertEquals(0, r.status(), r.err());
            LabServerTest.assertSameAsCapture(seed, BundleOutput.parse("lab", bundle, r.out(), Map.of(), List.of()));
        }
    }
}
