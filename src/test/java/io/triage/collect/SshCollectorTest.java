package io.triage.collect;

import io.triage.TestHome;
import io.triage.capture.CaptureWriter;
import io.triage.explain.Diagnosis;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.server.command.Command;
import org.apache.sshd.server.command.CommandFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The collector against an in-process SSH server on loopback. */
class SshCollectorTest {
    @TempDir
    Path tmp;

    private SshCollector collector(Path knownHosts, boolean acceptNew, LocalSshd sshd, Duration deadline) {
        SshCollector c = new SshCollector(new SshCollector.Options(knownHosts, acceptNew, List.of(),
                Files.exists(tmp.resolve("none")) ? null : writeEmptyConfig(), Duration.ofSeconds(5), deadline));
        if (sshd != null) {
            c.addIdentity(sshd.clientKey);
        }
        return c;
    }

    private Path writeEmptyConfig() {
        try {
            return Files.writeString(tmp.resolve("ssh_config"), "# no aliases\n");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private Path knownHosts(LocalSshd sshd) throws IOException {
        return Files.writeString(tmp.resolve("known_hosts"),
                "[127.0.0.1]:" + sshd.port() + " " + PublicKeyEntry.toString(sshd.hostPublicKey()) + "\n");
    }

    private SshTarget target(LocalSshd sshd) {
        return SshTarget.parse(System.getProperty("user.name") + "@127.0.0.1:" + sshd.port());
    }

    @Test
    void oneExecBringsBackEveryProbeAndASavedLookReplaysToTheSameVerdict() throws Exception {
        Path log = Files.writeString(tmp.resolve("server.log"), "[2026-11-30 00:30:55] server_args=ServerArgs(port=1)\n"
                + "[2026-11-30 00:31:01] The server is fired up and ready to roll!\n"
                + "INFO:     127.0.0.1:43912 - \"POST /v1/completions HTTP/1.1\" 200 OK\n");
        try (LocalSshd sshd = new LocalSshd(null); SshCollector c = collector(knownHosts(sshd), false, sshd, Duration.ofSeconds(60))) {
            SshCollector.Look look = c.look(target(sshd), io.triage.TestHome.bundle("sglang", 1, log.toString()), Map.of());
            SshCollector.Collected got = assertInstanceOf(SshCollector.Collected.class, look, look.toString());
            assertEquals(1, c.execs(), "one exec per look");
            for (ProbeBundle.Probe p : ProbeBundle.STANDARD) {
                assertTrue(got.capture().probes().containsKey(p.name()), p.name());
            }
            Diagnosis live = TestHome.triage().diagnose(got.capture(), Map.of());
            Path saved = tmp.resolve("saved");
            CaptureWriter.write(got.capture(), saved);
            Diagnosis replayed = TestHome.triage().replay(saved, Map.of());
            assertEquals(live.cause() + "/" + live.subtype() + "/" + live.confidence(),
                    replayed.cause() + "/" + replayed.subtype() + "/" + replayed.confidence());
            assertEquals(live.hypotheses().stream().map(h -> h.cause() + h.status() + h.confidence()).toList(),
                    replayed.hypotheses().stream().map(h -> h.cause() + h.status() + h.confidence()).toList());
            assertEquals(live.ruledOut(), replayed.ruledOut());
        }
    }

    @Test
    void anUnknownHostKeyIsRefusedWithTheLineToAddAndAcceptNewRecordsIt() throws Exception {
        try (LocalSshd sshd = new LocalSshd(null)) {
            Path kh = tmp.resolve("kh");
            try (SshCollector c = collector(kh, false, sshd, Duration.ofSeconds(30))) {
                SshCollector.Failed f = assertInstanceOf(SshCollector.Failed.class,
                        c.look(target(sshd), io.triage.TestHome.bundle("sglang", 1, null), Map.of()));
                assertEquals("host-key-unknown", f.failure().kind(), f.failure().toString());
                assertTrue(f.failure().check().contains("[127.0.0.1]:" + sshd.port() + " ssh-ed25519 "), f.failure().check());
                assertTrue(f.failure().check().contains("--accept-new"));
            }
            try (SshCollector c = collector(kh, true, sshd, Duration.ofSeconds(30))) {
                assertInstanceOf(SshCollector.Collected.class, c.look(target(sshd), io.triage.TestHome.bundle("sglang", 1, null), Map.of()));
            }
            assertTrue(Files.readString(kh).contains("[127.0.0.1]:" + sshd.port()), "recorded");
            try (SshCollector c = collector(kh, false, sshd, Duration.ofSeconds(30))) {
                assertInstanceOf(SshCollector.Collected.class, c.look(target(sshd), io.triage.TestHome.bundle("sglang", 1, null), Map.of()));
            }
        }
    }

    @Test
    void aChangedHostKeyIsAlwaysRefusedEvenWithAcceptNew() throws Exception {
        try (LocalSshd sshd = new LocalSshd(null)) {
            Path kh = Files.writeString(tmp.resolve("kh"), "[127.0.0.1]:" + sshd.port() + " "
                    + PublicKeyEntry.toString(LocalSshd.ed25519().getPublic()) + "\n");
            try (SshCollector c = collector(kh, true, sshd, Duration.ofSeconds(30))) {
                SshCollector.Failed f = assertInstanceOf(SshCollector.Failed.class,
                        c.look(target(sshd), io.triage.TestHome.bundle("sglang", 1, null), Map.of()));
                assertEquals("host-key-changed", f.failure().kind(), f.failure().toString());
                assertTrue(f.failure().message().contains("CHANGED"));
            }
        }
    }

    @Test
    void aKeyTheHostDoesNotAcceptIsAuthRefused() throws Exception {
        try (LocalSshd sshd = new LocalSshd(null); SshCollector c = collector(knownHosts(sshd), false, null, Duration.ofSeconds(30))) {
            c.addIdentity(LocalSshd.ed25519());
            SshCollector.Failed f = assertInstanceOf(SshCollector.Failed.class,
                    c.look(target(sshd), io.triage.TestHome.bundle("sglang", 1, null), Map.of()));
            assertEquals("auth-refused", f.failure().kind(), f.failure().toString());
        }
    }

    @Test
    void aClosedPortIsUnreachableAndAnUnknownNameIsDns() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        try (SshCollector c = collector(tmp.resolve("kh"), false, null, Duration.ofSeconds(30))) {
            SshCollector.Failed f = assertInstanceOf(SshCollector.Failed.class,
                    c.look(SshTarget.parse("u@127.0.0.1:" + closed), io.triage.TestHome.bundle("sglang", 1, null), Map.of()));
            assertEquals("unreachable", f.failure().kind(), f.failure().toString());
            SshCollector.Failed d = assertInstanceOf(SshCollector.Failed.class,
                    c.look(SshTarget.parse("u@no-such-host.invalid:22"), io.triage.TestHome.bundle("sglang", 1, null), Map.of()));
            assertEquals("dns", d.failure().kind(), d.failure().toString());
        }
    }

    @Test
    void aLookThatOverrunsItsDeadlineIsReportedAsSuch() throws Exception {
        CommandFactory never = (channel, command) -> new Command() {
            @Override public void setInputStream(java.io.InputStream in) { }
            @Override public void setOutputStream(java.io.OutputStream out) { }
            @Override public void setErrorStream(java.io.OutputStream err) { }
            @Override public void setExitCallback(org.apache.sshd.server.ExitCallback callback) { }
            @Override public void start(org.apache.sshd.server.channel.ChannelSession ch, org.apache.sshd.server.Environment env) { }
            @Override public void destroy(org.apache.sshd.server.channel.ChannelSession ch) { }
        };
        try (LocalSshd sshd = new LocalSshd(never); SshCollector c = collector(knownHosts(sshd), false, sshd, Duration.ofSeconds(2))) {
            SshCollector.Failed f = assertInstanceOf(SshCollector.Failed.class,
                    c.look(target(sshd), io.triage.TestHome.bundle("sglang", 1, null), Map.of()));
            assertEquals("deadline", f.failure().kind(), f.failure().toString());
        }
    }

    @Test
    void hostilHostStringsAreRefusedBeforeAnyConnection() {
        for (String h : new String[] {"-oProxyCommand=id", "host;id", "$(id)@host", "user@host:22;id", "host\nid",
                "`id`", "user@-host", "user@ho st", "a@b@c", "host:0", "host:99999"}) {
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> SshTarget.parse(h), h);
        }
        assertEquals(new SshTarget("ops", "gpu-7.lab", 2222), SshTarget.parse("ops@gpu-7.lab:2222"));
        assertEquals(new SshTarget(null, "::1", 22), SshTarget.parse("[::1]:22"));
    }

