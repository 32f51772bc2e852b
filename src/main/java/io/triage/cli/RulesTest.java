package io.triage.cli;

import io.triage.Triage;
import io.triage.capture.CaptureException;
import io.triage.explain.Diagnosis;
import io.triage.explain.Expectation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/** {@code triage rules test [DIR…]}: run every scenario (a capture with expected.txt) against the rules. */
@Command(name = "test", mixinStandardHelpOptions = true,
        description = "Run scenarios (captures with expected.txt) against the rules; default: knowledge-base/scenarios.")
final class RulesTest implements Callable<Integer> {
    @ParentCommand
    Main.Rules rules;

    @Parameters(paramLabel = "DIR", arity = "0..*", description = "Scenario directories, or directories holding them.")
    List<Path> dirs = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
        Main main = (Main) rules.spec.parent().userObject();
        PrintWriter out = rules.spec.commandLine().getOut();
        Triage t = main.triage(false);
        List<Path> roots = dirs.isEmpty() ? List.of(t.home().resolve("knowledge-base/scenarios")) : dirs;
        int passed = 0;
        int failed = 0;
        io.triage.explain.Calibration calibration = new io.triage.explain.Calibration();
        for (Path root : roots) {
            List<Path> scenarios;
            try (Stream<Path> s = Files.walk(root)) {
                scenarios = s.filter(p -> Files.isRegularFile(p.resolve("expected.txt"))).sorted().toList();
            }
            for (Path dir : scenarios) {
                List<String> problems;
                try {
                    Diagnosis d = t.replay(dir, Map.of());
                    Expectation e = Expectation.read(dir);
                    problems = e.failures(d);
                    calibration.add(dir.toString(), e, d);
                } catch (CaptureException | IllegalArgumentException e) {
                    problems = List.of(e.getMessage());
                }
                if (problems.isEmpty()) {
                    passed++;
                } else {
                    failed++;
                    out.println(io.triage.safety.Safe.forTerminal("FAIL " + dir) + "\n  "
                            + String.join("\n  ", problems.stream().map(io.triage.safety.Safe::forTerminal).toList()));
                }
            }
        }
        out.println(passed + " passed, " + failed + " failed");
        out.println();
        out.println("confidence against the scenarios' causes:");
        out.print(calibration.render());
        for (io.triage.explain.Calibration.Entry x : calibration.highButWrong()) {
            out.println(io.triage.safety.Safe.forTerminal("WRONG AT HIGH CONFIDENCE " + x.scenario() + ": " + x.verdict()));
        }
        for (io.triage.explain.Calibration.Entry x : calibration.highButAccepted()) {
            out.println(io.triage.safety.Safe.forTerminal("accepted alternative at high confidence " + x.scenario() + ": "
                    + x.verdict()));
        }
        return failed == 0 ? Main.OK : Main.BROKEN_KNOWLEDGE;
    }
}
