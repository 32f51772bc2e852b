package io.triage.explain;

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

/**
 * Every capture with an {@code expected.txt} is a scenario: the shared fixtures (real hosts, issue
 * threads) and the knowledge base's own scenarios. The verdict must match, and the scenario's extra
 * expectations (causes not to conclude, evidence to cite, steps to offer) must hold.
 */
class ScenarioTest {

    @TestFactory
    Stream<DynamicTest> sharedFixturesGetTheExpectedVerdict() throws IOException {
        assertTrue(Files.isDirectory(TestHome.FIXTURES), "shared fixtures not found at " + TestHome.FIXTURES);
        return scenarios(TestHome.FIXTURES);
    }

    @TestFactory
    Stream<DynamicTest> knowledgeBaseScenariosGetTheExpectedVerdict() throws IOException {
        assertTrue(Files.isDirectory(TestHome.SCENARIOS), "no scenarios at " + TestHome.SCENARIOS);
        return scenarios(TestHome.SCENARIOS);
    }

    private static Stream<DynamicTest> scenarios(Path root) throws IOException {
        List<Path> dirs = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root)) {
            s.filter(p -> Files.isRegularFile(p.resolve("expected.txt"))).sorted().forEach(dirs::add);
        }
        assertFalse(dirs.isEmpty(), "no scenario under " + root);
        return dirs.stream().map(dir -> DynamicTest.dynamicTest(root.relativize(dir).toString(), () -> check(dir)));
    }

    static void check(Path dir) throws Exception {
        Expectation e = Expectation.read(dir);
        Diagnosis d = TestHome.triage().replay(dir, Map.of());
        List<String> failures = e.failures(d);
        if (!failures.isEmpty()) {
            fail(String.join("; ", failures));
        }
    }
}