    @Test
    void anSshConfigAliasGivesHostNamePortUserAndIdentityFile() throws Exception {
        try (LocalSshd sshd = new LocalSshd(null)) {
            Path key = tmp.resolve("alias_key");
            io.triage.lab.LabKeys.save(sshd.clientKey, key);
            Path config = Files.writeString(tmp.resolve("alias_config"), String.join("\n",
                    "Host gpu-box", "  HostName 127.0.0.1", "  Port " + sshd.port(), "  User " + System.getProperty("user.name"),
                    "  IdentityFile " + key, ""));
            try (SshCollector c = new SshCollector(new SshCollector.Options(knownHosts(sshd), false, List.of(), config,
                    Duration.ofSeconds(5), Duration.ofSeconds(60)))) {
                SshCollector.Look look = c.look(SshTarget.parse("gpu-box"), io.triage.TestHome.bundle("sglang", 1, null), Map.of());
                assertInstanceOf(SshCollector.Collected.class, look, look.toString());
            }
        }
    }

    @Test
    void anOpenSshKeyFileGivenWithDashIIsOffered() throws Exception {
        try (LocalSshd sshd = new LocalSshd(null)) {
            Path key = tmp.resolve("id_test");
            io.triage.lab.LabKeys.save(sshd.clientKey, key);
            try (SshCollector c = new SshCollector(new SshCollector.Options(knownHosts(sshd), false, List.of(key),
                    writeEmptyConfig(), Duration.ofSeconds(5), Duration.ofSeconds(60)))) {
                assertInstanceOf(SshCollector.Collected.class, c.look(target(sshd), io.triage.TestHome.bundle("sglang", 1, null), Map.of()));
            }
        }
    }

