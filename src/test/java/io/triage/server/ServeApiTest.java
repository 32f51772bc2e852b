package io.triage.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.triage.TestHome;
import io.triage.lab.LabServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The API over real HTTP on a random loopback port, against the embedded lab over real SSH. */
class ServeApiTest {
    private static final String TOKEN = "test-token-" + UUID.randomUUID();

    @TempDir
    static Path data;

    static TriageServer server;
    static Http api;
    static LabServer impostor;
    static HttpServer receiver;
    static String receiverBase;
    static final BlockingQueue<String> hooks = new LinkedBlockingQueue<>();
    static final BlockingQueue<String> alerts = new LinkedBlockingQueue<>();

    @BeforeAll
    static void start() throws IOException {
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/hook", ex -> {
            hooks.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        receiver.createContext("/alerts", ex -> {
            alerts.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        receiver.start();
        receiverBase = "http://127.0.0.1:" + receiver.getAddress().getPort();
        // a host that answers with a key other than the one pinned for its address
        impostor = LabServer.start(LabServer.Config.forHome(TestHome.HOME).withPort(0));
        Path inventory = Files.writeString(data.resolve("inventory.txt"),
                "# test inventory\nimpostor gpu-killed@127.0.0.1:" + impostor.port() + "\n");
        server = TriageServer.start(new TriageServer.Setup(TestHome.triage(), data.resolve("data"), Tokens.of("tester", TOKEN),
                true, Duration.ofMillis(1000), inventory, List.of("nobody@127.0.0.1:*"), List.of(), Duration.ofSeconds(30),
                ServeSettings.defaults().withBind("127.0.0.1", 0)
                        .withCallbacks(List.of(receiverBase + "/hook"), receiverBase + "/alerts", "instance")));
        String labLine = server.lab().knownHostsLine();
        Files.writeString(data.resolve("data/ssh/known_hosts"), "[127.0.0.1]:" + impostor.port() + " "
                + labLine.substring(labLine.indexOf(' ') + 1) + "\n", java.nio.file.StandardOpenOption.APPEND);
        api = new Http(server.port(), TOKEN);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.stop();
        }
        if (impostor != null) {
            impostor.close();
        }
        if (receiver != null) {
            receiver.stop(0);
        }
    }

    private static String create(String body, String... headers) throws Exception {
        HttpResponse<String> r = api.post("/api/v1/diagnoses", body, headers);
        assertEquals(201, r.statusCode(), r.body());
        String id = Http.json(r).path("id").asText();
        assertEquals("/api/v1/diagnoses/" + id, r.headers().firstValue("Location").orElse(""));
        return id;
    }

    private static void assertError(HttpResponse<String> r, int status, String error) throws IOException {
        assertEquals(status, r.statusCode(), r.body());
        JsonNode j = Http.json(r);
        assertEquals(error, j.path("error").asText(), r.body());
        assertFalse(j.path("reason").asText().isBlank(), "an error says why in one line");
        assertFalse(j.path("reason").asText().contains("\n"));
    }

    // ---- access

    @Test
    void healthIsAnsweredWithoutAToken() throws Exception {
        HttpResponse<String> r = new Http(server.port(), null).get("/healthz");
        assertEquals(200, r.statusCode());
        assertEquals("ok", Http.json(r).path("status").asText());
    }

    @Test
    void everyApiCallWithoutATokenIsRefused() throws Exception {
        Http anonymous = new Http(server.port(), null);
        for (String path : List.of("/api/v1/hosts", "/api/v1/diagnoses", "/api/v1/openapi.json", "/metrics",
                "/api/v1/diagnoses/dnothere")) {
            assertError(anonymous.get(path), 401, "unauthorized");
        }
        assertError(anonymous.post("/api/v1/diagnoses", "{\"host\":\"gpu-killed\"}"), 401, "unauthorized");
    }

    @Test
    void aWrongTokenIsRefused() throws Exception {
        assertError(new Http(server.port(), TOKEN + "x").get("/api/v1/hosts"), 401, "unauthorized");
        assertError(new Http(server.port(), "short").post("/api/v1/diagnoses", "{\"host\":\"gpu-killed\"}"), 401, "unauthorized");
        HttpResponse<String> basic = api.send(HttpRequest.newBuilder(URI.create(api.base() + "/api/v1/hosts"))
                .header("Authorization", "Basic " + TOKEN).GET().build());
        assertError(basic, 401, "unauthorized");
    }

    @Test
    void aBrowserSessionFromTheOneTimeLinkMayOnlyChangeStateFromItsOwnOriginWithItsCsrfToken() throws Exception {
        Http anonymous = new Http(server.port(), null);
        String link = server.signInUrl();
        HttpResponse<String> signIn = anonymous.get(link.substring(link.indexOf("/?")));
        assertEquals(303, signIn.statusCode(), signIn.body());
        String setCookie = signIn.headers().firstValue("Set-Cookie").orElseThrow();
        assertTrue(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax"), setCookie);
        String cookie = setCookie.substring(0, setCookie.indexOf(';'));
        assertError(anonymous.get(link.substring(link.indexOf("/?"))), 403, "bad-sign-in-link"); // once only

        JsonNode session = Http.json(anonymous.get("/api/v1/session", "Cookie", cookie));
        String csrf = session.path("csrf").asText();
        assertFalse(csrf.isEmpty());
        String body = "{\"host\":\"gpu-healthy\"}";
        assertError(anonymous.post("/api/v1/diagnoses", body, "Cookie", cookie, "Origin", "https://evil.example",
                "X-CSRF-Token", csrf), 403, "cross-site-request");
        assertError(anonymous.post("/api/v1/diagnoses", body, "Cookie", cookie, "X-CSRF-Token", csrf), 403, "cross-site-request");
        assertError(anonymous.post("/api/v1/diagnoses", body, "Cookie", cookie, "Origin", api.base()), 403, "cross-site-request");
        assertError(anonymous.post("/api/v1/diagnoses", body, "Cookie", cookie, "Origin", api.base(),
                "X-CSRF-Token", csrf + "0"), 403, "cross-site-request");
        HttpResponse<String> ok = anonymous.post("/api/v1/diagnoses", body, "Cookie", cookie, "Origin", api.base(),
                "X-CSRF-Token", csrf);
        assertEquals(201, ok.statusCode(), ok.body());
        assertError(anonymous.get("/api/v1/hosts", "Cookie", "triage_session=" + "0".repeat(64)), 401, "unauthorized");
        assertTrue(ok.headers().firstValue("Access-Control-Allow-Origin").isEmpty(), "no CORS unless configured");
    }

    // ---- the OpenAPI document

    @Test
    void everyRouteIsInTheOpenApiDocument() throws Exception {
        HttpResponse<String> r = api.get("/api/v1/openapi.json");
        assertEquals(200, r.statusCode());
        JsonNode doc = Http.json(r);
        assertEquals("3.1.0", doc.path("openapi").asText());
        assertTrue(server.routes().size() >= 12);
        for (ApiServer.Route route : server.routes()) {
            String method = route.method().equals("SSE") ? "get" : route.method().toLowerCase();
            JsonNode op = doc.path("paths").path(route.path()).path(method);
            assertFalse(op.isMissingNode(), route + " is not in the OpenAPI document");
            assertTrue(op.path("responses").size() > 0, route + " documents no response");
        }
        Set<String> served = new HashSet<>();
        server.routes().forEach(rt -> served.add(rt.path()));
        doc.path("paths").fieldNames().forEachRemaining(p -> assertTrue(served.contains(p), p + " is documented but not served"));
    }

    // ---- diagnoses of hosts

    @Test
    void aLabHostIsDiagnosedOverSshAndItsDocumentIsTheContract() throws Exception {
        String id = create("{\"host\":\"gpu-killed\"}");
        HttpResponse<String> r = api.awaitFinished(id);
        assertEquals("done", r.headers().firstValue("X-Triage-Status").orElse(""), r.body());
        JsonNode d = Http.json(r);
        assertEquals("triage.diagnosis/v1", d.path("schema").asText());
        assertEquals("external-kill", d.path("cause").asText());
        assertTrue(d.path("engine").path("rulesFiredNames").size() > 0);
        assertEquals(List.of(), new io.triage.chat.DiagnosisSchema().validate(d), "the API's document breaks the schema");
        JsonNode list = Http.json(api.get("/api/v1/diagnoses?host=gpu-killed"));
        boolean found = false;
        for (JsonNode s : list.path("diagnoses")) {
            found |= s.path("id").asText().equals(id) && s.path("cause").asText().equals("external-kill");
        }
        assertTrue(found, list.toString());
        String audit = Files.readString(data.resolve("data/audit.log"));
        assertTrue(audit.contains("\"by\":\"tester\"") && audit.contains("\"host\":\"gpu-killed\"") && audit.contains(id));
        assertFalse(audit.contains(TOKEN), "the audit log names tokens, never holds them");
    }

    @Test
    void probeEventsArriveOneAfterAnotherBeforeTheVerdict() throws Exception {
        String id = create("{\"host\":\"gpu-healthy\"}");
        List<Http.Sse> events = api.events("/api/v1/diagnoses/" + id + "/events");
        List<Http.Sse> probes = events.stream().filter(e -> "probe".equals(e.event())).toList();
        assertTrue(probes.size() >= 5, events.toString());
        Http.Sse last = events.get(events.size() - 1);
        assertEquals("verdict", last.event());
        assertEquals("healthy", last.data().path("cause").asText());
        assertTrue(probes.stream().allMatch(p -> p.arrivedNanos() <= last.arrivedNanos()));
        // the lab answers each probe after its recorded duration: the probes' arrivals are spread over the look,
        // not one burst with the verdict
        long spreadMs = (probes.get(probes.size() - 1).arrivedNanos() - probes.get(0).arrivedNanos()) / 1_000_000;
        long distinct = probes.stream().map(p -> p.arrivedNanos() / 20_000_000).distinct().count();
        assertTrue(spreadMs >= 100, "probe events arrived within " + spreadMs + " ms");
        assertTrue(distinct >= 3, "probe events arrived in " + distinct + " bursts");
        Set<String> names = new HashSet<>();
        probes.forEach(p -> names.add(p.data().path("probe").asText()));
        assertTrue(names.containsAll(List.of("health", "gpus", "pgrep")), names.toString());
    }

    @Test
    void theEventsOfAFinishedDiagnosisAreItsVerdict() throws Exception {
        String id = create("{\"host\":\"gpu-killed\"}");
        api.awaitFinished(id);
        List<Http.Sse> events = api.events("/api/v1/diagnoses/" + id + "/events");
        assertEquals(1, events.size());
        assertEquals("verdict", events.get(0).event());
        assertEquals("external-kill", events.get(0).data().path("cause").asText());
    }

    @Test
    void aSweepListsEachHostsResult() throws Exception {
        String id = create("{\"hosts\":[\"gpu-killed\",\"gpu-healthy\",\"gpu-never-launched\",\"gpu-killed\"]}");
        HttpResponse<String> r = api.awaitFinished(id);
        JsonNode s = Http.json(r);
        assertEquals("done", s.path("status").asText(), r.body());
        assertEquals("sweep", s.path("kind").asText());
        assertEquals(3, s.path("results").size(), "a host named twice is looked at once");
        Set<String> hosts = new HashSet<>();
        for (JsonNode h : s.path("results")) {
            hosts.add(h.path("host").asText());
            assertEquals("triage.diagnosis/v1", h.path("diagnosis").path("schema").asText());
        }
        assertEquals(Set.of("gpu-killed", "gpu-healthy", "gpu-never-launched"), hosts);
    }

    @Test
    void aHostThatIsNotAllowedIsRefused() throws Exception {
        assertError(api.post("/api/v1/diagnoses", "{\"host\":\"10.0.0.7\"}"), 403, "host-not-allowed");
        assertError(api.post("/api/v1/diagnoses", "{\"host\":\"root@127.0.0.1:22\"}"), 403, "host-not-allowed");
        assertError(api.post("/api/v1/diagnoses", "{\"hosts\":[\"gpu-killed\",\"db.internal\"]}"), 403, "host-not-allowed");
    }

    @Test
    void aClosedPortIsAnUnreachableLookNotADiagnosis() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        String id = create("{\"host\":\"nobody@127.0.0.1:" + closed + "\"}");
        JsonNode s = Http.json(api.awaitFinished(id));
        assertEquals("failed", s.path("status").asText(), s.toString());
        assertEquals("unreachable", s.path("failure").path("kind").asText(), s.toString());
        assertTrue(api.get("/metrics").body().contains("triage_look_failures_total{kind=\"unreachable\"}"));
    }

    @Test
    void aHostWhoseKeyChangedIsRefusedLoudly() throws Exception {
        String id = create("{\"host\":\"impostor\"}");
        JsonNode s = Http.json(api.awaitFinished(id));
        assertEquals("failed", s.path("status").asText(), s.toString());
        assertEquals("host-key-changed", s.path("failure").path("kind").asText(), s.toString());
    }

    // ---- captures and pastes

    @Test
    void aCaptureGivenAsJsonIsDiagnosedAsItsDirectoryWouldBe() throws Exception {
        Path dir = TestHome.fixture("04-external-kill-shell-killed-clean-dmesg");
        ObjectNode capture = Http.JSON.createObjectNode();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String n = f.getFileName().toString();
                if (n.endsWith(".out") || n.endsWith(".err") || n.equals("_probes.txt") || n.equals("target.txt")) {
                    capture.put(n.endsWith(".out") ? n.substring(0, n.length() - 4) : n, Files.readString(f));
                }
            }
        }
        ObjectNode body = Http.JSON.createObjectNode();
        body.set("capture", capture);
        String id = create(body.toString());
        JsonNode d = Http.json(api.awaitFinished(id));
        assertEquals(TestHome.triage().replay(dir, java.util.Map.of()).cause(), d.path("cause").asText());
    }

    @Test
    void aPasteIsReadByContentAndSaysWhatItRecognised() throws Exception {
        // what an on-call engineer copies from a terminal: nvidia-smi, ps and the log, under their prompts
        Path dir = TestHome.fixture("h200/02-external-kill");
        String paste = "$ nvidia-smi\n" + Files.readString(dir.resolve("nvidia_smi_full.out"))
                + "$ ps -eo pid,ppid,stat,etimes,rss,args\n" + Files.readString(dir.resolve("ps.out"))
                + "$ tail -n 20 /var/log/llm/server-a.log\n" + Files.readString(dir.resolve("log_tail.out"));
        ObjectNode body = Http.JSON.createObjectNode();
        body.put("text", paste);
        String id = create(body.toString());
        JsonNode d = Http.json(api.awaitFinished(id));
        assertEquals("triage.diagnosis/v1", d.path("schema").asText(), d.toString());
        assertEquals(List.of(), new io.triage.chat.DiagnosisSchema().validate(d));
        List<String> probes = new java.util.ArrayList<>();
        d.path("coverage").path("probes").forEach(p -> probes.add(p.path("name").asText()));
        assertTrue(probes.containsAll(List.of("nvidia_smi_full", "ps", "log_tail")), probes.toString());
        String notes = d.path("coverage").path("notes").toString();
        assertTrue(notes.contains("recognised: ") && notes.contains("nvidia-smi"), notes);
        assertEquals("external-kill", d.path("cause").asText(), d.path("summary").asText());
    }

    @Test
    void captureFilesCanBeUploaded() throws Exception {
        Path dir = TestHome.fixture("04-external-kill-shell-killed-clean-dmesg");
        String boundary = "triage" + UUID.randomUUID();
        StringBuilder b = new StringBuilder();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String n = f.getFileName().toString();
                if (n.endsWith(".out") || n.equals("_probes.txt") || n.equals("target.txt")) {
                    b.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"files\"; filename=\"")
                            .append(n).append("\"\r\nContent-Type: text/plain\r\n\r\n").append(Files.readString(f)).append("\r\n");
                }
            }
        }
        b.append("--").append(boundary).append("--\r\n");
        HttpResponse<String> r = api.send(api.request("/api/v1/diagnoses", "Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofString(b.toString())).build());
        assertEquals(201, r.statusCode(), r.body());
        JsonNode d = Http.json(api.awaitFinished(Http.json(r).path("id").asText()));
        assertEquals(TestHome.triage().replay(dir, java.util.Map.of()).cause(), d.path("cause").asText());
    }

    @Test
    void aMalformedCaptureIsRefusedWithTheReadersReason() throws Exception {
        assertError(api.post("/api/v1/diagnoses", "{\"capture\":{}}"), 422, "malformed-capture");
        assertError(api.post("/api/v1/diagnoses", "{\"capture\":{\"../../etc/passwd\":\"x\"}}"), 422, "malformed-capture");
        assertError(api.post("/api/v1/diagnoses", "{\"capture\":{\"health.sh\":\"x\"}}"), 422, "malformed-capture");
        assertError(api.post("/api/v1/diagnoses", "{\"capture\":{\"health\":5}}"), 422, "malformed-capture");
        assertError(api.post("/api/v1/diagnoses", "{\"capture\":\"health\"}"), 422, "malformed-capture");
        assertError(api.post("/api/v1/diagnoses", "{\"capture\":{\"health\":\"x\",\"health.out\":\"y\"}}"), 422, "malformed-capture");
    }

    // ---- intent: the conversation

    @Test
    void anIntentGivenLaterReEvaluatesTheStoredCaptureAndSaysWhatChanged() throws Exception {
        Path dir = TestHome.fixture("seed-trtllm-backend-never-launched");
        ObjectNode capture = Http.JSON.createObjectNode();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String n = f.getFileName().toString();
                if (n.endsWith(".out") || n.endsWith(".err") || n.equals("_probes.txt") || n.equals("target.txt")) {
                    capture.put(n, Files.readString(f));
                }
            }
        }
        ObjectNode body = Http.JSON.createObjectNode();
        body.set("capture", capture);
        String id = create(body.toString());
        JsonNode before = Http.json(api.awaitFinished(id));
        assertEquals("external-kill", before.path("cause").asText());

        HttpResponse<String> r = api.post("/api/v1/diagnoses/" + id + "/intent",
                "{\"intent\":{\"moe_runner_backend\":\"flashinfer_trtllm\"}}");
        assertEquals(200, r.statusCode(), r.body());
        JsonNode c = Http.json(r);
        assertEquals("launch-never-happened", c.path("diagnosis").path("cause").asText());
        assertEquals("external-kill", c.path("changed").path("cause").path("before").asText());
        assertEquals("launch-never-happened", c.path("changed").path("cause").path("after").asText());
        assertTrue(c.path("changed").path("cause").path("changed").asBoolean());
        assertTrue(c.path("changed").path("rulesNewlyFired").size() > 0, c.path("changed").toString());
        assertTrue(c.path("changed").path("rulesNoLongerFired").size() > 0, c.path("changed").toString());
        // the new verdict is the diagnosis from now on, and the turn is kept
        assertEquals("launch-never-happened", Http.json(api.get("/api/v1/diagnoses/" + id)).path("cause").asText());
        String stored = Files.readString(data.resolve("data/diagnoses/" + id + ".json"));
        assertTrue(stored.contains("\"turns\":[{") && stored.contains("flashinfer_trtllm"), stored);

        assertError(api.post("/api/v1/diagnoses/" + id + "/intent", "{\"intent\":{}}"), 400, "bad-intent");
        assertError(api.post("/api/v1/diagnoses/" + id + "/intent", "{\"intent\":{\"a b\":\"x\"}}"), 400, "bad-intent");
        assertError(api.post("/api/v1/diagnoses/dnosuch/intent", "{\"intent\":{\"k\":\"v\"}}"), 404, "not-found");
    }

    @Test
    void whyNotSaysWhichConditionOfTheRulesForACauseTheStoredCaptureDidNotMeet() throws Exception {
        Path dir = TestHome.fixture("04-external-kill-shell-killed-clean-dmesg");
        ObjectNode capture = Http.JSON.createObjectNode();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String n = f.getFileName().toString();
                if (n.endsWith(".out") || n.endsWith(".err") || n.equals("_probes.txt") || n.equals("target.txt")) {
                    capture.put(n, Files.readString(f));
                }
            }
        }
        ObjectNode body = Http.JSON.createObjectNode();
        body.set("capture", capture);
        String id = create(body.toString());
        assertEquals("external-kill", Http.json(api.awaitFinished(id)).path("cause").asText());

        HttpResponse<String> r = api.get("/api/v1/diagnoses/" + id + "/why-not?cause=oom-killer");
        assertEquals(200, r.statusCode(), r.body());
        JsonNode w = Http.json(r);
        assertEquals("triage.whynot/v1", w.path("schema").asText());
        assertEquals(id, w.path("id").asText());
        assertEquals("external-kill", w.path("verdict").asText());
        assertEquals(0, w.path("concluded").size());
        JsonNode server = null;
        for (JsonNode rule : w.path("rules")) {
            if (rule.path("rule").asText().equals("OOM killer killed the server")) {
                server = rule;
            }
        }
        assertNotNull(server, r.body());
        assertEquals("unmet", server.path("conditions").path(0).path("met").asText());
        assertTrue(server.path("conditions").path(0).path("plain").asText().contains("kernel OOM killer"), r.body());

        assertError(api.get("/api/v1/diagnoses/" + id + "/why-not?cause=gremlins"), 400, "unknown-cause");
        assertError(api.get("/api/v1/diagnoses/" + id + "/why-not"), 400, "unknown-cause");
        assertError(api.get("/api/v1/diagnoses/dnosuch/why-not?cause=oom-killer"), 404, "not-found");
    }

    // ---- bad requests

    @Test
    void malformedJsonIsRefused() throws Exception {
        assertError(api.post("/api/v1/diagnoses", "{\"host\": "), 400, "malformed-json");
        assertError(api.post("/api/v1/diagnoses", ""), 400, "malformed-json");
        assertError(api.post("/api/v1/diagnoses", "[\"gpu-killed\"]"), 400, "bad-request");
        assertError(api.post("/api/v1/diagnoses", "{\"host\":\"gpu-killed\",\"text\":\"x\"}"), 400, "bad-request");
        assertError(api.post("/api/v1/diagnoses", "{\"hots\":\"gpu-killed\"}"), 400, "bad-request");
        assertError(api.post("/api/v1/diagnoses", "{\"host\":[1]}"), 400, "bad-host");
        assertError(api.post("/api/v1/diagnoses", "{\"host\":\"gpu-killed\",\"intent\":[1]}"), 400, "bad-intent");
        assertError(api.post("/api/v1/alertmanager", "{\"version\":\"4\"}"), 400, "bad-alert");
    }

    @Test
    void anOversizeBodyIsRefused() throws Exception {
        // 64 bytes over the 8 MiB cap: the server stops reading at the cap and answers 413
        String big = "{\"text\":\"" + "x".repeat((8 << 20) - 11 + 64) + "\"}";
        // an announced length over the cap is refused on the headers alone, before any of the body is read
        // (a raw request: a client still writing megabytes could not read an early answer reliably)
        try (java.net.Socket sock = new java.net.Socket("127.0.0.1", server.port())) {
            sock.setSoTimeout(30_000);
            sock.getOutputStream().write(("POST /api/v1/diagnoses HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Authorization: Bearer " + TOKEN + "\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + (9 << 20) + "\r\n\r\n{\"text\":\"").getBytes(StandardCharsets.US_ASCII));
            sock.getOutputStream().flush();
            String status = new java.io.BufferedReader(new java.io.InputStreamReader(sock.getInputStream(),
                    StandardCharsets.US_ASCII)).readLine();
            assertTrue(status != null && status.startsWith("HTTP/1.1 413"), String.valueOf(status));
        }
        // without an announced length too
        HttpResponse<String> chunked = api.send(api.request("/api/v1/diagnoses", "Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(
                        big.getBytes(StandardCharsets.UTF_8)))).build());
        assertError(chunked, 413, "body-too-large");
    }

    @Test
    void anUnknownIdIsNotFound() throws Exception {
        assertError(api.get("/api/v1/diagnoses/dffffffffffffffffffff"), 404, "not-found");
        assertError(api.get("/api/v1/diagnoses/..%2F..%2Fetc"), 404, "not-found");
        assertError(api.get("/api/v1/nothing"), 404, "not-found");
        List<Http.Sse> ev = api.events("/api/v1/diagnoses/dffffffffffffffffffff/events");
        assertEquals("error", ev.get(0).event());
    }

    @Test
    void aDiagnosisIsRenderedForChatAsMarkdownAndSlackBlocksWithALinkToItsPage() throws Exception {
        String id = create("{\"host\":\"gpu-killed\"}");
        api.awaitFinished(id);
        HttpResponse<String> md = api.get("/api/v1/diagnoses/" + id + "?format=markdown");
        assertEquals(200, md.statusCode(), md.body());
        assertTrue(md.headers().firstValue("Content-Type").orElse("").startsWith("text/markdown"));
        assertTrue(md.body().contains("external-kill") && md.body().contains("/#/d/" + id), md.body());
        HttpResponse<String> slack = api.get("/api/v1/diagnoses/" + id + "?format=slack");
        assertEquals(200, slack.statusCode(), slack.body());
        JsonNode msg = Http.json(slack);
        assertTrue(msg.path("blocks").isArray() && msg.path("blocks").size() > 2, msg.toString());
        assertTrue(msg.path("text").asText().toLowerCase(java.util.Locale.ROOT).contains("killed"), msg.toString());
        assertError(api.get("/api/v1/diagnoses/" + id + "?format=html"), 400, "bad-format");
        assertEquals(200, api.get("/api/v1/diagnoses/" + id + "?format=json").statusCode());
        String sweep = create("{\"hosts\":[\"gpu-killed\",\"gpu-healthy\"]}");
        api.awaitFinished(sweep);
        assertError(api.get("/api/v1/diagnoses/" + sweep + "?format=markdown"), 409, "not-done");
    }

    // ---- idempotency, callbacks, alerting

    @Test
    void aRepeatedIdempotencyKeyReturnsTheSameDiagnosis() throws Exception {
        String key = "alert-" + UUID.randomUUID();
        String first = create("{\"host\":\"gpu-healthy\"}", "Idempotency-Key", key);
        HttpResponse<String> again = api.post("/api/v1/diagnoses", "{\"host\":\"gpu-healthy\"}", "Idempotency-Key", key);
        assertEquals(200, again.statusCode(), again.body());
        assertEquals(first, Http.json(again).path("id").asText());
        assertTrue(Http.json(again).path("idempotentReplay").asBoolean());
        assertFalse(first.equals(create("{\"host\":\"gpu-healthy\"}", "Idempotency-Key", key + "-other")));
        assertError(api.post("/api/v1/diagnoses", "{\"host\":\"gpu-healthy\"}", "Idempotency-Key", "a key with spaces"),
                400, "bad-idempotency-key");
    }

    @Test
    void aCallbackIsCalledOnlyWhenAllowed() throws Exception {
        assertError(api.post("/api/v1/diagnoses", "{\"host\":\"gpu-killed\",\"callback\":\"http://127.0.0.1:9/x\"}"),
                403, "callback-not-allowed");
        assertError(api.post("/api/v1/diagnoses", "{\"host\":\"gpu-killed\",\"callback\":\"file:///etc/passwd\"}"),
                400, "bad-callback");
        assertError(api.post("/api/v1/diagnoses", "{\"host\":\"gpu-killed\",\"callback\":\"" + receiverBase
                + "/hook/../other\"}"), 403, "callback-not-allowed");
        assertError(api.post("/api/v1/diagnoses", "{\"host\":\"gpu-killed\",\"callback\":\"" + receiverBase
                + "/hookevil\"}"), 403, "callback-not-allowed");
        assertError(api.post("/api/v1/diagnoses", "{\"host\":\"gpu-killed\",\"callback\":\"" + receiverBase
                + "0/hook\"}"), 403, "callback-not-allowed");
        String id = create("{\"host\":\"gpu-killed\",\"callback\":\"" + receiverBase + "/hook/bot-1\"}");
        String got = null;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < end) {
            String s = hooks.poll(1, TimeUnit.SECONDS);
            if (s != null && s.contains(id)) {
                got = s;
                break;
            }
        }
        assertNotNull(got, "the callback was not called");
        JsonNode j = Http.JSON.readTree(got);
        assertEquals("external-kill", j.path("cause").asText());
        assertEquals("triage.diagnosis/v1", j.path("diagnosis").path("schema").asText());
    }

    @Test
    void anAlertmanagerAlertDiagnosesItsHostAndPostsTheResult() throws Exception {
        String payload = """
                {"version":"4","status":"firing","receiver":"triage","alerts":[
                  {"status":"firing","labels":{"alertname":"InferenceDown","instance":"gpu-never-launched:9100"}},
                  {"status":"resolved","labels":{"alertname":"InferenceDown","instance":"gpu-healthy:9100"}},
                  {"status":"firing","labels":{"alertname":"InferenceDown","instance":"db.internal:9100"}},
                  {"status":"firing","labels":{"alertname":"NoInstance"}}]}
                """;
        HttpResponse<String> r = api.post("/api/v1/alertmanager", payload);
        assertEquals(202, r.statusCode(), r.body());
        JsonNode j = Http.json(r);
        assertEquals(1, j.path("accepted").size(), r.body());
        assertEquals("gpu-never-launched", j.path("accepted").get(0).path("host").asText());
        // a resolved alert is not a question: neither diagnosed nor listed; a host not allowed and an alert
        // without the label are listed with their reason
        assertEquals(2, j.path("skipped").size(), r.body());
        assertFalse(r.body().contains("gpu-healthy"), r.body());
        String id = j.path("accepted").get(0).path("id").asText();
        String got = null;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < end) {
            String s = alerts.poll(1, TimeUnit.SECONDS);
            if (s != null && s.contains(id)) {
                got = s;
                break;
            }
        }
        assertNotNull(got, "the webhook target was not called");
        assertEquals("launch-never-happened", Http.JSON.readTree(got).path("cause").asText(),
                "a lab host's recorded intent is the operator's");
    }

    @Test
    void theHostsAreTheLabsAndTheInventorys() throws Exception {
        JsonNode j = Http.json(api.get("/api/v1/hosts"));
        List<String> names = new ArrayList<>();
        for (JsonNode h : j.path("hosts")) {
            names.add(h.path("name").asText());
        }
        assertTrue(names.containsAll(server.lab().hosts()), names.toString());
        assertTrue(names.contains("impostor"));
        assertEquals("nobody@127.0.0.1:*", j.path("allowPatterns").get(0).asText());
    }

    @Test
    void metricsCountDiagnosesByCauseAndLatency() throws Exception {
        String id = create("{\"host\":\"gpu-killed\"}");
        api.awaitFinished(id);
        String m = api.get("/metrics").body();
        assertTrue(m.contains("triage_diagnoses_total{cause=\"external-kill\"}"), m);
        assertTrue(m.contains("triage_diagnosis_seconds_count"), m);
        assertTrue(m.contains("# TYPE triage_diagnosis_seconds histogram"), m);
        for (Iterator<String> it = m.lines().iterator(); it.hasNext(); ) {
            String line = it.next();
            assertTrue(line.startsWith("#") || line.matches("[a-z_]+(\\{[a-z]+=\"[^\"]*\"})? [0-9.E+-]+"), line);
        }
    }
}
