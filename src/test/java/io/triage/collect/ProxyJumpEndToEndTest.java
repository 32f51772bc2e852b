package io.triage.collect;

import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A look through a bastion, end to end: two real OpenSSH servers on different 127.0.0.1 ports, each with its
 * own host key and its own authorised user key. The target is reached through the bastion — by the SSH config's
 * ProxyJump on a Host alias, and by {@code -J} — and the bastion's own log shows that it forwarded the connection
 * to the target's port. Each hop's host key is checked: an unknown bastion or a changed target key stops the
 * look. Skipped without OpenSSH, except under CI.
 */
class ProxyJumpEndToEndTest {
    private static OpenSshd bastion;
    private static OpenSshd target;
    private static Path dir;
    private static Path knownHosts;

    @BeforeAll
    static void startBoth() throws Exception {
        boolean present = OpenSshd.installed();
        if (!present && "true".equals(System.getenv("CI"))) {
            throw new IllegalStateException("CI must install openssh-server for the end-to-end tests");
        }
        assumeTrue(present, "OpenSSH server not installed");
        bastion = new OpenSshd("DEBUG1");
        target = new OpenSshd();
        dir = Files.createTempDirectory("triage-jump");
        knownHosts = Files.writeString(dir.resolve("known_hosts"),
                Files.readString(bastion.knownHosts) + Files.readString(target.knownHosts));
    }

    @AfterAll
    static void stopBoth() {
        if (target != null) {
            target.close();
        }
        if (bastion != null) {
            bastion.close();
        }
    }

    private static String me() {
        return System.getProperty("user.name");
    }

    private static Path config() throws Exception {
        return Files.writeString(dir.resolve("ssh_config"), String.join("\n",
                "Host bastion",
                "  HostName 127.0.0.1",
                "  Port " + bastion.port,
                "  User " + me(),
                "  IdentityFile " + bastion.userKey,
                "",
                "Host gpu-behind",
                "  HostName 127.0.0.1",
                "  Port " + target.port,
                "  User " + me(),
                "  IdentityFile " + target.userKey,
                "  ProxyJump bastion",
                ""));
    }

    private static SshCollector.Options options(Path kh, Path sshConfig, List<Path> keys) {
        return new SshCollector.Options(kh, false, keys, sshConfig, Duration.ofSeconds(10), Duration.ofSeconds(60))
                .withGlobalKnownHosts(List.of());
    }

    private static int forwardsTo(int port) throws Exception {
        // sshd at DEBUG1: "server_request_direct_tcpip: originator 127.0.0.1 port N, target 127.0.0.1 port T"
        return (int) bastion.log().lines().filter(l -> l.contains("direct_tcpip") && l.contains("target 127.0.0.1 port " + port))
                .count();
    }

    @Test
    void anAliasWithProxyJumpIsLookedAtThroughTheBastion() throws Exception {
        int before = forwardsTo(target.port);
        try (SshCollector c = new SshCollector(options(knownHosts, config(), List.of()))) {
            SshCollector.Look look = c.look(SshTarget.parse("gpu-behind"), ProbeBundle.forTarget("sglang", 1, null).with(io.triage.TestHome.filters()), Map.of());
            SshCollector.Collected got = assertInstanceOf(SshCollector.Collected.class, look, look.toString());
            assertTrue(got.capture().probes().containsKey("date"), "the probes ran on the target");
        }
        assertEquals(before + 1, forwardsTo(target.port), "the bastion forwarded exactly one connection to the target:\n"
                + bastion.log());
    }

    @Test
    void dashJNamesTheBastionForATargetTypedAsUserAtHostPort() throws Exception {
        int before = forwardsTo(target.port);
        Path none = Files.writeString(dir.resolve("empty_config"), "# none\n");
        SshCollector.Options o = options(knownHosts, none, List.of(bastion.userKey, target.userKey))
                .withProxyJump(me() + "@127.0.0.1:" + bastion.port);
        try (SshCollector c = new SshCollector(o)) {
            SshCollector.Look look = c.look(SshTarget.parse(me() + "@127.0.0.1:" + target.port),
                    ProbeBundle.forTarget("sglang", 1, null).with(io.triage.TestHome.filters()), Map.of());
            assertInstanceOf(SshCollector.Collected.class, look, look.toString());
        }
        assertEquals(before + 1, forwardsTo(target.port));
    }

