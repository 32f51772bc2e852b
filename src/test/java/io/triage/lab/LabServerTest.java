package io.triage.lab;

import io.triage.TestHome;
import io.triage.capture.Capture;
import io.triage.capture.CaptureReader;
import io.triage.capture.ProbeOutput;
import io.triage.collect.BundleOutput;
import io.triage.collect.ProbeBundle;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The lab over real SSH on the loopback: the probe bundle, ordinary commands, authentication. */
class LabServerTest {
    static final Path SEED = TestHome.SCENARIOS.resolve("seed-trtllm-backend-never-launched");
    static final Path HEALTHY = TestHome.SCENARIOS.resolve("02-healthy-sglang-tp2-h200");
    static final String SEED_HOST = "seed-trtllm-backend-never-launched";

    @TempDir
    Path tmp;

    KeyPair clientKey;
    LabServer lab;
    SshTestClient ssh;

    @BeforeEach
    void start() throws IOException {
        clientKey = LabKeys.generate();
        lab = LabServer.start(LabServer.Config.empty().withCapture(SEED).withCapture(HEALTHY)
                .withAuthorizedKey(clientKey.getPublic()));
        ssh = new SshTestClient(clientKey, lab.hostKey());
    }

    @AfterEach
    void stop() {
        ssh.close();
        lab.close();
    }

    @Test
    void theProbeBundleComesBackAsTheRecordedHostAnsweredIt() throws Exception {
        ProbeBundle bundle = io.triage.TestHome.bundle("sglang", null, null);
        SshTestClient.Result r;
        try (ClientSession s = ssh.connect(lab, SEED_HOST)) {
            r = SshTestClient.exec(s, bundle.script(), null);
        }
        assertFalse(ssh.seenHostKeys.isEmpty());
        assertTrue(KeyUtils.compareKeys(lab.hostKey(), ssh.seenHostKeys.get(0)), "the server presents hostKey()");
        assertEquals(0, r.status(), r.err());
        assertSameAsCapture(SEED, BundleOutput.parse("lab", bundle, r.out(), Map.of(), List.of()));
    }

    @Test
    void theProbeBundleOnStdinOfBashS() throws Exception {
        ProbeBundle bundle = io.triage.TestHome.bundle("sglang", null, null);
        SshTestClient.Result r;
        try (ClientSession s = ssh.connect(lab, SEED_HOST)) {
            r = SshTestClient.exec(s, "bash -s", bundle.script().getBytes(StandardCharsets.UTF_8));
        }
        assertEquals(0, r.status(), r.err());
        assertSameAsCapture(SEED, BundleOutput.parse("lab", bundle, r.out(), Map.of(), List.of()));
    }

    @Test
    void theProbeBundleAsTheArgumentOfBashC() throws Exception {
        ProbeBundle bundle = io.triage.TestHome.bundle(null, null, null);
        SshTestClient.Result r;
        try (ClientSession s = ssh.connect(lab, HEALTHY.getFileName().toString())) {
            r = SshTestClient.exec(s, "bash -c " + ProbeBundle.quote(bundle.script()), null);
        }
        assertEquals(0, r.status(), r.err());
        Capture c = BundleOutput.parse("lab", bundle, r.out(), Map.of(), List.of());
        assertSameAsCapture(HEALTHY, c);
        assertEquals("sglang", c.target().get("server"), "the server kind is discovered when not given");
    }

    @Test
    void givenTargetValuesAreNotRediscovered() throws Exception {
        ProbeBundle bundle = io.triage.TestHome.bundle("sglang", 31000, "/var/log/other.log");
        SshTestClient.Result r;
        try (ClientSession s = ssh.connect(lab, SEED_HOST)) {
            r = SshTestClient.exec(s, bundle.script(), null);
        }
        assertFalse(r.out().contains(" discovered "), r.out());
        Capture c = BundleOutput.parse("lab", bundle, r.out(), Map.of(), List.of());
        assertEquals("31000", c.target().get("port"));
        assertEquals("/var/log/other.log", c.target().get("log"));
    }

    static void assertSameAsCapture(Path dir, Capture overSsh) throws Exception {
        Capture recorded = new CaptureReader().read(dir);
        Set<String> ran = recorded.probes().keySet();
        for (ProbeBundle.Probe p : ProbeBundle.STANDARD) {
            ProbeOutput want = recorded.probes().get(p.name());
            ProbeOutput got = overSsh.probes().get(p.name());
            if (want == null || (want.out() == null && want.err() == null && want.rc() == null)) {
                assertEquals(null, got, p.name() + " was not recorded, so it must be absent (unknown)");
                continue;
            }
            assertTrue(got != null, p.name() + " missing over SSH");
            assertEquals(want.outOrEmpty(), got.out(), p.name() + " stdout");
            assertEquals(want.errOrEmpty(), got.err(), p.name() + " stderr");
            assertEquals(want.rc() == null ? 0 : want.rc(), got.rc(), p.name() + " rc");
            assertEquals(want.seconds() == null ? 0.0 : Math.round(want.seconds() * 1000) / 1000.0, got.seconds(), 1e-9,
                    p.name() + " seconds");
        }
        assertTrue(ran.containsAll(overSsh.probes().keySet()), "no probe invented: " + overSsh.probes().keySet());
        assertEquals(recorded.target().get("port"), overSsh.target().get("port"), "discovered port");
        assertEquals(recorded.target().get("log"), overSsh.target().get("log"), "discovered log");
        assertFalse(overSsh.notes().stream().anyMatch(n -> n.contains("cut short")), overSsh.notes().toString());
    }

