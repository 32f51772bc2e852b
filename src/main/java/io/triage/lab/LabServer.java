package io.triage.lab;

import io.triage.capture.CaptureException;
import io.triage.capture.CaptureReader;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.apache.sshd.core.CoreModuleProperties;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.auth.password.UserAuthPasswordFactory;
import org.apache.sshd.server.auth.pubkey.UserAuthPublicKeyFactory;
import org.apache.sshd.server.forward.RejectAllForwardingFilter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The embedded lab: an SSH server on the loopback interface whose "hosts" are recorded captures. A lab
 * host is addressed by the SSH user name ({@code ssh -p PORT gpu-healthy@127.0.0.1}); it answers the
 * probe bundle exactly as the recorded host did, and an ordinary command only when it is one of the
 * recorded probes. The lab starts no process and reads no file after start.
 *
 * <p>Authentication: the public keys the {@link Config} authorises, or the password generated at start
 * ({@link #password()}); nothing else, and never for a user that is not a lab host.
 *
 * <p>Thread-safe; no static state. Start one per test if you like: it costs a few milliseconds.
 */
public final class LabServer implements AutoCloseable {
    /** The only address the lab listens on. */
    public static final String ADDRESS = "127.0.0.1";
    /** Where the bundled lab hosts are listed, relative to the knowledge base. */
    public static final String HOSTS_FILE = "lab/hosts.yaml";
    /** Most answers written at once; further requests wait their turn. */
    static final int WORKERS = 256;
    private static final Pattern HOST_NAME = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$");

    private final SshServer server;
    private final ThreadPoolExecutor workers;
    private final List<String> names;
    private final Map<String, LabHost> hosts;
    private final PublicKey hostKey;
    private final String password;
    private final int port;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The delay line in front of the SSH port, or null without latency. */
    private final LatencyLink link;

    /**
     * What to serve and how.
     *
     * @param knowledgeBase the knowledge base whose {@code lab/hosts.yaml} lists the bundled hosts, or null
     *                      for none
     * @param port the port to listen on, 0 for a free one
     * @param hostKeyFile where the host key is kept (created when missing), or null for a new key per start
     * @param authorizedKeys the client keys allowed in (for every lab host)
     * @param captures further capture directories, each a lab host named after its directory
     * @param fleetBase with {@code fleetSize > 0}: hosts {@code <fleetBase>-1 … <fleetBase>-N}, playing the
     *                  bundled captures (or, without bundled hosts, the given ones) round-robin
     * @param password the password, or null for a random one per start
     * @param pacing when above zero, each probe of the bundle is answered after its recorded duration,
     *               capped at this, so that a client sees the probes arrive one after another as from a
     *               real host; zero answers the whole bundle at once
     * @param latency when above zero, a round-trip time added to every exchange with the lab (each direction
     *                delayed by half, in front of the SSH port), to measure clients as over a network; at most 10 s
     */
    public record Config(Path knowledgeBase, int port, Path hostKeyFile, List<PublicKey> authorizedKeys,
                         List<Path> captures, String fleetBase, int fleetSize, String password, Duration pacing,
                         Duration latency) {
        public Config {
            pacing = pacing == null || pacing.isNegative() ? Duration.ZERO : pacing;
            latency = latency == null ? Duration.ZERO : latency;
            if (latency.isNegative() || latency.compareTo(Duration.ofSeconds(10)) > 0) {
                throw new IllegalArgumentException("latency must be 0-10 s, not " + latency.toMillis() + " ms");
            }
            authorizedKeys = List.copyOf(authorizedKeys == null ? List.of() : authorizedKeys);
            captures = List.copyOf(captures == null ? List.of() : captures);
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be 0-65535, not " + port);
            }
            if (fleetSize < 0 || fleetSize > 100_000) {
                throw new IllegalArgumentException("fleet size must be 0-100000, not " + fleetSize);
            }
            if (fleetSize > 0 && (fleetBase == null || !HOST_NAME.matcher(fleetBase + "-1").matches())) {
                throw new IllegalArgumentException("fleet base name must be letters, digits, '.', '_' or '-': '"
                        + fleetBase + "'");
            }
            if (password != null && password.isEmpty()) {
                throw new IllegalArgumentException("the password must not be empty");
            }
        }

        /** The bundled lab hosts of a knowledge base ({@code <knowledgeBase>/lab/hosts.yaml}), on a free port. */
        public static Config of(Path knowledgeBase) {
            return new Config(Objects.requireNonNull(knowledgeBase), 0, null, List.of(), List.of(), null, 0, null, Duration.ZERO, Duration.ZERO);
        }

        /** The bundled lab hosts of a Triage home (its {@code knowledge-base/}). */
        public static Config forHome(Path home) {
            return of(home.resolve("knowledge-base"));
        }

        /** No bundled hosts: only the captures and fleet added to it. */
        public static Config empty() {
            return new Config(null, 0, null, List.of(), List.of(), null, 0, null, Duration.ZERO, Duration.ZERO);
        }

        public Config withPort(int p) {
            return new Config(knowledgeBase, p, hostKeyFile, authorizedKeys, captures, fleetBase, fleetSize, password, pacing, latency);
        }

        public Config withHostKeyFile(Path file) {
            return new Config(knowledgeBase, port, file, authorizedKeys, captures, fleetBase, fleetSize, password, pacing, latency);
        }

        /** Adds client keys to the authorised ones. */
        public Config withAuthorizedKeys(Collection<? extends PublicKey> keys) {
            List<PublicKey> all = new ArrayList<>(authorizedKeys);
            all.addAll(keys);
            return new Config(knowledgeBase, port, hostKeyFile, all, captures, fleetBase, fleetSize, password, pacing, latency);
        }

        public Config withAuthorizedKey(PublicKey key) {
            return withAuthorizedKeys(List.of(Objects.requireNonNull(key)));
        }

        /** Adds capture directories, each a lab host named after its directory. */
        public Config withCaptures(Collection<Path> dirs) {
            List<Path> all = new ArrayList<>(captures);
            all.addAll(dirs);
            return new Config(knowledgeBase, port, hostKeyFile, authorizedKeys, all, fleetBase, fleetSize, password, pacing, latency);
        }

        public Config withCapture(Path dir) {
            return withCaptures(List.of(Objects.requireNonNull(dir)));
        }

        /** Adds hosts {@code <base>-1 … <base>-<size>} (numbered from 1). */
        public Config withFleet(String base, int size) {
            return new Config(knowledgeBase, port, hostKeyFile, authorizedKeys, captures, base, size, password, pacing, latency);
        }

        /** Answers each probe after its recorded duration, capped at {@code cap} (zero: all at once). */
        public Config withPacing(Duration cap) {
            return new Config(knowledgeBase, port, hostKeyFile, authorizedKeys, captures, fleetBase, fleetSize, password, cap, latency);
        }

        /** Adds a round-trip time to every exchange with the lab (zero: none). */
        public Config withLatency(Duration roundTrip) {
            return new Config(knowledgeBase, port, hostKeyFile, authorizedKeys, captures, fleetBase, fleetSize, password,
                    pacing, roundTrip);
        }

        public Config withPassword(String pw) {
            return new Config(knowledgeBase, port, hostKeyFile, authorizedKeys, captures, fleetBase, fleetSize, pw, pacing, latency);
        }
    }

    private LabServer(SshServer server, ThreadPoolExecutor workers, List<String> names, Map<String, LabHost> hosts,
                      PublicKey hostKey, String password, int port, LatencyLink link) {
        this.server = server;
        this.workers = workers;
        this.names = names;
        this.hosts = hosts;
        this.hostKey = hostKey;
        this.password = password;
        this.port = port;
        this.link = link;
    }

    /**
     * Reads the captures (every one of them, now: a lab host that cannot be played is an error at start,
     * not a surprise later), then listens on 127.0.0.1.
     *
     * @throws IOException when a capture, the hosts file or the host key cannot be read, or the port is taken
     * @throws IllegalArgumentException when the configuration is contradictory (two hosts of one name…)
     */
    public static LabServer start(Config config) throws IOException {
        Map<String, LabHost> hosts = loadHosts(config);
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("the lab has no host: give a knowledge base with "
                    + HOSTS_FILE + " or capture directories");
        }
        KeyPair key = config.hostKeyFile() == null ? LabKeys.generate() : LabKeys.loadOrCreate(config.hostKeyFile());
        String pw = config.password() != null ? config.password() : randomPassword();
        byte[] pwBytes = pw.getBytes(StandardCharsets.UTF_8);
        List<PublicKey> authorized = config.authorizedKeys();
        Map<String, LabHost> lookup = new HashMap<>(hosts);
        List<String> names = List.copyOf(hosts.keySet());

        AtomicInteger threadNo = new AtomicInteger();
        ThreadPoolExecutor workers = new ThreadPoolExecutor(WORKERS, WORKERS, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, "triage-lab-" + threadNo.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        workers.allowCoreThreadTimeOut(true);

        SshServer sshd = SshServer.setUpDefaultServer();
        try {
            sshd.setHost(ADDRESS);
            boolean delayed = !config.latency().isZero();
            sshd.setPort(delayed ? 0 : config.port());
            CoreModuleProperties.TCP_NODELAY.set(sshd, true);
            // a fleet load test connects hundreds of sessions at once: the default accept queue (50) would reset some
            CoreModuleProperties.SOCKET_BACKLOG.set(sshd, 1024);
            CoreModuleProperties.AUTH_TIMEOUT.set(sshd, Duration.ofSeconds(30));
            CoreModuleProperties.MAX_AUTH_REQUESTS.set(sshd, 10);
            CoreModuleProperties.SERVER_IDENTIFICATION.set(sshd, "TriageLab");
            sshd.setKeyPairProvider(KeyPairProvider.wrap(key));
            sshd.setPublickeyAuthenticator((user, offered, session) -> user != null && lookup.containsKey(user)
                    && authorized.stream().anyMatch(k -> KeyUtils.compareKeys(k, offered)));
            sshd.setPasswordAuthenticator((user, given, session) -> user != null && lookup.containsKey(user)
                    && given != null && MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), pwBytes));
            sshd.setUserAuthFactories(List.of(UserAuthPublicKeyFactory.INSTANCE, UserAuthPasswordFactory.INSTANCE));
            sshd.setKeyboardInteractiveAuthenticator(null);
            sshd.setGSSAuthenticator(null);
            sshd.setHostBasedAuthenticator(null);
            sshd.setForwardingFilter(RejectAllForwardingFilter.INSTANCE);
            sshd.setSubsystemFactories(List.of());
            AtomicInteger boundPort = new AtomicInteger();
            Function<String, Optional<LabHost>> find = u -> Optional.ofNullable(u == null ? null : lookup.get(u));
            sshd.setCommandFactory((channel, command) -> new LabCommand(workers, find, command, boundPort.get(), config.pacing()));
            sshd.setShellFactory(channel -> new LabCommand(workers, find, null, boundPort.get(), config.pacing()));
            sshd.start();
            LatencyLink link = delayed ? new LatencyLink(config.port(), sshd.getPort(), config.latency()) : null;
            int port = link != null ? link.port() : sshd.getPort();
            boundPort.set(port);
            return new LabServer(sshd, workers, names, lookup, key.getPublic(), pw, port, link);
        } catch (IOException | RuntimeException e) {
            workers.shutdownNow();
            try {
                sshd.stop(true);
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private static Map<String, LabHost> loadHosts(Config config) throws IOException {
        CaptureReader reader = new CaptureReader();
        Map<Path, Recording> byDir = new HashMap<>();
        Map<String, LabHost> hosts = new LinkedHashMap<>();
        List<LabHost> bundled = new ArrayList<>();
        if (config.knowledgeBase() != null) {
            for (LabCatalog.Entry e : LabCatalog.read(config.knowledgeBase().resolve(HOSTS_FILE))) {
                Path dir = config.knowledgeBase().resolve(e.capture()).normalize();
                LabHost h = new LabHost(e.name(), dir, e.note(), recording(reader, byDir, dir));
                add(hosts, h);
                bundled.add(h);
            }
        }
        List<LabHost> given = new ArrayList<>();
        for (Path d : config.captures()) {
            Path dir = d.toAbsolutePath().normalize();
            String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
            LabHost h = new LabHost(name, dir, "", recording(reader, byDir, dir));
            add(hosts, h);
            given.add(h);
        }
        if (config.fleetSize() > 0) {
            List<LabHost> pool = bundled.isEmpty() ? given : bundled;
            if (pool.isEmpty()) {
                throw new IllegalArgumentException("a fleet needs captures to play: give a knowledge base or capture directories");
            }
            for (int i = 1; i <= config.fleetSize(); i++) {
                LabHost model = pool.get((i - 1) % pool.size());
                String note = "plays " + model.name() + (model.note().isEmpty() ? "" : ": " + model.note());
                add(hosts, new LabHost(config.fleetBase() + "-" + i, model.captureDir(), note, model.recording()));
            }
        }
        return hosts;
    }

    private static Recording recording(CaptureReader reader, Map<Path, Recording> cache, Path dir) throws IOException {
        Recording r = cache.get(dir);
        if (r == null) {
            if (!Files.isDirectory(dir)) {
                throw new IOException("lab capture not found: " + dir);
            }
            try {
                r = Recording.read(reader, dir);
            } catch (CaptureException e) {
                throw new IOException("lab capture " + dir + " cannot be read: " + e.getMessage(), e);
            }
            cache.put(dir, r);
        }
        return r;
    }

    private static void add(Map<String, LabHost> hosts, LabHost h) {
        if (!HOST_NAME.matcher(h.name()).matches()) {
            throw new IllegalArgumentException("lab host name '" + h.name()
                    + "' is not usable as an SSH user name (letters, digits, '.', '_', '-'; at most 64)");
        }
        if (hosts.putIfAbsent(h.name(), h) != null) {
            throw new IllegalArgumentException("two lab hosts are named " + h.name());
        }
    }

    /** 16 characters from an alphabet without look-alikes, in groups of four (about 79 bits). */
    static String randomPassword() {
        String alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
        SecureRandom r = new SecureRandom();
        StringBuilder b = new StringBuilder(19);
        for (int i = 0; i < 16; i++) {
            if (i > 0 && i % 4 == 0) {
                b.append('-');
            }
            b.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
        return b.toString();
    }

    /** The port the lab listens on (on {@link #ADDRESS}). */
    public int port() {
        return port;
    }

    /** The lab host names, in order: bundled, given captures, fleet. */
    public List<String> hosts() {
        return names;
    }

    /** A lab host by name. */
    public Optional<LabHost> host(String name) {
        return Optional.ofNullable(name == null ? null : hosts.get(name));
    }

    /** The server's public host key. */
    public PublicKey hostKey() {
        return hostKey;
    }

    /** The host key's fingerprint as OpenSSH shows it ({@code SHA256:…}). */
    public String hostKeyFingerprint() {
        return LabKeys.fingerprint(hostKey);
    }

    /** The line a client adds to {@code known_hosts}: {@code [127.0.0.1]:PORT ssh-ed25519 AAAA…}. */
    public String knownHostsLine() {
        String host = port == 22 ? ADDRESS : "[" + ADDRESS + "]:" + port;
        return host + " " + LabKeys.openSsh(hostKey);
    }

    /** The password every lab host accepts (for people using ordinary {@code ssh}). */
    public String password() {
        return password;
    }

    /** The command a person types to reach a lab host: {@code ssh -p PORT HOST@127.0.0.1}. */
    public String sshCommand(String host) {
        return "ssh -p " + port + " " + host + "@" + ADDRESS;
    }

    /** Answers being written right now (for tests: a client that left must not hold a worker). */
    int activeWorkers() {
        return workers.getActiveCount();
    }

    public boolean isOpen() {
        return !closed.get() && server.isOpen();
    }

    /** Stops listening and closes every session; idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            if (link != null) {
                link.close();
            }
            server.stop(true);
        } catch (IOException | RuntimeException e) {
            // closing anyway
        } finally {
            workers.shutdownNow();
        }
    }

    @Override
    public String toString() {
        return "lab on " + ADDRESS + ":" + port + " (" + names.size() + " hosts)";
    }
}
