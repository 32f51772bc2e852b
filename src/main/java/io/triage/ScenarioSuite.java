package io.triage;

import io.triage.capture.CaptureException;
import io.triage.explain.Diagnosis;
import io.triage.explain.Expectation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Every scenario (a capture directory with its {@code expected.txt}) under some roots, replayed by one product and
 * held to its expectation: what {@code triage rules test} runs and what a strict reload must pass.
 */
public final class ScenarioSuite {
    /** The outcome: how many passed, and each failing scenario with what moved. */
    public record Result(int passed, Map<Path, List<String>> failed) {
        public boolean ok() {
            return failed.isEmpty();
        }
    }

    private ScenarioSuite() {
    }

    /** The scenario directories under {@code roots}, sorted. */
    public static List<Path> find(List<Path> roots) {
        List<Path> out = new ArrayList<>();
        for (Path root : roots) {
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> s = Files.walk(root)) {
                out.addAll(s.filter(p -> Files.isRegularFile(p.resolve("expected.txt"))).sorted().toList());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    /** Replays each scenario under {@code roots} with {@code product}. */
    public static Result run(Triage product, List<Path> roots) {
        int passed = 0;
        Map<Path, List<String>> failed = new LinkedHashMap<>();
        for (Path dir : find(roots)) {
            List<String> problems;
            try {
                Diagnosis d = product.replay(dir, Map.of());
                problems = Expectation.read(dir).failures(d);
            } catch (CaptureException | IllegalArgumentException | IOException e) {
                problems = List.of(String.valueOf(e.getMessage()));
            }
            if (problems.isEmpty()) {
                passed++;
            } else {
                failed.put(dir, problems);
            }
        }
        return new Result(passed, failed);
    }
}
