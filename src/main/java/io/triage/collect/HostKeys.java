package io.triage.collect;

import org.apache.sshd.client.config.hosts.KnownHostEntry;
import org.apache.sshd.client.keyverifier.AcceptAllServerKeyVerifier;
import org.apache.sshd.client.keyverifier.KnownHostsServerKeyVerifier;
import org.apache.sshd.client.keyverifier.RejectAllServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.AttributeRepository;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Verifies host keys against known_hosts files, and remembers, per look, why a key was refused: unknown (with
 * the exact line to add) or changed (always refused, loudly). With {@code acceptNew}, an unknown key is
 * recorded in the primary file; a changed key is still refused.
 *
 * <p>Besides the primary file ({@code --known-hosts}, else {@code ~/.ssh/known_hosts}) it reads, as OpenSSH
 * does, the global files ({@code /etc/ssh/ssh_known_hosts}) and the {@code UserKnownHostsFile}s the SSH config
 * names for the host being looked at (carried by the look's {@link LookContext}). They are only read: a key is
 * recorded in the primary file alone. A host listed with another key in any of them is a changed key. Every
 * hop of a ProxyJump chain is verified the same way: each hop is a session of the same client.
 */
final class HostKeys extends KnownHostsServerKeyVerifier {
    /** Why a session's host key was refused. */
    record Refusal(String kind, String line, String fingerprint) { }

    /** What one look's sessions (its jumps and its target) share: further files to read, the first refusal. */
    static final class LookContext {
        final List<Path> userFiles;
        private volatile Refusal refusal;

        LookContext(List<Path> userFiles) {
            this.userFiles = List.copyOf(userFiles);
        }

        Refusal refusal() {
            return refusal;
        }
    }

    /** The key under which a look's context travels with its connection (and its jumps' connections). */
    static final AttributeRepository.AttributeKey<LookContext> LOOK = new AttributeRepository.AttributeKey<>();

    private final Map<ClientSession, Refusal> refusals = new ConcurrentHashMap<>();
    private final List<Path> globalFiles;
    /** Read files by path, kept while their modification time and size stay the same. */
    private final Map<Path, Loaded> loaded = new ConcurrentHashMap<>();

    private record Loaded(FileTime modified, long size, List<HostEntryPair> entries) { }

    HostKeys(Path knownHosts, boolean acceptNew) {
        this(knownHosts, List.of(), acceptNew);
    }

    /**
     * @param knownHosts the primary file, where {@code acceptNew} records keys
     * @param globalFiles read-only files consulted for every host (missing ones are skipped)
     */
    HostKeys(Path knownHosts, List<Path> globalFiles, boolean acceptNew) {
        super(acceptNew ? AcceptAllServerKeyVerifier.INSTANCE : RejectAllServerKeyVerifier.INSTANCE, knownHosts);
        this.globalFiles = List.copyOf(globalFiles);
        setModifiedServerKeyAcceptor(this::refuseChanged);
    }

    /**
     * Every file is read for every session (kept in memory while unchanged), not once per client: the SSH
     * config's UserKnownHostsFile differs from host to host, and a sweep looks at many hosts at once.
     */
    @Override
    public boolean verifyServerKey(ClientSession session, SocketAddress remote, PublicKey key) {
        List<Path> files = new ArrayList<>();
        files.add(getPath());
        files.addAll(globalFiles);
        LookContext look = context(session);
        if (look != null) {
            files.addAll(look.userFiles);
        }
        List<HostEntryPair> all = new ArrayList<>();
        for (Path p : new java.util.LinkedHashSet<>(files)) {
            all.addAll(read(session, p));
        }
        return acceptKnownHostEntries(session, remote, key, all);
    }

    /** The entries of a further file; a missing or unreadable file holds none, a bad line is skipped. */
    private List<HostEntryPair> read(ClientSession session, Path p) {
        try {
            if (!Files.isRegularFile(p)) {
                return List.of();
            }
            FileTime modified = Files.getLastModifiedTime(p);
            long size = Files.size(p);
            Loaded l = loaded.get(p);
            if (l != null && l.modified().equals(modified) && l.size() == size) {
                return l.entries();
            }
            List<HostEntryPair> entries = new ArrayList<>();
            for (KnownHostEntry e : KnownHostEntry.readKnownHostEntries(p)) {
                try {
                    PublicKey key = resolveHostKey(session, e, getFallbackPublicKeyEntryResolver());
                    if (key != null) {
                        entries.add(new HostEntryPair(e, key));
                    }
                } catch (IOException | java.security.GeneralSecurityException | RuntimeException bad) {
                    // a line this client cannot read (an unknown key type) matches nothing, as in OpenSSH
                }
            }
            List<HostEntryPair> fixed = List.copyOf(entries);
            loaded.put(p, new Loaded(modified, size, fixed));
            return fixed;
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    private static LookContext context(ClientSession session) {
        AttributeRepository c = session == null ? null : session.getConnectionContext();
        return c == null ? null : c.getAttribute(LOOK);
    }

    private void remember(ClientSession session, Refusal r) {
        LookContext look = context(session);
        if (look != null) {
            if (look.refusal == null) {
                look.refusal = r;
            }
        } else {
            refusals.put(session, r);
        }
    }

    private boolean refuseChanged(ClientSession session, SocketAddress remote, KnownHostEntry entry, PublicKey expected,
                                  PublicKey actual) {
        remember(session, new Refusal("host-key-changed", line(session, remote, actual), KeyUtils.getFingerPrint(actual)));
        return false;
    }

    @Override
    protected boolean acceptUnknownHostKey(ClientSession session, SocketAddress remote, PublicKey key) {
        boolean ok = super.acceptUnknownHostKey(session, remote, key);
        if (!ok) {
            remember(session, new Refusal("host-key-unknown", line(session, remote, key), KeyUtils.getFingerPrint(key)));
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
        remember(session, new Refusal("host-key-unknown", line(session, remote, key), KeyUtils.getFingerPrint(key)));
        throw new IllegalStateException("the new host key could not be recorded in " + file + ": " + reason.getMessage());
    }

    /** Why the look's key check refused, or null; a look without a context is found by its session. */
    Refusal refusal(LookContext look, ClientSession session) {
        if (look != null && look.refusal() != null) {
            return look.refusal();
        }
        return session == null ? null : refusals.remove(session);
    }

    Refusal refusal(ClientSession session) {
        return refusal(null, session);
    }

    /**
     * The known_hosts line for a key: {@code [host]:port type base64}, or {@code host type base64} on port 22.
     * Through a jump, {@code remote} is the target as asked for (host and port), not the forwarded connection.
     */
    static String line(ClientSession session, SocketAddress remote, PublicKey key) {
        return line(remote, key);
    }

    static String line(SocketAddress remote, PublicKey key) {
        String host = "host";
        int port = 22;
        if (remote instanceof InetSocketAddress a) {
            host = a.getHostString();
            port = a.getPort();
        } else if (remote instanceof org.apache.sshd.common.util.net.SshdSocketAddress s) {
            host = s.getHostName();
            port = s.getPort();
        }
        return (port == 22 ? host : "[" + host + "]:" + port) + " " + PublicKeyEntry.toString(key);
    }
}
