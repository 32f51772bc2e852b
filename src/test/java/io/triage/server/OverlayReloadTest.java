package io.triage.server;

import io.triage.SiteOverlay;
import io.triage.TestHome;
import io.triage.Triage;
import io.triage.explain.Diagnosis;
import io.triage.knowledge.Overlay;
import io.triage.safety.RedactionKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A server started with an overlay watches it as it watches the shipped files: an edit of the overlay is compiled,
 * checked and served (under a new rule-base hash); an edit that clashes with the shipped knowledge is refused with both
 * files named, and the last good base keeps serving.
 */
class OverlayReloadTest {
    @TempDir
    Path tmp;

    @Test
    void anEditOfTheOverlayIsServedAndAClashKeepsTheLastGoodBase() throws Exception {
        Path dir = SiteOverlay.overlay(tmp.resolve("site"));
        Function<Path, Triage> loader = h -> Triage.load(h, RedactionKey.perProcess(), null, true, null, Overlay.open(dir));
        Triage initial = loader.apply(TestHome.HOME);
        Path capture = TestHome.fixture(SiteOverlay.CAPTURE);
        try (RuleReloader reloader = new RuleReloader(initial, loader, false, Duration.ofMillis(200))) {
            reloader.start();
            assertEquals(dir.toString(), reloader.status().get("overlay"));
            Path site = dir.resolve("knowledge-base/site.yaml");
            RuleReloadTest.save(site, Files.readString(site).replace("https://runbooks.example.com/killed",
                    "https://runbooks.example.com/killed-v2"));
            RuleReloader.Attempt a = RuleReloadTest.next(reloader, null);
            assertTrue(a.ok(), a.reason() + " " + a.errors());
            Triage now = reloader.current();
            assertNotEquals(initial.contentHash(), now.contentHash(), "an overlay edit is another rule base");
            Diagnosis d = now.replay(capture, Map.of());
            assertEquals(now.contentHash(), d.engine().ruleBase());
            assertTrue(d.nextSteps().stream().anyMatch(s -> s.title().contains("killed-v2")), d.nextSteps().toString());

            // a clash: the overlay redefines a shipped cause
            Path clash = dir.resolve("knowledge-base/clash.yaml");
            RuleReloadTest.save(clash, "causes:\n  oom-killer:\n    title: ours\n    rank: 1\n    summary: s\n    caveat: ''\n");
            RuleReloader.Attempt b = RuleReloadTest.next(reloader, a);
            assertFalse(b.ok(), "a clash is refused");
            assertTrue(b.reason().contains(clash.toString()) && b.reason().contains("causes.yaml:"), b.reason());
            assertSame(now.rules(), reloader.current().rules(), "the last good base keeps serving");
        }
    }
}
