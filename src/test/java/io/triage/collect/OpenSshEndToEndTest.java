package io.triage.collect;

import io.triage.TestHome;
import io.triage.explain.Diagnosis;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * End to end against a real OpenSSH server on loopback: the test starts {@code sshd} on a free
 * 127.0.0.1 port with a generated host key, a generated ed25519 user key and its own config (no system
 * config touched), starts a small HTTP server standing in for an inference server, and diagnoses the
 * host for real after SIGKILL (killed externally) and SIGSTOP (hung) — also with {@code triage diagnose} run as its
 * own process on the same host, as a person on the GPU box would, whose command line names the port and must never
 * be taken for the server. CI installs openssh-server; on
 * a machine without it the test is skipped, except under CI where that is a failure.
 */
class OpenSshEndToEndTest {
    private static OpenSshd openSshd;
    private static Path dir;
    private static int port;
    private static Path userKey;
    private static Path knownHosts;

    @BeforeAll
    static void startSshd() throws Exception {
        boolean present = OpenSshd.installed();
        if (!present && "true".equals(System.getenv("CI"))) {
            throw new IllegalStateException("CI must install openssh-server for the end-to-end tests");
        }
        assumeTrue(present, "OpenSSH server not installed");
        openSshd = new OpenSshd();
        dir = openSshd.dir;
        port = openSshd.port;
        userKey = openSshd.userKey;
        knownHosts = openSshd.knownHosts;
    }

    @AfterAll
    static void stopSshd() {
        if (openSshd != null) {
            openSshd.close();
        }
    }

    private static void run(String... cmd) throws Exception {
        OpenSshd.run(cmd);
    }

    private static SshCollector collector(Path kh, boolean acceptNew) throws IOException {
        return new SshCollector(new SshCollector.Options(kh, acceptNew, List.of(userKey),
                Files.writeString(dir.resolve("ssh_config"), "# none\n"), Duration.ofSeconds(10), Duration.ofSeconds(60)));
    }

    private static SshTarget me() {
        return SshTarget.parse(System.getProperty("user.name") + "@127.0.0.1:" + port);
    }

