package io.triage;

import io.triage.engine.RuleBaseCache;
import io.triage.explain.JsonRenderer;
import io.triage.knowledge.KnowledgeBase;
import io.triage.knowledge.LinePattern;
import io.triage.knowledge.Marker;
import io.triage.safety.RedactionKey;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The knowledge base kept in the user's cache beside the compiled rules, in its compact form: the same knowledge as
 * the YAML files give, used on the next run, read again when a file changes, and refused whenever the entry cannot
 * be trusted (corrupt, of other sources, a cache others can write) — the knowledge then read from its files.
 */
class KnowledgeCacheTest {
    @TempDir
    Path tmp;

    Path home;
    Path cacheDir;

    @BeforeEach
    void copyHome() throws IOException {
        home = TestHome.copyHome(Files.createDirectories(tmp.resolve("home")));
        cacheDir = tmp.resolve("cache/triage/rulebase");
    }

    private Triage.Knowledge load(Path home) {
        return Triage.Knowledge.load(new RuleBaseCache(cacheDir, "1"), home.resolve("rules"),
                home.resolve("knowledge-base"), null);
    }

    private List<Path> entries() throws IOException {
        try (Stream<Path> s = Files.list(cacheDir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".knowledge")).toList();
        }
    }

    @Test
    void theCompactFormGivesBackTheSameKnowledgeBase() throws Exception {
        Path dir = home.resolve("knowledge-base");
        KnowledgeBase yaml = KnowledgeBase.load(dir);
        byte[] form = yaml.compact(dir, null);
        KnowledgeBase back = KnowledgeBase.fromCompact(form, dir, null);
        assertArrayEquals(form, back.compact(dir, null), "written again, the form is byte for byte the same");

        assertEquals(describe(yaml.markers()), describe(back.markers()));
        assertEquals(yaml.serves(), back.serves());
        assertEquals(yaml.serverAliases(), back.serverAliases());
        assertEquals(yaml.processes().size(), back.processes().size());
        assertEquals(yaml.thresholds(), back.thresholds());
        assertEquals(yaml.xids(), back.xids());
        assertEquals(yaml.causes(), back.causes());
        assertEquals(List.copyOf(yaml.causes().keySet()), List.copyOf(back.causes().keySet()), "ranking order kept");
        assertEquals(yaml.texts().symptoms(), back.texts().symptoms());
        assertEquals(yaml.texts().rationales(), back.texts().rationales());
        assertEquals(yaml.texts().details(), back.texts().details());
        assertEquals(yaml.texts().reasons(), back.texts().reasons());
        assertEquals(yaml.questions(), back.questions());
        assertEquals(yaml.steps(), back.steps());
        assertEquals(yaml.adviceOptions(), back.adviceOptions(), "advice options in the catalogue's order");
        assertEquals(yaml.differentials(), back.differentials());
        assertEquals(yaml.cadence().servers().keySet(), back.cadence().servers().keySet());
        yaml.cadence().servers().forEach((k, s) -> {
            var b = back.cadence().servers().get(k);
            assertEquals(s.markers(), b.markers());
            assertEquals(s.metrics(), b.metrics());
            assertEquals(s.everySeconds(), b.everySeconds());
            List<LinePattern> ps = Arrays.asList(s.running(), s.waiting(), s.throughput(), s.prompt());
            List<LinePattern> qs = Arrays.asList(b.running(), b.waiting(), b.throughput(), b.prompt());
            for (int i = 0; i < ps.size(); i++) {
                assertEquals(ps.get(i) == null ? null : ps.get(i).pattern(), qs.get(i) == null ? null : qs.get(i).pattern());
            }
        });
        assertEquals(yaml.gpuProfile(0, "NVIDIA H200"), back.gpuProfile(0, "NVIDIA H200"));
        assertEquals(yaml.gpuProfile(0, "some other card"), back.gpuProfile(0, "some other card"));
        String marker = yaml.markers().get(0).id();
        assertEquals(yaml.origin("markers", marker), back.origin("markers", marker), "where an entry was given, with its line");
        String step = yaml.steps().keySet().iterator().next();
        assertEquals(yaml.origin("steps", step), back.origin("steps", step));
    }

    private static List<String> describe(List<Marker> markers) {
        return markers.stream().map(m -> String.join("|", m.id(), m.server(), m.kind(), m.pattern().pattern(),
                String.valueOf(m.pattern().groups()), m.subtype(), String.valueOf(m.priority()),
                String.valueOf(m.prefilter()), String.valueOf(m.groups()))).toList();
    }

    @Test
    void theFormNamesTheFilesOfTheHomeThatReadsIt() throws Exception {
        Path dir = home.resolve("knowledge-base");
        byte[] form = KnowledgeBase.load(dir).compact(dir, null);
        Path other = tmp.resolve("elsewhere/knowledge-base");
        KnowledgeBase moved = KnowledgeBase.fromCompact(form, other, null);
        String step = moved.steps().keySet().iterator().next();
        assertTrue(moved.originFile("steps", step).orElseThrow().startsWith(other),
                "the same content in another home names that home's file: " + moved.originFile("steps", step));
    }

    @Test
    void aFormThatIsNotWholeIsRefusedWithAnError() throws Exception {
        Path dir = home.resolve("knowledge-base");
        byte[] form = KnowledgeBase.load(dir).compact(dir, null);
        for (byte[] bad : List.of(Arrays.copyOf(form, form.length / 2), Arrays.copyOf(form, form.length - 1),
                Arrays.copyOf(form, form.length + 8), new byte[0], "triage-knowledge/0".getBytes())) {
            assertThrows(IOException.class, () -> KnowledgeBase.fromCompact(bad, dir, null));
        }
    }

    @Test
    void theSecondRunLoadsTheKnowledgeFromTheCacheAndAChangedFileIsReadAgain() throws Exception {
        Triage.Knowledge first = load(home);
        assertTrue(first.origin().startsWith("knowledge read from") && first.origin().contains("stored in the cache"),
                first.origin());
        assertEquals(1, entries().size());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(entries().get(0))));

        Triage.Knowledge second = load(home);
        assertTrue(second.origin().startsWith("knowledge loaded from the cache"), second.origin());
        assertArrayEquals(first.base().compact(home.resolve("knowledge-base"), null),
                second.base().compact(home.resolve("knowledge-base"), null));
        assertTrue(second.secrets().isSecretName("--api-key") && !second.secrets().isSecretName("max_tokens"),
                "the secrets' shapes come with it");

        // a knowledge author edits a cause's title: the next run reads the files, the one after uses the new entry
        Path causes = home.resolve("knowledge-base/causes.yaml");
        String cause = first.base().causes().keySet().iterator().next();
        String title = first.base().causes().get(cause).title();
        Files.writeString(causes, Files.readString(causes).replace(title, "Edited " + title),
                StandardOpenOption.TRUNCATE_EXISTING);
        Triage.Knowledge edited = load(home);
        assertTrue(edited.origin().startsWith("knowledge read from"), edited.origin());
        Triage.Knowledge again = load(home);
        assertTrue(again.origin().startsWith("knowledge loaded from the cache"), again.origin());
        assertEquals("Edited " + title, again.base().causes().get(cause).title());
    }

    @Test
    void aCorruptEntryOrOneOfOtherSourcesIsIgnoredAndRebuilt() throws Exception {
        byte[] good = load(home).base().compact(home.resolve("knowledge-base"), null);
        Path entry = entries().get(0);
        byte[] b = Files.readAllBytes(entry);
        b[b.length / 2] ^= 0x5a;
        Files.write(entry, b);
        Triage.Knowledge flipped = load(home);
        assertTrue(flipped.origin().startsWith("knowledge read from") && flipped.origin().contains("ignored")
                && flipped.origin().contains("digest"), flipped.origin());
        assertArrayEquals(good, flipped.base().compact(home.resolve("knowledge-base"), null));
        assertTrue(load(home).origin().startsWith("knowledge loaded from the cache"), "rebuilt good");

        // the entry of other sources (another home's, another version's) put in this one's place
        Path otherHome = TestHome.copyHome(Files.createDirectories(tmp.resolve("other")));
        Path texts = otherHome.resolve("knowledge-base/texts.yaml");
        Files.writeString(texts, Files.readString(texts) + "\n# another version\n", StandardOpenOption.TRUNCATE_EXISTING);
        load(otherHome);
        Path foreign = entries().stream().filter(p -> !p.equals(entry)).findFirst().orElseThrow();
        Files.copy(foreign, entry, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Triage.Knowledge swapped = load(home);
        assertTrue(swapped.origin().contains("ignored") && swapped.origin().contains("other sources"), swapped.origin());

        Files.writeString(entry, "not an entry at all");
        Triage.Knowledge junk = load(home);
        assertTrue(junk.origin().startsWith("knowledge read from") && junk.origin().contains("ignored"), junk.origin());
        assertArrayEquals(good, junk.base().compact(home.resolve("knowledge-base"), null));
    }

    @Test
    void aCacheOthersCanWriteIsNotUsed() throws Exception {
        load(home);
        Files.setPosixFilePermissions(cacheDir, PosixFilePermissions.fromString("rwxrwxrwx"));
        Triage.Knowledge k = load(home);
        assertTrue(k.origin().startsWith("knowledge read from") && k.origin().contains("writable by others"), k.origin());
        assertEquals(KnowledgeBase.load(home.resolve("knowledge-base")).markers().size(), k.base().markers().size());
    }

    @Test
    void aRunWithTheCachedKnowledgeDiagnosesExactlyAsOneThatReadTheFiles() throws Exception {
        RuleBaseCache cache = new RuleBaseCache(cacheDir, "1");
        Path capture = TestHome.fixture("h200/02-external-kill");
        Triage fromFiles = Triage.load(home, RedactionKey.perProcess(), cache);
        assertTrue(fromFiles.knowledgeOrigin().startsWith("knowledge read from"), fromFiles.knowledgeOrigin());
        Triage fromCache = Triage.load(home, RedactionKey.perProcess(), cache);
        assertTrue(fromCache.knowledgeOrigin().startsWith("knowledge loaded from the cache"), fromCache.knowledgeOrigin());
        String a = TestHome.canonicalJson(new JsonRenderer().render(fromFiles.unredacted().replay(capture, Map.of())));
        String b = TestHome.canonicalJson(new JsonRenderer().render(fromCache.unredacted().replay(capture, Map.of())));
        assertEquals(a, b);
        assertNotEquals("", a);
    }

    @Test
    void theKnowledgeIsFiledUnderTheRulesKeyAndALoadWithoutRulesStillEndsWithTheirError() throws Exception {
        RuleBaseCache cache = new RuleBaseCache(cacheDir, "1");
        Triage.load(home, RedactionKey.perProcess(), cache);
        String key = cache.key(home.resolve("rules"), home.resolve("knowledge-base"), null);
        assertEquals(List.of(cacheDir.resolve(key + ".knowledge")), entries(), "one key for the rules and the knowledge");

        // the rules' thread gives no key (no rules to digest): the load still ends, with the rules' error
        try (Stream<Path> files = Files.walk(home.resolve("rules"))) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
        RuntimeException e = assertThrows(RuntimeException.class, () -> Triage.load(home, RedactionKey.perProcess(), cache));
        assertTrue(String.valueOf(e.getMessage()).contains("rules directory not found"), String.valueOf(e.getMessage()));
    }

}
