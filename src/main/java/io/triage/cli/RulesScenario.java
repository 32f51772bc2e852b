package io.triage.cli;

import io.triage.Triage;
import io.triage.capture.Capture;
import io.triage.capture.CaptureException;
import io.triage.capture.CaptureWriter;
import io.triage.explain.Diagnosis;
import io.triage.explain.Expectation;
import io.triage.safety.Safe;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

/** {@code triage rules scenario …}: turn an incident's capture into a scenario (a regression test). */
@Command(name = "scenario", mixinStandardHelpOptions = true, description = "Scenarios: captures with the verdict they must give.",
        subcommands = {RulesScenario.Add.class})
final class RulesScenario implements Callable<Integer> {
    @ParentCommand
    Main.Rules rules;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return Main.OK;
    }

    /** One segment of a scenario name: no separator, no dot first, nothing that a shell or a file system treats specially. */
    static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");
    private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");

    /**
     * {@code triage rules scenario add CAPTURE --expect cause[/subtype] [--not cause…] [--name NAME]}: copies the capture,
     * redacted, under {@code knowledge-base/scenarios/NAME} with its {@code expected.txt}, runs it and says whether it passes.
     */
    @Command(name = "add", mixinStandardHelpOptions = true,
            description = "Copy a capture (diagnose --save, a capture directory) under knowledge-base/scenarios/ with its expected.txt, redacted, "
                    + "then run it: exit 0 when it passes; when it fails (exit 3) the scenario is kept for you to fix the rules.")
    static final class Add implements Callable<Integer> {
        @ParentCommand
        RulesScenario scenario;

        @Parameters(index = "0", paramLabel = "CAPTURE", description = "The capture directory (not a symbolic link).")
        Path capture;

        @Option(names = "--expect", required = true, paramLabel = "CAUSE[/SUBTYPE]", description = "The verdict it must give, e.g. crash/cuda-oom.")
        String expect;

        @Option(names = "--not", split = ",", paramLabel = "CAUSE", description = "Causes that must not be supported at all (repeatable, or comma-separated).")
        List<String> not;

        @Option(names = "--name", paramLabel = "NAME",
                description = "Its directory under knowledge-base/scenarios (letters, digits, . _ -; a/b for a subdirectory); default: CAUSE-<capture's name>.")
        String name;

        @Override
        public Integer call() {
            Main main = (Main) scenario.rules.spec.parent().userObject();
            PrintWriter out = scenario.rules.spec.commandLine().getOut();
            PrintWriter err = scenario.rules.spec.commandLine().getErr();
            Triage t = main.triage(false);
            List<String> not = this.not == null ? List.of() : this.not.stream().map(String::strip).filter(x -> !x.isEmpty()).distinct().toList();
            String cause = expect.contains("/") ? expect.substring(0, expect.indexOf('/')) : expect;
            String subtype = expect.contains("/") ? expect.substring(expect.indexOf('/') + 1) : "";
            List<String> problems = new ArrayList<>();
            for (String c : concat(List.of(cause), not)) {
                if (!t.knowledge().causes().containsKey(c)) {
                    problems.add("unknown cause '" + c + "'; the causes are " + String.join(", ", t.knowledge().causes().keySet()));
                }
            }
            if (!subtype.isEmpty() && !ID.matcher(subtype).matches()) {
                problems.add("a subtype is lower-case letters, digits and '-', e.g. crash/cuda-oom");
            }
            if (not.contains(cause)) {
                problems.add(cause + " cannot be both expected and --not");
            }
            if (!problems.isEmpty()) {
                err.println(Safe.forTerminal("triage: " + problems.get(0)));
                return Main.BAD_INPUT;
            }
            if (Files.isSymbolicLink(capture)) {
                err.println(Safe.forTerminal("triage: " + capture + " is a symbolic link; give the capture directory itself"));
                return Main.BAD_INPUT;
            }
            if (!Files.isDirectory(capture, LinkOption.NOFOLLOW_LINKS)) {
                err.println(Safe.forTerminal("triage: " + capture + " is not a capture directory"));
                return Main.BAD_INPUT;
            }
            String n = name != null ? name : defaultName(cause, capture);
            // with a site overlay, the site's incident is the site's scenario: filed in the overlay, not in ours
            Path root = (t.overlay() != null ? t.overlay().dir() : t.home()).resolve("knowledge-base/scenarios")
                    .toAbsolutePath().normalize();
            Path dir;
            try {
                dir = target(root, n);
            } catch (IllegalArgumentException e) {
                err.println(Safe.forTerminal("triage: " + e.getMessage()));
                return Main.BAD_INPUT;
            }
            Capture c;
            try {
                c = t.redactor().redact(t.reader().read(capture));
            } catch (CaptureException e) {
                err.println("triage: " + Main.oneLine(e));
                return Main.BAD_INPUT;
            }
            try {
                CaptureWriter.write(c, dir);
                create(dir.resolve("expected.txt"), "cause=" + cause + (subtype.isEmpty() ? "" : " subtype=" + subtype)
                        + (not.isEmpty() ? "" : " not=" + String.join(",", not)) + "\n");
                create(dir.resolve("TRUTH.txt"), "Added with 'triage rules scenario add' from the capture "
                        + capture.toAbsolutePath().normalize().getFileName() + ", expecting " + expect
                        + (not.isEmpty() ? "" : " and not " + String.join(", ", not))
                        + ".\nSay here what really happened and how it was established.\n");
            } catch (IOException e) {
                err.println(Safe.forTerminal("triage: the scenario could not be written: " + e.getMessage()));
                return Main.BAD_INPUT;
            }
            String shown = root.getParent().getParent().relativize(dir).toString();
            out.println(Safe.forTerminal("added " + shown + " (secrets redacted)"));
            List<String> failures;
            Diagnosis d = null;
            try {
                d = t.replay(dir, Map.of());
                failures = Expectation.read(dir).failures(d);
            } catch (CaptureException | IOException | IllegalArgumentException e) {
                failures = List.of(e.getMessage());
            }
            if (failures.isEmpty()) {
                out.println(Safe.forTerminal("PASS " + n + ": " + verdict(d)));
                return Main.OK;
            }
            out.println(Safe.forTerminal("FAIL " + n + (d == null ? "" : ": " + verdict(d))));
            failures.forEach(f -> out.println("  " + Safe.forTerminal(f)));
            out.println(Safe.forTerminal("the scenario is kept: 'triage rules explain " + cause + " " + shown
                    + "' says which conditions of the rules for " + cause + " were not met; fix the rules, then 'triage rules test " + shown + "'"));
            return Main.BROKEN_KNOWLEDGE;
        }

        private static String verdict(Diagnosis d) {
            return "verdict " + d.cause() + (d.subtype().isEmpty() ? "" : "/" + d.subtype()) + " (" + d.confidence() + ")";
        }

        private static void create(Path file, String text) throws IOException {
            Files.write(file, text.getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS);
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> l = new ArrayList<>(a);
        l.addAll(b);
        return l;
    }

    /** CAUSE-<the capture directory's name>, cut to what a segment allows. */
    static String defaultName(String cause, Path capture) {
        Path f = capture.toAbsolutePath().normalize().getFileName();
        String base = (cause + "-" + (f == null ? "capture" : f.toString())).toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9._-]+", "-").replaceAll("^[^a-z0-9]+", "");
        return base.length() > 100 ? base.substring(0, 100) : base;
    }

    /**
     * The new scenario's directory: {@code root/name}, where the name's segments are plain names, the result stays under
     * {@code root}, does not exist yet, and no directory on the way is a symbolic link.
     *
     * @throws IllegalArgumentException saying why the name is refused
     */
    static Path target(Path root, String name) {
        String[] segs = name.split("/", -1);
        if (segs.length > 4) {
            throw new IllegalArgumentException("a scenario name has at most 4 parts (a/b/c/d)");
        }
        for (String s : segs) {
            if (!SEGMENT.matcher(s).matches()) {
                throw new IllegalArgumentException("scenario name '" + name + "' refused: each part is 1 to 100 letters, digits, "
                        + "'.', '_' or '-', not starting with '.', '_' or '-' (so it cannot leave knowledge-base/scenarios)");
            }
        }
        Path dir = root.resolve(name).normalize();
        if (!dir.startsWith(root) || dir.equals(root)) {
            throw new IllegalArgumentException("scenario name '" + name + "' leaves knowledge-base/scenarios");
        }
        for (Path p = root; ; ) {
            if (Files.isSymbolicLink(p)) {
                throw new IllegalArgumentException(p + " is a symbolic link; a scenario is written only into real directories");
            }
            if (p.equals(dir)) {
                break;
            }
            p = p.resolve(dir.getName(p.getNameCount()).toString());
        }
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalArgumentException("scenario " + name + " already exists; give another --name");
        }
        return dir;
    }
}
