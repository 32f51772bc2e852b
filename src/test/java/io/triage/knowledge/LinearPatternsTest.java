package io.triage.knowledge;

import io.triage.TestHome;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The knowledge base's regexes are RE2: checked at load, and the fast path means the same. */
class LinearPatternsTest {
    private static Path copyWithMarker(Path tmp, String id, String pattern) throws IOException {
        Path src = TestHome.HOME.resolve("knowledge-base");
        try (Stream<Path> s = Files.walk(src)) {
            for (Path p : s.toList()) {
                Path rel = src.relativize(p);
                if (rel.startsWith("scenarios")) {
                    continue;
                }
                Path to = tmp.resolve(rel.toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
        }
        Files.writeString(tmp.resolve("markers/common.yaml"), "\n  - id: " + id + "\n    kind: ready\n    pattern: '"
                + pattern + "'\n", StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
        return tmp;
    }

    @Test
    void aPatternTheLinearEngineCannotCompileIsRefusedWithFileAndEntry(@org.junit.jupiter.api.io.TempDir Path tmp)
            throws IOException {
        for (String bad : List.of("Shard (?!9)\\d+ ready", "(?<=x)ready", "(a)\\1 ready", "ready(?>ab|a)", "a++ready")) {
            Path dir = Files.createDirectories(tmp.resolve("kb" + Math.abs(bad.hashCode())));
            KnowledgeException e = assertThrows(KnowledgeException.class,
                    () -> KnowledgeBase.load(copyWithMarker(dir, "common.test-bad", bad.replace("'", "''"))));
            assertTrue(e.getMessage().contains("common.yaml") && e.getMessage().contains("common.test-bad")
                    && e.getMessage().contains("linear-time engine"), e.getMessage());
        }
    }

    @Test
    void bothNamedGroupSpellingsAreRead(@org.junit.jupiter.api.io.TempDir Path tmp) throws IOException {
        KnowledgeBase kb = KnowledgeBase.load(copyWithMarker(tmp, "common.test-python-group",
                "Serving on port (?P<port>\\d+) as (?<pid>\\d+)"));
        Marker m = kb.markers().stream().filter(x -> x.id().equals("common.test-python-group")).findFirst().orElseThrow();
        assertEquals(List.of("pid", "port"), m.groups().stream().sorted().toList());
        LinePattern.Match match = m.pattern().find("INFO Serving on port 8000 as 4242");
        assertEquals("8000", match.group("port"));
        assertEquals("4242", match.group("pid"));
        assertNotNull(m.prefilter(), "a (?P<…>) group does not hide the pattern's literals");
    }

    @Test
    void aPatternCompiledAtFirstUseFindsWhatOneCompiledAtOnceFinds() {
        List<String> lines = List.of("INFO 12-01 06:00:01 Avg prompt throughput: 0.0 tokens/s, Running: 3 reqs",
                "Serving on port 8000 as 4242", "torch.OutOfMemoryError: CUDA out of memory", "", "Ã©Ã¨ µ █ …",
                "x".repeat(LinePattern.FAST_MAX + 10) + " Running: 7 reqs");
        for (String regex : List.of("Running: (?<v>\\d+) reqs", "(?i)out of memory", "port (?P<port>\\d+) as (?<pid>\\d+)",
                "\\bµ\\b", "^$")) {
            LinePattern now = LinePattern.compile(regex, List.of("v", "port", "pid"));
            LinePattern later = LinePattern.deferred(regex, now.groups());
            assertEquals(now.groups(), later.groups());
            for (String line : lines) {
                LinePattern.Shape shape = LinePattern.shape(line);
                assertEquals(show(now.find(line, shape)), show(later.find(line, shape)), regex + " on " + line);
                assertEquals(now.cost(line.length(), shape), later.cost(line.length(), shape));
                assertEquals(show(now.linearOnly().find(line)), show(later.linearOnly().find(line)));
            }
            assertEquals(now.programSize(), later.programSize());
        }
    }

    private static String show(LinePattern.Match m) {
        return m == null ? "no match" : m.names() + "=" + Arrays.toString(m.values());
    }

    @Test
    void theRewrittenLookAroundsKeepTheirMeaning() {
        // old (JDK, look-around) and new (RE2) on the lines that tell them apart
        same("(?:\\[Errno 12\\] Cannot allocate memory|std::bad_alloc|(?<![\\w.])MemoryError(?::|\\s*$))",
                "(?:\\[Errno 12\\] Cannot allocate memory|std::bad_alloc|(?:^|[^\\w.])MemoryError(?::|\\s*$))",
                "MemoryError", "MemoryError: x", " MemoryError  ", "torch.MemoryError: x", "OutOfMemoryError: x",
                "xMemoryError", "[rank0]: MemoryError", "MemoryErrors", "std::bad_alloc");
        same("\\b(?:Shard|Download) process was signaled to shutdown with signal (?!9\\b)(?<signo>\\d+)",
                "\\b(?:Shard|Download) process was signaled to shutdown with signal (?<signo>[0-8]\\d*|9\\d+)",
                "Shard process was signaled to shutdown with signal 9", "Shard process was signaled to shutdown with signal 15",
                "Download process was signaled to shutdown with signal 90", "Shard process was signaled to shutdown with signal 9 ",
                "Shard process was signaled to shutdown with signal 2: x", "Shard process was signaled to shutdown with signal 09");
        same("\\b(?:Starting to load model\\b|Loading model weights(?! took)|Using model weights format\\b)",
                "\\b(?:Starting to load model\\b|Loading model weights(?:$|[^ ]| (?:$|[^t]|t(?:$|[^o]|o(?:$|[^o]|o(?:$|[^k])))))|Using model weights format\\b)",
                "Loading model weights", "Loading model weights took 14.9 GB", "Loading model weights...",
                "Loading model weights t", "Loading model weights to", "Loading model weights too", "Loading model weights tool",
                "Loading model weights to GPU", "Loading model weights  took", "Loading model weights toxk");
    }

    private static void same(String old, String now, String... lines) {
        java.util.regex.Pattern o = java.util.regex.Pattern.compile(old);
        LinePattern n = LinePattern.compile(now, now.contains("?<signo>") ? List.of("signo") : List.of()).linearOnly();
        for (String l : lines) {
            java.util.regex.Matcher m = o.matcher(l);
            boolean found = m.find();
            LinePattern.Match f = n.find(l);
            assertEquals(found, f != null, now + " on '" + l + "'");
            if (found && now.contains("?<signo>")) {
                assertEquals(m.group("signo"), f.group("signo"), l);
            }
        }
    }

    @Test
    void theFastPathAndTheLinearEngineAgreeOnEveryScenarioLine() throws IOException {
        KnowledgeBase kb = TestHome.triage().knowledge();
        List<String> lines = new ArrayList<>();
        try (Stream<Path> s = Files.walk(TestHome.SCENARIOS)) {
            for (Path f : s.filter(f -> f.toString().endsWith(".out")).toList()) {
                for (String l : Files.readString(f, StandardCharsets.UTF_8).split("\n")) {
                    lines.add(l.replaceFirst("^\\d+:", ""));
                }
            }
        }
        assertTrue(lines.size() > 1000, "lines: " + lines.size());
        int matches = 0;
        // only where the literal index sends a line (a marker it skips matches under neither: RegexLiteralsTest)
        LiteralIndex index = new LiteralIndex(kb.markers());
        for (String l : lines) {
            java.util.BitSet candidates = index.candidates(l);
            for (int i = candidates.nextSetBit(0); i >= 0; i = candidates.nextSetBit(i + 1)) {
                Marker m = kb.markers().get(i);
                LinePattern linear = m.pattern().linearOnly();
                LinePattern.Match a = m.pattern().find(l);
                LinePattern.Match b = linear.find(l);
                assertEquals(b == null, a == null, m.id() + " on " + l);
                if (a != null) {
                    matches++;
                    assertEquals(Arrays.asList(b.values()), Arrays.asList(a.values()), m.id() + " groups on " + l);
                }
            }
        }
        assertTrue(matches > 200, "matches compared: " + matches);
    }

    @Test
    void aSearchBeginsAtTheLiteralEveryMatchBeginsWith() {
        assertEquals(List.of("couldn't bind"), List.of(LinePattern.startLiterals("\\bcouldn't bind\\b")));
        assertEquals(List.of("systemd[", "Started"), List.of(LinePattern.startLiterals("(?:\\bsystemd\\[|\\bStarted)\\d")));
        assertEquals(List.of("Web", "Error: Web"), List.of(LinePattern.startLiterals("\\bWebs?x|\\bError: Web(?:Failed)")));
        assertEquals(List.of("ab"), List.of(LinePattern.startLiterals("abc*")), "a starred character is not required");
        assertEquals(List.of("abc"), List.of(LinePattern.startLiterals("abc+d")), "a repeated one is, once");
        for (String none : new String[] {"(?i)\\bfoo", "^foo", "[a-z]foo", "(?:foo)?bar", "\\d+ foo", "foo|[ab]",
                "f", "(?<name>foo)", "(?:foo|bar", "\\bé", "ab(?i)cd|ef", "(?:ab(?i)cd|ef)gh", "ab\\Q(\\E|cd\\Q)\\E"}) {
            assertEquals(null, LinePattern.startLiterals(none), none);
        }
        // where the literal first occurs without the word boundary, the search goes on to a later occurrence;
        // and a match of one branch is found beside an earlier occurrence of another
        LinePattern p = LinePattern.compile("(?:\\bKilled process (?<pid>\\d+)|\\boom-kill:.*pid=(?<pid2>\\d+))",
                List.of("pid", "pid2"));
        for (String line : new String[] {"xKilled process 1 Killed process 22", "oom-kill:x pid= Killed process 7",
                "Killed process", "no such thing", "aoom-kill: pid=3 oom-kill: pid=4"}) {
            LinePattern.Match a = p.find(line);
            LinePattern.Match b = p.linearOnly().find(line);
            assertEquals(b == null, a == null, line);
            if (a != null) {
                assertEquals(Arrays.asList(b.values()), Arrays.asList(a.values()), line);
            }
        }
        assertEquals("22", p.find("xKilled process 1 Killed process 22").group("pid"));
        // a flag after the start carries into the next branch: such a regex searches from the line's start
        LinePattern flagged = LinePattern.compile("ab(?i)cd|ef", List.of());
        assertTrue(flagged.find("xx EF") != null, "a later branch made caseless by a flag before it is still found");
    }

    @Test
    void aLineThatWouldMakeTheJdkBacktrackIsDecidedByTheLinearEngine() {
        LinePattern p = LinePattern.compile("^(?:[A-Za-z_]\\w*\\.)*[A-Z]\\w*Error(?::\\s*(?<message>.*))?$", List.of("message"));
        String dotted = "a.".repeat(LinePattern.FAST_MAX / 2 - 10) + "x";
        assertNull(p.find(dotted));
        assertEquals("boom", p.find("a.".repeat(500) + "ValueError: boom").group("message"));
    }

    @Test
    void linesWithCharactersBeyondAsciiTakeTheFastPathOnlyWhereBothEnginesReadThemAlike() {
        assertEquals(LinePattern.Shape.PLAIN, LinePattern.shape("INFO 12-01 loading 3/4"));
        assertEquals(LinePattern.Shape.SYMBOLS, LinePattern.shape("Capturing CUDA graphs: 100%|██████████| 67/67 …"));
        assertEquals(LinePattern.Shape.LETTERS, LinePattern.shape("time_per_token=\"50.1µs\""));
        assertEquals(LinePattern.Shape.OTHER, LinePattern.shape("a long \u017F in it"), "RE2 folds it onto s");
        assertEquals(LinePattern.Shape.OTHER, LinePattern.shape("a Kelvin \u212A sign"), "RE2 folds it onto k");
        assertEquals(LinePattern.Shape.OTHER, LinePattern.shape("e\u0301 (a mark the JDK counts into a word)"));
        assertEquals(LinePattern.Shape.OTHER, LinePattern.shape("nbsp\u00a0here"));
        assertEquals(LinePattern.Shape.OTHER, LinePattern.shape("x".repeat(LinePattern.FAST_MAX + 1)));
        String[] patterns = {"\\bbus\\b", "(?i)^s", "(?i)^kill", "(?i)\\bkill\\b", "\\w+s\\b", "[^a-z]+", "(?i)[a-z]+s",
                "\\S+s", "tok.n", "^\\W"};
        String[] lines = {"µs bus", "aµs", "µbus", "busµ", "BUS █ bus", "█bus█", "\u017Fbus", "\u212Aill", "kill \u212Aill",
                "token tok█n", "e\u0301bus", "\u017F", "50.1µs", "…s", "µ"};
        int disagreements = 0;
        for (String regex : patterns) {
            LinePattern p = LinePattern.compile(regex, List.of());
            java.util.regex.Pattern jdk = java.util.regex.Pattern.compile(regex, java.util.regex.Pattern.UNIX_LINES);
            for (String line : lines) {
                boolean re2 = p.linearOnly().find(line) != null;
                if (jdk.matcher(line).find() != re2) {
                    disagreements++; // the hazard is real on this line: the shape must keep it off the JDK path
                }
                assertEquals(re2, p.find(line) != null, regex + " on " + line + " (" + LinePattern.shape(line) + ")");
            }
        }
        assertTrue(disagreements >= 3, "the lines include ones the engines read differently: " + disagreements);
    }

    @Test
    void aWordBoundaryOnALineOfLettersBeyondAsciiIsReadAsRe2ReadsItOnTheFastPath() {
        // TGI's µs: to the JDK a word character, to RE2 not; the JDK is shown it as a symbol, groups as they are
        LinePattern p = LinePattern.compile("\\btime_per_token=\"(?<v>[^\"]+)\"\\s+(?<w>\\w+)\\b", List.of("v", "w"));
        String line = "INFO time_per_token=\"50.1µs\" queueµ ok";
        assertEquals(LinePattern.Shape.LETTERS, LinePattern.shape(line));
        assertEquals(line.length() + 1L, p.cost(line.length(), LinePattern.Shape.LETTERS), "the JDK's path, priced as such");
        assertFalse(java.util.regex.Pattern.compile(p.pattern()).matcher(line).find(),
                "to the JDK as it reads µ, queue is glued to it: no word boundary");
        LinePattern.Match fast = p.find(line);
        LinePattern.Match linear = p.linearOnly().find(line);
        assertNotNull(linear, "to RE2 µ is no word character: a boundary after queue");
        assertEquals("50.1µs", fast.group("v"), "a group's value is the line's own text, µ and all");
        assertEquals(Arrays.asList(linear.values()), Arrays.asList(fast.values()));
        assertEquals("queue", fast.group("w"));
    }

    /**
     * The literal gate a search runs first turns away no line the pattern matches: every pattern of the cadence
     * and the parsers, on every distinct line of every scenario (as is, and for a caseless one with its letters' case
     * swapped too), finds
     * with the gate what it finds without. (The markers' gate is the literal index's, looked at above, on the lines
     * that index lets through; {@link RegexLiteralsTest} holds the literals to the regexes.)
     */
    @Test
    void theLiteralGateTurnsAwayNoLineThePatternMatches() throws IOException {
        KnowledgeBase kb = KnowledgeBase.load(TestHome.HOME.resolve("knowledge-base")); // no rules needed
        List<LinePattern> patterns = new ArrayList<>();
        for (String kind : List.of("vllm", "sglang", "tgi", "llamacpp", "triton", "ollama", "lmdeploy")) {
            kb.cadence().server(kind).ifPresent(c -> Stream.of(c.running(), c.waiting(), c.throughput(), c.prompt())
                    .filter(java.util.Objects::nonNull).forEach(patterns::add));
        }
        io.triage.parse.PatternInventory.parsers().stream().filter(e -> e.compiled() instanceof LinePattern)
                .forEach(e -> patterns.add((LinePattern) e.compiled()));
        java.util.Set<String> lines = new java.util.LinkedHashSet<>();
        java.util.Set<String> swappedLines = new java.util.LinkedHashSet<>();
        try (Stream<Path> s = Files.walk(TestHome.SCENARIOS)) {
            for (Path f : s.filter(f -> f.toString().endsWith(".out")).toList()) {
                for (String l : Files.readString(f, StandardCharsets.UTF_8).split("\n")) {
                    String line = l.replaceFirst("^\\d+:", "");
                    lines.add(line);
                    StringBuilder swapped = new StringBuilder(line.length());
                    line.chars().forEach(c -> swapped.append((char) (Character.isUpperCase(c) ? Character.toLowerCase(c)
                            : Character.toUpperCase(c))));
                    swappedLines.add(swapped.toString());
                }
            }
        }
        int matched = 0;
        int turnedAway = 0;
        for (LinePattern p : patterns) {
            LinePattern bare = p.ungated();
            List<String> tried = new ArrayList<>(lines);
            if (p.pattern().startsWith("(?i)")) {
                tried.addAll(swappedLines); // a caseless gate: the line's case must not matter to it either
            }
            for (String line : tried) {
                LinePattern.Match a = p.find(line);
                LinePattern.Match b = bare.find(line);
                assertEquals(b == null, a == null, p.pattern() + " on " + line);
                if (a != null) {
                    matched++;
                    assertEquals(Arrays.asList(b.values()), Arrays.asList(a.values()), p.pattern() + " on " + line);
                } else {
                    turnedAway++;
                }
            }
        }
        assertTrue(patterns.size() > 10 && matched > 1000 && turnedAway > 100_000,
                patterns.size() + " patterns, " + matched + " matches, " + turnedAway + " misses");
    }
}
