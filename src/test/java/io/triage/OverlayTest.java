package io.triage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.triage.cli.Main;
import io.triage.engine.ContentHash;
import io.triage.engine.RuleBase;
import io.triage.engine.RuleBaseCache;
import io.triage.explain.Diagnosis;
import io.triage.explain.JsonRenderer;
import io.triage.explain.TextRenderer;
import io.triage.knowledge.Overlay;
import io.triage.safety.RedactionKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A site's overlay extends the shipped rules and knowledge without editing them: its marker, rule, sentence and runbook
 * links change a verdict; every verdict names the rule base (shipped + overlay) by a content hash, in text and JSON;
 * the compiled-rules cache is keyed on the overlay; and a new cause added as a topic of a home takes one rule file,
 * one topic file and its scenario.
 */
class OverlayTest {
    @TempDir
    Path tmp;

    private static Triage load(Overlay overlay) {
        return Triage.load(TestHome.HOME, RedactionKey.perProcess(), null, false, null, overlay);
    }

    @Test
    void anOverlaysMarkerRuleTextAndRunbookLinkChangeTheVerdict() throws Exception {
        Path scenario = SiteOverlay.scenario(tmp.resolve("capture"));
        Diagnosis without = TestHome.triage().replay(scenario, Map.of());
        assertEquals("external-kill", without.cause(), "the shipped rules know nothing of licences");
        assertTrue(without.nextSteps().stream().noneMatch(s -> s.id().startsWith("site-")));

        Overlay overlay = Overlay.open(SiteOverlay.overlay(tmp.resolve("site")));
        Triage t = load(overlay);
        Diagnosis with = t.replay(scenario, Map.of());
        assertEquals(SiteOverlay.CAUSE, with.cause(), new TextRenderer().render(with));
        assertEquals("The server's licence expired", with.title(), "the cause's title comes from the overlay");
        assertTrue(with.engine().rulesFiredNames().contains("site: a lapsed licence stops the server"));
        Diagnosis.Step renew = with.nextSteps().stream().filter(s -> s.id().equals(SiteOverlay.STEP)).findFirst().orElseThrow();
        assertTrue(renew.title().contains("https://runbooks.example.com/licence"), renew.title());
        String text = new TextRenderer().render(with);
        assertTrue(text.contains("The server's log says its licence has expired"), "the overlay's sentence:\n" + text);

        // a runbook link for a shipped cause: the shipped verdict gains the site's step, nothing else moves
        Diagnosis killed = t.replay(TestHome.fixture(SiteOverlay.CAPTURE), Map.of());
        assertEquals("external-kill", killed.cause());
        assertTrue(killed.nextSteps().stream().anyMatch(s -> s.id().equals(SiteOverlay.KILL_RUNBOOK)), killed.nextSteps().toString());
    }

    @Test
    void everyVerdictNamesTheRuleBaseShippedPlusOverlayInTextAndJson() throws Exception {
        Path dir = SiteOverlay.overlay(tmp.resolve("site"));
        Overlay overlay = Overlay.open(dir);
        Triage t = load(overlay);
        String shipped = ContentHash.of(TestHome.HOME);
        assertEquals(shipped, TestHome.triage().contentHash(), "without an overlay the hash is the shipped files' alone");
        assertEquals(shipped, ContentHash.of(TestHome.HOME, null), "stable without an overlay");
        assertNotEquals(shipped, t.contentHash(), "the overlay is part of the rule base");
        assertEquals(ContentHash.of(TestHome.HOME, overlay), t.contentHash());

        Diagnosis d = t.replay(TestHome.fixture(SiteOverlay.CAPTURE), Map.of());
        JsonNode json = new ObjectMapper().readTree(new JsonRenderer().render(d));
        assertEquals(t.contentHash(), json.path("engine").path("ruleBase").asText());
        assertEquals(dir.toAbsolutePath().toString(), json.path("engine").path("overlay").asText());
        String text = new TextRenderer().render(d);
        assertTrue(text.contains("rule base: " + t.contentHash() + " (with the site overlay " + dir.toAbsolutePath() + ")"), text);
        String plain = new TextRenderer().render(TestHome.triage().replay(TestHome.fixture(SiteOverlay.CAPTURE), Map.of()));
        assertTrue(plain.contains("rule base: " + shipped + "\n"), plain);

        // by content, not by place: the same overlay elsewhere is the same base; an edit is another
        Path copy = SiteOverlay.overlay(tmp.resolve("elsewhere"));
        assertEquals(t.contentHash(), ContentHash.of(TestHome.HOME, Overlay.open(copy)));
        Files.writeString(copy.resolve("knowledge-base/site.yaml"),
                Files.readString(copy.resolve("knowledge-base/site.yaml")).replace("rank: 99", "rank: 98"));
        assertNotEquals(t.contentHash(), ContentHash.of(TestHome.HOME, Overlay.open(copy)));
        // the overlay's scenarios are test data, as the shipped ones are
        Files.writeString(copy.resolve("knowledge-base/scenarios/licence/TRUTH.txt"), "made up for a test\n");
        assertEquals(ContentHash.of(TestHome.HOME, Overlay.open(copy)), ContentHash.of(TestHome.HOME, Overlay.open(copy)));
    }

