package io.triage.server;

import io.triage.Triage;
import io.triage.collect.SshCollector;
import io.triage.collect.SshTarget;
import io.triage.lab.LabKeys;
import io.triage.lab.LabServer;
import io.triage.look.HostLooks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code triage serve} assembled: the product loaded once, the embedded lab (unless an inventory replaces
 * it), one SSH client, the store, the diagnoses and the HTTP API. {@link #stop()} stops taking requests,
 * lets running diagnoses finish within a bound and records the others as interrupted.
 */
public final class TriageServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TriageServer.class);

    /**
     * @param dataDir where diagnoses, captures, the audit log and SSH state live
     * @param tokens the API tokens
     * @param lab start the embedded lab and serve its hosts
     * @param labPacing each lab probe answered after its recorded duration, at most this (zero: at once)
     * @param inventory a file of hosts, or null
     * @param allowHosts patterns of further hosts that may be looked at
     * @param identities private keys for hosts other than the lab's (besides the user's default keys)
     * @param sshDeadline the deadline of one look
     */
    public record Setup(Triage triage, Path dataDir, Tokens tokens, boolean lab, Duration labPacing, Path inventory,
                        List<String> allowHosts, List<Path> identities, Duration sshDeadline, ServeSettings settings,
                        Reload reload) {
        public Setup {
            allowHosts = List.copyOf(allowHosts == null ? List.of() : allowHosts);
            identities = List.copyOf(identities == null ? List.of() : identities);
            reload = reload == null ? Reload.NONE : reload;
        }

        /** A server that does not watch its rules. */
        public Setup(Triage triage, Path dataDir, Tokens tokens, boolean lab, Duration labPacing, Path inventory,
                     List<String> allowHosts, List<Path> identities, Duration sshDeadline, ServeSettings settings) {
            this(triage, dataDir, tokens, lab, labPacing, inventory, allowHosts, identities, sshDeadline, settings, null);
        }
    }

    /**
     * Hot reload of the rules and knowledge.
     *
     * @param watch watch {@code rules/} and {@code knowledge-base/} and reload on a change
     * @param strict a new base must also pass every scenario before it serves
     * @param debounce how long the files must stay quiet before a reload
     * @param loader builds and checks a product from a home (as {@code Triage.load} does, with the scenarios' check)
     */
    public record Reload(boolean watch, boolean strict, Duration debounce, java.util.function.Function<Path, Triage> loader) {
        public static final Reload NONE = new Reload(false, false, Duration.ofMillis(300), null);
    }

    private final Setup setup;
    private final LabServer labServer;
    private final SshCollector collector;
    private final Diagnoses diagnoses;
    private final ApiServer api;
    private final AuditLog audit;
    private final HostPolicy policy;
    private final String oneTimeToken;
    private final int port;
    private final int skippedRecords;
    private final RuleReloader reloader;
    private boolean stopped;

    private TriageServer(Setup setup, LabServer lab, SshCollector collector, Diagnoses diagnoses, ApiServer api,
                         AuditLog audit, HostPolicy policy, String oneTimeToken, int port, int skipped,
                         RuleReloader reloader) {
        this.reloader = reloader;
        this.setup = setup;
        this.labServer = lab;
        this.collector = collector;
        this.diagnoses = diagnoses;
        this.api = api;
        this.audit = audit;
        this.policy = policy;
        this.oneTimeToken = oneTimeToken;
        this.port = port;
        this.skippedRecords = skipped;
    }

    /**
     * Starts everything, or nothing: a part that fails to start stops the ones already started.
     *
     * @throws IllegalArgumentException for a configuration that must not run (a public address with a
     *                                  generated token, a bad inventory…)
     */
    public static TriageServer start(Setup s) throws IOException {
        ServeSettings settings = s.settings();
        if (!settings.loopback() && s.tokens().generated()) {
            throw new IllegalArgumentException("refusing to listen on " + settings.bind()
                    + " without a configured API token: give --tokens FILE or set TRIAGE_API_TOKEN");
        }
        Path data = s.dataDir();
        Files.createDirectories(data.resolve("ssh"));
        LabServer lab = null;
        SshCollector collector = null;
        AuditLog audit = null;
        Diagnoses diagnoses = null;
        RuleReloader reloader = null;
        try {
            Map<String, HostPolicy.Known> known = new LinkedHashMap<>();
            Path knownHosts = data.resolve("ssh").resolve("known_hosts");
            if (!Files.exists(knownHosts)) {
                Files.writeString(knownHosts, "# host keys of the hosts this server looks at\n");
            }
            KeyPair labClient = null;
            if (s.lab()) {
                Path labDir = data.resolve("lab");
                Files.createDirectories(labDir);
                labClient = LabKeys.loadOrCreate(labDir.resolve("client_key"));
                lab = LabServer.start(LabServer.Config.forHome(s.triage().home()).withPort(0)
                        .withHostKeyFile(labDir.resolve("host_key")).withAuthorizedKey(labClient.getPublic())
                        .withPacing(s.labPacing()));
                pinLabKey(knownHosts, lab);
                for (String h : lab.hosts()) {
                    known.put(h, new HostPolicy.Known(h, new SshTarget(h, LabServer.ADDRESS, lab.port()),
                            lab.host(h).orElseThrow().intent(), "lab"));
                }
            }
            if (s.inventory() != null) {
                for (HostPolicy.Known k : HostPolicy.readInventory(s.inventory()).values()) {
                    if (known.putIfAbsent(k.name(), k) != null) {
                        throw new IllegalArgumentException("the inventory names " + k.name() + ", a lab host already");
                    }
                }
            }
            HostPolicy policy = new HostPolicy(known, s.allowHosts());
            collector = new SshCollector(new SshCollector.Options(knownHosts, false, s.identities(),
                    Files.writeString(data.resolve("ssh").resolve("config"), "# no aliases\n"), Duration.ofSeconds(10),
                    s.sshDeadline()));
            if (labClient != null) {
                collector.addIdentity(labClient);
            }
            FileDiagnosisStore store = new FileDiagnosisStore(data);
            audit = new AuditLog(data);
            Metrics metrics = new Metrics();
            Outward outward = new Outward();
            List<String> callbacks = new ArrayList<>(settings.allowedCallbacks());
            if (settings.webhookTarget() != null) {
                callbacks.add(settings.webhookTarget());
            }
            Webhooks hooks = new Webhooks(callbacks);
            String publicUrl = settings.publicUrl() != null ? settings.publicUrl() : null;
            Reload r = s.reload();
            reloader = new RuleReloader(s.triage(), r.loader() == null ? h -> {
                throw new IllegalStateException("this server cannot reload its rules");
            } : r.loader(), r.strict(), r.debounce());
            SshCollector looker = collector;
            // one HostLooks per rule base served: its probe filters are generated once, not per diagnosis
            java.util.concurrent.atomic.AtomicReference<HostLooks> served = new java.util.concurrent.atomic.AtomicReference<>();
            java.util.function.Function<io.triage.Triage, HostLooks> looksFor = t -> served.updateAndGet(
                    l -> l != null && l.product() == t ? l : new HostLooks(t, looker));
            diagnoses = new Diagnoses(reloader::current, looksFor, policy, store, data, metrics,
                    hooks, outward, audit, publicUrl == null ? "" : publicUrl, settings.workers(), settings.queue(),
                    settings.sweepParallel());
            String oneTime = Tokens.random(24);
            ApiServer api = new ApiServer(settings, diagnoses, policy, s.tokens(), oneTime, metrics, outward,
                    s.triage().home().resolve("web"), reloader);
            int port = api.start();
            if (r.watch() && r.loader() != null) {
                reloader.start();
            }
            return new TriageServer(s, lab, collector, diagnoses, api, audit, policy, oneTime, port, store.skipped(),
                    reloader);
        } catch (IOException | RuntimeException e) {
            if (reloader != null) {
                reloader.close();
            }
            if (diagnoses != null) {
                diagnoses.shutdown(Duration.ZERO);
            }
            if (collector != null) {
                collector.close();
            }
            if (lab != null) {
                lab.close();
            }
            if (audit != null) {
                audit.close();
            }
            throw e;
        }
    }

    /** The lab's key, pinned for its port; stale lines of earlier starts (other ports, same key) are dropped. */
    private static void pinLabKey(Path knownHosts, LabServer lab) throws IOException {
        String line = lab.knownHostsLine();
        String key = line.substring(line.indexOf(' ') + 1);
        List<String> kept = new ArrayList<>();
        for (String l : Files.readAllLines(knownHosts, StandardCharsets.UTF_8)) {
            if (!l.endsWith(key)) {
                kept.add(l);
            }
        }
        kept.add(line);
        Files.write(knownHosts, kept, StandardCharsets.UTF_8);
    }

    public int port() {
        return port;
    }

    /** The base URL: the public one when configured, else the bound address. */
    public String url() {
        if (setup.settings().publicUrl() != null) {
            return setup.settings().publicUrl();
        }
        String host = setup.settings().bind().contains(":") ? "[" + setup.settings().bind() + "]" : setup.settings().bind();
        return "http://" + host + ":" + port;
    }

    /** The sign-in link for a browser (valid once). */
    public String signInUrl() {
        return url() + "/?token=" + oneTimeToken;
    }

    public HostPolicy hosts() {
        return policy;
    }

    public List<ApiServer.Route> routes() {
        return api.routes();
    }

    /** The rules serving now and their reloads. */
    public RuleReloader rules() {
        return reloader;
    }

    /** Records found damaged in the data directory at start, skipped. */
    public int skippedRecords() {
        return skippedRecords;
    }

    /** The lab, when one runs. */
    public LabServer lab() {
        return labServer;
    }

    /**
     * Stops taking diagnoses, lets running ones finish within the configured bound (the rest are recorded
     * as interrupted), then stops listening, the SSH client and the lab. Idempotent.
     */
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        reloader.close();
        diagnoses.shutdown(setup.settings().shutdownBound());
        try {
            api.close();
        } catch (RuntimeException e) {
            LOG.warn("stopping the HTTP server: {}", e.getMessage());
        }
        collector.close();
        if (labServer != null) {
            labServer.close();
        }
        try {
            audit.close();
        } catch (IOException e) {
            LOG.warn("closing the audit log: {}", e.getMessage());
        }
    }

    @Override
    public void close() {
        stop();
    }
}
