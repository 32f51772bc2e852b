package io.triage.collect;

import io.triage.capture.Capture;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ClientChannelEvent;
import org.apache.sshd.client.config.hosts.ConfigFileHostEntryResolver;
import org.apache.sshd.client.config.hosts.HostConfigEntry;
import org.apache.sshd.client.config.hosts.HostConfigEntryResolver;
import org.apache.sshd.client.future.ConnectFuture;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.AttributeRepository;
import org.apache.sshd.common.keyprovider.FileKeyPairProvider;
import org.apache.sshd.common.keyprovider.KeyIdentityProvider;
import org.apache.sshd.core.CoreModuleProperties;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Looks at hosts over SSH with Apache MINA SSHD: one client per process, one session per host, the
 * whole probe bundle in one exec ({@code bash -s} with the script on stdin, so no part of it is ever
 * re-parsed by the remote login shell), TCP_NODELAY on. Host keys are verified against known_hosts.
 */
public final class SshCollector implements AutoCloseable {
    /**
     * @param knownHosts the known_hosts file (default {@code ~/.ssh/known_hosts})
     * @param acceptNew record unknown host keys in known_hosts instead of refusing them
     * @param identities private keys to offer ({@code -i}); the default keys of {@code ~/.ssh} are added
     * @param sshConfig the SSH config for aliases (HostName, User, Port, IdentityFile), or null for the default
     * @param connectTimeout for connecting and authenticating
     * @param deadline for the whole look, probes included
     * @param agentSocket an ssh-agent's Unix socket whose keys are offered too, or null
     * @param answerCap most bytes one host may send back, standard output and error together; a host that
     *                  sends more is cut off and its look fails as {@code output-cap}
     * @param proxyJump jump hosts for every target ({@code -J user@bastion[:port][,…]}), overriding the SSH
     *                  config's ProxyJump; null to use the config's
     * @param globalKnownHosts known_hosts files read for every host besides {@code knownHosts} (only read, never
     *                         written; missing ones skipped)
     */
    public record Options(Path knownHosts, boolean acceptNew, List<Path> identities, Path sshConfig,
                          Duration connectTimeout, Duration deadline, Path agentSocket, long answerCap,
                          String proxyJump, List<Path> globalKnownHosts) {
        /** Where OpenSSH looks for the system-wide known hosts. */
        public static final List<Path> GLOBAL_KNOWN_HOSTS =
                List.of(Path.of("/etc/ssh/ssh_known_hosts"), Path.of("/etc/ssh/ssh_known_hosts2"));

        public Options {
            if (answerCap < 1) {
                throw new IllegalArgumentException("the answer cap must be positive");
            }
            if (proxyJump != null) {
                proxyJump = JumpHosts.validate(proxyJump);
            }
            globalKnownHosts = List.copyOf(globalKnownHosts);
        }

        public Options(Path knownHosts, boolean acceptNew, List<Path> identities, Path sshConfig,
                       Duration connectTimeout, Duration deadline, Path agentSocket, long answerCap) {
            this(knownHosts, acceptNew, identities, sshConfig, connectTimeout, deadline, agentSocket, answerCap, null,
                    GLOBAL_KNOWN_HOSTS);
        }

        public Options(Path knownHosts, boolean acceptNew, List<Path> identities, Path sshConfig,
                       Duration connectTimeout, Duration deadline, Path agentSocket) {
            this(knownHosts, acceptNew, identities, sshConfig, connectTimeout, deadline, agentSocket, MAX_ANSWER);
        }

        /** These options with jump hosts ({@code -J}), validated; null for the SSH config's. */
        public Options withProxyJump(String jump) {
            return new Options(knownHosts, acceptNew, identities, sshConfig, connectTimeout, deadline, agentSocket,
                    answerCap, jump, globalKnownHosts);
        }

        /** These options with other global known_hosts files (none: an empty list). */
        public Options withGlobalKnownHosts(List<Path> files) {
            return new Options(knownHosts, acceptNew, identities, sshConfig, connectTimeout, deadline, agentSocket,
                    answerCap, proxyJump, files);
        }

        /** Options with the ssh-agent of {@code SSH_AUTH_SOCK}, when there is one. */
        public Options(Path knownHosts, boolean acceptNew, List<Path> identities, Path sshConfig,
                       Duration connectTimeout, Duration deadline) {
            this(knownHosts, acceptNew, identities, sshConfig, connectTimeout, deadline, envAgent());
        }

        private static Path envAgent() {
            String sock = System.getenv("SSH_AUTH_SOCK");
            return sock == null || sock.isBlank() ? null : Path.of(sock);
        }

        public static Options defaults() {
            Path ssh = Path.of(System.getProperty("user.home"), ".ssh");
            return new Options(ssh.resolve("known_hosts"), false, List.of(), null, Duration.ofSeconds(10),
                    Duration.ofSeconds(90));
        }
    }