    @Test
    void theRuleBaseCacheIsKeyedOnTheOverlay() throws Exception {
        Path dir = SiteOverlay.overlay(tmp.resolve("site"));
        Path cacheDir = tmp.resolve("cache/triage/rulebase");
        RuleBaseCache cache = new RuleBaseCache(cacheDir, "test-build+1");
        Path rules = TestHome.HOME.resolve("rules");
        Path kb = TestHome.HOME.resolve("knowledge-base");

        RuleBase shipped = cache.load(rules, kb, null, java.util.function.UnaryOperator.identity());
        assertEquals(RuleBase.Origin.Kind.SOURCE_CACHED, shipped.origin().kind());
        RuleBase first = cache.load(rules, kb, Overlay.open(dir), java.util.function.UnaryOperator.identity());
        assertEquals(RuleBase.Origin.Kind.SOURCE_CACHED, first.origin().kind(), "the shipped entry is not the overlay's");
        assertTrue(ruleNames(first).contains("site: a lapsed licence stops the server"));
        RuleBase again = cache.load(rules, kb, Overlay.open(dir), java.util.function.UnaryOperator.identity());
        assertEquals(RuleBase.Origin.Kind.CACHE, again.origin().kind(), again.origin().detail());
        assertTrue(ruleNames(again).contains("site: a lapsed licence stops the server"));
        assertEquals(dir.resolve("rules"), again.overlayRules());
        RuleBase plain = cache.load(rules, kb, null, java.util.function.UnaryOperator.identity());
        assertEquals(RuleBase.Origin.Kind.CACHE, plain.origin().kind());
        assertTrue(!ruleNames(plain).contains("site: a lapsed licence stops the server"), "no overlay, no overlay rules");

        Files.writeString(dir.resolve("rules/site.drl"), Files.readString(dir.resolve("rules/site.drl"))
                .replace("serving stops", "serving stops").replace("whatever else is true", "whatever else holds"));
        RuleBase edited = cache.load(rules, kb, Overlay.open(dir), java.util.function.UnaryOperator.identity());
        assertEquals(RuleBase.Origin.Kind.SOURCE_CACHED, edited.origin().kind(), "an edited overlay rule is compiled again");
    }

    private static List<String> ruleNames(RuleBase rb) {
        return rb.kieBase().getKiePackages().stream().flatMap(p -> p.getRules().stream()).map(r -> r.getName()).toList();
    }

    @Test
    void aNewCauseTakesOneRuleFileOneTopicFileAndItsScenario() throws Exception {
        Path home = SiteOverlay.copyHome(tmp.resolve("home"));
        List<Path> written = SiteOverlay.topic(home);
        assertEquals(3, written.size());
        // nothing else of the home was touched: the shipped files are byte for byte the checkout's
        for (String f : List.of("knowledge-base/causes.yaml", "knowledge-base/texts.yaml", "knowledge-base/remediation.yaml",
                "knowledge-base/markers/common.yaml", "knowledge-base/differentials.yaml")) {
            assertEquals(Files.readString(TestHome.HOME.resolve(f)), Files.readString(home.resolve(f)), f);
        }
        Triage t = Triage.load(home, RedactionKey.perProcess(), null, true);
        Diagnosis d = t.replay(written.get(2), Map.of());
        assertEquals(SiteOverlay.CAUSE, d.cause(), new TextRenderer().render(d));
        assertTrue(d.nextSteps().stream().anyMatch(s -> s.id().equals(SiteOverlay.STEP)));
        assertTrue(t.knowledge().origin("causes", SiteOverlay.CAUSE).orElseThrow().file().endsWith("topics/site-licence.yaml"));

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = Main.run(new String[] {"--home", home.toString(), "rules", "test", written.get(2).toString()},
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, rc, out + "\n" + err);
        assertTrue(out.toString().contains("1 passed, 0 failed"), out.toString());
    }

