package io.triage.collect;

import org.apache.sshd.client.config.hosts.KnownHostEntry;
import org.apache.sshd.client.keyverifier.AcceptAllServerKeyVerifier;
import org.apache.sshd.client.keyverifier.KnownHostsServerKeyVerifier;
import org.apache.sshd.client.keyverifier.RejectAllServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Verifies host keys against a known_hosts file, and remembers, per session, why a key was refused:
 * unknown (with the exact line to add) or changed (always refused, loudly). With {@code acceptNew}, an
 * unknown key is recorded in the file; a changed key is still refused.
 */
final class HostKeys extends KnownHostsServerKeyVerifier {
    /** Why a session's host key was refused. */
    record Refusal(String kind, String line, String fingerprint) { }

    private final Map<ClientSession, Refusal> refusals = new ConcurrentHashMap<>();

    HostKeys(Path knownHosts, boolean acceptNew) {
        super(acceptNew ? AcceptAllServerKeyVerifier.INSTANCE : RejectAllServerKeyVerifier.INSTANCE, knownHosts);
        setModifiedServerKeyAcceptor(this::refuseChanged);
    }

    private boolean refuseChanged(ClientSession session, SocketAddress remote, KnownHostEntry entry, PublicKey expected,
                                  PublicKey actual) {
        refusals.put(session, new Refusal("host-key-changed", line(remote, actual), KeyUtils.getFingerPrint(actual)));
        return false;
    }

    @Override
    protected boolean acceptUnknownHostKey(ClientSession session, SocketAddress remote, PublicKey key) {
        boolean ok = super.acceptUnknownHostKey(session, remote, key);
        if (!ok) {
            refusals.put(session, new Refusal("host-key-unknown", line(remote, key), KeyUtils.getFingerPrint(key)));
        }
        return ok;
    }

    /**
     * With --accept-new, a key that cannot be recorded is not accepted: otherwise every run would trust
     * whatever key it is shown and never pin one.
     */
    @Override
    protected void handleKnownHostsFileUpdateFailure(ClientSession session, SocketAddress remote, PublicKey key,
                                                     Path file, java.util.Collection<HostEntryPair> entries,
                                                     Throwable reason) {
        refusals.put(session, new Refusal("host-key-unknown", line(remote, key), KeyUtils.getFingerPrint(key)));
        throw new IllegalStateException("the new host key could not be recorded in " + file + ": " + reason.getMessage());
    }

    Refusal refusal(ClientSession session) {
        return session == null ? null : refusals.remove(session);
    }

    /** The known_hosts line for a key: {@code [host]:port type base64}, or {@code host type base64} on port 22. */
    static String line(SocketAddress remote, PublicKey key) {
        String host = "host";
        int port = 22;
        if (remote instanceof InetSocketAddress a) {
            host = a.getHostString();
            port = a.getPort();
        }
        return (port == 22 ? host : "[" + host + "]:" + port) + " " + PublicKeyEntry.toString(key);
    }
}
