package io.triage.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.triage.TestHome;
import io.triage.Triage;
import io.triage.engine.RuleBase;
import io.triage.safety.RedactionKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hot reload in a home of its own (a copy of the shipped rules and knowledge): a broken rule file, a broken
 * knowledge file and an inconsistent id each leave the last good base serving, with their errors' file and line;
 * a good change is served after it; diagnoses running across a reload each finish on one base, never a mix.
 */
class RuleReloadTest {
    private static final String TOKEN = "reload-test-token";
    private static final Function<Path, Triage> LOADER = h -> Triage.load(h, RedactionKey.perProcess(), null, true);
    private static final String OLD_RULE = "rule \"health connection refused\"";
    private static final String NEW_RULE = "rule \"health connection refused (second edition)\"";
    private static final String OLD_TEXT = "health-refused: The server refuses connections (nothing listens on the port)";
    private static final String NEW_TEXT = "health-refused: The server refuses connections, second edition";
    private static final String OLD_RATIONALE = "\n  \"health connection refused\": ";
    private static final String NEW_RATIONALE = "\n  \"health connection refused (second edition)\": ";

    @TempDir
    Path tmp;

    /** A copy of the shipped rules and knowledge (scenarios aside). */
    Path home() throws IOException {
        return TestHome.copyHome(tmp.resolve("home"));
    }

