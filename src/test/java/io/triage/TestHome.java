package io.triage;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the tests find the product's home (the checkout) and the shared fixtures. */
public final class TestHome {
    /** The checkout: Surefire runs the tests with the project directory as working directory. */
    public static final Path HOME = Path.of("").toAbsolutePath();
    /** Captures from real hosts and issue threads, kept beside the checkout. */
    public static final Path FIXTURES = HOME.resolve("../shared/fixtures").normalize();
    public static final Path SCENARIOS = HOME.resolve("knowledge-base/scenarios");

    private static final class Holder {
        static final Triage TRIAGE = Triage.load(HOME);
    }

    private TestHome() {
    }

    /** One loaded product for the whole test run: loading compiles the rules, which takes a second. */
    public static Triage triage() {
        return Holder.TRIAGE;
    }

    public static Path fixture(String name) {
        Path p = FIXTURES.resolve(name);
        if (!Files.isDirectory(p)) {
            throw new IllegalStateException("fixture missing: " + p + " (the shared fixtures must sit beside the checkout)");
        }
        return p;
    }
}
