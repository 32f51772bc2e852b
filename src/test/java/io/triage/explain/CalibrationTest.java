package io.triage.explain;

import io.triage.TestHome;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Confidence means something: over every scenario the repository carries (the shipped ones, the captures from
 * real GPU hosts, the field evidence, the blind sets) and any named by {@code TRIAGE_EXTRA_SCENARIOS}, a verdict
 * reported with high confidence is the scenario's own cause. The confusion of confidence against being right
 * is printed, so a change that moves it shows in the build's output.
 */
class CalibrationTest {

    @Test
    void aHighVerdictIsNeverWrongOnAnyScenario() throws Exception {
        List<Path> roots = new ArrayList<>(List.of(TestHome.SCENARIOS));
        if (TestHome.EXTRA_SCENARIOS != null && Files.isDirectory(TestHome.EXTRA_SCENARIOS)) {
            roots.add(TestHome.EXTRA_SCENARIOS);
        }
        Calibration c = new Calibration();
        for (Path root : roots) {
            List<Path> dirs;
            try (Stream<Path> s = Files.walk(root)) {
                dirs = s.filter(p -> Files.isRegularFile(p.resolve("expected.txt"))).sorted().toList();
            }
            for (Path dir : dirs) {
                Diagnosis d = TestHome.triage().replay(dir, Map.of());
                c.add(root.relativize(dir).toString(), Expectation.read(dir), d);
            }
        }
        System.out.println("confidence against the scenarios' causes (" + c.entries().size() + " scenarios):\n"
                + c.render() + "accepted alternatives at high confidence: " + c.highButAccepted());
        assertTrue(c.entries().size() >= 100, "scenarios scored: " + c.entries().size());
        assertEquals(List.of(), c.highButWrong(), "verdicts at high confidence the scenario neither expects nor accepts");
    }

    @Test
    void theTableCountsEachOutcomeUnderTheConfidenceReported() throws Exception {
        Calibration c = new Calibration();
        Expectation hung = expectation("cause=hung subtype=idle accept=busy");
        c.add("right", hung, TestHome.triage().replay(TestHome.SCENARIOS.resolve("24-hung-idle-sglang-deadlock"), Map.of()));
        Expectation wrong = expectation("cause=crash");
        c.add("wrong", wrong, TestHome.triage().replay(TestHome.SCENARIOS.resolve("24-hung-idle-sglang-deadlock"), Map.of()));
        Expectation accepted = expectation("cause=crash accept=hung");
        c.add("accepted", accepted, TestHome.triage().replay(TestHome.SCENARIOS.resolve("24-hung-idle-sglang-deadlock"), Map.of()));
        assertEquals(List.of(Calibration.Outcome.RIGHT, Calibration.Outcome.WRONG, Calibration.Outcome.ACCEPTED),
                c.entries().stream().map(Calibration.Entry::outcome).toList());
        assertEquals("high", c.entries().get(0).confidence(), "the full capture of a deadlock is decided");
        assertEquals(Map.of(Calibration.Outcome.RIGHT, 1, Calibration.Outcome.ACCEPTED, 1, Calibration.Outcome.WRONG, 1,
                Calibration.Outcome.ABSTAINED, 0), c.table().get("high"));
        assertEquals(List.of("wrong"), c.highButWrong().stream().map(Calibration.Entry::scenario).toList());
        assertEquals(List.of("accepted"), c.highButAccepted().stream().map(Calibration.Entry::scenario).toList());
    }

    @Test
    void aConfidenceTheScenarioGivesIsChecked() throws Exception {
        Diagnosis d = TestHome.triage().replay(TestHome.SCENARIOS.resolve("24-hung-idle-sglang-deadlock"), Map.of());
        assertEquals(List.of(), expectation("cause=hung confidence=" + d.confidence()).failures(d));
        assertEquals(List.of("confidence of hung/idle (" + d.confidence() + "), expected low"),
                expectation("cause=hung confidence=low").failures(d));
    }

    private static Expectation expectation(String line) throws IOException {
        Path dir = Files.createTempDirectory("expectation");
        Files.writeString(dir.resolve("expected.txt"), line);
        try {
            return Expectation.read(dir);
        } finally {
            Files.delete(dir.resolve("expected.txt"));
            Files.delete(dir);
        }
    }
}
