package io.triage.engine;

import io.triage.ChildProcess;
import io.triage.TestHome;
import io.triage.Triage;
import io.triage.explain.JsonRenderer;
import io.triage.knowledge.KnowledgeBase;
import io.triage.safety.Redactor;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The compiled-rules cache: used on the next run, rebuilt when a rule changes, and refused or ignored whenever it
 * cannot be trusted as code — with the diagnosis right in every case.
 */
class RuleBaseCacheTest {
    private static final String SCENARIO = "h200/02-external-kill";

    @TempDir
    Path tmp;

    Path home;
    Path cacheDir;

    /** A home of its own (the checkout's rules and knowledge, scenarios aside), so that a test may edit a rule. */
    @BeforeEach
    void copyHome() throws IOException {
        home = Files.createDirectories(tmp.resolve("home"));
        Path kb = TestHome.HOME.resolve("knowledge-base");
        for (Path top : List.of(TestHome.HOME.resolve("rules"), kb)) {
            try (Stream<Path> s = Files.walk(top)) {
                for (Path f : s.filter(p -> !p.startsWith(kb.resolve("scenarios"))).toList()) {
                    Path to = home.resolve(TestHome.HOME.relativize(f).toString());
                    if (Files.isDirectory(f)) {
                        Files.createDirectories(to);
                    } else {
                        Files.copy(f, to);
                    }
                }
            }
        }
        cacheDir = tmp.resolve("cache/triage/rulebase");
    }

    private RuleBaseCache cache(String product) {
        return new RuleBaseCache(cacheDir, product);
    }

    private RuleBase load(RuleBaseCache c) {
        return c.load(home.resolve("rules"), home.resolve("knowledge-base"));
    }

    /**
     * The JSON diagnosis of the scenario with these rules, what the run prints, with the members of every list in
     * one order: lists built from the session's objects (a hypothesis's {@code against}) follow the working
     * memory's hash order, which is not the same from one process to the next.
     */
    private String diagnose(RuleBase rules) throws Exception {
        Triage t = new Triage(home, KnowledgeBase.load(home.resolve("knowledge-base")), rules, Redactor.none());
        return TestHome.canonicalJson(new JsonRenderer().render(t.replay(TestHome.fixture(SCENARIO), Map.of())));
    }


    private String expected() throws Exception {
        return diagnose(RuleBase.load(home.resolve("rules")));
    }