    @Test
    void anUnknownBastionKeyStopsTheLookAndNamesTheBastion() throws Exception {
        Path onlyTarget = Files.writeString(dir.resolve("kh_only_target"), Files.readString(target.knownHosts));
        int before = forwardsTo(target.port);
        try (SshCollector c = new SshCollector(options(onlyTarget, config(), List.of()))) {
            SshCollector.Failed f = assertInstanceOf(SshCollector.Failed.class,
                    c.look(SshTarget.parse("gpu-behind"), ProbeBundle.forTarget("sglang", 1, null).with(io.triage.TestHome.filters()), Map.of()));
            assertEquals("host-key-unknown", f.failure().kind(), f.toString());
            assertTrue(f.failure().check().contains("[127.0.0.1]:" + bastion.port + " ssh-ed25519 "),
                    "the line to add is the bastion's: " + f.failure().check());
        }
        assertEquals(before, forwardsTo(target.port), "nothing was forwarded through an unverified bastion");
    }

    @Test
    void aChangedTargetKeyBehindAGoodBastionIsRefused() throws Exception {
        Path wrongTarget = Files.writeString(dir.resolve("kh_wrong_target"), Files.readString(bastion.knownHosts)
                + "[127.0.0.1]:" + target.port + " " + PublicKeyEntry.toString(LocalSshd.ed25519().getPublic()) + "\n");
        try (SshCollector c = new SshCollector(options(wrongTarget, config(), List.of()))) {
            SshCollector.Failed f = assertInstanceOf(SshCollector.Failed.class,
                    c.look(SshTarget.parse("gpu-behind"), ProbeBundle.forTarget("sglang", 1, null).with(io.triage.TestHome.filters()), Map.of()));
            assertEquals("host-key-changed", f.failure().kind(), f.toString());
        }
        Path noTarget = Files.writeString(dir.resolve("kh_no_target"), Files.readString(bastion.knownHosts));
        try (SshCollector c = new SshCollector(options(noTarget, config(), List.of()))) {
            SshCollector.Failed f = assertInstanceOf(SshCollector.Failed.class,
                    c.look(SshTarget.parse("gpu-behind"), ProbeBundle.forTarget("sglang", 1, null).with(io.triage.TestHome.filters()), Map.of()));
            assertEquals("host-key-unknown", f.failure().kind(), f.toString());
            assertTrue(f.failure().check().contains("[127.0.0.1]:" + target.port + " ssh-ed25519 "),
                    "the line to add names the target's address, not a forwarded port: " + f.failure().check());
            assertFalse(Files.readString(noTarget).contains(":" + target.port + "]"), "nothing recorded without --accept-new");
        }
    }

    @Test
    void theTargetKeyMayComeFromUserKnownHostsFileOrAGlobalFile() throws Exception {
        Path onlyBastion = Files.writeString(dir.resolve("kh_bastion"), Files.readString(bastion.knownHosts));
        Path targetFile = Files.writeString(dir.resolve("kh_target_elsewhere"), Files.readString(target.knownHosts));
        Path withUserFile = Files.writeString(dir.resolve("ssh_config_ukh"), Files.readString(config())
                + "\nHost gpu-behind\n  UserKnownHostsFile " + targetFile + "\n");
        try (SshCollector c = new SshCollector(options(onlyBastion, withUserFile, List.of()))) {
            SshCollector.Look look = c.look(SshTarget.parse("gpu-behind"), ProbeBundle.forTarget("sglang", 1, null).with(io.triage.TestHome.filters()), Map.of());
            assertInstanceOf(SshCollector.Collected.class, look, "UserKnownHostsFile of the alias is read: " + look);
        }
        try (SshCollector c = new SshCollector(options(onlyBastion, config(), List.of()).withGlobalKnownHosts(List.of(targetFile)))) {
            SshCollector.Look look = c.look(SshTarget.parse("gpu-behind"), ProbeBundle.forTarget("sglang", 1, null).with(io.triage.TestHome.filters()), Map.of());
            assertInstanceOf(SshCollector.Collected.class, look, "the global file is read: " + look);
        }
        assertFalse(Files.readString(onlyBastion).contains(":" + target.port + "]"));
    }

    @Test
    void aJumpSpecificationThatIsNotAHostIsRefused() {
        for (String bad : new String[] {"-oProxyCommand=touch /tmp/x", "a@b@c", "host:99999", "", "a,,b", "x;y"}) {
            assertThrows(IllegalArgumentException.class, () -> JumpHosts.parse(bad), bad);
        }
        assertEquals(2, JumpHosts.parse("ops@bastion:2200, gpu-gw").size());
    }
}
