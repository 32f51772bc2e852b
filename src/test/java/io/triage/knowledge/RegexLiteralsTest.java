package io.triage.knowledge;

import org.junit.jupiter.api.Test;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegexLiteralsTest {
    @Test
    void takesTheLongestLiteralOutsideGroups() {
        assertEquals(java.util.List.of("The server is fired up and ready to roll"), lits("The server is fired up and ready to roll"));
        assertEquals(java.util.List.of("server_args=ServerArgs("), lits("\\bserver_args=ServerArgs\\("));
        assertEquals(java.util.List.of(" Load weight begin"), lits("\\d Load weight begin\\b"));
    }

    @Test
    void dropsCharactersMadeOptionalByAQuantifier() {
        assertEquals(java.util.List.of("Init torch distributed end"), lits("Init torch distributed ends?"));
        assertEquals(java.util.List.of("Traceback"), lits("Tracebackx*"));
    }

    private static java.util.List<String> lits(String regex) {
        return RegexLiterals.prefilter(regex).literals();
    }

    @Test
    void alternationGivesOneLiteralPerBranchAndCaseFoldingLowerCasesThem() {
        assertEquals(java.util.List.of("foo", "barbaz"), RegexLiterals.prefilter("foo|barbaz").literals());
        assertEquals(java.util.List.of("Memory profiling", "Starting profile run"),
                RegexLiterals.prefilter("(?:\\bMemory profiling\\b|\\bStarting profile run\\b)").literals());
        RegexLiterals.Prefilter ci = RegexLiterals.prefilter("(?i)(?:\\[Errno 98\\]|EADDRINUSE)");
        assertTrue(ci.caseless());
        assertEquals(java.util.List.of("[errno 98]", "eaddrinuse"), ci.literals());
    }

    @Test
    void givesNoneWhenABranchOrTheWholePatternHasNoSafeLiteral() {
        assertNull(RegexLiterals.prefilter("foo|\\d+"));
        assertNull(RegexLiterals.prefilter("(a|b)c"));
        assertNull(RegexLiterals.prefilter("x(?i:killed)"));
        assertNull(RegexLiterals.prefilter("(?:Killed)?\\s+\\d"));
    }

    @Test
    void theLiteralIndexOffersEveryMarkerThatMatchesALine() throws java.io.IOException {
        KnowledgeBase kb = KnowledgeBase.load(io.triage.TestHome.HOME.resolve("knowledge-base"));
        java.util.List<String> lines = new java.util.ArrayList<>();
        for (java.nio.file.Path root : new java.nio.file.Path[] {io.triage.TestHome.SCENARIOS}) {
            if (!java.nio.file.Files.isDirectory(root)) {
                continue;
            }
            try (java.util.stream.Stream<java.nio.file.Path> s = java.nio.file.Files.walk(root)) {
                for (java.nio.file.Path f : s.filter(f -> f.toString().endsWith(".out")).toList()) {
                    for (String line : new String(java.nio.file.Files.readAllBytes(f), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
                        lines.add(line.replaceFirst("^\\d+:", ""));
                    }
                }
            }
        }
        assertTrue(lines.size() > 100, "lines read: " + lines.size());
        // the index production uses must offer every marker whose regex matches (windows, case folding,
        // per-branch markers and all): a marker it skips is a line silently misread
        LiteralIndex index = new LiteralIndex(kb.markers());
        int checked = 0;
        for (String line : lines) {
            java.util.BitSet candidates = index.candidates(line);
            for (int i = 0; i < kb.markers().size(); i++) {
                Marker m = kb.markers().get(i);
                if (m.pattern().matcher(line).find()) {
                    checked++;
                    assertTrue(candidates.get(i), m.id() + ": the literal index skips a line the regex matches: " + line);
                }
            }
        }
        assertTrue(checked > 20, "matches checked: " + checked);

        // and offers exactly the markers a plain substring search finds: one of a marker's literals (its first 16
        // characters), ASCII letters in any case, or a marker without usable literals, always
        java.util.List<String> probes = new java.util.ArrayList<>(lines);
        probes.addAll(java.util.List.of("", "CUDA OUT OF MEMORY", "é Killed process ü", "Traceback (most recent call last):"));
        for (String line : probes) {
            StringBuilder folded = new StringBuilder(line.length());
            for (char c : line.toCharArray()) {
                folded.append(c >= 'A' && c <= 'Z' ? (char) (c + 32) : c);
            }
            java.util.BitSet expected = new java.util.BitSet();
            for (int i = 0; i < kb.markers().size(); i++) {
                RegexLiterals.Prefilter p = kb.markers().get(i).prefilter();
                if (p == null || p.literals().stream().anyMatch(l -> !l.chars().allMatch(ch -> ch < 128))) {
                    expected.set(i);
                    continue;
                }
                for (String l : p.literals()) {
                    String w = l.toLowerCase(java.util.Locale.ROOT);
                    if (folded.indexOf(w.length() > 16 ? w.substring(0, 16) : w) >= 0) {
                        expected.set(i);
                    }
                }
            }
            assertEquals(expected, index.candidates(line), line);
        }
    }
}
