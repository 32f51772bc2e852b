package io.triage.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.triage.TestHome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RulesCoverageTest {
    @TempDir
    Path tmp;

    private record Run(int code, String out, String err) { }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    private Path set(String... scenarios) throws IOException {
        Path root = Files.createDirectories(tmp.resolve("set-" + scenarios.length));
        for (String s : scenarios) {
            Path to = Files.createDirectories(root.resolve(s));
            try (Stream<Path> files = Files.list(TestHome.fixture(s))) {
                for (Path f : files.toList()) {
                    Files.copy(f, to.resolve(f.getFileName()));
                }
            }
        }
        return root;
    }

    private static JsonNode threshold(JsonNode doc, String name) {
        for (JsonNode t : doc.path("coverage").path("thresholds")) {
            if (t.path("name").asText().equals(name)) {
                return t;
            }
        }
        throw new AssertionError(name + " not reported: " + doc);
    }

    private static List<String> strings(JsonNode arr) {
        List<String> l = new ArrayList<>();
        arr.forEach(n -> l.add(n.asText()));
        return l;
    }

    @Test
    void aThresholdIsTestedOnBothSidesOnlyWhenScenariosFallOnEach() throws Exception {
        Path fastOnly = set("44-health-fast-0.05s-healthy");
        Run one = run("--home", TestHome.HOME.toString(), "rules", "test", "--coverage", fastOnly.toString());
        assertEquals(0, one.code(), one.out() + one.err());
        assertTrue(one.out().contains("coverage over 1 scenarios"), one.out());
        assertTrue(one.out().contains("healthSlowSeconds = 2: 1 / 0  NOT TESTED above"), one.out());

        Path both = set("44-health-fast-0.05s-healthy", "43-health-slow-3.5s-busy");
        Run two = run("--home", TestHome.HOME.toString(), "rules", "test", "--coverage", "--json", both.toString());
        assertEquals(0, two.code(), two.out() + two.err());
        JsonNode doc = new ObjectMapper().readTree(two.out());
        assertEquals(2, doc.path("passed").asInt());
        assertEquals(2, doc.path("coverage").path("scenarios").asInt());
        JsonNode slow = threshold(doc, "healthSlowSeconds");
        assertEquals(1, slow.path("atOrBelow").asInt());
        assertEquals(1, slow.path("above").asInt());
        assertTrue(slow.path("bothSides").asBoolean());
        // two scenarios leave most of the knowledge untested, and say which
        List<String> causes = strings(doc.path("coverage").path("causesNotExpected"));
        assertTrue(causes.contains("oom-killer") && !causes.contains("healthy") && !causes.contains("busy"), causes.toString());
        List<String> never = strings(doc.path("coverage").path("rules").path("neverFired"));
        assertTrue(never.stream().anyMatch(r -> r.startsWith("\"OOM killer killed the server\" (30-hypotheses.drl:")), never.toString());
        assertFalse(never.stream().anyMatch(r -> r.startsWith("\"health answers slowly\"")), "fired by the slow scenario");
        assertFalse(never.stream().anyMatch(r -> r.startsWith("\"health answers fast\"")), "fired by the fast scenario");
        List<String> markers = strings(doc.path("coverage").path("markers").path("neverMatched"));
        assertTrue(markers.contains("common.cuda-out-of-memory"), markers.toString());
        assertTrue(strings(doc.path("coverage").path("subtypesNotExpected")).contains("crash/cuda-oom"));
    }

    @Test
    void theShippedScenariosTestEveryTimeThresholdTheyMeasureOnBothSides() throws Exception {
        Run r = run("--home", TestHome.HOME.toString(), "rules", "test", "--coverage", "--json");
        JsonNode doc = new ObjectMapper().readTree(r.out());
        JsonNode cov = doc.path("coverage");
        assertTrue(cov.path("scenarios").asInt() > 50, r.out());
        for (String t : List.of("healthSlowSeconds", "logStalledSeconds", "progressRecentSeconds", "loadingRecentSeconds")) {
            assertTrue(threshold(doc, t).path("bothSides").asBoolean(), t + ": " + threshold(doc, t));
        }
        assertTrue(cov.path("causesNotExpected").isEmpty(), "every cause has a scenario: " + cov.path("causesNotExpected"));
        List<String> never = strings(cov.path("rules").path("neverFired"));
        assertFalse(never.stream().anyMatch(n -> n.startsWith("\"OOM killer killed the server\"")), never.toString());
        assertTrue(cov.path("rules").path("total").asInt() > never.size());
        assertTrue(cov.path("markers").path("total").asInt() > cov.path("markers").path("neverMatched").size());
    }
}
