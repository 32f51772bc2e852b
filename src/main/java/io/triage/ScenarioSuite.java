package io.triage;

import io.triage.capture.CaptureException;
import io.triage.explain.Diagnoser;
import io.triage.explain.Expectation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Every scenario (a capture directory with its {@code expected.txt}) under some roots, replayed by one product and
 * held to its expectation: the one loop that {@code triage rules test}, a strict reload and the tests walk. Who needs
 * more than pass or fail (calibration, coverage, a test per scenario) takes each {@link Outcome} as it comes.
 */
public final class ScenarioSuite {
    /** The outcome: how many passed, and each failing scenario with what moved. */
    public record Result(int passed, Map<Path, List<String>> failed) {
        public boolean ok() {
            return failed.isEmpty();
        }
    }

    /**
     * One scenario replayed.
     *
     * @param expectation its {@code expected.txt}, or null when the capture or the expectation could not be read
     * @param examined the diagnosis and the working memory the rules ended with, or null when the capture could not be
     *                 read
     * @param problems what did not meet the expectation (or why it could not be run); empty when it passed
     */
    public record Outcome(Path dir, Expectation expectation, Diagnoser.Examined examined, List<String> problems) {
        public boolean passed() {
            return problems.isEmpty();
        }
    }

    private ScenarioSuite() {
    }

    /** The scenario directories under {@code roots}, sorted (a root that is not a directory holds none). */
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
        return run(product, roots, o -> { });
    }

    /** Replays each scenario under {@code roots} with {@code product}, handing each outcome to {@code each} in order. */
    public static Result run(Triage product, List<Path> roots, Consumer<Outcome> each) {
        int passed = 0;
        Map<Path, List<String>> failed = new LinkedHashMap<>();
        for (Path dir : find(roots)) {
            Outcome o = one(product, dir);
            each.accept(o);
            if (o.passed()) {
                passed++;
            } else {
                failed.put(dir, o.problems());
            }
        }
        return new Result(passed, failed);
    }

    /** Replays one scenario and holds it to its expectation; a capture or expectation that cannot be read is a problem. */
    public static Outcome one(Triage product, Path dir) {
        Diagnoser.Examined x = null;
        try {
            x = product.examine(dir, Map.of());
            Expectation e = Expectation.read(dir);
            return new Outcome(dir, e, x, e.failures(x.diagnosis()));
        } catch (CaptureException | IllegalArgumentException | IOException e) {
            return new Outcome(dir, null, x, List.of(String.valueOf(e.getMessage())));
        }
    }
}
