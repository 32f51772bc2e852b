package io.triage.collect;

import io.triage.capture.Capture;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Hosts that flood, stall or answer nothing useful: each look ends, bounded, with the failure named for what happened. */
class HostileHostsTest {
    /** Far above the cap: a client that did not stop the flood would still end, and the test would fail. */
    static final long FLOOD_LIMIT = 256L << 20;

    @TempDir
    Path tmp;

    private SshCollector collector(HostileSshd sshd, Duration deadline) throws IOException {
        Path kh = Files.writeString(tmp.resolve("known_hosts"),
                "[127.0.0.1]:" + sshd.port() + " " + PublicKeyEntry.toString(sshd.hostKey.getPublic()) + "\n");
        SshCollector c = new SshCollector(new SshCollector.Options(kh, false, List.of(),
                Files.writeString(tmp.resolve("ssh_config"), "# none\n"), Duration.ofSeconds(10), deadline, null));
        c.addIdentity(sshd.clientKey);
        return c;
    }

    private SshCollector.Look look(HostileSshd.Mode mode, Duration deadline) throws Exception {
        try (HostileSshd sshd = new HostileSshd(u -> mode, FLOOD_LIMIT); SshCollector c = collector(sshd, deadline)) {
            return assertTimeoutPreemptively(deadline.plusSeconds(60), () ->
                    c.look(SshTarget.parse("ops@127.0.0.1:" + sshd.port()), io.triage.TestHome.bundle("sglang", 30000, null), Map.of()));
        }
    }

    @Test
    void aHostFloodingStdoutWithValidFramesIsStoppedAtTheCapAsOutputCapNotDeadline() throws Exception {
        SshCollector.Failed f = assertInstanceOf(SshCollector.Failed.class, look(HostileSshd.Mode.FLOOD_STDOUT, Duration.ofSeconds(120)));
        assertEquals("output-cap", f.failure().kind(), f.failure().toString());
        assertTrue(f.failure().message().contains("standard output and error together"), f.failure().message());
    }

    @Test
    void aHostFloodingStderrCountsAgainstTheSameCap() throws Exception {
        SshCollector.Failed f = assertInstanceOf(SshCollector.Failed.class, look(HostileSshd.Mode.FLOOD_STDERR, Duration.ofSeconds(120)));
        assertEquals("output-cap", f.failure().kind(), f.failure().toString());
    }

    @Test
    void aHostTricklingAByteASecondEndsAtTheDeadline() throws Exception {
        SshCollector.Failed f = assertInstanceOf(SshCollector.Failed.class, look(HostileSshd.Mode.TRICKLE, Duration.ofSeconds(3)));
        assertEquals("deadline", f.failure().kind(), f.failure().toString());
    }

    @Test
    void aHostThatAnswersWithoutAnyProbeIsALookFailureNotADiagnosis() throws Exception {
        SshCollector.Failed f = assertInstanceOf(SshCollector.Failed.class, look(HostileSshd.Mode.NO_PROBES, Duration.ofSeconds(60)));
        assertEquals("no-probes", f.failure().kind(), f.failure().toString());
        assertTrue(f.failure().check().contains("bash -s"), f.failure().check());
    }

    @Test
    void aTcpTarpitThatNeverSpeaksSshEndsWithinTheDeadline() throws Exception {
        List<Socket> held = new ArrayList<>();
        try (ServerSocket tarpit = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        held.add(tarpit.accept()); // accept, then say nothing
                    }
                } catch (IOException e) {
                    // closed by the test
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            Path kh = Files.writeString(tmp.resolve("kh"), "");
            try (SshCollector c = new SshCollector(new SshCollector.Options(kh, false, List.of(),
                    Files.writeString(tmp.resolve("cfg"), "# none\n"), Duration.ofSeconds(2), Duration.ofSeconds(3), null))) {
                SshCollector.Look look = assertTimeoutPreemptively(Duration.ofSeconds(60), () ->
                        c.look(SshTarget.parse("ops@127.0.0.1:" + tarpit.getLocalPort()), io.triage.TestHome.bundle("sglang", 1, null), Map.of()));
                SshCollector.Failed f = assertInstanceOf(SshCollector.Failed.class, look);
                assertTrue(List.of("timeout", "deadline", "ssh-error").contains(f.failure().kind()), f.failure().toString());
            }
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    @Test
    void theStreamingReaderKeepsOnlyFramesOfTheBundlesOwnProbes() {
        ProbeBundle b = io.triage.TestHome.bundle("sglang", 30000, null);
        String tag = "@@" + b.nonce() + " ";
        String frames = "Welcome to the host!\n" + "x".repeat(BundleOutput.MAX_LINE + 10) + "\n"
                + tag + "probe health rc=0 ms=12\n" + b64("200 0.01\n") + "\n" + b64("") + "\n"
                + tag + "probe not_ours rc=0 ms=1\n" + b64("evil\n") + "\n\n"
                + "@@0000 probe gpus rc=0 ms=1\n" + b64("forged\n") + "\n\n"
                + tag + "probe log_tail rc=0 ms=2\n" + "A".repeat(BundleOutput.MAX_LINE + 4) + "\n\n"
                + tag + "end\n";
        BundleOutput.Reader r = new BundleOutput.Reader(b);
        byte[] bytes = frames.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i += 7) { // arriving in small, arbitrary pieces
            r.write(bytes, i, Math.min(7, bytes.length - i));
        }
        Capture c = r.capture("test", Map.of(), List.of());
        assertEquals(List.of("health", "log_tail"), List.copyOf(c.probes().keySet()));
        assertEquals("200 0.01\n", c.probes().get("health").out());
        assertNull(c.probes().get("log_tail").out(), "an overlong frame is dropped, not kept");
        assertTrue(c.notes().contains("log_tail: output frame longer than the probe script ever prints; dropped"), c.notes().toString());
        assertTrue(c.notes().contains("the host sent a result for a probe the bundle does not run; ignored"), c.notes().toString());
    }

    @Test
    void theDefaultCapHoldsEveryProbeAtItsLargestAnswer() {
        long largest = 0;
        for (ProbeBundle.Probe p : ProbeBundle.STANDARD) {
            largest += ("@@" + "f".repeat(32) + " probe " + p.name() + " rc=124 ms=10000\n").length()
                    + (ProbeBundle.MAX_OUT + 2) / 3 * 4 + 1 + (ProbeBundle.MAX_ERR + 2) / 3 * 4 + 1;
        }
        assertTrue(largest < SshCollector.MAX_ANSWER, largest + " < " + SshCollector.MAX_ANSWER);
    }

    private static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }
}