    private List<Path> entries() throws IOException {
        try (Stream<Path> s = Files.list(cacheDir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".rulebase")).toList();
        }
    }

    @Test
    void theSecondRunLoadsTheCompiledRulesAndAChangedRuleFileIsCompiledAgain() throws Exception {
        String expected = expected();
        RuleBase first = load(cache("1"));
        assertEquals(RuleBase.Origin.Kind.SOURCE_CACHED, first.origin().kind(), first.origin().detail());
        assertEquals(1, entries().size());
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cacheDir)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(entries().get(0))));

        RuleBase second = load(cache("1"));
        assertEquals(RuleBase.Origin.Kind.CACHE, second.origin().kind(), second.origin().detail());
        assertTrue(second.origin().fromCache());
        assertEquals(first.files(), second.files());
        assertEquals(expected, diagnose(second), "the cached rules diagnose exactly as the compiled ones");

        // a rule author edits a rule: the next run compiles the new text, and the one after uses it
        Path rule = home.resolve("rules/90-fallback.drl");
        Files.writeString(rule, Files.readString(rule).replace("rule \"", "rule \"edited "), StandardOpenOption.TRUNCATE_EXISTING);
        RuleBase edited = load(cache("1"));
        assertEquals(RuleBase.Origin.Kind.SOURCE_CACHED, edited.origin().kind(), edited.origin().detail());
        RuleBase again = load(cache("1"));
        assertEquals(RuleBase.Origin.Kind.CACHE, again.origin().kind());
        assertTrue(again.kieBase().getKiePackages().stream().flatMap(p -> p.getRules().stream())
                .anyMatch(r -> r.getName().startsWith("edited ")), "the cache holds the edited rule, not the old one");
    }

    @Test
    void aCorruptOrTruncatedEntryIsIgnoredAndRebuilt() throws Exception {
        String expected = expected();
        load(cache("1"));
        Path entry = entries().get(0);
        byte[] b = Files.readAllBytes(entry);
        b[b.length / 2] ^= 0x5a;
        Files.write(entry, b);
        RuleBase afterFlip = load(cache("1"));
        assertEquals(RuleBase.Origin.Kind.SOURCE_CACHED, afterFlip.origin().kind());
        assertTrue(afterFlip.origin().detail().contains("ignored") && afterFlip.origin().detail().contains("digest"),
                afterFlip.origin().detail());
        assertEquals(expected, diagnose(afterFlip));
        assertEquals(RuleBase.Origin.Kind.CACHE, load(cache("1")).origin().kind(), "rebuilt good");

        byte[] good = Files.readAllBytes(entry);
        Files.write(entry, java.util.Arrays.copyOf(good, good.length - 1000));
        RuleBase afterCut = load(cache("1"));
        assertEquals(RuleBase.Origin.Kind.SOURCE_CACHED, afterCut.origin().kind(), afterCut.origin().detail());
        assertEquals(expected, diagnose(afterCut));

        Files.writeString(entry, "not an entry at all");
        RuleBase afterJunk = load(cache("1"));
        assertEquals(RuleBase.Origin.Kind.SOURCE_CACHED, afterJunk.origin().kind());
        assertEquals(expected, diagnose(afterJunk));
    }

    @Test
    void anEntryWhoseDigestMatchesButWhoseBodyIsNotWhatItDeclaresIsIgnoredAndRebuilt() throws Exception {
        String expected = expected();
        load(cache("1"));
        Path entry = entries().get(0);
        byte[] good = Files.readAllBytes(entry);
        int header = "triage-rulebase/3\n".length();
        List<byte[]> bodies = List.of(
                // not deflated data at all
                java.nio.ByteBuffer.allocate(12).putInt(1000).putLong(0x0123456789abcdefL).array(),
                // a good body that declares one byte more than it holds
                declared(RuleBaseCache.deflate("x".repeat(5000).getBytes(StandardCharsets.UTF_8)), 5001),
                // and one byte less
                declared(RuleBaseCache.deflate("x".repeat(5000).getBytes(StandardCharsets.UTF_8)), 4999),
                // a length past what is ever read back
                java.nio.ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE).array());
        for (byte[] body : bodies) {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(body);
            java.io.ByteArrayOutputStream forged = new java.io.ByteArrayOutputStream();
            forged.write(good, 0, header);
            forged.write(digest);
            forged.write(body);
            Files.write(entry, forged.toByteArray());
            RuleBase r = load(cache("1"));
            assertEquals(RuleBase.Origin.Kind.SOURCE_CACHED, r.origin().kind(), r.origin().detail());
            assertTrue(r.origin().detail().contains("ignored") && r.origin().detail().contains("body"), r.origin().detail());
            assertEquals(expected, diagnose(r));
        }
        assertEquals(RuleBase.Origin.Kind.CACHE, load(cache("1")).origin().kind(), "rebuilt good");
    }

    /** {@code stored} (a deflated body) with its declared length replaced by {@code length}. */
    private static byte[] declared(byte[] stored, int length) {
        byte[] b = stored.clone();
        java.nio.ByteBuffer.wrap(b).putInt(length);
        return b;
    }

    @Test
    void anEntrysBodyIsStoredDeflatedAndReadBackByteForByte() throws Exception {
        byte[] body = new byte[300_000];
        new java.util.Random(7).nextBytes(body);
        java.util.Arrays.fill(body, 100_000, 200_000, (byte) 'r');
        byte[] stored = RuleBaseCache.deflate(body);
        assertTrue(stored.length < body.length * 3 / 4, "the repeated part shrinks: " + stored.length);
        assertTrue(java.util.Arrays.equals(body, RuleBaseCache.inflate(stored)));
        byte[] trailing = java.util.Arrays.copyOf(stored, stored.length + 3);
        assertThrows(IOException.class, () -> RuleBaseCache.inflate(trailing));
        assertThrows(IOException.class, () -> RuleBaseCache.inflate(new byte[] {0, 0, 0}));
    }

    @Test
    void anEntryOfAnotherVersionIsNeverUsedEvenUnderThisVersionsName() throws Exception {
        String expected = expected();
        load(cache("1.0+a"));
        Path old = entries().get(0);
        RuleBase other = load(cache("1.0+b"));
        assertEquals(RuleBase.Origin.Kind.SOURCE_CACHED, other.origin().kind(), "another build: another key");
        assertEquals(2, entries().size());

        // the old version's entry put in place of the new one's (same sources): its recorded key gives it away
        Path current = entries().stream().filter(p -> !p.equals(old)).findFirst().orElseThrow();
        Files.copy(old, current, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        RuleBase foreign = load(cache("1.0+b"));
        assertEquals(RuleBase.Origin.Kind.SOURCE_CACHED, foreign.origin().kind());
        assertTrue(foreign.origin().detail().contains("other sources or another version"), foreign.origin().detail());
        assertEquals(expected, diagnose(foreign));
        assertEquals(RuleBase.Origin.Kind.CACHE, load(cache("1.0+b")).origin().kind());
    }

    @Test
    void aCacheDirectoryOthersCanWriteIsRefusedAndTheRulesCompiledInMemory() throws Exception {
        String expected = expected();
        load(cache("1"));
        Files.setPosixFilePermissions(cacheDir, PosixFilePermissions.fromString("rwxrwxrwx"));
        RuleBase refused = load(cache("1"));
        assertEquals(RuleBase.Origin.Kind.SOURCE_CACHE_REFUSED, refused.origin().kind());
        assertTrue(refused.origin().detail().contains("writable by others"), refused.origin().detail());
        assertEquals(expected, diagnose(refused));

        // its parent too: whoever can write there can swap the whole directory
        Files.setPosixFilePermissions(cacheDir, PosixFilePermissions.fromString("rwx------"));
        Files.setPosixFilePermissions(cacheDir.getParent(), PosixFilePermissions.fromString("rwxrwx---"));
        assertEquals(RuleBase.Origin.Kind.SOURCE_CACHE_REFUSED, load(cache("1")).origin().kind());
        Files.setPosixFilePermissions(cacheDir.getParent(), PosixFilePermissions.fromString("rwx------"));
        assertEquals(RuleBase.Origin.Kind.CACHE, load(cache("1")).origin().kind());

        // an entry others can write is not loaded either
        Files.setPosixFilePermissions(entries().get(0), PosixFilePermissions.fromString("rw-rw-rw-"));
        RuleBase ignored = load(cache("1"));
        assertEquals(RuleBase.Origin.Kind.SOURCE_CACHED, ignored.origin().kind());
        assertTrue(ignored.origin().detail().contains("writable by others"), ignored.origin().detail());
        assertEquals(expected, diagnose(ignored));
    }

    @Test
    void aBuildWithoutItsStampDoesNotUseTheCache() throws Exception {
        RuleBase r = load(cache("unknown+unknown"));
        assertEquals(RuleBase.Origin.Kind.SOURCE_CACHE_REFUSED, r.origin().kind());
        assertTrue(r.origin().detail().contains("no build stamp"), r.origin().detail());
        assertFalse(Files.exists(cacheDir), "nothing written");
        assertEquals(expected(), diagnose(r));
    }

    @Test
    void brokenRulesAreReportedWithFileAndLineAndNothingIsCached() throws Exception {
        Files.writeString(home.resolve("rules/95-broken.drl"), """
                package triage.broken
                import io.triage.facts.*;
                rule "broken"
                when
                    NoSuchFact( x > 1 )
                then
                end
                """);
        RuleBaseException e = assertThrows(RuleBaseException.class, () -> load(cache("1")));
        assertTrue(e.problems().stream().anyMatch(p -> p.file().equals("95-broken.drl") && p.line() > 0),
                e.problems().toString());
        assertTrue(!Files.isDirectory(cacheDir) || entries().isEmpty());
    }

    @Test
    void theUsersCacheIsUnderXdgCacheHomeElseTheHomesDotCache() {
        assertEquals(Path.of("/x/triage/rulebase"),
                RuleBaseCache.forUser(Map.of("XDG_CACHE_HOME", "/x"), Path.of("/home/u")).dir());
        assertEquals(Path.of("/home/u/.cache/triage/rulebase"),
                RuleBaseCache.forUser(Map.of(), Path.of("/home/u")).dir());
        assertEquals(Path.of("/home/u/.cache/triage/rulebase"),
                RuleBaseCache.forUser(Map.of("XDG_CACHE_HOME", "relative"), Path.of("/home/u")).dir(),
                "a relative XDG_CACHE_HOME is ignored, as the specification says");
    }

    /** Two commands started at once with an empty cache both diagnose right; the next one loads the cache. */
    @Test
    void twoProcessesStartingAtOnceBothGetAGoodRuleBase() throws Exception {
        Path xdg = tmp.resolve("xdg");
        List<Process> ps = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            ps.add(child(xdg));
        }
        List<String> outs = new ArrayList<>();
        for (Process p : ps) {
            outs.add(finish(p));
        }
        String expected = expected();
        for (String out : outs) {
            assertEquals(expected, TestHome.canonicalJson(out.substring(0, out.indexOf("\n--stderr--\n"))));
            assertTrue(out.contains("triage: rules compiled from ") || out.contains("triage: rules loaded from the cache"), out);
        }
        String third = finish(child(xdg));
        assertTrue(third.contains("triage: rules loaded from the cache " + xdg.resolve("triage/rulebase")), third);
        assertEquals(expected, TestHome.canonicalJson(third.substring(0, third.indexOf("\n--stderr--\n"))));
        try (Stream<Path> s = Files.list(xdg.resolve("triage/rulebase"))) {
            assertEquals(List.of(), s.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList(),
                    "no temporary file is left behind");
        }
    }

    private Process child(Path xdg) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(ChildProcess.java("-Xmx512m", "io.triage.cli.Main",
                "--home", home.toString(), "--verbose", "replay", TestHome.fixture(SCENARIO).toString(),
                "--format", "json", "--no-redact"));
        pb.environment().put("XDG_CACHE_HOME", xdg.toString());
        Process p = pb.start();
        p.getOutputStream().close();
        return p;
    }

    /** The child's stdout, a separator line, its stderr; asserts it exited 0. */
    private static String finish(Process p) throws Exception {
        ChildProcess.Result r = ChildProcess.finish(p, java.time.Duration.ofMinutes(5));
        String all = r.out() + "\n--stderr--\n" + r.err();
        assertEquals(0, r.code(), all);
        return all;
    }

    @Test
    void theKeyCoversTheRulesTheKnowledgeAndTheBuildButNotTheScenarios() throws Exception {
        RuleBaseCache c = cache("1");
        Path rules = home.resolve("rules");
        Path kb = home.resolve("knowledge-base");
        String k = c.key(rules, RuleBase.sources(RuleBase.ruleFiles(rules)), kb);
        assertEquals(k, c.key(rules, RuleBase.sources(RuleBase.ruleFiles(rules)), kb), "stable");
        assertFalse(k.equals(cache("2").key(rules, RuleBase.sources(RuleBase.ruleFiles(rules)), kb)));
        Files.createDirectories(kb.resolve("scenarios/x"));
        Files.writeString(kb.resolve("scenarios/x/TRUTH.txt"), "a scenario");
        assertEquals(k, c.key(rules, RuleBase.sources(RuleBase.ruleFiles(rules)), kb), "scenarios are test data, not rules");
        Files.writeString(kb.resolve("thresholds.yaml"), "\n# edited\n", StandardOpenOption.APPEND);
        assertFalse(k.equals(c.key(rules, RuleBase.sources(RuleBase.ruleFiles(rules)), kb)));
    }

    @Test
    void theContentHashComesWithTheRulesAndIsTheHomesWhetherCompiledOrLoaded() {
        RuleBaseCache c = cache("1");
        RuleBase compiled = load(c);
        RuleBase loaded = load(c);
        assertEquals(RuleBase.Origin.Kind.SOURCE_CACHED, compiled.origin().kind());
        assertEquals(RuleBase.Origin.Kind.CACHE, loaded.origin().kind());
        assertEquals(ContentHash.of(home), compiled.contentHash());
        assertEquals(ContentHash.of(home), loaded.contentHash());
        Triage t = Triage.load(home, io.triage.safety.RedactionKey.perProcess(), c);
        assertEquals(ContentHash.of(home), t.contentHash(), "the verdicts name the same hash as without the cache");
        assertEquals(null, RuleBase.load(home.resolve("rules")).contentHash(), "compiled without the cache: none");
    }

    @Test
    void aRuleFileTheContentHashLeavesOutStillChangesTheKey() throws Exception {
        // a rule file under rules/scenarios/ is compiled, but scenarios are not part of the content hash
        Path rules = home.resolve("rules");
        Path kb = home.resolve("knowledge-base");
        Path extra = Files.createDirectories(rules.resolve("scenarios")).resolve("extra.drl");
        Files.writeString(extra, "package triage.rules;\n");
        RuleBaseCache c = cache("1");
        String k = c.key(rules, RuleBase.sources(RuleBase.ruleFiles(rules)), kb);
        String hash = ContentHash.of(home);
        Files.writeString(extra, "package triage.rules;\n// edited\n");
        assertEquals(hash, ContentHash.of(home), "the content hash leaves scenarios out");
        assertFalse(k.equals(c.key(rules, RuleBase.sources(RuleBase.ruleFiles(rules)), kb)), "the key does not");
    }

    @Test
    void theKeyIsOfTheBytesCompiledNotOfWhatTheFileHoldsLater() throws Exception {
        Path rules = home.resolve("rules");
        Path kb = home.resolve("knowledge-base");
        RuleBaseCache c = cache("1");
        Map<Path, byte[]> read = RuleBase.sources(RuleBase.ruleFiles(rules));
        String k = c.key(rules, read, kb);
        Path first = read.keySet().iterator().next();
        Files.writeString(first, "\n// edited after it was read\n", StandardOpenOption.APPEND);
        assertEquals(k, c.key(rules, read, kb), "the bytes read, not the file as it is now");
        assertFalse(k.equals(c.key(rules, RuleBase.sources(RuleBase.ruleFiles(rules)), kb)));
    }
}
