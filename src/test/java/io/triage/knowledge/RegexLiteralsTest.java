package io.triage.knowledge;

import org.junit.jupiter.api.Test;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegexLiteralsTest {
    @Test
    void takesTheLongestLiteralOutsideGroups() {
        assertEquals("The server is fired up and ready to roll", RegexLiterals.requiredLiteral("The server is fired up and ready to roll"));
        assertEquals("server_args=ServerArgs(", RegexLiterals.requiredLiteral("\\bserver_args=ServerArgs\\("));
        assertEquals(" Load weight begin", RegexLiterals.requiredLiteral("\\d Load weight begin\\b"));
    }

    @Test
    void dropsCharactersMadeOptionalByAQuantifier() {
        assertEquals("Init torch distributed end", RegexLiterals.requiredLiteral("Init torch distributed ends?"));
        assertEquals("Traceback", RegexLiterals.requiredLiteral("Tracebackx*"));
    }

    @Test
    void alternationGivesOneLiteralPerBranchAndCaseFoldingLowerCasesThem() {
        assertEquals(java.util.List.of("foo", "barbaz"), RegexLiterals.prefilter("foo|barbaz").literals());
        assertEquals(java.util.List.of("Memory profiling", "Starting profile run"),
                RegexLiterals.prefilter("(?:\\bMemory profiling\\b|\\bStarting profile run\\b)").literals());
        RegexLiterals.Prefilter ci = RegexLiterals.prefilter("(?i)(?:\\[Errno 98\\]|EADDRINUSE)");
        assertTrue(ci.caseless());
        assertEquals(java.util.List.of("[errno 98]", "eaddrinuse"), ci.literals());
        assertTrue(ci.mayMatch("OSError: [ERRNO 98] x", "oserror: [errno 98] x"));
    }

    @Test
    void givesNoneWhenABranchOrTheWholePatternHasNoSafeLiteral() {
        assertNull(RegexLiterals.prefilter("foo|\\d+"));
        assertNull(RegexLiterals.prefilter("(a|b)c"));
        assertNull(RegexLiterals.prefilter("x(?i:killed)"));
        assertNull(RegexLiterals.prefilter("(?:Killed)?\\s+\\d"));
    }

    @Test
    void theLiteralIsInEveryLineAShippedMarkerMatches() throws java.io.IOException {
        KnowledgeBase kb = KnowledgeBase.load(io.triage.TestHome.HOME.resolve("knowledge-base"));
        java.util.List<String> lines = new java.util.ArrayList<>();
        for (java.nio.file.Path root : new java.nio.file.Path[] {io.triage.TestHome.FIXTURES, io.triage.TestHome.SCENARIOS}) {
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
        int checked = 0;
        for (Marker m : kb.markers()) {
            for (String line : lines) {
                if (m.pattern().matcher(line).find()) {
                    checked++;
                    assertTrue(m.mayMatch(line, line.toLowerCase(java.util.Locale.ROOT)),
                            m.id() + ": prefilter " + m.prefilter() + " rejects a line the regex matches: " + line);
                }
            }
        }
        assertTrue(checked > 20, "matches checked: " + checked);
    }
}
