package io.triage;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the tests find the product's home (the checkout) and the captures they replay. */
public final class TestHome {
    /** The checkout: Surefire runs the tests with the project directory as working directory. */
    public static final Path HOME = Path.of("").toAbsolutePath();
    /** Every capture the tests need lives in the repository: the knowledge base's scenarios. */
    public static final Path SCENARIOS = HOME.resolve("knowledge-base/scenarios");
    /**
     * Opt-in: a directory of further captures (with {@code expected.txt}) named by {@code TRIAGE_EXTRA_SCENARIOS},
     * e.g. a team's own fixture set; {@code null} when unset. No test needs it (see {@code ScenarioTest}).
     */
    public static final Path EXTRA_SCENARIOS = extraScenarios();

    private static Path extraScenarios() {
        String dir = System.getenv("TRIAGE_EXTRA_SCENARIOS");
        return dir == null || dir.isBlank() ? null : HOME.resolve(dir).normalize();
    }

    private static final class Holder {
        static final Triage TRIAGE = Triage.load(HOME);
    }

    private TestHome() {
    }

    /** One loaded product for the whole test run: loading compiles the rules, which takes a second. */
    public static Triage triage() {
        return Holder.TRIAGE;
    }

    /** A scenario of the repository by its path under {@code knowledge-base/scenarios}, e.g. {@code h200/02-external-kill}. */
    public static Path fixture(String name) {
        Path p = SCENARIOS.resolve(name);
        if (!Files.isDirectory(p)) {
            throw new IllegalStateException("scenario missing: " + p);
        }
        return p;
    }
}