    @Test
    void anOrdinaryCommandGetsTheRecordedOutput() throws Exception {
        Capture recorded = new CaptureReader().read(HEALTHY);
        try (ClientSession s = ssh.connect(lab, HEALTHY.getFileName().toString())) {
            SshTestClient.Result smi = SshTestClient.exec(s, "nvidia-smi", null);
            assertEquals(0, smi.status());
            assertEquals(recorded.probes().get("nvidia_smi_full").out(), smi.out());
            assertTrue(smi.out().contains("NVIDIA-SMI"), smi.out());

            SshTestClient.Result date = SshTestClient.exec(s, "date", null);
            assertEquals(recorded.probes().get("date").out(), date.out());

            String exact = recorded.probes().get("gpus").cmd();
            assertEquals(recorded.probes().get("gpus").out(), SshTestClient.exec(s, exact, null).out());
            assertEquals(recorded.probes().get("dmesg").out(), SshTestClient.exec(s, "  dmesg  ", null).out());
            assertEquals(recorded.probes().get("log_tail").out(), SshTestClient.exec(s, "log_tail", null).out());
            assertEquals(recorded.probes().get("date").out(), SshTestClient.exec(s, "bash -c 'date -Is; uptime'", null).out());
        }
    }

    @Test
    void anythingElseIsRefusedAndNothingRuns() throws Exception {
        Path marker = tmp.resolve("must-not-exist");
        try (ClientSession s = ssh.connect(lab, SEED_HOST)) {
            SshTestClient.Result rm = SshTestClient.exec(s, "rm -rf /", null);
            assertEquals(127, rm.status());
            assertEquals("", rm.out());
            assertTrue(rm.err().startsWith("lab host " + SEED_HOST + ": only the recorded probes can run here ("), rm.err());
            assertTrue(rm.err().contains("gpus: nvidia-smi"), rm.err());

            assertEquals(127, SshTestClient.exec(s, "touch " + marker, null).status());
            assertEquals(127, SshTestClient.exec(s, "bash -c 'touch " + marker + "'", null).status());
            assertEquals(127, SshTestClient.exec(s, "bash -s", ("touch " + marker + "\n").getBytes(StandardCharsets.UTF_8)).status());
            assertEquals(127, SshTestClient.exec(s, "; true", null).status());
        }
        assertFalse(Files.exists(marker), "the lab ran a command");
    }

    @Test
    void aShellPrintsHelpAndExits() throws Exception {
        try (ClientSession s = ssh.connect(lab, SEED_HOST)) {
            SshTestClient.Result r = SshTestClient.shell(s);
            assertEquals(0, r.status());
            assertTrue(r.out().contains("Triage lab host"), r.out());
            assertTrue(r.out().contains("ssh -p " + lab.port()), r.out());
        }
    }

    @Test
    void thePasswordOpensEveryLabHost() throws Exception {
        assertTrue(lab.password().length() >= 16, lab.password());
        try (ClientSession s = ssh.connectWithPassword(lab, SEED_HOST, lab.password())) {
            assertEquals(0, SshTestClient.exec(s, "date", null).status());
        }
    }

    @Test
    void aWrongPasswordIsRefused() {
        assertThrows(IOException.class, () -> ssh.connectWithPassword(lab, SEED_HOST, lab.password() + "x"));
        assertThrows(IOException.class, () -> ssh.connectWithPassword(lab, SEED_HOST, lab.password().toUpperCase()));
    }

    @Test
    void anUnknownUserIsRefusedWhateverTheCredentials() {
        assertThrows(IOException.class, () -> ssh.connectWithPassword(lab, "root", lab.password()));
        assertThrows(IOException.class, () -> ssh.connect(lab, "root"));
        assertThrows(IOException.class, () -> ssh.connect(lab, "no-such-host"));
    }

    @Test
    void anUnauthorisedKeyIsRefused() {
        try (SshTestClient stranger = new SshTestClient(LabKeys.generate(), lab.hostKey())) {
            assertThrows(IOException.class, () -> stranger.connect(lab, SEED_HOST));
        }
    }

    @Test
    void theKnownHostsLineNamesThePortAndTheKey() {
        String line = lab.knownHostsLine();
        assertTrue(line.matches("\\[127\\.0\\.0\\.1\\]:" + lab.port() + " ssh-ed25519 AAAA[A-Za-z0-9+/=]+"), line);
        assertTrue(lab.hostKeyFingerprint().startsWith("SHA256:"), lab.hostKeyFingerprint());
        assertEquals(List.of(SEED_HOST, "02-healthy-sglang-tp2-h200"), lab.hosts());
        assertEquals("ssh -p " + lab.port() + " gpu-x@127.0.0.1", lab.sshCommand("gpu-x"));
    }