    /** The outcome of one look: a capture, or why there is none. */
    public sealed interface Look permits Collected, Failed { }

    /** @param execs how many exec channels the look used (the goal is one) */
    public record Collected(Capture capture, int execs, Duration elapsed) implements Look { }

    public record Failed(LookFailure failure, Duration elapsed) implements Look { }

    /**
     * Most one host may send back by default, bytes, standard output and error together: every standard
     * probe's capped output and error as base64 (what the script can print at most), plus 64 KiB for the tag
     * lines. An honest host never reaches it; a look's memory is bounded by it.
     */
    public static final long MAX_ANSWER = (long) (ProbeBundle.STANDARD.size() + ProbeBundle.SECOND_LOOK_PROBES.size())
            * ((ProbeBundle.MAX_OUT + 2) / 3 * 4 + (ProbeBundle.MAX_ERR + 2) / 3 * 4 + 2)
            + (long) ProbeBundle.SUPERVISOR.size()
            * ((ProbeBundle.SUPERVISOR_MAX_OUT + 2) / 3 * 4 + (ProbeBundle.MAX_ERR + 2) / 3 * 4 + 2) + (64 << 10);
    /** How much of the remote shell's standard error is kept for a note. */
    static final int ERR_KEEP = 4 << 10;

    private final Options options;
    private final SshClient client;
    private final HostKeys hostKeys;
    private final AtomicInteger execs = new AtomicInteger();
    private final List<String> keyNotes = new ArrayList<>();

    public SshCollector(Options options) {
        this.options = options;
        this.client = SshClient.setUpDefaultClient();
        CoreModuleProperties.TCP_NODELAY.set(client, true);
        if (options.acceptNew() && options.knownHosts().getParent() != null) {
            try {
                Files.createDirectories(options.knownHosts().getParent());
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot create the directory of " + options.knownHosts() + ": " + e.getMessage());
            }
        }
        this.hostKeys = new HostKeys(options.knownHosts(), options.globalKnownHosts(), options.acceptNew());
        client.setServerKeyVerifier(hostKeys);
        if (options.sshConfig() != null) {
            client.setHostConfigEntryResolver(new ConfigFileHostEntryResolver(options.sshConfig()));
        } else if (!Files.isRegularFile(Path.of(System.getProperty("user.home"), ".ssh", "config"))) {
            client.setHostConfigEntryResolver(HostConfigEntryResolver.EMPTY);
        }
        List<Path> keys = new ArrayList<>(options.identities());
        for (String name : new String[] {"id_ed25519", "id_ecdsa", "id_rsa"}) {
            Path p = Path.of(System.getProperty("user.home"), ".ssh", name);
            if (Files.isRegularFile(p) && !keys.contains(p)) {
                keys.add(p);
            }
        }
        for (Path k : options.identities()) {
            if (!Files.isReadable(k)) {
                throw new IllegalArgumentException("identity file not readable: " + k);
            }
        }
        FileKeyPairProvider files = new FileKeyPairProvider(keys);
        // keys are read and parsed once, not at every session: a fleet opens hundreds
        List<KeyPair> loaded = new ArrayList<>();
        for (KeyPair kp : loadable(files, null)) {
            loaded.add(kp);
        }
        client.setKeyIdentityProvider(session -> loaded);
        if (options.agentSocket() != null && Files.exists(options.agentSocket())) {
            client.setAgentFactory(new UnixAgent.Factory(options.agentSocket()));
        }
        client.start();
    }

