package io.triage.collect;

import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.apache.sshd.common.util.security.SecurityUtils;
import org.apache.sshd.core.CoreModuleProperties;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.command.CommandFactory;
import org.apache.sshd.server.shell.ProcessShellCommandFactory;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;

/**
 * An in-process SSH server on 127.0.0.1 for tests: runs exec commands with the local shell (so the
 * real probe bundle runs), or with a command factory the test gives. Cheap enough for one per test.
 */
final class LocalSshd implements AutoCloseable {
    final SshServer server;
    final KeyPair hostKey;
    final KeyPair clientKey;

    LocalSshd(CommandFactory commands) throws IOException, GeneralSecurityException {
        hostKey = ed25519();
        clientKey = ed25519();
        server = SshServer.setUpDefaultServer();
        CoreModuleProperties.TCP_NODELAY.set(server, true);
        server.setHost("127.0.0.1");
        server.setPort(0);
        server.setKeyPairProvider(KeyPairProvider.wrap(hostKey));
        server.setPublickeyAuthenticator((user, key, session) -> key.equals(clientKey.getPublic()));
        server.setPasswordAuthenticator(null);
        server.setKeyboardInteractiveAuthenticator(null);
        server.setCommandFactory(commands == null ? new ProcessShellCommandFactory() : commands);
        server.start();
    }

    static KeyPair ed25519() throws GeneralSecurityException {
        KeyPairGenerator g = SecurityUtils.getKeyPairGenerator("EdDSA");
        g.initialize(256);
        return g.generateKeyPair();
    }

    int port() {
        return server.getPort();
    }

    PublicKey hostPublicKey() {
        return hostKey.getPublic();
    }

    @Override
    public void close() throws IOException {
        server.stop(true);
    }
}