    @Test
    void withoutAUserTheLocalUserNameIsUsed() throws Exception {
        try (LocalSshd sshd = new LocalSshd(null)) {
            java.util.concurrent.atomic.AtomicReference<String> seen = new java.util.concurrent.atomic.AtomicReference<>();
            sshd.server.setPublickeyAuthenticator((user, key, session) -> {
                seen.set(user);
                return key.equals(sshd.clientKey.getPublic());
            });
            try (SshCollector c = collector(knownHosts(sshd), false, sshd, Duration.ofSeconds(30))) {
                assertInstanceOf(SshCollector.Collected.class,
                        c.look(SshTarget.parse("127.0.0.1:" + sshd.port()), io.triage.TestHome.bundle("sglang", 1, null), Map.of()));
            }
            assertEquals(System.getProperty("user.name"), seen.get());
        }
    }

    @Test
    void aKeyInTheGlobalFileOrAUserKnownHostsFileIsTrustedAndAConflictThereIsAChangedKey() throws Exception {
        try (LocalSshd sshd = new LocalSshd(null)) {
            Path primary = tmp.resolve("primary_known_hosts"); // absent: the host is known elsewhere only
            Path global = Files.writeString(tmp.resolve("ssh_known_hosts"), "# global\n"
                    + "[127.0.0.1]:" + sshd.port() + " " + PublicKeyEntry.toString(sshd.hostPublicKey()) + "\n");
            SshCollector.Options o = new SshCollector.Options(primary, false, List.of(), writeEmptyConfig(),
                    Duration.ofSeconds(5), Duration.ofSeconds(60)).withGlobalKnownHosts(List.of(tmp.resolve("missing"), global));
            try (SshCollector c = new SshCollector(o)) {
                c.addIdentity(sshd.clientKey);
                SshCollector.Look look = c.look(target(sshd), ProbeBundle.forTarget("sglang", 1, null).with(io.triage.TestHome.filters()), Map.of());
                assertInstanceOf(SshCollector.Collected.class, look, look.toString());
            }
            assertTrue(Files.notExists(primary), "a key found in the global file is not copied anywhere");

            Path userFile = Files.writeString(tmp.resolve("team_known_hosts"),
                    "[127.0.0.1]:" + sshd.port() + " " + PublicKeyEntry.toString(sshd.hostPublicKey()) + "\n");
            Path config = Files.writeString(tmp.resolve("ukh_config"), String.join("\n", "Host gpu-box", "  HostName 127.0.0.1",
                    "  Port " + sshd.port(), "  UserKnownHostsFile ~/.nonexistent_triage_file " + userFile, ""));
            SshCollector.Options viaConfig = new SshCollector.Options(primary, false, List.of(), config,
                    Duration.ofSeconds(5), Duration.ofSeconds(60)).withGlobalKnownHosts(List.of());
            try (SshCollector c = new SshCollector(viaConfig)) {
                c.addIdentity(sshd.clientKey);
                SshCollector.Look look = c.look(SshTarget.parse(System.getProperty("user.name") + "@gpu-box"),
                        ProbeBundle.forTarget("sglang", 1, null).with(io.triage.TestHome.filters()), Map.of());
                assertInstanceOf(SshCollector.Collected.class, look, look.toString());
                SshCollector.Failed unknown = assertInstanceOf(SshCollector.Failed.class, c.look(target(sshd),
                        ProbeBundle.forTarget("sglang", 1, null).with(io.triage.TestHome.filters()), Map.of()), "the file is the alias's, not every host's");
                assertEquals("host-key-unknown", unknown.failure().kind());
            }

            Path conflicting = Files.writeString(tmp.resolve("conflicting_known_hosts"), "[127.0.0.1]:" + sshd.port() + " "
                    + PublicKeyEntry.toString(LocalSshd.ed25519().getPublic()) + "\n");
            SshCollector.Options conflict = new SshCollector.Options(primary, true, List.of(), writeEmptyConfig(),
                    Duration.ofSeconds(5), Duration.ofSeconds(60)).withGlobalKnownHosts(List.of(conflicting));
            try (SshCollector c = new SshCollector(conflict)) {
                c.addIdentity(sshd.clientKey);
                SshCollector.Look look = c.look(target(sshd), ProbeBundle.forTarget("sglang", 1, null).with(io.triage.TestHome.filters()), Map.of());
                SshCollector.Failed f = assertInstanceOf(SshCollector.Failed.class, look, "another key for the host in the global "
                        + "file is a changed key, even with --accept-new");
                assertEquals("host-key-changed", f.failure().kind());
            }
            assertTrue(Files.notExists(primary), "a changed key is never recorded");
        }
    }
}
