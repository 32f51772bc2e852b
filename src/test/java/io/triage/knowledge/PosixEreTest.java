package io.triage.knowledge;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** RE2 patterns as POSIX EREs, checked with the host's own {@code grep -E}: never stricter than the pattern. */
class PosixEreTest {
    private static boolean grep(String ere, String line) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("grep", "-q", "-E", "--", ere).redirectErrorStream(true).start();
        p.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        assertTrue(p.exitValue() <= 1, "grep refused the ERE " + ere);
        return p.exitValue() == 0;
    }

    @Test
    void everyLineTheRe2PatternMatchesTheEreMatchesToo() throws Exception {
        List<String[]> cases = List.of(
                new String[] {"\\bvllm serve\\b", "/usr/bin/python3 /venv/bin/vllm serve m --port 8000", "vllm bench serve"},
                new String[] {"(?i)\\btgi\\b|triton", "ghcr.io/huggingface/TGI:3.0", "tgx"},
                new String[] {"^(?:\\S*/)?(?:curl|wget)(?:\\s|$)", "/usr/bin/curl -s x", "python curl.py"},
                new String[] {"Loading \\w+ checkpoint shards:\\s+(?<percent>\\d+)% Completed \\| \\d+/\\d+",
                        "Loading safetensors checkpoint shards:  45% Completed | 9/20", "Loading safetensors shards"},
                new String[] {"took [\\d.]+ ?Gi?B", "took 13.5 GiB", "took much"},
                new String[] {"a.*?b{2,3}", "axxbb", "ab"},
                new String[] {"[^\\]x-]+=", "key=", "x="},
                new String[] {"\\(\\[\\^\\$\\|\\{", "([^$|{", "(["});
        for (String[] c : cases) {
            String ere = PosixEre.translate(c[0]).orElseThrow(() -> new AssertionError("no POSIX form for " + c[0]));
            LinePattern re2 = LinePattern.compile(c[0], List.of());
            assertTrue(re2.find(c[1]) != null && grep(ere, c[1]), c[0] + " → " + ere + " on " + c[1]);
            assertEquals(re2.find(c[2]) != null, grep(ere, c[2]), c[0] + " → " + ere + " on " + c[2]);
        }
    }

    @Test
    void aWordBoundaryIsDroppedWhichIsLooserNeverStricter() throws Exception {
        String ere = PosixEre.translate("\\bvllm serve\\b").orElseThrow();
        assertEquals("vllm serve", ere);
        assertTrue(grep(ere, "vllm served"), "looser: the client's full pattern decides");
    }

    @Test
    void whatPosixCannotSayFallsBackToTheLiteralsAndNeverToNothing() throws Exception {
        // a case-insensitive class with letters, an inline flag mid-pattern, a \p class: no POSIX form
        for (String r : List.of("(?i)error: [a-z]+ failed", "oom (?i:killed) process", "\\pL+ exploded")) {
            assertTrue(PosixEre.translate(r).isEmpty(), r);
        }
        String union = PosixEre.union(List.of("(?i)error: [a-z]+ failed", "\\pL+ exploded"));
        assertTrue(grep(union, "ERROR: disk failed"), union);
        assertTrue(grep(union, "Reactor exploded"), union);
        assertTrue(!grep(union, "all fine"), union);
    }
}
