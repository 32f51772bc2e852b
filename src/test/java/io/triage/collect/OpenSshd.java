package io.triage.collect;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A real OpenSSH server on a free 127.0.0.1 port, with its own generated ed25519 host and user keys
 * and its own config: no system configuration is read or touched. For end-to-end tests and the SSH
 * benchmark.
 */
public final class OpenSshd implements AutoCloseable {
    public final Path dir;
    public final int port;
    public final Path userKey;
    public final Path knownHosts;
    private final Process sshd;

    /** True when the OpenSSH server and ssh-keygen are installed. */
    public static boolean installed() {
        return Files.isExecutable(Path.of("/usr/sbin/sshd")) && Files.isExecutable(Path.of("/usr/bin/ssh-keygen"));
    }

    public OpenSshd() throws Exception {
        this("ERROR");
    }

    /** @param logLevel sshd's LogLevel: VERBOSE names each key accepted, DEBUG1 each forwarding asked for */
    public OpenSshd(String logLevel) throws Exception {
        dir = Files.createTempDirectory("triage-sshd");
        run("/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", dir.resolve("host_key").toString());
        run("/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", dir.resolve("user_key").toString());
        userKey = dir.resolve("user_key");
        Files.copy(dir.resolve("user_key.pub"), dir.resolve("authorized_keys"));
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Files.createDirectories(Path.of("/run/sshd"));
        Path config = Files.writeString(dir.resolve("sshd_config"), String.join("\n",
                "Port " + port, "ListenAddress 127.0.0.1", "HostKey " + dir.resolve("host_key"),
                "AuthorizedKeysFile " + dir.resolve("authorized_keys"), "PasswordAuthentication no",
                "KbdInteractiveAuthentication no", "PubkeyAuthentication yes", "UsePAM no", "StrictModes no",
                "PermitRootLogin prohibit-password", "PidFile " + dir.resolve("sshd.pid"), "LogLevel " + logLevel, ""));
        sshd = new ProcessBuilder("/usr/sbin/sshd", "-D", "-e", "-f", config.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("sshd.log").toFile()).start();
        knownHosts = Files.writeString(dir.resolve("known_hosts"), "[127.0.0.1]:" + port + " "
                + Files.readString(dir.resolve("host_key.pub")).strip() + "\n");
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < until) {
            try (Socket s = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException e) {
                Thread.sleep(100);
            }
        }
        sshd.destroyForcibly();
        throw new IllegalStateException("sshd did not start: " + Files.readString(dir.resolve("sshd.log")));
    }

    /** What sshd has logged so far. */
    public String log() throws IOException {
        return Files.readString(dir.resolve("sshd.log"));
    }

    /** Runs a command and fails with its output when it exits non-zero. */
    public static void run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + ": " + out);
        }
    }

    @Override
    public void close() {
        sshd.destroyForcibly();
    }
}
