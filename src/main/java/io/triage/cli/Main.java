package io.triage.cli;

import io.triage.Triage;
import io.triage.capture.CaptureException;
import io.triage.engine.RuleBase;
import io.triage.engine.RuleBaseCache;
import io.triage.engine.RuleBaseException;
import io.triage.explain.Diagnosis;
import io.triage.explain.JsonRenderer;
import io.triage.explain.TextRenderer;
import io.triage.knowledge.KnowledgeException;
import io.triage.safety.RedactionKey;
import io.triage.safety.Safe;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** The {@code triage} command line. Exit codes: 0 a diagnosis was produced, 2 unusable input, 3 broken rules or knowledge. */
@Command(name = "triage", mixinStandardHelpOptions = true, version = "triage 0.1.0",
        description = "Tells why an inference server stopped answering, how sure it is, and what to do next.")
public final class Main implements Callable<Integer> {
    /** The subcommands, in the order the usage lists them ({@link #commandLine()} adds them). */
    private static final List<Class<?>> SUBCOMMANDS = List.of(Serve.class, Lab.Demo.class, Main.Replay.class,
            Diagnose.class, Lab.Serve.class, Bundle.class, Main.Rules.class);

    public static final int OK = 0;
    public static final int BAD_INPUT = 2;
    public static final int BROKEN_KNOWLEDGE = 3;

    @Option(names = "--home", description = "Directory holding rules/ and knowledge-base/ (default: TRIAGE_HOME, else the installation's own; the working directory only as --home .).")
    Path home;

    @Option(names = "--overlay", paramLabel = "DIR", scope = CommandLine.ScopeType.INHERIT,
            description = "A site overlay: a directory whose rules/, knowledge-base/ (fragments, markers) and "
                    + "knowledge-base/scenarios/ extend the shipped ones (default: TRIAGE_OVERLAY; none when neither is set).")
    Path overlay;

