package io.triage;

import io.triage.capture.Capture;
import io.triage.capture.CaptureException;
import io.triage.capture.CaptureReader;
import io.triage.engine.Consistency;
import io.triage.engine.ContentHash;
import io.triage.engine.Engine;
import io.triage.engine.RuleBase;
import io.triage.engine.RuleBaseCache;
import io.triage.explain.Diagnoser;
import io.triage.explain.Diagnosis;
import io.triage.explain.WhyNot;
import io.triage.knowledge.KnowledgeBase;
import io.triage.knowledge.KnowledgeException;
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
    /** The diagnoser's engine: its first session is made while a first capture is read ({@link Engine#prepare()}). */
    private final Engine engine;
    private final Redactor redactor;
    private final CaptureReader reader = new CaptureReader();
    private final WhyNot whyNot;
    private final String contentHash;
    /** The site overlay whose rules and knowledge extend the home's, or null. */
    private final io.triage.knowledge.Overlay overlay;
    /** Where the knowledge base was read from: its YAML files, or the user's cache. */
    private final String knowledgeOrigin;

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
        this(home, knowledge, rules, redactor, home == null ? "" : ContentHash.of(home), null, "knowledge given");
    }

    /**
     * @param contentHash the {@link ContentHash} of the rules and knowledge (the overlay's too), named by every diagnosis
     * @param overlay the site overlay the rules and knowledge were extended with, or null
     * @param knowledgeOrigin where the knowledge base was read from (its files, the user's cache)
     */
    private Triage(Path home, KnowledgeBase knowledge, RuleBase rules, Redactor redactor, String contentHash,
                   io.triage.knowledge.Overlay overlay, String knowledgeOrigin) {
        this.overlay = overlay;
        this.knowledgeOrigin = knowledgeOrigin;
        this.home = home;
        this.knowledge = knowledge;
        this.rules = rules;
        this.redactor = redactor;
        this.contentHash = contentHash;
        this.engine = new Engine(rules);
        this.diagnoser = new Diagnoser(knowledge, engine, home == null ? "" : home.toAbsolutePath().toString(),
                contentHash, overlay == null ? "" : overlay.dir().toString());
        this.whyNot = new WhyNot(rules, knowledge);
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
        return load(home, key, null);
    }

    /** As {@link #load(Path, RedactionKey)}, the compiled rules taken from {@code cache} when it has them (null: none). */
    public static Triage load(Path home, RedactionKey key, RuleBaseCache cache) {
        return load(home, key, cache, false);
    }

    /**
     * As {@link #load(Path, RedactionKey, RuleBaseCache)}. Rules compiled here (not taken from the cache) are checked
     * against the knowledge base ({@link Consistency}) before they are used or cached: an id a rule matches that
     * nothing produces, or one without its text, refuses the whole base with the file and line.
     *
     * @param checkScenarios also check every scenario's {@code expected.txt} (the rule author's commands and a
     *                       server's reload; scenarios are test data, not read by a diagnosis)
     * @throws RuleBaseException when the rules do not compile or do not agree with the knowledge base
     * @throws KnowledgeException when a knowledge file does not load
     */
    public static Triage load(Path home, RedactionKey key, RuleBaseCache cache, boolean checkScenarios) {
        return load(home, key, cache, checkScenarios, null);
    }

    /**
     * As {@link #load(Path, RedactionKey, RuleBaseCache, boolean)}, with the home's knowledge base already loaded
     * ({@code loaded}, or null to read it here): a command that read it to write a probe script does not read it
     * twice.
     */
    public static Triage load(Path home, RedactionKey key, RuleBaseCache cache, boolean checkScenarios,
                              KnowledgeBase loaded) {
        return load(home, key, cache, checkScenarios, loaded, null);
    }

    /**
     * As {@link #load(Path, RedactionKey, RuleBaseCache, boolean, KnowledgeBase)}, extended by a site overlay (null:
     * none): its rules are compiled into the same base, its knowledge merged into the home's (a clash of ids or rule
     * names refuses the load, naming both files), its scenarios checked with the home's, and the content hash every
     * verdict names covers it. {@code loaded}, when given, must have been loaded with the same overlay.
     */
    public static Triage load(Path home, RedactionKey key, RuleBaseCache cache, boolean checkScenarios,
                              KnowledgeBase loaded, io.triage.knowledge.Overlay overlay) {
        return loadWith(home, key, cache, checkScenarios,
                loaded == null ? null : new Knowledge(loaded, null, "knowledge given"), overlay);
    }

    /**
     * As {@link #load(Path, RedactionKey, RuleBaseCache, boolean, KnowledgeBase, io.triage.knowledge.Overlay)}, without
     * the scenarios' check, with the knowledge base and secrets' shapes {@link #loadKnowledge} gave (of the same home,
     * overlay and cache): a command that read them to write a probe script reads neither again.
     */
    public static Triage load(Path home, RedactionKey key, RuleBaseCache cache, Knowledge loaded,
                              io.triage.knowledge.Overlay overlay) {
        return loadWith(home, key, cache, false, loaded, overlay);
    }

    /**
     * The knowledge base and the secrets' shapes of {@code home} (extended by {@code overlay}, or null), from
     * {@code cache} when it holds them for exactly these files (null: read from the YAML files).
     *
     * @throws KnowledgeException when a knowledge file does not load
     */
    public static Knowledge loadKnowledge(Path home, io.triage.knowledge.Overlay overlay, RuleBaseCache cache) {
        Path kbDir = home.resolve("knowledge-base");
        if (cache == null) {
            return new Knowledge(KnowledgeBase.load(kbDir, overlay), SecretShapes.load(kbDir), "knowledge read from " + kbDir);
        }
        return Knowledge.load(cache, home.resolve("rules"), kbDir, overlay);
    }

    private static Triage loadWith(Path home, RedactionKey key, RuleBaseCache cache, boolean checkScenarios,
                                   Knowledge loaded, io.triage.knowledge.Overlay overlay) {
        Path rulesDir = home.resolve("rules");
        Path overlayRules = overlay == null ? null : overlay.rulesDir();
        Path kbDir = home.resolve("knowledge-base");
        java.util.concurrent.CompletableFuture<KnowledgeBase> knowledge = new java.util.concurrent.CompletableFuture<>();
        java.util.List<Path> scenarios = new java.util.ArrayList<>();
        if (checkScenarios) {
            scenarios.add(kbDir.resolve("scenarios"));
            if (overlay != null && overlay.scenariosDir() != null) {
                scenarios.add(overlay.scenariosDir());
            }
        }
        java.util.function.UnaryOperator<RuleBase> check = rb -> rb.checked(Consistency.checkAll(rb, rulesDir,
                knowledge.join(), kbDir, probeNames(), scenarios));
        // the rules (Drools) load on a thread of their own while this one reads the knowledge (YAML): on a
        // machine with two cores a command starts about half a second sooner
        // the cache's key (a digest of every rule and knowledge file) is taken once, by the rules' thread, and the
        // knowledge's entry is looked up under it: a cold digest of those files costs a start some 100 ms of CPU
        java.util.concurrent.CompletableFuture<String> cacheKey = new java.util.concurrent.CompletableFuture<>();
        java.util.concurrent.FutureTask<RuleBase> rules = new java.util.concurrent.FutureTask<>(() -> {
            try {
                return cache == null ? check.apply(RuleBase.load(rulesDir, overlayRules))
                        : cache.load(rulesDir, kbDir, overlay, check, cacheKey::complete);
            } finally {
                cacheKey.complete(null); // no key (a file could not be read): the knowledge is read from its files
            }
        });
        Thread loader = new Thread(rules, "triage-rules");
        loader.setDaemon(true);
        loader.start();
        KnowledgeBase kb;
        SecretShapes secrets;
        String knowledgeOrigin;
        try {
            Knowledge k = loaded != null ? loaded : cache == null ? loadKnowledge(home, overlay, null)
                    : Knowledge.load(cache, cacheKey.join(), kbDir, overlay);
            kb = k.base();
            secrets = k.secrets() != null ? k.secrets() : SecretShapes.load(kbDir);
            knowledgeOrigin = k.origin();
            knowledge.complete(kb);
        } catch (RuntimeException e) {
            knowledge.completeExceptionally(e);
            throw e;
        }
        // without the cache, hashed while the rules still load (this thread would only wait for them); the cache
        // hashes the same files for its key, and gives the hash with the rules
        String contentHash = cache == null ? ContentHash.of(home, overlay) : null;
        RuleBase rb;
        try {
            rb = RuleBase.await(rules);
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        if (contentHash == null) {
            contentHash = rb.contentHash() != null ? rb.contentHash() : ContentHash.of(home, overlay);
        }
        return new Triage(home, kb, rb, new Redactor(secrets, key), contentHash, overlay, knowledgeOrigin);
    }

    /**
     * The knowledge base and the secrets' shapes, from the user's cache when it holds them for exactly these files (the
     * rule base's key: {@link RuleBaseCache#key}), else read from the YAML files, checked, and stored there. A YAML
     * load costs a command a few hundred milliseconds of a cold start (parser and data binding); the compact form a
     * few. An entry that does not read back whole is ignored and replaced.
     *
     * @param secrets the secrets' shapes (null: read them from {@code secrets.yaml} when the product is loaded)
     * @param origin where they came from, for {@code --verbose}
     */
    public record Knowledge(KnowledgeBase base, SecretShapes secrets, String origin) {
        /** The kind of the cache's companion entry. */
        static final String KIND = "knowledge";

        static Knowledge load(RuleBaseCache cache, Path rulesDir, Path kbDir, io.triage.knowledge.Overlay overlay) {
            String key;
            try {
                key = cache.key(rulesDir, kbDir, overlay);
            } catch (java.io.IOException | RuntimeException e) {
                key = null; // an unreadable file: the YAML load below says which
            }
            return load(cache, key, kbDir, overlay);
        }

        /** As {@link #load(RuleBaseCache, Path, Path, io.triage.knowledge.Overlay)}, under a key already taken (null: none, read the files). */
        static Knowledge load(RuleBaseCache cache, String key, Path kbDir, io.triage.knowledge.Overlay overlay) {
            String ignored = null;
            if (key != null) {
                RuleBaseCache.Companion c = cache.readCompanion(key, KIND);
                if (c.body() != null) {
                    try {
                        return decode(c.body(), kbDir, overlay, "knowledge loaded from the cache " + cache.dir().resolve(key + "." + KIND));
                    } catch (java.io.IOException e) {
                        ignored = "the entry there was ignored: " + e.getMessage();
                    }
                }
                ignored = ignored != null ? ignored : c.refused();
            }
            KnowledgeBase kb = KnowledgeBase.load(kbDir, overlay);
            SecretShapes secrets = SecretShapes.load(kbDir);
            String origin = "knowledge read from " + kbDir;
            if (key != null) {
                try {
                    origin += " and stored in the cache " + cache.writeCompanion(key, KIND, encode(kb, secrets, kbDir, overlay));
                } catch (java.io.IOException | RuntimeException e) {
                    origin += "; not stored in the cache (" + e.getMessage() + ")";
                }
            }
            return new Knowledge(kb, secrets, ignored == null ? origin : origin + "; " + ignored);
        }

        /** The entry's body: the knowledge base's compact form, then the secrets' shapes. */
        static byte[] encode(KnowledgeBase kb, SecretShapes secrets, Path kbDir, io.triage.knowledge.Overlay overlay) {
            io.triage.knowledge.Compact.Out o = new io.triage.knowledge.Compact.Out();
            o.blob(kb.compact(kbDir, overlay));
            secrets.writeTo(o);
            return o.bytes();
        }

        static Knowledge decode(byte[] body, Path kbDir, io.triage.knowledge.Overlay overlay, String origin)
                throws java.io.IOException {
            io.triage.knowledge.Compact.In in = new io.triage.knowledge.Compact.In(body);
            KnowledgeBase base = KnowledgeBase.fromCompact(in.blob(), kbDir, overlay);
            SecretShapes secrets = SecretShapes.readFrom(in, kbDir.resolve("secrets.yaml"));
            in.end();
            return new Knowledge(base, secrets, origin);
        }
    }

    /** Where the knowledge base was read from ({@code --verbose} says it): its files, or the user's cache. */
    public String knowledgeOrigin() {
        return knowledgeOrigin;
    }

    /** The probe names a capture can hold: every probe of the catalogue (the capture format's standard ones among them). */
    public static java.util.Set<String> probeNames() {
        return new java.util.TreeSet<>(io.triage.probe.ProbeCatalogue.SHIPPED.names());
    }

    /** The same product, sharing its compiled rules, that shows secrets as they are ({@code --no-redact}). */
    public Triage unredacted() {
        return new Triage(home, knowledge, rules, Redactor.none(), contentHash, overlay, knowledgeOrigin);
    }

    /**
     * Where the rules and knowledge of a run come from, and why there.
     *
     * @param path the directory holding {@code rules/} and {@code knowledge-base/} (absolute)
     * @param unusedHere the working directory when it holds a {@code rules/} and {@code knowledge-base/} of its
     *                   own that this run does not use (so that a rule author can be told), else null
     */
    public record Home(Path path, Source source, Path unusedHere) {
        /** Why this home: given with {@code --home}, by {@code TRIAGE_HOME}, or the installation's own. */
        public enum Source { OPTION, ENVIRONMENT, INSTALLATION }

        /** One line for stderr when the home is not the installation's own (else empty). */
        public java.util.Optional<String> announcement() {
            return switch (source) {
                case OPTION -> java.util.Optional.of("triage: rules and knowledge from " + path + " (--home)");
                case ENVIRONMENT -> java.util.Optional.of("triage: rules and knowledge from " + path + " (TRIAGE_HOME)");
                case INSTALLATION -> unusedHere == null ? java.util.Optional.empty()
                        : java.util.Optional.of("triage: the rules/ and knowledge-base/ in " + unusedHere
                        + " are not used (the installation's own are); run with --home . to use them");
            };
        }
    }

    /** {@link #locateHome(Path)}'s directory. */
    public static Path findHome(Path explicit) {
        return locateHome(explicit).path();
    }

    /**
     * Where {@code rules/} and {@code knowledge-base/} are: {@code --home DIR}, else {@code TRIAGE_HOME}, else the
     * installation's own (the directory of the jar or its parent: a checkout's {@code target/triage.jar}).
     * Rules are code: the working directory is never used on its own, only when named ({@code --home .}).
     *
     * @throws KnowledgeException when no home is named and the installation has none
     */
    public static Home locateHome(Path explicit) {
        Path installed;
        try {
            installed = Path.of(Triage.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (Exception e) {
            installed = null;
        }
        return findHome(explicit, System.getenv(), Path.of("").toAbsolutePath(), installed);
    }

    /**
     * {@link #locateHome(Path)} with its inputs given: the environment, the working directory and where the
     * product's code was loaded from (a jar, or a classes directory), or null when unknown.
     */
    static Home findHome(Path explicit, Map<String, String> env, Path cwd, Path codeSource) {
        Path here = isHome(cwd) ? cwd.toAbsolutePath().normalize() : null;
        Path installed = null;
        if (codeSource != null) {
            Path dir = codeSource.toAbsolutePath().normalize().getParent();
            for (int up = 0; dir != null && up < 2 && installed == null; up++, dir = dir.getParent()) {
                if (isHome(dir)) {
                    installed = dir;
                }
            }
        }
        String named = env.get("TRIAGE_HOME");
        Path chosen = explicit != null ? cwd.resolve(explicit).toAbsolutePath().normalize()
                : named != null && !named.isBlank() ? cwd.resolve(named).toAbsolutePath().normalize() : null;
        if (chosen != null) {
            // naming the installation's own home is no different from not naming one
            Home.Source source = chosen.equals(installed) ? Home.Source.INSTALLATION
                    : explicit != null ? Home.Source.OPTION : Home.Source.ENVIRONMENT;
            return new Home(chosen, source, null);
        }
        if (installed != null) {
            return new Home(installed, Home.Source.INSTALLATION, here == null || here.equals(installed) ? null : here);
        }
        throw new KnowledgeException("no rules/ and knowledge-base/ beside the installation"
                + (codeSource == null ? "" : " (" + codeSource + ")")
                + "; name a directory that holds them with --home DIR or TRIAGE_HOME");
    }

    private static boolean isHome(Path p) {
        return Files.isDirectory(p.resolve("rules")) && Files.isDirectory(p.resolve("knowledge-base"));
    }

    /** Reads a capture directory and diagnoses it: {@link #diagnose}. */
    public Diagnosis replay(Path captureDir, Map<String, String> intent) throws CaptureException {
        engine.prepare();
        return diagnose(reader.read(captureDir), intent);
    }

    /**
     * Diagnoses a capture with what the operator says they launched. Both are redacted first, with the same
     * redactor, so the diagnosis — and every view of it — holds placeholders, never secrets, and an intended
     * secret still compares equal or different to the running one.
     */
    public Diagnosis diagnose(Capture capture, Map<String, String> intent) {
        engine.prepare(); // the session is made while the facts are built
        return diagnoser.diagnose(redactor.redact(capture), redactor.redactIntent(intent == null ? Map.of() : intent));
    }

    /** Diagnoses a capture directory as {@link #replay} does, keeping the working memory the rules ended with. */
    public Diagnoser.Examined examine(Path captureDir, Map<String, String> intent) throws CaptureException {
        engine.prepare();
        return diagnoser.examine(redactor.redact(reader.read(captureDir)),
                redactor.redactIntent(intent == null ? Map.of() : intent));
    }

    /** The WHY NOT of these rules (its parsed rule files and compiled queries are kept). */
    public WhyNot whyNot() {
        return whyNot;
    }

    /**
     * WHY NOT {@code cause} for this capture: the rules that would conclude it and which of their conditions the
     * facts (redacted as for {@link #diagnose}) meet.
     *
     * @throws IllegalArgumentException when {@code cause} is not a known cause
     */
    public WhyNot.Answer whyNot(String cause, Capture capture, Map<String, String> intent) {
        Diagnoser.Examined e = diagnoser.examine(redactor.redact(capture),
                redactor.redactIntent(intent == null ? Map.of() : intent));
        return whyNot.explain(cause, e.diagnosis().cause(), e.workingMemory());
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

    /** The site overlay whose rules and knowledge extend the home's, or null when there is none. */
    public io.triage.knowledge.Overlay overlay() {
        return overlay;
    }

    /**
     * The scenario directories of this product: the home's {@code knowledge-base/scenarios} and the overlay's, when it
     * has some.
     */
    public java.util.List<Path> scenarioDirs() {
        java.util.List<Path> dirs = new java.util.ArrayList<>();
        dirs.add(home.resolve("knowledge-base").resolve("scenarios"));
        if (overlay != null && overlay.scenariosDir() != null) {
            dirs.add(overlay.scenariosDir());
        }
        return java.util.List.copyOf(dirs);
    }

    /** The {@link ContentHash} of the rules and knowledge this product was built from. */
    public String contentHash() {
        return contentHash;
    }
}
