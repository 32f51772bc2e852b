package io.triage.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.triage.chat.AlertmanagerPayload;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HttpResponseException;
import io.javalin.http.UploadedFile;
import io.javalin.http.sse.SseClient;
import io.triage.server.DiagnosisRecord.Kind;
import io.triage.server.DiagnosisRecord.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The HTTP API ({@code /api/v1/…}), {@code /metrics}, {@code /healthz} and the sign-in page, on Javalin.
 * Every route is declared once in {@link #routes()}: that table is what Javalin serves and what the test of
 * the OpenAPI document checks. Handlers parse and answer; the work is {@link Diagnoses}'.
 */
public final class ApiServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);
    private static final Pattern INTENT_KEY = Pattern.compile("^[A-Za-z_][A-Za-z0-9_.-]{0,63}$");
    private static final Pattern IDEMPOTENCY_KEY = Pattern.compile("^[\\x21-\\x7e]{1,200}$");
    private static final String CSRF_HEADER = "X-CSRF-Token";
    /**
     * Every page response: scripts and styles only from this server's own files (no inline script, no eval),
     * connections only back to it, no framing, no plugins, no base or form target elsewhere.
     */
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
    /** The page's files, by URL path: nothing else is served from the page directory. */
    private static final Map<String, String> PAGE_FILES = Map.of(
            "/app.js", "text/javascript; charset=utf-8",
            "/app.css", "text/css; charset=utf-8");
    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

    /** One route: method (GET, POST, or SSE for an event stream), path as Javalin and OpenAPI write it. */
    public record Route(String method, String path, boolean needsToken) { }

    private final ServeSettings settings;
    private final Diagnoses diagnoses;
    private final HostPolicy policy;
    private final Tokens tokens;
    private final Sessions sessions;
    private final Metrics metrics;
    private final Outward outward;
    private final Path web;
    private final RuleReloader rules;
    private final ObjectMapper json = new ObjectMapper();
    private final List<Route> routes = new ArrayList<>();
    private Javalin app;

    public ApiServer(ServeSettings settings, Diagnoses diagnoses, HostPolicy policy, Tokens tokens,
                     String oneTimeToken, Metrics metrics, Outward outward, Path web, RuleReloader rules) {
        this.rules = rules;
        this.web = web;
        this.settings = settings;
        this.diagnoses = diagnoses;
        this.policy = policy;
        this.tokens = tokens;
        this.sessions = new Sessions(oneTimeToken);
        this.metrics = metrics;
        this.outward = outward;
    }

    /** Listens; returns the bound port. */
    public int start() {
        app = Javalin.create(cfg -> {
            cfg.startup.showJavalinBanner = false;
            cfg.startup.showOldJavalinVersionWarning = false;
            cfg.http.maxRequestSize = settings.maxBodyBytes();
            cfg.jetty.multipartConfig.maxTotalRequestSize(settings.maxBodyBytes(), io.javalin.config.SizeUnit.BYTES);
            cfg.jetty.multipartConfig.maxFileSize(settings.maxBodyBytes(), io.javalin.config.SizeUnit.BYTES);
            cfg.routes.before(this::authenticate);
            cfg.routes.exception(ApiError.class, (e, ctx) -> error(ctx, e.status(), e.error(), e.reason()));
            cfg.routes.exception(HttpResponseException.class, (e, ctx) -> error(ctx, e.getStatus(),
                    e.getStatus() == 413 ? "body-too-large" : e.getStatus() == 404 ? "not-found" : "http-" + e.getStatus(),
                    e.getStatus() == 413 ? "the request body is larger than " + settings.maxBodyBytes() + " bytes"
                            : oneLine(e.getMessage())));
            cfg.routes.exception(Exception.class, (e, ctx) -> {
                LOG.warn("{} {} failed: {}", ctx.method(), ctx.path(), e.toString());
                error(ctx, 500, "internal-error", "the server could not answer this request; its log has the details");
            });
            cfg.routes.error(404, ctx -> {
                if (ctx.result() == null || ctx.result().isEmpty()) {
                    error(ctx, 404, "not-found", "no such route: " + ctx.method() + " " + HostPolicy.printable(ctx.path()));
                }
            });
            route(cfg, "GET", "/healthz", false, this::healthz);
            route(cfg, "GET", "/", false, this::page);
            for (String f : new java.util.TreeSet<>(PAGE_FILES.keySet())) {
                route(cfg, "GET", f, false, this::pageFile);
            }
            route(cfg, "GET", "/metrics", true, ctx -> ctx.contentType("text/plain; version=0.0.4").result(metrics.render()));
            route(cfg, "GET", "/api/v1/openapi.json", true, ctx -> resource(ctx, "api/openapi.json"));
            route(cfg, "GET", "/api/v1/diagnosis.schema.json", true, ctx -> resource(ctx, "api/diagnosis.schema.json"));
            route(cfg, "GET", "/api/v1/session", true, this::session);
            route(cfg, "GET", "/api/v1/hosts", true, this::hosts);
            route(cfg, "GET", "/api/v1/rules", true, ctx -> send(ctx, 200, rules.status()));
            route(cfg, "POST", "/api/v1/diagnoses", true, this::create);
            route(cfg, "GET", "/api/v1/diagnoses", true, this::list);
            route(cfg, "GET", "/api/v1/diagnoses/{id}", true, this::get);
            routes.add(new Route("SSE", "/api/v1/diagnoses/{id}/events", true));
            cfg.routes.sse("/api/v1/diagnoses/{id}/events", this::events);
            route(cfg, "POST", "/api/v1/diagnoses/{id}/intent", true, this::intent);
            route(cfg, "GET", "/api/v1/diagnoses/{id}/why-not", true, this::whyNot);
            route(cfg, "POST", "/api/v1/alertmanager", true, this::alertmanager);
        });
        app.start(settings.bind(), settings.port());
        return app.port();
    }

    private void route(io.javalin.config.JavalinConfig cfg, String method, String path, boolean needsToken, Handler h) {
        routes.add(new Route(method, path, needsToken));
        if (method.equals("GET")) {
            cfg.routes.get(path, h);
        } else {
            cfg.routes.post(path, h);
        }
    }

    /** Every route served (after {@link #start()}). */
    public List<Route> routes() {
        return List.copyOf(routes);
    }

    public int port() {
        return app.port();
    }

    /** The page of one diagnosis, as a teammate holding a token opens it from a chat message. */
    private String pageLink(Context ctx, String id) {
        String base = settings.publicUrl() != null ? settings.publicUrl().replaceAll("/+$", "")
                : "http://" + (settings.bind().contains(":") ? "[" + settings.bind() + "]" : settings.bind()) + ":" + app.port();
        return base + "/#/d/" + id;
    }

    /** The origin cookie sessions must come from. */
    String origin(Context ctx) {
        if (settings.publicUrl() != null) {
            URI u = URI.create(settings.publicUrl());
            return u.getScheme() + "://" + u.getRawAuthority();
        }
        return "http://" + ctx.host();
    }

    // ---- access

    private void authenticate(Context ctx) {
        String path = ctx.path();
        if (path.equals("/healthz") || path.equals("/") || PAGE_FILES.containsKey(path)) {
            return;
        }
        String auth = ctx.header("Authorization");
        if (auth != null) {
            if (!auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
                throw new ApiError(401, "unauthorized", "use Authorization: Bearer <token>");
            }
            String name = tokens.check(auth.substring(7).strip())
                    .orElseThrow(() -> new ApiError(401, "unauthorized", "the token is not valid"));
            ctx.attribute("by", name);
            return;
        }
        Optional<Sessions.Session> s = sessions.find(ctx.cookie(Sessions.COOKIE));
        if (s.isEmpty()) {
            ctx.header("WWW-Authenticate", "Bearer");
            throw new ApiError(401, "unauthorized", "an API token is needed: Authorization: Bearer <token>");
        }
        if (!SAFE_METHODS.contains(ctx.method().name())) {
            String origin = ctx.header("Origin");
            if (origin == null || !origin.equals(origin(ctx))) {
                throw ApiError.forbidden("cross-site-request", "a request from a browser session must come from this server's own page");
            }
            if (!Tokens.sameSecret(ctx.header(CSRF_HEADER), s.get().csrf())) {
                throw ApiError.forbidden("cross-site-request", "the " + CSRF_HEADER + " header is missing or wrong");
            }
        }
        ctx.attribute("by", s.get().name());
        ctx.attribute("csrf", s.get().csrf());
    }

    private static String by(Context ctx) {
        String b = ctx.attribute("by");
        return b == null ? "unknown" : b;
    }

    // ---- routes

    private void healthz(Context ctx) {
        send(ctx, diagnoses.accepting() ? 200 : 503, Map.of("status", diagnoses.accepting() ? "ok" : "stopping"));
    }

    /** The sign-in link's target: exchanges the one-time token for a session cookie, then shows the page. */
    private void page(Context ctx) {
        String token = ctx.queryParam("token");
        if (token != null) {
            Optional<String> sid = sessions.exchange(token);
            if (sid.isEmpty()) {
                throw ApiError.forbidden("bad-sign-in-link", "this sign-in link is wrong or was used already; restart the server for a new one");
            }
            boolean secure = settings.publicUrl() != null && settings.publicUrl().startsWith("https:");
            ctx.header("Set-Cookie", Sessions.COOKIE + "=" + sid.get() + "; Path=/; HttpOnly; SameSite=Lax"
                    + (secure ? "; Secure" : "") + "; Max-Age=" + Sessions.TTL.toSeconds());
            ctx.header("Cache-Control", "no-store");
            ctx.redirect("/", io.javalin.http.HttpStatus.SEE_OTHER);
            return;
        }
        // the page is one more client of the API: without a session its calls are refused and it says how
        // to sign in; it holds nothing secret itself
        pageHeaders(ctx);
        ctx.status(200).contentType("text/html; charset=utf-8").result(pageBytes("index.html"));
    }

    private void pageFile(Context ctx) {
        pageHeaders(ctx);
        ctx.status(200).contentType(PAGE_FILES.get(ctx.path())).result(pageBytes(ctx.path().substring(1)));
    }

    private static void pageHeaders(Context ctx) {
        ctx.header("Content-Security-Policy", CSP);
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("Referrer-Policy", "no-referrer");
        ctx.header("X-Frame-Options", "DENY");
        ctx.header("Cache-Control", "no-store");
    }

    private byte[] pageBytes(String name) {
        Path f = web.resolve(name);
        try {
            if (!Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                throw ApiError.notFound("the page's " + name + " is not installed (the web/ directory of the installation)");
            }
            return Files.readAllBytes(f);
        } catch (IOException e) {
            throw ApiError.notFound("the page's " + name + " could not be read");
        }
    }

    private void session(Context ctx) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("by", by(ctx));
        m.put("csrfHeader", CSRF_HEADER);
        m.put("csrf", ctx.attribute("csrf"));
        send(ctx, 200, m);
    }

    private void hosts(Context ctx) {
        List<Map<String, Object>> list = new ArrayList<>();
        for (HostPolicy.Known k : policy.hosts()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", k.name());
            m.put("address", k.target().toString());
            m.put("source", k.source());
            list.add(m);
        }
        send(ctx, 200, Map.of("hosts", list, "allowPatterns", policy.allowPatterns()));
    }

    private void create(Context ctx) {
        String key = ctx.header("Idempotency-Key");
        if (key != null && !IDEMPOTENCY_KEY.matcher(key).matches()) {
            throw ApiError.badRequest("bad-idempotency-key", "an Idempotency-Key is 1 to 200 printable ASCII characters");
        }
        Diagnoses.Request req;
        Map<String, String> intent = Map.of();
        String callback = null;
        if (ctx.isMultipart()) {
            checkLength(ctx);
            req = upload(ctx);
            String form = ctx.formParam("intent");
            if (form != null) {
                intent = intent(parse(form.getBytes(StandardCharsets.UTF_8)));
            }
        } else {
            JsonNode body = parse(body(ctx));
            if (!body.isObject()) {
                throw ApiError.badRequest("bad-request", "the body is a JSON object with one of host, hosts, capture or text");
            }
            req = request((ObjectNode) body);
            intent = intent(body.get("intent"));
            JsonNode cb = body.get("callback");
            if (cb != null && !cb.isNull()) {
                if (!cb.isTextual()) {
                    throw ApiError.badRequest("bad-callback", "callback is a URL string");
                }
                callback = cb.asText();
            }
        }
        Diagnoses.Created c = diagnoses.create(req, intent, callback, key, by(ctx));
        String location = "/api/v1/diagnoses/" + c.record().id();
        ctx.header("Location", location);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", c.record().id());
        m.put("status", diagnoses.get(c.record().id()).orElse(c.record()).status().name());
        m.put("location", location);
        m.put("events", location + "/events");
        if (c.existed()) {
            m.put("idempotentReplay", true);
        }
        send(ctx, c.existed() ? 200 : 201, m);
    }

    private Diagnoses.Request request(ObjectNode body) {
        List<String> given = new ArrayList<>();
        for (String f : List.of("host", "hosts", "capture", "text")) {
            if (body.has(f) && !body.get(f).isNull()) {
                given.add(f);
            }
        }
        Iterator<String> names = body.fieldNames();
        while (names.hasNext()) {
            String n = names.next();
            if (!Set.of("host", "hosts", "capture", "text", "intent", "callback").contains(n)) {
                throw ApiError.badRequest("bad-request", "unknown field '" + HostPolicy.printable(n) + "'");
            }
        }
        if (given.size() != 1) {
            throw ApiError.badRequest("bad-request", "give exactly one of host, hosts, capture or text");
        }
        JsonNode v = body.get(given.get(0));
        switch (given.get(0)) {
            case "host":
                if (!v.isTextual()) {
                    throw ApiError.badRequest("bad-host", "host is a string");
                }
                return new Diagnoses.HostRequest(v.asText());
            case "hosts":
                if (!v.isArray()) {
                    throw ApiError.badRequest("bad-hosts", "hosts is an array of strings");
                }
                List<String> hosts = new ArrayList<>();
                for (JsonNode h : v) {
                    if (!h.isTextual()) {
                        throw ApiError.badRequest("bad-hosts", "hosts is an array of strings");
                    }
                    hosts.add(h.asText());
                }
                return new Diagnoses.SweepRequest(hosts);
            case "capture":
                if (!v.isObject()) {
                    throw new ApiError(422, "malformed-capture", "capture is an object of probe name → output text");
                }
                Map<String, byte[]> files = new LinkedHashMap<>();
                Iterator<Map.Entry<String, JsonNode>> it = v.fields();
                while (it.hasNext()) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (!e.getValue().isTextual()) {
                        throw new ApiError(422, "malformed-capture", "the output of '" + HostPolicy.printable(e.getKey()) + "' is not a string");
                    }
                    if (files.put(Diagnoses.fileName(e.getKey()), e.getValue().asText().getBytes(StandardCharsets.UTF_8)) != null) {
                        throw new ApiError(422, "malformed-capture", "'" + HostPolicy.printable(e.getKey()) + "' is given twice");
                    }
                }
                return new Diagnoses.CaptureRequest(Kind.capture, files);
            default:
                if (!v.isTextual() || v.asText().isBlank()) {
                    throw ApiError.badRequest("bad-text", "text is the pasted output, a non-empty string");
                }
                return new Diagnoses.CaptureRequest(Kind.text, diagnoses.pastes().files(v.asText()));
        }
    }

    private Diagnoses.Request upload(Context ctx) {
        Map<String, byte[]> files = new LinkedHashMap<>();
        long total = 0;
        for (UploadedFile f : ctx.uploadedFiles()) {
            String name = Diagnoses.fileName(f.filename());
            try (InputStream in = f.content()) {
                byte[] b = readCapped(in, settings.maxBodyBytes() - total);
                total += b.length;
                if (files.put(name, b) != null) {
                    throw new ApiError(422, "malformed-capture", "'" + name + "' is uploaded twice");
                }
            } catch (IOException e) {
                throw ApiError.badRequest("bad-upload", "an uploaded file could not be read");
            }
        }
        if (files.isEmpty()) {
            throw new ApiError(422, "malformed-capture", "the upload holds no file (name each part after its probe: health.out, gpus.out…)");
        }
        return new Diagnoses.CaptureRequest(Kind.upload, files);
    }

    private Map<String, String> intent(JsonNode n) {
        if (n == null || n.isNull()) {
            return Map.of();
        }
        if (!n.isObject() || n.size() > 50) {
            throw ApiError.badRequest("bad-intent", "intent is an object of at most 50 key → string value");
        }
        Map<String, String> m = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = n.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!INTENT_KEY.matcher(e.getKey()).matches()) {
                throw ApiError.badRequest("bad-intent", "intent key '" + HostPolicy.printable(e.getKey()) + "' is not a name");
            }
            JsonNode v = e.getValue();
            if (!(v.isTextual() || v.isNumber() || v.isBoolean()) || v.asText().length() > 1000 || v.asText().contains("\n")) {
                throw ApiError.badRequest("bad-intent", "intent value of '" + e.getKey() + "' must be one line of at most 1000 characters");
            }
            m.put(e.getKey(), v.asText());
        }
        return m;
    }

    private void list(Context ctx) {
        String host = ctx.queryParam("host");
        int limit = 100;
        String l = ctx.queryParam("limit");
        if (l != null) {
            try {
                limit = Math.max(1, Math.min(1000, Integer.parseInt(l)));
            } catch (NumberFormatException e) {
                throw ApiError.badRequest("bad-limit", "limit is a number");
            }
        }
        send(ctx, 200, Map.of("diagnoses", diagnoses.list(host, limit)));
    }

    private DiagnosisRecord record(Context ctx) {
        String id = ctx.pathParam("id");
        if (!FileDiagnosisStore.ID.matcher(id).matches()) {
            throw ApiError.notFound("no diagnosis '" + HostPolicy.printable(id) + "'");
        }
        return diagnoses.get(id).orElseThrow(() -> ApiError.notFound("no diagnosis " + id));
    }

    private void get(Context ctx) {
        Outward.Format format;
        String f = ctx.queryParam("format");
        try {
            format = f == null ? Outward.Format.json : Outward.Format.valueOf(f.toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest("bad-format", "format is json, markdown or slack");
        }
        DiagnosisRecord r = record(ctx);
        ctx.header("X-Triage-Status", r.status().name());
        if (r.status() == Status.done && r.kind() != Kind.sweep && r.diagnosis() != null) {
            String link = pageLink(ctx, r.id());
            if (format == Outward.Format.markdown) {
                ctx.status(200).contentType("text/markdown; charset=utf-8").result(outward.render(r.diagnosis(), format, link));
            } else {
                ctx.status(200).contentType("application/json").result(outward.render(r.diagnosis(), format, link));
            }
            return;
        }
        if (format != Outward.Format.json) {
            throw new ApiError(409, "not-done", "a " + format + " rendering exists for a finished diagnosis of one host or capture"
                    + " (this one is " + r.kind() + ", " + r.status() + "); ask for json");
        }
        Map<String, Object> m = diagnoses.summary(r, true);
        if (r.status() == Status.running || r.status() == Status.queued) {
            m.put("probes", diagnoses.probesSoFar(r.id()));
        }
        if (r.kind() == Kind.sweep) {
            m.put("results", r.results());
        }
        send(ctx, 200, m);
    }

    private void events(SseClient client) {
        Context ctx = client.ctx();
        DiagnosisRecord r;
        try {
            r = record(ctx);
        } catch (ApiError e) {
            client.sendEvent("error", outward.json(Map.of("error", e.error(), "reason", e.reason())));
            client.close();
            return;
        }
        Optional<Diagnoses.Listening> l = diagnoses.listen(r.id());
        if (l.isEmpty()) {
            Diagnoses.Event v = diagnoses.verdictEvent(diagnoses.get(r.id()).orElse(r));
            client.sendEvent(v.type(), v.data());
            client.close();
            return;
        }
        try (Diagnoses.Listening listening = l.get()) {
            while (!client.terminated()) {
                Diagnoses.Event e = listening.events().poll(15, TimeUnit.SECONDS);
                if (e == null) {
                    client.sendComment("still running");
                    continue;
                }
                client.sendEvent(e.type(), e.data());
                if (e.last()) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        client.close();
    }

    private void intent(Context ctx) {
        DiagnosisRecord r = record(ctx);
        JsonNode body = parse(body(ctx));
        if (!body.isObject() || !body.has("intent")) {
            throw ApiError.badRequest("bad-intent", "the body is {\"intent\": {\"key\": \"value\"}}");
        }
        Map<String, String> more = intent(body.get("intent"));
        if (more.isEmpty()) {
            throw ApiError.badRequest("bad-intent", "say at least one thing you launched");
        }
        send(ctx, 200, diagnoses.reevaluate(r.id(), more, by(ctx)));
    }

    /** WHY NOT a cause: the rules that would conclude it and which of their conditions this diagnosis' facts meet. */
    private void whyNot(Context ctx) {
        DiagnosisRecord r = record(ctx);
        send(ctx, 200, diagnoses.whyNot(r.id(), ctx.queryParam("cause")));
    }

    /** Prometheus Alertmanager's webhook: each firing alert's host is diagnosed; the result goes to the webhook target. */
    private void alertmanager(Context ctx) {
        AlertmanagerPayload payload;
        try {
            payload = AlertmanagerPayload.parse(parse(body(ctx)));
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest("bad-alert", oneLine(e.getMessage()));
        }
        List<Map<String, Object>> accepted = new ArrayList<>();
        List<Map<String, Object>> skipped = new ArrayList<>();
        for (String why : payload.skipped(settings.alertLabel())) {
            skipped.add(Map.of("reason", why));
        }
        for (String host : payload.hosts(settings.alertLabel())) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("host", host);
            try {
                Diagnoses.Created c = diagnoses.create(new Diagnoses.HostRequest(host), Map.of(),
                        settings.webhookTarget(), null, by(ctx));
                m.put("id", c.record().id());
                m.put("location", "/api/v1/diagnoses/" + c.record().id());
                accepted.add(m);
            } catch (ApiError e) {
                m.put("reason", e.reason());
                skipped.add(m);
            }
        }
        send(ctx, 202, Map.of("accepted", accepted, "skipped", skipped));
    }

    // ---- plumbing

    private void resource(Context ctx, String name) throws IOException {
        try (InputStream in = ApiServer.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw ApiError.notFound(name + " is not part of this build");
            }
            ctx.contentType("application/json").result(in.readAllBytes());
        }
    }

    private void checkLength(Context ctx) {
        long len = ctx.req().getContentLengthLong();
        if (len > settings.maxBodyBytes()) {
            throw new ApiError(413, "body-too-large", "the request body is larger than " + settings.maxBodyBytes() + " bytes");
        }
    }

    /** The body, at most the configured size (413 beyond), whether or not a length was announced. */
    private byte[] body(Context ctx) {
        checkLength(ctx);
        try {
            return readCapped(ctx.req().getInputStream(), settings.maxBodyBytes());
        } catch (IOException e) {
            throw ApiError.badRequest("bad-body", "the request body could not be read");
        }
    }

    private static byte[] readCapped(InputStream in, long cap) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        byte[] buf = new byte[65536];
        int n;
        while ((n = in.read(buf)) >= 0) {
            if (b.size() + (long) n > cap) {
                throw new ApiError(413, "body-too-large", "the request body is larger than " + cap + " bytes");
            }
            b.write(buf, 0, n);
        }
        return b.toByteArray();
    }

    private JsonNode parse(byte[] body) {
        if (body.length == 0) {
            throw ApiError.badRequest("malformed-json", "the body is empty; send a JSON object");
        }
        try {
            JsonNode n = json.readTree(body);
            if (n == null || n.isMissingNode()) {
                throw ApiError.badRequest("malformed-json", "the body is not JSON");
            }
            return n;
        } catch (JsonProcessingException e) {
            throw ApiError.badRequest("malformed-json", "the body is not valid JSON: " + oneLine(e.getOriginalMessage()));
        } catch (IOException e) {
            throw ApiError.badRequest("malformed-json", "the body is not valid JSON");
        }
    }

    private void send(Context ctx, int status, Object body) {
        ctx.status(status).contentType("application/json").result(outward.json(body));
    }

    private void error(Context ctx, int status, String error, String reason) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("error", error);
        m.put("reason", reason);
        send(ctx, status, m);
    }

    private static String oneLine(String s) {
        if (s == null) {
            return "";
        }
        String t = s.replaceAll("\\s+", " ").strip();
        return t.length() > 200 ? t.substring(0, 200) + "…" : t;
    }

    /** Stops listening (open event streams are closed). */
    @Override
    public void close() {
        if (app != null) {
            app.stop();
        }
    }
}