    /** Waits for the reload after {@code before} (the last attempt then). */
    static RuleReloader.Attempt next(RuleReloader r, RuleReloader.Attempt before) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(240).toNanos();
        while (System.nanoTime() < end) {
            RuleReloader.Attempt a = r.last();
            if (a != null && a != before) {
                return a;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no reload within 240 s");
    }

    static void edit(Path file, String from, String to) throws IOException {
        String s = Files.readString(file);
        assertTrue(s.contains(from), file + " holds " + from);
        save(file, s.replace(from, to));
    }

    /**
     * Saves a file as editors do: written beside it under a dot name (which the reloader ignores), then moved over it
     * in one step, so a reload never reads it half written (a plain write truncates first, and on a loaded machine a
     * reload could read the empty file in between and fail the test for a reason it does not test).
     */
    static void save(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling("." + file.getFileName() + ".saving");
        Files.writeString(tmp, text);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    @Test
    void aBrokenRuleFileABrokenKnowledgeFileAndATypoEachKeepTheLastGoodBaseAndAGoodChangeIsServed() throws Exception {
        Path home = home();
        Triage first = LOADER.apply(home);
        Path drl = home.resolve("rules/10-symptoms.drl");
        Path texts = home.resolve("knowledge-base/texts.yaml");
        String drlGood = Files.readString(drl);
        String textsGood = Files.readString(texts);
        try (RuleReloader r = new RuleReloader(first, LOADER, false, Duration.ofMillis(300))) {
            r.start();
            assertTrue(r.watching());

            // a rule file that does not compile
            save(drl, drlGood + "\nrule \"half written\"\nwhen\n    $h: Health(status ==\nthen\nend\n");
            RuleReloader.Attempt a = next(r, null);
            assertFalse(a.ok(), a.toString());
            assertFalse(a.errors().isEmpty(), a.toString());
            assertTrue(a.errors().stream().allMatch(p -> p.file().endsWith("10-symptoms.drl")), a.errors().toString());
            int endLine = lineOf(Files.readString(drl), "rule \"half written\"") + 4;
            assertTrue(a.errors().stream().anyMatch(p -> p.line() == endLine),
                    "the compiler's line: " + a.errors());
            assertSame(first, r.current(), "the last good base still serves");
            assertEquals(0, r.swaps());

            // put right: served again
            save(drl, drlGood);
            a = next(r, a);
            assertTrue(a.ok(), a.toString());
            assertEquals(first.contentHash(), a.contentHash());
            Triage second = r.current();
            assertNotEquals(first, second);

            // a knowledge file that does not parse
            save(texts, textsGood + "questions: [unclosed\n");
            a = next(r, a);
            assertFalse(a.ok(), a.toString());
            assertTrue(a.reason().contains("texts.yaml") && a.reason().contains("line"), a.reason());
            assertSame(second, r.current());

            // a typo in an id a rule matches: compiles, loads, and is refused by the consistency check
            save(texts, textsGood);
            a = next(r, a);
            assertTrue(a.ok(), a.toString());
            Triage third = r.current();
            Path questions = home.resolve("rules/50-questions.drl");
            String q = Files.readString(questions);
            save(questions, q.replace("Symptom(id == \"log-missing\")", "Symptom(id == \"log-mising\")"));
            a = next(r, a);
            assertFalse(a.ok(), a.toString());
            assertEquals(1, a.errors().size(), a.errors().toString());
            RuleBase.Problem p = a.errors().get(0);
            assertEquals("rules/50-questions.drl", p.file());
            assertEquals(lineOf(Files.readString(questions), "log-mising"), p.line());
            assertTrue(p.text().contains("no rule produces symptom log-mising (did you mean log-missing?)"), p.text());
            assertSame(third, r.current());

            // a good change: served, under a new content hash, with the new sentence
            save(questions, q);
            edit(texts, OLD_TEXT, NEW_TEXT);
            a = next(r, a);
            assertTrue(a.ok(), a.toString());
            assertNotEquals(first.contentHash(), r.current().contentHash());
            assertEquals(r.current().contentHash(), a.contentHash());
            assertTrue(r.current().knowledge().symptomText("health-refused").endsWith("second edition"));
            assertEquals(3, r.swaps());
        }
    }

    static int lineOf(String text, String needle) {
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].contains(needle)) {
                return i + 1;
            }
        }
        throw new IllegalArgumentException(needle);
    }

    @Test
    void diagnosesRunningAcrossAReloadEachFinishOnOneBaseAndTheApiTellsARefusedReload() throws Exception {
        Path home = home();
        Path data = tmp.resolve("data");
        Files.createDirectories(data);
        Triage first = LOADER.apply(home);
        String hashA = first.contentHash();
        TriageServer server = TriageServer.start(new TriageServer.Setup(first, data, Tokens.of("tester", TOKEN), false,
                Duration.ZERO, null, List.of(), List.of(), Duration.ofSeconds(30),
                ServeSettings.defaults().withBind("127.0.0.1", 0),
                new TriageServer.Reload(true, false, Duration.ofMillis(300), LOADER)));
        try {
            Http api = new Http(server.port(), TOKEN);
            JsonNode rules = Http.json(api.get("/api/v1/rules"));
            assertEquals(hashA, rules.path("contentHash").asText());
            assertTrue(rules.path("watching").asBoolean());
            assertTrue(rules.path("lastReload").isMissingNode(), "no reload tried yet: " + rules);

            String body = captureBody(TestHome.fixture("04-external-kill-shell-killed-clean-dmesg"));
            ConcurrentLinkedQueue<String> ids = new ConcurrentLinkedQueue<>();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Future<?>> posting = new ArrayList<>();
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            for (int t = 0; t < 4; t++) {
                posting.add(pool.submit(() -> {
                    // bounded: until the reload has been seen, at most 3,000 requests per thread
                    for (int i = 0; i < 3000 && !stop.get(); i++) {
                        HttpResponse<String> resp = api.post("/api/v1/diagnoses", body);
                        if (resp.statusCode() == 201) {
                            ids.add(Http.json(resp).path("id").asText());
                        }
                        Thread.sleep(100);
                    }
                    return null;
                }));
            }
            Thread.sleep(300);
            // one change to both the rules and the knowledge: a verdict of the old base has the old rule's name and
            // the old sentence, one of the new base both new ones; a mix would have one of each
            RuleReloader.Attempt before = server.rules().last();
            edit(home.resolve("rules/10-symptoms.drl"), OLD_RULE, NEW_RULE);
            // in one write: the new sentence, and the renamed rule's rationale under its new name
            Path texts = home.resolve("knowledge-base/texts.yaml");
            String t = Files.readString(texts);
            assertTrue(t.contains(OLD_TEXT) && t.contains(OLD_RATIONALE), texts.toString());
            save(texts, t.replace(OLD_TEXT, NEW_TEXT).replace(OLD_RATIONALE, NEW_RATIONALE));
            RuleReloader.Attempt a = next(server.rules(), before);
            assertTrue(a.ok(), a.toString());
            String hashB = a.contentHash();
            assertNotEquals(hashA, hashB);
            Thread.sleep(500);
            stop.set(true);
            for (Future<?> f : posting) {
                f.get();
            }
            pool.shutdown();

            int onA = 0;
            int onB = 0;
            for (String id : ids) {
                HttpResponse<String> r = api.awaitFinished(id);
                assertEquals("done", r.headers().firstValue("X-Triage-Status").orElse(""), r.body());
                JsonNode d = Http.json(r);
                String base = d.path("engine").path("ruleBase").asText();
                List<String> fired = new ArrayList<>();
                d.path("engine").path("rulesFiredNames").forEach(n -> fired.add(n.asText()));
                boolean oldRule = fired.contains("health connection refused");
                boolean newRule = fired.contains("health connection refused (second edition)");
                boolean newText = r.body().contains("second edition");
                assertEquals("external-kill", d.path("cause").asText());
                if (base.equals(hashA)) {
                    onA++;
                    assertTrue(oldRule && !newRule && !newText, "a verdict of base A ran on A only: " + fired);
                } else {
                    assertEquals(hashB, base, "every verdict names one of the two bases");
                    onB++;
                    assertTrue(newRule && !oldRule && newText, "a verdict of base B ran on B only: " + fired);
                }
            }
            assertTrue(onA > 0 && onB > 0, "diagnoses ran on both sides of the reload: " + onA + " on A, " + onB + " on B");

            // a refused reload: the API says why, with the file and line, and the last good base still serves
            before = server.rules().last();
            // (a fact type that does not exist: once a salience before the rule's @rationale broke the parse, but
            // rationales live in texts.yaml now)
            edit(home.resolve("rules/10-symptoms.drl"), "$h: Health(status == \"refused\")", "$h: Healthh(status == \"refused\")");
            a = next(server.rules(), before);
            assertFalse(a.ok());
            rules = Http.json(api.get("/api/v1/rules"));
            assertEquals(hashB, rules.path("contentHash").asText());
            JsonNode last = rules.path("lastReload");
            assertFalse(last.path("ok").asBoolean(), rules.toString());
            assertTrue(last.path("errors").size() > 0, rules.toString());
            JsonNode err = last.path("errors").get(0);
            assertTrue(err.path("file").asText().endsWith("10-symptoms.drl"), err.toString());
            assertTrue(err.path("line").asInt() > 0, err.toString());
            assertNotNull(server.rules().current());
            assertEquals(hashB, Http.json(api.awaitFinished(Http.json(api.post("/api/v1/diagnoses", body)).path("id").asText()))
                    .path("engine").path("ruleBase").asText());
        } finally {
            server.stop();
        }
    }

    /** A scenario's files as a JSON capture request. */
    static String captureBody(Path dir) throws IOException {
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
        return body.toString();
    }

}
