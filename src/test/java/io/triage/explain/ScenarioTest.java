package io.triage.explain;

import io.triage.ScenarioSuite;
import io.triage.TestHome;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Every capture with an {@code expected.txt} is a scenario: the knowledge base's scenarios, which include
 * the captures from real GPU hosts ({@code h200/}) and the field evidence from issue threads
 * ({@code field/}). The verdict must match, and the scenario's extra expectations (causes not to conclude,
 * evidence to cite, steps to offer) must hold.
 */
class ScenarioTest {

    /**
     * Opt-in: {@code TRIAGE_EXTRA_SCENARIOS} may name a fixture set holding captures the repository does not
     * carry yet. Those run too; unset or absent, this is skipped, never failed.
     */
    @TestFactory
    Stream<DynamicTest> extraScenariosNotYetInTheRepositoryGetTheExpectedVerdict() throws IOException {
        Path ext = TestHome.EXTRA_SCENARIOS;
        assumeTrue(ext != null && Files.isDirectory(ext), "TRIAGE_EXTRA_SCENARIOS names no directory");
        List<Path> extra = new ArrayList<>();
        for (Path dir : scenarioDirs(ext)) {
            if (!Files.isDirectory(TestHome.SCENARIOS.resolve(ext.relativize(dir).toString()))) {
                extra.add(dir);
            }
        }
        assumeFalse(extra.isEmpty(), "every extra capture is already a scenario of the repository");
        return extra.stream().map(dir -> DynamicTest.dynamicTest(ext.relativize(dir).toString(), () -> check(dir)));
    }

    @TestFactory
    Stream<DynamicTest> knowledgeBaseScenariosGetTheExpectedVerdict() throws IOException {
        assertTrue(Files.isDirectory(TestHome.SCENARIOS), "no scenarios at " + TestHome.SCENARIOS);
        return scenarios(TestHome.SCENARIOS);
    }

    private static List<Path> scenarioDirs(Path root) {
        return ScenarioSuite.find(List.of(root));
    }

    private static Stream<DynamicTest> scenarios(Path root) throws IOException {
        List<Path> dirs = scenarioDirs(root);
        assertFalse(dirs.isEmpty(), "no scenario under " + root);
        return dirs.stream().map(dir -> DynamicTest.dynamicTest(root.relativize(dir).toString(), () -> check(dir)));
    }

    /** One scenario through the loop {@code rules test} and a strict reload use. */
    static void check(Path dir) {
        ScenarioSuite.Outcome o = ScenarioSuite.one(TestHome.triage(), dir);
        if (!o.passed()) {
            fail(String.join("; ", o.problems()));
        }
    }
}