    @Test
    void aKeptHostKeySurvivesARestart() throws Exception {
        Path keyFile = tmp.resolve("lab/host_key");
        LabServer.Config c = LabServer.Config.empty().withCapture(SEED).withHostKeyFile(keyFile);
        String first;
        try (LabServer a = LabServer.start(c)) {
            first = a.knownHostsLine().split(" ", 2)[1];
        }
        assertTrue(Files.readString(keyFile).startsWith("-----BEGIN OPENSSH PRIVATE KEY-----"));
        if (Files.getFileStore(keyFile).supportsFileAttributeView("posix")) {
            assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(keyFile)));
        }
        try (LabServer b = LabServer.start(c)) {
            assertEquals(first, b.knownHostsLine().split(" ", 2)[1]);
        }
        try (LabServer fresh = LabServer.start(LabServer.Config.empty().withCapture(SEED))) {
            assertNotEquals(first, fresh.knownHostsLine().split(" ", 2)[1], "without a key file, a new key per start");
        }
        Files.writeString(keyFile, "not a key");
        assertThrows(IOException.class, () -> LabServer.start(c), "a broken key file is never silently replaced");
    }

    @Test
    void closingTheLabClosesItsSessions() throws Exception {
        ClientSession s = ssh.connect(lab, SEED_HOST);
        assertEquals(0, SshTestClient.exec(s, "date", null).status());
        lab.close();
        s.waitFor(java.util.EnumSet.of(org.apache.sshd.client.session.ClientSession.ClientSessionEvent.CLOSED),
                TimeUnit.SECONDS.toMillis(10));
        assertTrue(s.isClosed() || s.isClosing(), "the session was closed by the lab");
        assertFalse(lab.isOpen());
        assertThrows(IOException.class, () -> ssh.connect(lab, SEED_HOST), "nothing listens any more");
        lab.close(); // idempotent
    }

    @Test
    void badConfigurationsAreRefusedAtStart() {
        assertThrows(IllegalArgumentException.class, () -> LabServer.start(LabServer.Config.empty()));
        assertThrows(IOException.class, () -> LabServer.start(LabServer.Config.empty().withCapture(tmp.resolve("nope"))));
        assertThrows(IllegalArgumentException.class,
                () -> LabServer.start(LabServer.Config.empty().withCapture(SEED).withCapture(SEED)));
        assertThrows(IllegalArgumentException.class, () -> LabServer.Config.empty().withFleet("bad name", 3));
        assertThrows(IllegalArgumentException.class, () -> LabServer.Config.empty().withPort(70000));
    }

    @Test
    void theOpenSshClientGetsTheRecordedDate() throws Exception {
        Path sshBin = Path.of("/usr/bin/ssh");
        Path keygen = Path.of("/usr/bin/ssh-keygen");
        assumeTrue(Files.isExecutable(sshBin) && Files.isExecutable(keygen), "OpenSSH client not installed");
        Path key = tmp.resolve("id_ed25519");
        Process kg = new ProcessBuilder(keygen.toString(), "-q", "-t", "ed25519", "-N", "", "-C", "lab-test",
                "-f", key.toString()).redirectErrorStream(true).start();
        String kgOut = new String(kg.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(kg.waitFor(30, TimeUnit.SECONDS) && kg.exitValue() == 0, kgOut);
        try (LabServer withKey = LabServer.start(LabServer.Config.empty().withCapture(SEED)
                .withAuthorizedKey(LabKeys.load(key).getPublic()))) {
            Path knownHosts = Files.writeString(tmp.resolve("known_hosts"), withKey.knownHostsLine() + "\n");
            List<String> cmd = List.of(sshBin.toString(), "-p", String.valueOf(withKey.port()),
                    "-o", "UserKnownHostsFile=" + knownHosts, "-o", "GlobalKnownHostsFile=/dev/null",
                    "-o", "StrictHostKeyChecking=yes", "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes",
                    "-o", "ConnectTimeout=10", "-F", "/dev/null",
                    "-i", key.toString(), SEED_HOST + "@127.0.0.1", "date");
            Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            byte[] err = p.getErrorStream().readAllBytes();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "ssh did not finish");
            assertEquals(0, p.exitValue(), new String(err, StandardCharsets.UTF_8));
            assertEquals(Files.readString(SEED.resolve("date.out")), out);

            // without the key: refused, and only public key and password are on offer
            List<String> noKey = new java.util.ArrayList<>(cmd);
            noKey.set(noKey.indexOf(key.toString()), tmp.resolve("no-such-key").toString());
            Process q = new ProcessBuilder(noKey).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
            q.getInputStream().readAllBytes();
            String qErr = new String(q.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(q.waitFor(30, TimeUnit.SECONDS));
            assertEquals(255, q.exitValue(), qErr);
            assertTrue(qErr.contains("Permission denied (publickey,password)"), qErr);
        }
    }
}
