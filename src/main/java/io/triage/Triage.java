package io.triage;

import io.triage.capture.Capture;
import io.triage.capture.CaptureException;
import io.triage.capture.CaptureReader;
import io.triage.engine.Engine;
import io.triage.engine.RuleBase;
import io.triage.explain.Diagnoser;
import io.triage.explain.Diagnosis;
import io.triage.knowledge.KnowledgeBase;
import io.triage.safety.RedactionKey;
import io.triage.safety.Redactor;
import io.triage.safety.SecretShapes;

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
    private final Redactor redactor;
    private final CaptureReader reader = new CaptureReader();

    /** As below, redacting with {@code home/knowledge-base/secrets.yaml} under a key of this process. */
    public Triage(Path home, KnowledgeBase knowledge, RuleBase rules) {
        this(home, knowledge, rules, new Redactor(SecretShapes.load(home.resolve("knowledge-base")),
                RedactionKey.perProcess()));
    }

    /**
     * @param redactor applied to every capture and intent before they are diagnosed ({@link Redactor#none()}
     *                 to see secrets as they are)
     */
    public Triage(Path home, KnowledgeBase knowledge, RuleBase rules, Redactor redactor) {
        this.home = home;
        this.knowledge = knowledge;
        this.rules = rules;
        this.redactor = redactor;
        this.diagnoser = new Diagnoser(knowledge, new Engine(rules));
    }

    /**
     * Loads {@code home/knowledge-base} (with {@code secrets.yaml}) and compiles {@code home/rules}; secrets are
     * redacted under a key of this process ({@link RedactionKey#perProcess()}).
     */
    public static Triage load(Path home) {
        return load(home, RedactionKey.perProcess());
    }

    /** As {@link #load(Path)}, with the redaction digests under {@code key} (the command line: the installation's). */
    public static Triage load(Path home, RedactionKey key) {
        KnowledgeBase kb = KnowledgeBase.load(home.resolve("knowledge-base"));
        SecretShapes secrets = SecretShapes.load(home.resolve("knowledge-base"));
        RuleBase rules = RuleBase.load(home.resolve("rules"));
        return new Triage(home, kb, rules, new Redactor(secrets, key));
    }

    /** The same product, sharing its compiled rules, that shows secrets as they are ({@code --no-redact}). */
    public Triage unredacted() {
        return new Triage(home, knowledge, rules, Redactor.none());
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

    /** Reads a capture directory and diagnoses it: {@link #diagnose}. */
    public Diagnosis replay(Path captureDir, Map<String, String> intent) throws CaptureException {
        return diagnose(reader.read(captureDir), intent);
    }

    /**
     * Diagnoses a capture with what the operator says they launched. Both are redacted first, with the same
     * redactor, so the diagnosis — and every view of it — holds placeholders, never secrets, and an intended
     * secret still compares equal or different to the running one.
     */
    public Diagnosis diagnose(Capture capture, Map<String, String> intent) {
        return diagnoser.diagnose(redactor.redact(capture), redactor.redactIntent(intent == null ? Map.of() : intent));
    }

    /**
     * The redactor of this product: a capture must go through {@code redactor().redact(capture)} before it is
     * written anywhere (a saved capture), as it does before it is diagnosed.
     */
    public Redactor redactor() {
        return redactor;
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
