package io.triage.lab;

import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ChannelShell;
import org.apache.sshd.client.channel.ClientChannel;
import org.apache.sshd.client.channel.ClientChannelEvent;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.core.CoreModuleProperties;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.PublicKey;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A plain MINA client for the lab tests: verifies the host key, authenticates with a key or a password. */
final class SshTestClient implements AutoCloseable {
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    final SshClient client;
    final KeyPair key;
    /** Every host key the server presented. */
    final List<PublicKey> seenHostKeys = new CopyOnWriteArrayList<>();

    SshTestClient(KeyPair key, PublicKey expectedHostKey) {
        this.key = key;
        client = SshClient.setUpDefaultClient();
        CoreModuleProperties.TCP_NODELAY.set(client, true);
        client.setServerKeyVerifier((session, address, serverKey) -> {
            seenHostKeys.add(serverKey);
            return KeyUtils.compareKeys(expectedHostKey, serverKey);
        });
        client.start();
    }

    record Result(String out, String err, Integer status) {
    }

    ClientSession connect(LabServer lab, String user) throws IOException {
        ClientSession s = client.connect(user, LabServer.ADDRESS, lab.port()).verify(TIMEOUT).getSession();
        s.addPublicKeyIdentity(key);
        s.auth().verify(TIMEOUT);
        return s;
    }

    ClientSession connectWithPassword(LabServer lab, String user, String password) throws IOException {
        ClientSession s = client.connect(user, LabServer.ADDRESS, lab.port()).verify(TIMEOUT).getSession();
        s.addPasswordIdentity(password);
        try {
            s.auth().verify(TIMEOUT);
        } catch (IOException | RuntimeException e) {
            s.close(true);
            throw e;
        }
        return s;
    }

    static Result exec(ClientSession s, String command, byte[] stdin) throws IOException {
        try (ChannelExec ch = s.createExecChannel(command)) {
            return run(ch, stdin);
        }
    }

    static Result shell(ClientSession s) throws IOException {
        try (ChannelShell ch = s.createShellChannel()) {
            return run(ch, new byte[0]);
        }
    }

    private static Result run(ClientChannel ch, byte[] stdin) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ch.setOut(out);
        ch.setErr(err);
        if (stdin != null) {
            ch.setIn(new ByteArrayInputStream(stdin));
        }
        ch.open().verify(TIMEOUT);
        ch.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), TIMEOUT);
        return new Result(out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), ch.getExitStatus());
    }

    @Override
    public void close() {
        client.stop();
    }
}
