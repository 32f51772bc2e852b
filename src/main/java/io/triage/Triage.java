package io.triage;

import io.triage.capture.Capture;
import io.triage.capture.CaptureException;
import io.triage.capture.CaptureReader;
import io.triage.engine.Engine;
import io.triage.engine.RuleBase;
import io.triage.explain.Diagnoser;
import io.triage.explain.Diagnosis;
import io.triage.knowledge.KnowledgeBase;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The product's core, built once per process: the knowledge base and the compiled rules, read from
 * a home directory that holds {@code rules/} and {@code knowledge-base/}. Thread-safe: each diagnosis
 * gets its own rule session.
 */
public final class Triage {
    private final Path home;
    private final KnowledgeBase knowledge;
    private final RuleBase rules;
    private final Diagnoser diagnoser;
    private final CaptureReader reader = new CaptureReader();

    public Triage(Path home, KnowledgeBase knowledge, RuleBase rules) {
        this.home = home;
        this.knowledge = knowledge;
        this.rules = rules;
        this.diagnoser = new Diagnoser(knowledge, new Engine(rules));
    }

    /** Loads {@code home/knowledge-base} and compiles {@code home/rules}. */
    public static Triage load(Path home) {
        KnowledgeBase kb = KnowledgeBase.load(home.resolve("knowledge-base"));
        RuleBase rules = RuleBase.load(home.resolve("rules"));
        return new Triage(home, kb, rules);
    }

    /**
     * Where {@code rules/} and {@code knowledge-base/} are: an explicit directory, else
     * {@code TRIAGE_HOME}, else the working directory when it has them, else the directory above the
     * jar (a checkout's {@code target/triage.jar}).
     */
    public static Path findHome(Path explicit) {
        if (explicit != null) {
            return explicit;
        }
        String env = System.getenv("TRIAGE_HOME");
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        Path cwd = Path.of("").toAbsolutePath();
        if (isHome(cwd)) {
            return cwd;
        }
        try {
            Path jar = Path.of(Triage.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (Path p = jar.getParent(); p != null; p = p.getParent()) {
                if (isHome(p)) {
                    return p;
                }
            }
        } catch (Exception e) {
            // fall through to the working directory
        }
        return cwd;
    }

    private static boolean isHome(Path p) {
        return Files.isDirectory(p.resolve("rules")) && Files.isDirectory(p.resolve("knowledge-base"));
    }

    public Diagnosis replay(Path captureDir, Map<String, String> intent) throws CaptureException {
        Capture capture = reader.read(captureDir);
        return diagnoser.diagnose(capture, intent);
    }

    public Diagnosis diagnose(Capture capture, Map<String, String> intent) {
        return diagnoser.diagnose(capture, intent);
    }

    public Diagnoser diagnoser() {
        return diagnoser;
    }

    public CaptureReader reader() {
        return reader;
    }

    public KnowledgeBase knowledge() {
        return knowledge;
    }

    public RuleBase rules() {
        return rules;
    }

    public Path home() {
        return home;
    }
}
