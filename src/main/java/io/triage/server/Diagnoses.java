package io.triage.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.triage.Triage;
import io.triage.capture.CaptureException;
import io.triage.collect.ProbeBundle;
import io.triage.collect.SshTarget;
import io.triage.explain.Diagnosis;
import io.triage.look.HostLooks;
import io.triage.server.DiagnosisRecord.Failure;
import io.triage.server.DiagnosisRecord.HostResult;
import io.triage.server.DiagnosisRecord.Kind;
import io.triage.server.DiagnosisRecord.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The server's diagnoses: accepted, run on a bounded pool (looks at hosts through {@link HostLooks}),
 * kept in a {@link DiagnosisStore}, their progress told to whoever listens, and re-evaluated when the
 * caller says more about what they launched. Each diagnosis keeps its capture in the data directory, so
 * that a later intent re-runs the rules on exactly what was seen.
 */
public final class Diagnoses implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Diagnoses.class);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);
    private static final Pattern CAPTURE_FILE = Pattern.compile("^[A-Za-z0-9_][A-Za-z0-9_-]{0,62}(\\.(out|err|cmd|txt))?$");
    private static final Set<String> META = Set.of("_probes", "target", "intent", "notes");
    /** Most hosts in one sweep. */
    static final int MAX_SWEEP = 2000;
    /** Most files in one capture. */
    static final int MAX_CAPTURE_FILES = 64;
    /** Most events kept for late listeners of one diagnosis. */
    static final int MAX_EVENTS = 10_000;

    /** What a caller asks to have diagnosed. */
    public sealed interface Request permits HostRequest, SweepRequest, CaptureRequest { }

    public record HostRequest(String host) implements Request { }

    public record SweepRequest(List<String> hosts) implements Request { }

    /** Capture files by name ({@code health} or {@code health.out}, {@code _probes.txt}…), from JSON, a paste or an upload. */
    public record CaptureRequest(Kind kind, Map<String, byte[]> files) implements Request { }

    /** One progress event: its SSE event name and its JSON data. */
    public record Event(String type, String data) {
        public boolean last() {
            return type.equals("verdict");
        }
    }

    /** The result of a create: the record, and whether an earlier one was returned for the same idempotency key. */
    public record Created(DiagnosisRecord record, boolean existed) { }

    /** The product serving now (replaced by a reload): each diagnosis takes it once and runs on it to the end. */
    private final java.util.function.Supplier<Triage> product;
    private volatile Pastes pastes;
    private volatile Triage pastesOf;
    /** Looks at hosts and diagnoses them with the product given. */
    private final java.util.function.Function<Triage, HostLooks> looks;
    private final HostPolicy policy;
    private final DiagnosisStore store;
    private final Path dataDir;
    private final Metrics metrics;
    private final Webhooks webhooks;
    private final Outward outward;
    private final AuditLog audit;
    private final String publicUrl;
    private final int sweepParallel;
    private final ThreadPoolExecutor pool;
    private final Map<String, Live> live = new ConcurrentHashMap<>();
    private final Object keyLock = new Object();
    private volatile boolean accepting = true;

    /** A diagnosis in progress: its newest record and its events so far. */
    private final class Live {
        private DiagnosisRecord record;
        private final List<Event> events = new ArrayList<>();
        private final List<BlockingQueue<Event>> listeners = new ArrayList<>();
        private final Set<String> probes = new LinkedHashSet<>();
        private long savedAt = System.nanoTime();

        Live(DiagnosisRecord r) {
            this.record = r;
        }

        synchronized DiagnosisRecord record() {
            return record;
        }

        synchronized void update(DiagnosisRecord r) {
            record = r;
        }

        synchronized void emit(Event e) {
            if (events.size() < MAX_EVENTS || e.last()) {
                events.add(e);
            }
            for (BlockingQueue<Event> q : listeners) {
                q.offer(e);
            }
        }

        synchronized BlockingQueue<Event> listen() {
            BlockingQueue<Event> q = new LinkedBlockingQueue<>(events);
            listeners.add(q);
            return q;
        }

        synchronized void stopListening(BlockingQueue<Event> q) {
            listeners.remove(q);
        }

        synchronized void probe(String p) {
            probes.add(p);
        }

        synchronized List<String> probes() {
            return List.copyOf(probes);
        }
    }

    /**
     * @param workers diagnoses running at once (a sweep is one of them, looking at up to
     *                {@code sweepParallel} hosts at a time)
     * @param queue diagnoses waiting beyond those; more are refused with 503
     */
    public Diagnoses(Triage triage, HostLooks looks, HostPolicy policy, DiagnosisStore store, Path dataDir,
                     Metrics metrics, Webhooks webhooks, Outward outward, AuditLog audit, String publicUrl,
                     int workers, int queue, int sweepParallel) {
        this(() -> triage, t -> looks, policy, store, dataDir, metrics, webhooks, outward, audit, publicUrl, workers,
                queue, sweepParallel);
    }

    /**
     * As above, on the product {@code product} supplies when each diagnosis starts (a server that reloads its rules).
     *
     * @param looks host looks that diagnose with the product given
     */
    public Diagnoses(java.util.function.Supplier<Triage> product, java.util.function.Function<Triage, HostLooks> looks,
                     HostPolicy policy, DiagnosisStore store, Path dataDir, Metrics metrics, Webhooks webhooks,
                     Outward outward, AuditLog audit, String publicUrl, int workers, int queue, int sweepParallel) {
        this.product = product;
        this.looks = looks;
        this.policy = policy;
        this.store = store;
        this.dataDir = dataDir;
        this.metrics = metrics;
        this.webhooks = webhooks;
        this.outward = outward;
        this.audit = audit;
        this.publicUrl = publicUrl;
        this.sweepParallel = sweepParallel;
        AtomicInteger n = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(workers, workers, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(queue), r -> {
            Thread t = new Thread(r, "triage-diagnosis-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        recover();
    }

    /** A diagnosis that was queued or running when the process ended did not finish: say so. */
    private void recover() {
        for (DiagnosisRecord r : store.unfinished()) {
            DiagnosisRecord i = r.failed(new Failure("interrupted",
                    "the server stopped before this diagnosis finished", "ask for it again"), Status.interrupted, now());
            try {
                store.save(i);
                LOG.info("diagnosis {} was {} when the server stopped: recorded as interrupted", r.id(), r.status());
            } catch (IOException e) {
                LOG.warn("diagnosis {} could not be marked interrupted: {}", r.id(), e.getMessage());
            }
        }
    }

    static String now() {
        return TIME.format(Instant.now());
    }

    /** Accepts a request (or returns the earlier one with the same idempotency key) and starts it. */
    public Created create(Request req, Map<String, String> intent, String callback, String idempotencyKey, String by) {
        if (!accepting) {
            throw new ApiError(503, "shutting-down", "the server is stopping and accepts no new diagnosis");
        }
        String cb = callback == null ? null : webhooks.check(callback);
        if (idempotencyKey == null) {
            return new Created(start(req, intent, cb, null, by), false);
        }
        synchronized (keyLock) {
            Optional<DiagnosisRecord> earlier = store.findByIdempotencyKey(by, idempotencyKey);
            if (earlier.isPresent()) {
                return new Created(earlier.get(), true);
            }
            return new Created(start(req, intent, cb, idempotencyKey, by), false);
        }
    }

    private DiagnosisRecord start(Request req, Map<String, String> intent, String callback, String key, String by) {
        if (pool.getQueue().remainingCapacity() == 0) {
            throw new ApiError(503, "busy", "too many diagnoses are waiting; try again shortly");
        }
        String id = "d" + Tokens.random(10);
        List<String> hosts;
        Kind kind;
        String captureDir = "captures/" + id;
        if (req instanceof HostRequest h) {
            hosts = List.of(policy.resolve(h.host()).name());
            kind = Kind.host;
        } else if (req instanceof SweepRequest s) {
            if (s.hosts().isEmpty() || s.hosts().size() > MAX_SWEEP) {
                throw ApiError.badRequest("bad-hosts", "a sweep names 1 to " + MAX_SWEEP + " hosts");
            }
            Set<String> names = new LinkedHashSet<>();
            for (String h : s.hosts()) {
                names.add(policy.resolve(h).name());
            }
            hosts = List.copyOf(names);
            kind = Kind.sweep;
        } else {
            CaptureRequest c = (CaptureRequest) req;
            hosts = List.of();
            kind = c.kind();
            writeCapture(dataDir.resolve(captureDir), c.files());
        }
        DiagnosisRecord r = new DiagnosisRecord(id, kind, Status.queued, by, now(), now(), hosts, intent, callback,
                key, captureDir, null, null, List.of(), List.of());
        save(r);
        if (hosts.isEmpty()) {
            audit.record(r.created(), by, "diagnose-" + kind, id, null);
        }
        for (String h : hosts) {
            audit.record(r.created(), by, "diagnose-" + kind, id, h);
        }
        metrics.request(kind.name());
        metrics.started();
        Live l = new Live(r);
        live.put(id, l);
        try {
            pool.execute(() -> run(l));
        } catch (RejectedExecutionException e) {
            live.remove(id);
            metrics.finished();
            DiagnosisRecord f = r.failed(new Failure("busy", "the server could not start this diagnosis", "ask again"),
                    Status.failed, now());
            save(f);
            throw new ApiError(503, "busy", "too many diagnoses are waiting; try again shortly");
        }
        return r;
    }

    /**
     * Writes the files of a capture request into its directory, then reads it back the way every capture is
     * read ({@code CaptureReader}: size caps, UTF-8 repair, the probe table's rules), so that an unusable
     * capture is refused now, with the reader's reason.
     */
    private void writeCapture(Path dir, Map<String, byte[]> files) {
        if (files.isEmpty() || files.size() > MAX_CAPTURE_FILES) {
            throw new ApiError(422, "malformed-capture", "a capture has 1 to " + MAX_CAPTURE_FILES + " probe files");
        }
        Map<String, byte[]> named = new LinkedHashMap<>();
        for (Map.Entry<String, byte[]> e : files.entrySet()) {
            named.put(fileName(e.getKey()), e.getValue());
        }
        try {
            Files.createDirectories(dir);
            for (Map.Entry<String, byte[]> e : named.entrySet()) {
                Files.write(dir.resolve(e.getKey()), e.getValue(), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            }
            product.get().reader().read(dir);
        } catch (CaptureException e) {
            deleteQuietly(dir);
            throw new ApiError(422, "malformed-capture", e.getMessage().replace(dir.toString(), "the capture"));
        } catch (IOException e) {
            deleteQuietly(dir);
            throw new ApiError(507, "storage-failed", "the capture could not be stored: " + e.getMessage());
        }
    }

    /** {@code health} → {@code health.out}, {@code target} → {@code target.txt}; names are checked, never paths. */
    static String fileName(String key) {
        if (key == null || !CAPTURE_FILE.matcher(key).matches()) {
            throw new ApiError(422, "malformed-capture", "'" + HostPolicy.printable(String.valueOf(key))
                    + "' is not a probe name (letters, digits, '_', '-'; optionally .out, .err, .cmd)");
        }
        int dot = key.indexOf('.');
        String base = dot < 0 ? key : key.substring(0, dot);
        String ext = dot < 0 ? null : key.substring(dot + 1);
        boolean meta = META.contains(base);
        if (ext == null) {
            return base + (meta ? ".txt" : ".out");
        }
        if (meta != ext.equals("txt")) {
            throw new ApiError(422, "malformed-capture", "'" + key + "': only _probes, target, intent and notes are .txt files");
        }
        return key;
    }

    private void run(Live l) {
        DiagnosisRecord r = l.record();
        long start = System.nanoTime();
        try {
            r = r.with(Status.running, now());
            l.update(r);
            save(r);
            l.emit(new Event("status", outward.json(Map.of("id", r.id(), "status", "running"))));
            r = switch (r.kind()) {
                case host -> runHost(l, r);
                case sweep -> runSweep(l, r);
                case capture, text, upload -> runCapture(r);
            };
        } catch (Exception | StackOverflowError e) {
            LOG.warn("diagnosis {} failed: {}", r.id(), e.toString());
            r = r.failed(new Failure("internal-error", "the diagnosis could not be completed ("
                    + e.getClass().getSimpleName() + ")", "the server log has the details"), Status.failed, now());
        }
        double secs = (System.nanoTime() - start) / 1e9;
        try {
            save(r);
        } catch (RuntimeException e) {
            LOG.warn("diagnosis {} could not be saved: {}", r.id(), e.getMessage());
        }
        l.update(r);
        metrics.latency(secs);
        metrics.finished();
        l.emit(new Event("verdict", outward.json(summary(r, true))));
        live.remove(r.id());
        if (r.callback() != null) {
            webhooks.post(r.callback(), outward.json(callbackBody(r)));
        }
    }

    private DiagnosisRecord runHost(Live l, DiagnosisRecord r) {
        HostPolicy.Known k = policy.resolve(r.hosts().get(0));
        Map<String, String> intent = new LinkedHashMap<>(k.intent());
        intent.putAll(r.intent());
        String id = r.id();
        HostLooks.Outcome o = looks.apply(product.get()).look(k.target(), ProbeBundle.forTarget(null, null, null), intent,
                dataDir.resolve(r.captureDir()), (probe, rc, ms) -> {
                    l.probe(probe);
                    Map<String, Object> ev = new LinkedHashMap<>();
                    ev.put("id", id);
                    ev.put("host", k.name());
                    ev.put("probe", probe);
                    ev.put("rc", rc);
                    ev.put("ms", ms);
                    l.emit(new Event("probe", outward.json(ev)));
                });
        if (o.failed()) {
            metrics.lookFailed(o.failure().kind());
            return r.failed(new Failure(o.failure().kind(), o.failure().message(), o.failure().check()), Status.failed, now());
        }
        metrics.diagnosed(o.diagnosis().cause());
        return r.done(outward.document(o.diagnosis()), now());
    }

    private DiagnosisRecord runSweep(Live l, DiagnosisRecord r) throws InterruptedException {
        Map<String, String> nameOf = new LinkedHashMap<>();
        List<SshTarget> targets = new ArrayList<>();
        for (String h : r.hosts()) {
            SshTarget t = policy.resolve(h).target();
            if (nameOf.putIfAbsent(t.toString(), h) == null) {
                targets.add(t);
            }
        }
        Path base = dataDir.resolve(r.captureDir());
        DiagnosisRecord[] current = {r};
        // one product for the whole sweep: every host of it is diagnosed by the same rules
        looks.apply(product.get()).sweep(targets, ProbeBundle.forTarget(null, null, null), r.intent(),
                t -> base.resolve(HostLooks.saveName(t)), sweepParallel, o -> {
                    String name = nameOf.getOrDefault(o.host(), o.host());
                    HostResult hr;
                    if (o.failed()) {
                        metrics.lookFailed(o.failure().kind());
                        hr = new HostResult(name, Status.failed, o.verdict(), o.seconds(), null,
                                new Failure(o.failure().kind(), o.failure().message(), o.failure().check()));
                    } else {
                        metrics.diagnosed(o.diagnosis().cause());
                        hr = new HostResult(name, Status.done, o.verdict(), o.seconds(), outward.document(o.diagnosis()), null);
                    }
                    current[0] = current[0].withResult(hr, now());
                    l.update(current[0]);
                    saveCoalesced(l, current[0]);
                    Map<String, Object> ev = new LinkedHashMap<>();
                    ev.put("id", r.id());
                    ev.put("host", name);
                    ev.put("status", hr.status().name());
                    ev.put("verdict", hr.verdict());
                    ev.put("done", current[0].results().size());
                    ev.put("of", targets.size());
                    l.emit(new Event("host", outward.json(ev)));
                });
        return current[0].with(Status.done, now());
    }

    private DiagnosisRecord runCapture(DiagnosisRecord r) throws CaptureException {
        Diagnosis d = product.get().replay(dataDir.resolve(r.captureDir()), r.intent());
        metrics.diagnosed(d.cause());
        return r.done(outward.document(d), now());
    }

    /**
     * A sweep's record (every finished host's document in it) is saved at most every two seconds while it
     * runs, and always at its end: saving it whole after each host would write the sweep's size squared.
     * A crash in between loses the hosts finished since the last save; the sweep is then recorded as
     * interrupted with the results saved so far.
     */
    private void saveCoalesced(Live l, DiagnosisRecord r) {
        long t = System.nanoTime();
        if (t - l.savedAt > 2_000_000_000L) {
            l.savedAt = t;
            save(r);
        }
    }

    private void save(DiagnosisRecord r) {
        try {
            store.save(r);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The newest state of a diagnosis: in progress from memory, else from the store. */
    /** Reads pasted text by content into capture files. */
    Pastes pastes() {
        Triage t = product.get();
        Pastes p = pastes;
        if (p == null || pastesOf != t) {
            // what a paste is recognised by (markers, process names) follows the product serving now
            p = new Pastes(new io.triage.capture.PasteRecognizer(t.knowledge()));
            pastes = p;
            pastesOf = t;
        }
        return p;
    }

    public Optional<DiagnosisRecord> get(String id) {
        Live l = live.get(id);
        return l != null ? Optional.of(l.record()) : store.find(id);
    }

    /** Probes that have answered so far, while running. */
    public List<String> probesSoFar(String id) {
        Live l = live.get(id);
        return l == null ? List.of() : l.probes();
    }

    /**
     * Listens to a diagnosis' events: those so far, then each as it comes, ending with the verdict. Empty
     * when the diagnosis is finished (its verdict is {@link #verdictEvent}).
     */
    public Optional<Listening> listen(String id) {
        Live l = live.get(id);
        if (l == null) {
            return Optional.empty();
        }
        BlockingQueue<Event> q = l.listen();
        if (!live.containsKey(id) && q.stream().noneMatch(Event::last)) {
            // finished between the two looks: its verdict event was emitted before we listened
            l.stopListening(q);
            return Optional.empty();
        }
        return Optional.of(new Listening(q, () -> l.stopListening(q)));
    }

    /** An open subscription; {@link #close()} stops it. */
    public record Listening(BlockingQueue<Event> events, Runnable stop) implements AutoCloseable {
        @Override
        public void close() {
            stop.run();
        }
    }

    public Event verdictEvent(DiagnosisRecord r) {
        return new Event("verdict", outward.json(summary(r, true)));
    }

    /** Records about a host (or all), newest first, as summaries. */
    public List<Map<String, Object>> list(String host, int limit) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (DiagnosisRecord r : store.list(host, limit)) {
            out.add(summary(get(r.id()).orElse(r), false));
        }
        return out;
    }

    /** A short view of a record: its state and, when done, its verdict. */
    Map<String, Object> summary(DiagnosisRecord r, boolean withFailure) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", r.id());
        m.put("kind", r.kind().name());
        m.put("status", r.status().name());
        m.put("created", r.created());
        m.put("updated", r.updated());
        m.put("hosts", r.hosts());
        if (r.diagnosis() != null) {
            m.put("cause", r.diagnosis().path("cause").asText());
            m.put("subtype", r.diagnosis().path("subtype").asText());
            m.put("confidence", r.diagnosis().path("confidence").asText());
            m.put("title", r.diagnosis().path("title").asText());
        }
        if (withFailure && r.failure() != null) {
            m.put("failure", r.failure());
        }
        if (r.kind() == Kind.sweep) {
            m.put("done", r.results().size());
            m.put("of", r.hosts().size());
        }
        return m;
    }

    private Map<String, Object> callbackBody(DiagnosisRecord r) {
        Map<String, Object> m = summary(r, true);
        m.put("url", publicUrl + "/api/v1/diagnoses/" + r.id());
        if (r.diagnosis() != null) {
            m.put("diagnosis", r.diagnosis());
        }
        if (!r.results().isEmpty()) {
            m.put("results", r.results());
        }
        return m;
    }

    /**
     * Re-runs the rules on a finished diagnosis' capture with more intent (the new values win), records the
     * turn, and says what changed.
     */
    public Map<String, Object> reevaluate(String id, Map<String, String> more, String by) {
        DiagnosisRecord r = get(id).orElseThrow(() -> ApiError.notFound("no diagnosis " + id));
        if (r.kind() == Kind.sweep) {
            throw new ApiError(409, "sweep", "an intent applies to one host's diagnosis: ask about that host");
        }
        if (r.status() != Status.done || r.diagnosis() == null) {
            throw new ApiError(409, "not-done", "the diagnosis is " + r.status() + "; an intent can be given once it is done");
        }
        Path dir = dataDir.resolve(r.captureDir());
        if (!Files.isDirectory(dir)) {
            throw new ApiError(409, "no-capture", "the capture of this diagnosis is no longer kept");
        }
        Map<String, String> merged = new LinkedHashMap<>(r.intent());
        merged.putAll(more);
        Diagnosis d;
        try {
            d = product.get().replay(dir, merged);
        } catch (CaptureException e) {
            throw new ApiError(409, "no-capture", "the capture of this diagnosis cannot be read: " + e.getMessage());
        }
        JsonNode after = outward.document(d);
        ObjectNode change = changes(r.diagnosis(), after);
        String at = now();
        DiagnosisRecord updated = r.withTurn(new DiagnosisRecord.Turn(at, by, more, change), after, merged, at);
        synchronized (keyLock) {
            save(updated);
        }
        for (String h : r.hosts().isEmpty() ? List.of("") : r.hosts()) {
            audit.record(at, by, "intent", id, h.isEmpty() ? null : h);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", id);
        out.put("intent", merged);
        out.put("changed", change);
        out.put("diagnosis", after);
        return out;
    }

    /**
     * WHY NOT {@code cause} for a finished diagnosis: the rules that would conclude it, re-run on its stored capture
     * with its intent, and which of their conditions the facts meet ({@code triage.whynot/v1}).
     */
    public Map<String, Object> whyNot(String id, String cause) {
        Triage triage = product.get();
        DiagnosisRecord r = get(id).orElseThrow(() -> ApiError.notFound("no diagnosis " + id));
        if (r.kind() == Kind.sweep) {
            throw new ApiError(409, "sweep", "why-not applies to one host's diagnosis: ask about that host");
        }
        if (r.status() != Status.done || r.diagnosis() == null) {
            throw new ApiError(409, "not-done", "the diagnosis is " + r.status() + "; ask why-not once it is done");
        }
        if (cause == null || !triage.knowledge().causes().containsKey(cause)) {
            throw ApiError.badRequest("unknown-cause", (cause == null || cause.isEmpty() ? "say which cause: ?cause=ID"
                    : "no cause '" + HostPolicy.printable(cause) + "'") + "; the causes are "
                    + String.join(", ", triage.knowledge().causes().keySet()));
        }
        Path dir = dataDir.resolve(r.captureDir());
        if (!Files.isDirectory(dir)) {
            throw new ApiError(409, "no-capture", "the capture of this diagnosis is no longer kept");
        }
        io.triage.explain.WhyNot.Answer a;
        try {
            a = triage.whyNot(cause, triage.reader().read(dir), r.intent());
        } catch (CaptureException e) {
            throw new ApiError(409, "no-capture", "the capture of this diagnosis cannot be read: " + e.getMessage());
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", id);
        out.putAll(io.triage.explain.WhyNot.json(a));
        return out;
    }

    /** Verdict before → after, and the rules that fired newly or no longer. */
    ObjectNode changes(JsonNode before, JsonNode after) {
        ObjectNode c = outward.mapper().createObjectNode();
        for (String f : List.of("cause", "subtype", "confidence")) {
            String b = before.path(f).asText();
            String a = after.path(f).asText();
            ObjectNode x = c.putObject(f);
            x.put("before", b);
            x.put("after", a);
            x.put("changed", !a.equals(b));
        }
        Set<String> fb = names(before.path("engine").path("rulesFiredNames"));
        Set<String> fa = names(after.path("engine").path("rulesFiredNames"));
        ArrayNode newly = c.putArray("rulesNewlyFired");
        fa.stream().filter(n -> !fb.contains(n)).forEach(newly::add);
        ArrayNode gone = c.putArray("rulesNoLongerFired");
        fb.stream().filter(n -> !fa.contains(n)).forEach(gone::add);
        return c;
    }

    private static Set<String> names(JsonNode arr) {
        Set<String> s = new TreeSet<>();
        arr.forEach(n -> s.add(n.asText()));
        return s;
    }

    /**
     * Stops accepting, lets running diagnoses finish within {@code bound}, then interrupts the rest and
     * records them as interrupted.
     */
    public void shutdown(Duration bound) {
        accepting = false;
        pool.shutdown();
        try {
            if (!pool.awaitTermination(bound.toMillis(), TimeUnit.MILLISECONDS)) {
                pool.shutdownNow();
                pool.awaitTermination(2, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            pool.shutdownNow();
        }
        for (Live l : live.values()) {
            DiagnosisRecord r = l.record();
            if (!r.status().finished()) {
                DiagnosisRecord i = r.failed(new Failure("interrupted", "the server stopped before this diagnosis finished",
                        "ask for it again"), Status.interrupted, now());
                try {
                    store.save(i);
                } catch (IOException e) {
                    LOG.warn("diagnosis {} could not be marked interrupted: {}", r.id(), e.getMessage());
                }
                l.update(i);
                l.emit(verdictEvent(i));
            }
        }
    }

    public boolean accepting() {
        return accepting;
    }

    @Override
    public void close() {
        shutdown(Duration.ofSeconds(10));
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // nothing was stored worth keeping
        }
    }
}