    @Option(names = "--verbose", description = "Say on stderr where the compiled rules came from (the cache or the rule files).")
    boolean verbose;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command line with the given streams; returns the exit code. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        Main main = new Main();
        main.early = Early.start(args);
        CommandLine cl = commandLine(main, args);
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((ex, line, parse) -> {
            err.println("triage: " + oneLine(ex));
            return ex instanceof RuleBaseException || ex instanceof KnowledgeException ? BROKEN_KNOWLEDGE : BAD_INPUT;
        });
        return cl.execute(args);
    }

    /** The whole command line, every subcommand in it (its usage, and tests that parse any command). */
    public static CommandLine commandLine() {
        return commandLine(null);
    }

    /**
     * The command line that {@code args} need: only the subcommand they name, when they name one, since picocli
     * reflects over every option of every command it is given and that is a tenth of a short command's start; the
     * whole command line otherwise (no command, an option before it that is not the product's, an unknown word:
     * the usage and picocli's suggestions then see every command). A command parses and runs the same either way.
     */
    static CommandLine commandLine(String[] args) {
        return commandLine(new Main(), args);
    }

    private static CommandLine commandLine(Main main, String[] args) {
        String named = args == null ? null : namedCommand(args);
        CommandLine cl = new CommandLine(main);
        for (Class<?> c : SUBCOMMANDS) {
            if (named == null || named.equals(c.getAnnotation(Command.class).name())) {
                cl.addSubcommand(c);
            }
        }
        if (named != null && cl.getSubcommands().isEmpty()) {
            for (Class<?> c : SUBCOMMANDS) {
                cl.addSubcommand(c);
            }
        }
        return cl;
    }

    /** The subcommand word of {@code args}: the first word past the product's own options, or null. */
    static String namedCommand(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a == null) {
                return null;
            }
            if (a.equals("--home")) {
                i++;
            } else if (!a.startsWith("--home=") && !a.equals("--verbose")) {
                return a.startsWith("-") ? null : a;
            }
        }
        return null;
    }

    /**
     * The product of a {@code replay}, loading (rules from the cache, knowledge) on a thread of its own from before
     * picocli reads the command line: the two overlap. Used only when the command then asks for exactly this: the
     * cached rules of the home its options name ({@link #triage(boolean)} checks); otherwise it is left to finish
     * unused, and errors are raised by the load the command does itself.
     */
    record Early(Path home, java.util.concurrent.FutureTask<Triage> loading) {
        /** The load a {@code replay} will ask for, started; null for any other command, or when no home is found. */
        static Early start(String[] args) {
            if (!"replay".equals(namedCommand(args))) {
                return null;
            }
            String site = System.getenv("TRIAGE_OVERLAY");
            if (site != null && !site.isBlank()) {
                return null; // an overlay changes the base: the command loads it, with the overlay
            }
            String named = null;
            for (int i = 0; i < args.length; i++) {
                if (args[i].equals("--home") && i + 1 < args.length) {
                    named = args[++i];
                } else if (args[i].startsWith("--home=")) {
                    named = args[i].substring("--home=".length());
                } else if (args[i].equals("replay")) {
                    break;
                }
            }
            for (String a : args) {
                if (a.equals("--overlay") || a.startsWith("--overlay=")) {
                    return null;
                }
            }
            Path home;
            try {
                home = Triage.locateHome(named == null ? null : Path.of(named)).path();
            } catch (RuntimeException e) {
                return null; // the command says why, when it looks for its home itself
            }
            java.util.concurrent.FutureTask<Triage> f = new java.util.concurrent.FutureTask<>(() -> Triage.load(home,
                    RedactionKey.installation(), userCache(), false, null));
            Thread t = new Thread(f, "triage-load");
            t.setDaemon(true);
            t.start();
            return new Early(home, f);
        }

        /** The loaded product (waiting for it), or what loading threw, as loading threw it. */
        Triage await() {
            return RuleBase.await(loading, c -> new IllegalStateException("cannot load the product: " + c, c));
        }
    }

    /** The load started for this command before its options were read ({@link Early}), or null. */
    private Early early;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return OK;
    }

    /**
     * The home's knowledge base alone (no rules): what a probe script is generated from. Quick next to compiling the
     * rules, so a look can start while they compile.
     */
    io.triage.knowledge.KnowledgeBase knowledge() {
        Triage.Knowledge k = knowledge;
        if (k == null) {
            k = Triage.loadKnowledge(Triage.locateHome(home).path(), overlay(), userCache());
            knowledge = k;
        }
        return k.base();
    }

    /** The user's cache of compiled rules and knowledge ({@link RuleBaseCache#forUser}). */
    private static RuleBaseCache userCache() {
        return RuleBaseCache.forUser(System.getenv(), Path.of(System.getProperty("user.home")));
    }

    /**
     * The site overlay of this run, checked ({@link io.triage.knowledge.Overlay#open}): {@code --overlay DIR}, else
     * {@code TRIAGE_OVERLAY}, else none (null). Opened anew at each call, so that a reload sees the overlay as it is.
     *
     * @throws io.triage.knowledge.KnowledgeException when the overlay is not a directory of its own or breaks a bound
     */
    io.triage.knowledge.Overlay overlay() {
        Path dir = overlayDir(overlay, System.getenv());
        return dir == null ? null : io.triage.knowledge.Overlay.open(dir);
    }

    /** {@code --overlay DIR}, else {@code TRIAGE_OVERLAY} when set and not blank, else null. */
    static Path overlayDir(Path option, Map<String, String> env) {
        if (option != null) {
            return option.toAbsolutePath().normalize();
        }
        String named = env.get("TRIAGE_OVERLAY");
        return named == null || named.isBlank() ? null : Path.of(named.strip()).toAbsolutePath().normalize();
    }

    /**
     * The knowledge base (and secrets' shapes) once {@link #knowledge()} read it, from the user's cache when it has
     * it: {@link #triage(boolean)} then does not read it again (a rule-author command reads its files).
     */
    private volatile Triage.Knowledge knowledge;

    /**
     * Loads the product from its home, saying on stderr where that is when it is not the installation's own;
     * its redaction digests are under this user's key on this machine (saved captures replay alike).
     */
    Triage triage() {
        return triage(true);
    }

    /**
     * As {@link #triage()}; {@code cached}: the compiled rules from the user's cache when it has them for exactly
     * these rule files (else compiled and stored there), otherwise always compiled from the files (the rule-author
     * commands, which report every warning with its file and line, and also check every scenario's expectation).
     */
    Triage triage(boolean cached) {
        Triage.Home h = Triage.locateHome(home);
        PrintWriter err = spec.commandLine().getErr();
        h.announcement().ifPresent(line -> {
            err.println(Safe.forTerminal(line));
            err.flush();
        });
        io.triage.knowledge.Overlay o = overlay();
        if (o != null) {
            err.println(Safe.forTerminal("triage: site overlay " + o.dir() + (overlay != null ? " (--overlay)" : " (TRIAGE_OVERLAY)")));
            err.flush();
        }
        Triage.Knowledge k = knowledge;
        Triage t = cached && k == null && o == null && early != null && early.home().equals(h.path()) ? early.await()
                : cached && k != null ? Triage.load(h.path(), RedactionKey.installation(), userCache(), k, o)
                : Triage.load(h.path(), RedactionKey.installation(), cached ? userCache() : null, !cached, null, o);
        RuleBase.Origin origin = t.rules().origin();
        if (verbose || origin.kind() == RuleBase.Origin.Kind.SOURCE_CACHE_REFUSED) {
            err.println(Safe.forTerminal("triage: " + origin.detail()));
            err.flush();
        }
        if (verbose) {
            err.println(Safe.forTerminal("triage: " + t.knowledgeOrigin()));
            err.flush();
        }
        return t;
    }

    /** An error for stderr: made safe to print (a message may quote a host's words or a file name). */
    static String oneLine(Throwable t) {
        String m = t.getMessage() == null ? t.toString() : t.getMessage();
        return t instanceof RuleBaseException ? Safe.forTerminalText(m) : Safe.forTerminal(m.replace('\n', ' '));
    }

    @Command(name = "replay", mixinStandardHelpOptions = true,
            description = "Diagnose a recorded capture directory.")
    static final class Replay implements Callable<Integer> {
        @CommandLine.ParentCommand
        Main parent;

        @Parameters(index = "0", arity = "0..1", paramLabel = "CAPTURE_DIR", description = "A capture directory (see the capture format).")
        Path capture;

        @Option(names = "--paste", paramLabel = "FILE",
                description = "Diagnose text pasted from a terminal (nvidia-smi, ps, logs, dmesg…) instead; - reads stdin.")
        String paste;

        @Option(names = "--intent", paramLabel = "KEY=VALUE",
                description = "What you launched, e.g. moe_runner_backend=flashinfer_trtllm or launched_at=2026-11-30T00:31:05Z (repeatable).")
        Map<String, String> intent = new LinkedHashMap<>();

        @Option(names = "--format", defaultValue = "text", description = "text or json (default: ${DEFAULT-VALUE}).")
        Format format;

        @Option(names = "--no-redact", description = "Show secrets (API keys, tokens) as they are instead of ‹redacted:…›.")
        boolean noRedact;

        @Override
        public Integer call() {
            PrintWriter out = parent.spec.commandLine().getOut();
            PrintWriter err = parent.spec.commandLine().getErr();
            Triage triage = noRedact ? parent.triage().unredacted() : parent.triage();
            Diagnosis d;
            try {
                if (paste != null) {
                    d = Paste.diagnose(triage, paste, intent, format == Format.json ? err : out);
                } else if (capture == null) {
                    err.println("triage: give a capture directory or --paste FILE");
                    return BAD_INPUT;
                } else {
                    d = triage.replay(capture, intent);
                }
            } catch (CaptureException e) {
                err.println("triage: " + oneLine(e));
                return BAD_INPUT;
            }
            out.print(format == Format.json ? new JsonRenderer().render(d) + "\n" : new TextRenderer().render(d));
            out.flush();
            return OK;
        }
    }

    enum Format { text, json }

    @Command(name = "rules", mixinStandardHelpOptions = true, description = "Tools for rule authors.",
            subcommands = {Check.class, RulesTest.class, Bench.class, RulesExplain.class, RulesScenario.class})
    static final class Rules implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            spec.commandLine().usage(spec.commandLine().getOut());
            return OK;
        }
    }

    @Command(name = "check", mixinStandardHelpOptions = true,
            description = "Compile every rule file and load every knowledge-base file; report errors and warnings.")
    static final class Check implements Callable<Integer> {
        @CommandLine.ParentCommand
        Rules rules;

        @Override
        public Integer call() {
            Main main = (Main) rules.spec.parent().userObject();
            PrintWriter out = rules.spec.commandLine().getOut();
            Triage t = main.triage(false);
            List<RuleBase.Problem> warnings = t.rules().warnings();
            out.println("rules: " + t.rules().files().size() + " files, "
                    + t.rules().kieBase().getKiePackages().stream().mapToInt(p -> p.getRules().size()).sum()
                    + " rules compiled from " + t.home().resolve("rules")
                    + (t.rules().overlayRules() == null ? "" : " and " + t.rules().overlayRules()));
            out.println("knowledge: " + t.knowledge().markers().stream().map(io.triage.knowledge.Marker::id).distinct().count() + " log markers, "
                    + t.knowledge().causes().size() + " causes, " + t.knowledge().steps().size() + " next steps");
            for (RuleBase.Problem w : warnings) {
                out.println("  " + w);
            }
            // the consistency check passed (errors refuse the load, exit 3 with each file and line); its warnings
            // (ids produced and never used, ids it cannot check) are shown without failing the check
            List<RuleBase.Problem> unused = t.rules().consistencyWarnings();
            out.println("consistency: every id the rules match is produced, every id produced has its text"
                    + (unused.isEmpty() ? "" : "; " + unused.size() + " warning(s)"));
            for (RuleBase.Problem w : unused) {
                out.println("  " + Safe.forTerminal(w.toString()));
            }
            return warnings.isEmpty() ? OK : BROKEN_KNOWLEDGE;
        }
    }
}