    /** Keys that load; a key that needs a passphrase is skipped with a note instead of failing the look. */
    private Iterable<KeyPair> loadable(KeyIdentityProvider files, org.apache.sshd.common.session.SessionContext s) {
        List<KeyPair> out = new ArrayList<>();
        try {
            for (KeyPair kp : files.loadKeys(s)) {
                out.add(kp);
            }
        } catch (Exception e) {
            synchronized (keyNotes) {
                keyNotes.add("a private key could not be loaded (" + e.getMessage() + "); a passphrase-protected key is used through ssh-agent");
            }
        }
        return out;
    }

    /** Adds an in-memory key pair to offer (for the embedded lab and tests). */
    public void addIdentity(KeyPair pair) {
        client.addPublicKeyIdentity(pair);
    }

    public Look look(SshTarget target, ProbeBundle bundle, Map<String, String> intent) {
        return look(target, bundle, intent, null);
    }

    /** A look that tells {@code progress} (when not null) about each probe as its answer arrives. */
    public Look look(SshTarget target, ProbeBundle bundle, Map<String, String> intent, ProbeListener progress) {
        long start = System.nanoTime();
        long deadlineNanos = start + options.deadline().toNanos();
        ClientSession session = null;
        HostKeys.LookContext context = null;
        try {
            HostConfigEntry entry = entry(target);
            context = new HostKeys.LookContext(knownHostsFiles(entry));
            ConnectFuture cf = client.connect(entry, AttributeRepository.ofKeyValuePair(HostKeys.LOOK, context), null);
            try {
                session = cf.verify(step(deadlineNanos)).getSession();
            } catch (IOException e) {
                return failed(target, classify(e, context, null), start);
            }
            try {
                session.auth().verify(step(deadlineNanos));
            } catch (IOException e) {
                return failed(target, classify(e, context, session), start);
            }
            // the answer is read as it streams in, against one budget for stdout and stderr together: a host
            // that floods either is cut off instead of filling this process's memory
            BundleOutput.Reader reader = new BundleOutput.Reader(bundle);
            CappedOutput answer = new CappedOutput(options.answerCap(), reader, ERR_KEEP);
            boolean cut;
            try (ChannelExec ch = session.createExecChannel("bash -s")) {
                // no input stream is handed to MINA: it would start a thread of its own per channel to pump it (one
                // thread made and ended per host of a sweep); the script is written below by this thread instead
                ch.setOut(progress == null ? answer.stdout()
                        : new ProbeFrameTap(answer.stdout(), bundle.nonce(), progress));
                ch.setErr(answer.stderr());
                // a host that never lets the script in (no window) holds this thread no longer than the look's deadline
                CoreModuleProperties.WAIT_FOR_SPACE_TIMEOUT.set(ch, Duration.ofNanos(
                        Math.max(1_000_000L, deadlineNanos - System.nanoTime())));
                ch.open().verify(step(deadlineNanos));
                execs.incrementAndGet();
                writeScript(ch, bundle);
                Set<ClientChannelEvent> ev = Set.of();
                while (!ev.contains(ClientChannelEvent.CLOSED) && System.nanoTime() < deadlineNanos && !answer.overflowed()) {
                    // at least 1 ms: a zero timeout would mean "wait for ever" to MINA
                    long left = Math.max(1_000_000L, Math.min(deadlineNanos - System.nanoTime(), 200_000_000L));
                    ev = ch.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), Duration.ofNanos(left));
                }
                cut = !ev.contains(ClientChannelEvent.CLOSED);
                if (cut) {
                    ch.close(true);
                }
            }
            if (answer.overflowed()) {
                // more than the probe script can print: whatever came is not a record of the probes
                return failed(target, new LookFailure(target.toString(), "output-cap",
                        "the host sent more than " + mib(answer.cap()) + " (standard output and error together), more "
                                + "than the probe script can print; the look was stopped and nothing it sent was used",
                        "look at what the account prints with plain ssh (a login script or forced command that "
                                + "prints without end, or a host that is not what it claims)"), start);
            }
            List<String> notes = new ArrayList<>();
            if (cut) {
                notes.add("the look exceeded its deadline of " + options.deadline().toSeconds() + " s");
            }
            synchronized (keyNotes) {
                notes.addAll(keyNotes);
                keyNotes.clear();
            }
            String errText = answer.errText().strip();
            if (!errText.isEmpty()) {
                notes.add("the remote shell said: " + (errText.length() > 200 ? errText.substring(0, 200) + "…" : errText));
            }
            Capture c = reader.capture("ssh://" + target, intent, notes);
            if (cut && c.probes().isEmpty()) {
                return failed(target, new LookFailure(target.toString(), "deadline",
                        "no probe answered within " + options.deadline().toSeconds() + " s",
                        "the host is overloaded or a probe hangs; try again with a longer --deadline"), start);
            }
            if (c.probes().isEmpty()) {
                // an answer without a single probe result is no look at the server: diagnosing it would only
                // say "insufficient evidence" about a host that was never seen
                return failed(target, new LookFailure(target.toString(), "no-probes",
                        "the host answered (" + answer.received() + " bytes) but no probe result came back"
                                + (errText.isEmpty() ? "" : "; it said on stderr: "
                                + (errText.length() > 120 ? errText.substring(0, 120) + "…" : errText)),
                        "the account may have a forced command or a restricted shell, or no bash; run "
                                + "'triage bundle | ssh HOST bash -s' to see what the host does with the probes"), start);
            }
            return new Collected(c, 1, Duration.ofNanos(System.nanoTime() - start));
        } catch (IOException | RuntimeException e) {
            return failed(target, classify(e, context, session), start);
        } finally {
            if (session != null) {
                session.close(false);
            }
        }
    }

    /**
     * Sends the script on the channel's standard input and ends it (EOF). A host that closes its end first (a
     * forced command that reads nothing, a shell that exits) is not an error here: what it sent is judged as any
     * other answer; one that lets nothing in is cut by the look's deadline.
     */
    private static void writeScript(ChannelExec ch, ProbeBundle bundle) {
        try (OutputStream in = ch.getInvertedIn()) {
            in.write(bundle.scriptBytes());
        } catch (IOException e) {
            // the channel's end is awaited below, within the deadline, whatever happened to the input
        }
    }

    private static String mib(long bytes) {
        return bytes >= (1 << 20) ? String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / 1048576.0) : bytes + " bytes";
    }

    /** The connect timeout, or what is left of the whole look's deadline when that is less. */
    private Duration step(long deadlineNanos) {
        long left = Math.max(1_000_000L, deadlineNanos - System.nanoTime());
        return Duration.ofNanos(Math.min(options.connectTimeout().toNanos(), left));
    }

    /**
     * The SSH config's entry for a target (HostName, User, Port, IdentityFile, ProxyJump, UserKnownHostsFile), as
     * OpenSSH would resolve it: what the user typed wins over the config; {@code -J} wins over the config's
     * ProxyJump. The port left open (-1) lets the config's Port apply, else 22; a user not given comes from the
     * config's User, else the local user name.
     */
    HostConfigEntry entry(SshTarget target) throws IOException {
        int port = Math.max(0, target.port());
        HostConfigEntry e = client.getHostConfigEntryResolver()
                .resolveEffectiveHost(target.host(), port, null, target.user(), null, null);
        if (e == null) {
            e = new HostConfigEntry("", target.host(), port > 0 ? port : 22, target.user());
        }
        if (e.getUsername() == null || e.getUsername().isEmpty()) {
            e.setUsername(System.getProperty("user.name"));
        }
        if (options.proxyJump() != null) {
            e.setProxyJump(options.proxyJump());
        } else if (e.getProxyJump() != null && !e.getProxyJump().isBlank()) {
            String jump = e.getProxyJump().strip();
            // "none" turns off a ProxyJump set by a broader Host pattern, as in OpenSSH
            e.setProxyJump(jump.equalsIgnoreCase("none") ? null : JumpHosts.validate(jump));
        }
        return e;
    }

    /** The config's UserKnownHostsFile(s) for this host, {@code ~} expanded: read besides the primary file. */
    private static List<Path> knownHostsFiles(HostConfigEntry entry) {
        List<Path> files = new ArrayList<>();
        String user = entry.getProperty("UserKnownHostsFile");
        if (user != null) {
            for (String f : user.strip().split("[\\s,]+")) {
                if (!f.isEmpty() && !f.equalsIgnoreCase("none")) {
                    files.add(f.startsWith("~/") ? Path.of(System.getProperty("user.home"), f.substring(2)) : Path.of(f));
                }
            }
        }
        return files;
    }

    private LookFailure classify(Throwable e, HostKeys.LookContext context, ClientSession session) {
        String host = "";
        HostKeys.Refusal r = hostKeys.refusal(context, session);
        if (r != null && r.kind().equals("host-key-unknown")) {
            return new LookFailure(host, "host-key-unknown", "the host key is not in " + options.knownHosts()
                    + " (fingerprint " + r.fingerprint() + ")",
                    "check the fingerprint with the host's owner, then add this line to " + options.knownHosts()
                            + ":\n  " + r.line() + "\nor run again with --accept-new to record it");
        }
        if (r != null && r.kind().equals("host-key-changed")) {
            return new LookFailure(host, "host-key-changed", "THE HOST KEY HAS CHANGED (now " + r.fingerprint()
                    + "): someone may be intercepting the connection, or the host was reinstalled",
                    "do not proceed until the host's owner confirms the new key; then replace its line in "
                            + options.knownHosts());
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String msg = String.valueOf(e.getMessage());
        if (root instanceof UnresolvedAddressException || root instanceof UnknownHostException) {
            return new LookFailure(host, "dns", "the host name does not resolve", "check the name, the SSH config alias and DNS");
        }
        if (root instanceof ConnectException || root instanceof NoRouteToHostException) {
            return new LookFailure(host, "unreachable", "connection refused or no route: " + root.getMessage(),
                    "check that the host is up, sshd runs, and the port is right");
        }
        if (msg.contains("No more authentication methods") || msg.toLowerCase().contains("auth")) {
            return new LookFailure(host, "auth-refused", "the host refused every key offered",
                    "check the user name, the key (-i FILE) and the host's authorized_keys");
        }
        if (msg.contains("Server key did not validate")) {
            return new LookFailure(host, "host-key-unknown", "the host key could not be verified",
                    "add the host to " + options.knownHosts() + " or run again with --accept-new");
        }
        if (msg.toLowerCase().contains("timeout") || msg.toLowerCase().contains("timed out")) {
            return new LookFailure(host, "timeout", "no answer within " + options.connectTimeout().toSeconds() + " s: " + msg,
                    "check firewalls and that the host is up");
        }
        return new LookFailure(host, "ssh-error", msg, "run with plain ssh to see what the host says");
    }

    private Failed failed(SshTarget target, LookFailure f, long start) {
        return new Failed(new LookFailure(target.toString(), f.kind(), f.message(), f.check()),
                Duration.ofNanos(System.nanoTime() - start));
    }

    /** Exec channels opened so far (one per look when all goes well). */
    public int execs() {
        return execs.get();
    }

    @Override
    public void close() {
        try {
            client.stop();
        } finally {
            try {
                client.close();
            } catch (IOException e) {
                // closing: nothing left to do
            }
        }
    }
}
