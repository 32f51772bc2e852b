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
        io.triage.ScenarioSuite.Result r = io.triage.ScenarioSuite.run(t, roots);
        for (Map.Entry<Path, List<String>> f : r.failed().entrySet()) {
            out.println(io.triage.safety.Safe.forTerminal("FAIL " + f.getKey()) + "\n  "
                    + String.join("\n  ", f.getValue().stream().map(io.triage.safety.Safe::forTerminal).toList()));
        }
        int passed = r.passed();
        int failed = r.failed().size();
        out.println(passed + " passed, " + failed + " failed");
        return failed == 0 ? Main.OK : Main.BROKEN_KNOWLEDGE;
    }
}