    @Test
    void theCommandLineTakesAnOverlayOnEveryCommandAndRunsItsScenarios() throws Exception {
        Path dir = SiteOverlay.overlay(tmp.resolve("site"));
        Path capture = dir.resolve("knowledge-base/scenarios/licence");

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        // after the subcommand, as a user types it
        int rc = Main.run(new String[] {"--home", TestHome.HOME.toString(), "replay", "--overlay", dir.toString(),
                capture.toString(), "--format", "json"}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, rc, err.toString());
        JsonNode json = new ObjectMapper().readTree(out.toString());
        assertEquals(SiteOverlay.CAUSE, json.path("cause").asText());
        assertEquals(dir.toAbsolutePath().toString(), json.path("engine").path("overlay").asText());
        assertTrue(err.toString().contains("site overlay " + dir.toAbsolutePath() + " (--overlay)"), err.toString());

        out = new StringWriter();
        err = new StringWriter();
        rc = Main.run(new String[] {"--home", TestHome.HOME.toString(), "--overlay", dir.toString(), "rules", "check"},
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertTrue(out.toString().contains(" and " + dir.resolve("rules")), out + "\n" + err);

        // rules test runs the home's scenarios and the overlay's (a home of one shipped scenario, to keep it short)
        Path home = SiteOverlay.copyHome(tmp.resolve("home"));
        Path kill = home.resolve("knowledge-base/scenarios/" + SiteOverlay.CAPTURE);
        Files.createDirectories(kill);
        try (var s = Files.list(TestHome.fixture(SiteOverlay.CAPTURE))) {
            for (Path f : s.toList()) {
                Files.copy(f, kill.resolve(f.getFileName().toString()));
            }
        }
        out = new StringWriter();
        err = new StringWriter();
        rc = Main.run(new String[] {"--home", home.toString(), "--overlay", dir.toString(), "rules", "test"},
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, rc, out + "\n" + err);
        assertTrue(out.toString().contains("2 passed, 0 failed"), out.toString());

        // an incident of the site is filed as the site's scenario, in the overlay, and passes there
        out = new StringWriter();
        err = new StringWriter();
        rc = Main.run(new String[] {"--home", home.toString(), "--overlay", dir.toString(), "rules", "scenario", "add",
                capture.toString(), "--expect", SiteOverlay.CAUSE, "--name", "site/incident-1"},
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, rc, out + "\n" + err);
        assertTrue(Files.isRegularFile(dir.resolve("knowledge-base/scenarios/site/incident-1/expected.txt")), out.toString());
        assertTrue(Files.notExists(home.resolve("knowledge-base/scenarios/site")), "the home is not edited");
        Files.walk(dir.resolve("knowledge-base/scenarios/site")).sorted(java.util.Comparator.reverseOrder())
                .forEach(p -> p.toFile().delete());

        // the overlay's scenario expects the overlay's cause: it fails without the overlay's rules (a test that can fail)
        Files.writeString(dir.resolve("knowledge-base/scenarios/licence/expected.txt"), "cause=external-kill\n");
        out = new StringWriter();
        rc = Main.run(new String[] {"--home", home.toString(), "--overlay", dir.toString(), "rules", "test"},
                new PrintWriter(out, true), new PrintWriter(new StringWriter(), true));
        assertEquals(Main.BROKEN_KNOWLEDGE, rc, out.toString());
        assertTrue(out.toString().contains("FAIL " + dir.resolve("knowledge-base/scenarios/licence")), out.toString());
    }
}