    /** Starts the stand-in server and waits until it answers. */
    private static Process startServer(int httpPort, Path log) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Path src = TestHome.HOME.resolve("src/test/resources/e2e/HealthServer.java");
        Process p = new ProcessBuilder(java, src.toString(), "--port", String.valueOf(httpPort), "--log", log.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("server-" + httpPort + ".out").toFile()).start();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < until) {
            try {
                HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + httpPort + "/health").toURL().openConnection();
                c.setConnectTimeout(500);
                if (c.getResponseCode() == 200) {
                    return p;
                }
            } catch (IOException e) {
                Thread.sleep(200);
            }
        }
        p.destroyForcibly();
        throw new IllegalStateException("stand-in server did not start");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private Diagnosis diagnose(int httpPort, Path log) throws IOException {
        try (SshCollector c = collector(knownHosts, false)) {
            SshCollector.Look look = c.look(me(), io.triage.TestHome.bundle("sglang", httpPort, log.toString()), Map.of());
            SshCollector.Collected got = assertInstanceOf(SshCollector.Collected.class, look, look.toString());
            assertEquals(1, c.execs());
            return TestHome.triage().diagnose(got.capture(), Map.of());
        }
    }

    @Test
    void aServerKilledWithSigkillIsDiagnosedAsKilledFromOutside() throws Exception {
        int httpPort = freePort();
        Path log = dir.resolve("killed.log");
        Process server = startServer(httpPort, log);
        Diagnosis before = diagnose(httpPort, log);
        assertEquals("healthy", before.cause(), new io.triage.explain.TextRenderer().render(before));
        server.toHandle().destroyForcibly();
        assertTrue(server.waitFor(10, TimeUnit.SECONDS));
        Diagnosis after = diagnose(httpPort, log);
        assertEquals("external-kill", after.cause(), new io.triage.explain.TextRenderer().render(after));
    }

    /**
     * {@code triage diagnose} run as a person on the GPU box runs it: a process of its own on the host, whose command
     * line names the server's port, looking at 127.0.0.1 over the real OpenSSH server.
     */
    private static com.fasterxml.jackson.databind.JsonNode diagnoseFromTheSameHost(int httpPort, Path log) throws Exception {
        Path ssh = Files.writeString(dir.resolve("ssh_config_cli"), "# none\n");
        // the class path from the environment, so the command line reads as a person's would (java … Main diagnose …)
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "io.triage.cli.Main", "--home", TestHome.HOME.toString(), "diagnose", me().toString(), "--server", "sglang",
                "--port", String.valueOf(httpPort), "--log", log.toString(), "-i", userKey.toString(), "--known-hosts",
                knownHosts.toString(), "--ssh-config", ssh.toString(), "--format", "json");
        pb.environment().put("CLASSPATH", io.triage.ChildProcess.absoluteClassPath());
        // its own rule cache and redaction key, under the test's directory
        pb.environment().put("XDG_CACHE_HOME", dir.resolve("cli-cache").toString());
        pb.environment().put("XDG_CONFIG_HOME", dir.resolve("cli-config").toString());
        io.triage.ChildProcess.Result r = io.triage.ChildProcess.run(pb, Duration.ofSeconds(180));
        assertEquals(0, r.code(), r.err() + r.out());
        com.fasterxml.jackson.databind.JsonNode d = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out());
        assertTrue(d.path("diagnosis").isObject(), r.out());
        return d.path("diagnosis");
    }

    @Test
    void triageRunOnTheGpuHostItselfIsNeverTakenForTheServer() throws Exception {
        int httpPort = freePort();
        Path log = dir.resolve("same-host.log");
        Process server = startServer(httpPort, log);
        try {
            com.fasterxml.jackson.databind.JsonNode before = diagnoseFromTheSameHost(httpPort, log);
            assertEquals("healthy", before.path("cause").asText(), before.toPrettyString());
            run("kill", "-9", String.valueOf(server.pid()));
            assertTrue(server.waitFor(10, TimeUnit.SECONDS));
            // the only process left naming the port is triage itself (and its probes): a client, not the server
            com.fasterxml.jackson.databind.JsonNode after = diagnoseFromTheSameHost(httpPort, log);
            assertEquals("external-kill", after.path("cause").asText(), after.toPrettyString());
            // and it was seen, and set aside as a client: not merely left out of the listing
            assertTrue(after.path("coverage").toString().contains("is a client of the server, not the server (processes.yaml"
                    + " clients), though its command line names port " + httpPort), after.path("coverage").toPrettyString());
        } finally {
            server.destroyForcibly();
        }
    }

    @Test
    void aStoppedServerIsDiagnosedAsHung() throws Exception {
        int httpPort = freePort();
        Path log = dir.resolve("stopped.log");
        Process server = startServer(httpPort, log);
        try {
            run("kill", "-STOP", String.valueOf(server.pid()));
            Diagnosis d = diagnose(httpPort, log);
            assertEquals("hung", d.cause(), new io.triage.explain.TextRenderer().render(d));
            assertEquals("stopped", d.subtype());
        } finally {
            run("kill", "-CONT", String.valueOf(server.pid()));
            server.destroyForcibly();
        }
    }

    @Test
    void wrongAndUnknownHostKeysAreRefusedAndAClosedPortIsUnreachable() throws Exception {
        Path wrong = Files.writeString(dir.resolve("wrong_known_hosts"), "[127.0.0.1]:" + port + " "
                + PublicKeyEntry.toString(LocalSshd.ed25519().getPublic()) + "\n");
        try (SshCollector c = collector(wrong, true)) {
            SshCollector.Failed f = assertInstanceOf(SshCollector.Failed.class,
                    c.look(me(), io.triage.TestHome.bundle("sglang", 1, null), Map.of()));
            assertEquals("host-key-changed", f.failure().kind());
        }
        Path empty = dir.resolve("empty_known_hosts");
        try (SshCollector c = collector(empty, false)) {
            SshCollector.Failed f = assertInstanceOf(SshCollector.Failed.class,
                    c.look(me(), io.triage.TestHome.bundle("sglang", 1, null), Map.of()));
            assertEquals("host-key-unknown", f.failure().kind());
            assertFalse(Files.exists(empty) && Files.readString(empty).contains("127.0.0.1"), "nothing recorded without --accept-new");
        }
        try (SshCollector c = collector(knownHosts, false)) {
            SshCollector.Failed f = assertInstanceOf(SshCollector.Failed.class,
                    c.look(SshTarget.parse("u@127.0.0.1:" + freePort()), io.triage.TestHome.bundle("sglang", 1, null), Map.of()));
            assertEquals("unreachable", f.failure().kind());
        }
    }

    @Test
    void valuesThatLookLikeShellAreRefusedAndOddButValidPathsStayData() throws Exception {
        Path marker = dir.resolve("pwned");
        for (String log : new String[] {"/tmp/x; touch " + marker, "/tmp/$(touch " + marker + ")", "/tmp/`touch " + marker + "`"}) {
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> io.triage.TestHome.bundle("sglang", 1, log));
        }
        Path odd = Files.writeString(dir.resolve("a b,c=d+e.log"), "hello\n");
        try (SshCollector c = collector(knownHosts, false)) {
            SshCollector.Collected got = assertInstanceOf(SshCollector.Collected.class,
                    c.look(me(), io.triage.TestHome.bundle("sglang", 1, odd.toString()), Map.of()));
            assertEquals("hello\n", got.capture().probes().get("log_tail").out());
        }
        assertFalse(Files.exists(marker));
    }

    @Test
    void aKeyHeldByAnSshAgentIsUsedWithoutItsPassphrase() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/ssh-agent")) && Files.isExecutable(Path.of("/usr/bin/ssh-add")));
        Path key = dir.resolve("agent_key");
        run("/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "s3cret passphrase", "-f", key.toString());
        Files.writeString(dir.resolve("authorized_keys"), Files.readString(dir.resolve("user_key.pub"))
                + Files.readString(dir.resolve("agent_key.pub")));
        Path sock = dir.resolve("agent.sock");
        Process agent = new ProcessBuilder("/usr/bin/ssh-agent", "-D", "-a", sock.toString()).redirectErrorStream(true).start();
        try {
            for (int i = 0; i < 50 && !Files.exists(sock); i++) {
                Thread.sleep(100);
            }
            // ssh-add reads the passphrase from SSH_ASKPASS when it has no terminal
            Path askpass = Files.writeString(dir.resolve("askpass.sh"), "#!/bin/sh\necho 's3cret passphrase'\n");
            askpass.toFile().setExecutable(true);
            ProcessBuilder add = new ProcessBuilder("/usr/bin/ssh-add", key.toString()).redirectErrorStream(true);
            add.environment().put("SSH_AUTH_SOCK", sock.toString());
            add.environment().put("SSH_ASKPASS", askpass.toString());
            add.environment().put("SSH_ASKPASS_REQUIRE", "force");
            add.environment().put("DISPLAY", ":0");
            Process p = add.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            String out = new String(p.getInputStream().readAllBytes());
            assertEquals(0, p.waitFor(), out);
            try (SshCollector c = new SshCollector(new SshCollector.Options(knownHosts, false, List.of(key),
                    Files.writeString(dir.resolve("ssh_config2"), "# none\n"), Duration.ofSeconds(10), Duration.ofSeconds(60), sock))) {
                SshCollector.Look look = c.look(me(), io.triage.TestHome.bundle("sglang", 1, null), Map.of());
                assertInstanceOf(SshCollector.Collected.class, look, look.toString());
            }
            try (SshCollector c = new SshCollector(new SshCollector.Options(knownHosts, false, List.of(key),
                    dir.resolve("ssh_config2"), Duration.ofSeconds(10), Duration.ofSeconds(60), null))) {
                SshCollector.Failed f = assertInstanceOf(SshCollector.Failed.class,
                        c.look(me(), io.triage.TestHome.bundle("sglang", 1, null), Map.of()), "without the agent the key is unusable");
                assertEquals("auth-refused", f.failure().kind());
            }
        } finally {
            agent.destroyForcibly();
            Files.writeString(dir.resolve("authorized_keys"), Files.readString(dir.resolve("user_key.pub")));
        }
    }

    @Test
    void ecdsaAndRsaKeysInOpenSshFormatWorkToo() throws Exception {
        String authorized = Files.readString(dir.resolve("authorized_keys"));
        try {
            for (String[] type : new String[][] {{"ecdsa", "256"}, {"rsa", "3072"}}) {
                Path key = dir.resolve("key_" + type[0]);
                run("/usr/bin/ssh-keygen", "-q", "-t", type[0], "-b", type[1], "-N", "", "-f", key.toString());
                Files.writeString(dir.resolve("authorized_keys"), authorized + Files.readString(dir.resolve("key_" + type[0] + ".pub")));
                try (SshCollector c = new SshCollector(new SshCollector.Options(knownHosts, false, List.of(key),
                        Files.writeString(dir.resolve("ssh_config3"), "# none\n"), Duration.ofSeconds(10), Duration.ofSeconds(60), null))) {
                    SshCollector.Look look = c.look(me(), io.triage.TestHome.bundle("sglang", 1, null), Map.of());
                    assertInstanceOf(SshCollector.Collected.class, look, type[0] + ": " + look);
                }
            }
        } finally {
            Files.writeString(dir.resolve("authorized_keys"), authorized);
        }
    }
}
