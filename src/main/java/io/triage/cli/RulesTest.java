package io.triage.cli;

import io.triage.ScenarioSuite;
import io.triage.Triage;
import io.triage.explain.JsonRenderer;
import io.triage.explain.RuleCoverage;
import io.triage.safety.Safe;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/** {@code triage rules test [DIR…] [--coverage] [--json]}: run every scenario (a capture with expected.txt) against the rules. */
@Command(name = "test", mixinStandardHelpOptions = true,
        description = "Run scenarios (captures with expected.txt) against the rules; default: knowledge-base/scenarios.")
final class RulesTest implements Callable<Integer> {
    @ParentCommand
    Main.Rules rules;

    @Parameters(paramLabel = "DIR", arity = "0..*", description = "Scenario directories, or directories holding them.")
    List<Path> dirs = new ArrayList<>();

    @Option(names = "--coverage", description = "Also say what the scenarios leave untested: rules never fired, causes and "
            + "subtypes never expected, markers never matched, thresholds not tested on both sides.")
    boolean coverage;

    @Option(names = "--json", description = "One JSON document instead of text.")
    boolean json;

    @Override
    public Integer call() throws IOException {
        Main main = (Main) rules.spec.parent().userObject();
        PrintWriter out = rules.spec.commandLine().getOut();
        Triage t = main.triage(false);
        List<Path> roots = dirs.isEmpty() ? t.scenarioDirs() : dirs;
        for (Path d : dirs) {
            if (!java.nio.file.Files.isDirectory(d)) {
                rules.spec.commandLine().getErr().println(Safe.forTerminal("triage: no such scenario directory: " + d));
                return Main.BAD_INPUT;
            }
        }
        RuleCoverage cov = null;
        if (coverage) {
            Set<String> all = new LinkedHashSet<>();
            t.rules().kieBase().getKiePackages().forEach(p -> p.getRules().forEach(r -> all.add(r.getName())));
            cov = new RuleCoverage(t.knowledge(), all, t.whyNot(), t.home().resolve("knowledge-base/thresholds.yaml"));
        }
        io.triage.explain.Calibration calibration = new io.triage.explain.Calibration();
        List<Map<String, Object>> failures = new ArrayList<>();
        RuleCoverage coverageOf = cov;
        ScenarioSuite.Result result = ScenarioSuite.run(t, roots, o -> {
            if (o.expectation() != null && o.examined() != null) {
                calibration.add(o.dir().toString(), o.expectation(), o.examined().diagnosis());
                if (coverageOf != null) {
                    coverageOf.add(o.expectation(), o.examined().diagnosis(), o.examined().workingMemory());
                }
            }
            if (!o.passed()) {
                Map<String, Object> f = new LinkedHashMap<>();
                f.put("scenario", o.dir().toString());
                f.put("problems", o.problems());
                failures.add(f);
                if (!json) {
                    out.println(Safe.forTerminal("FAIL " + o.dir()) + "\n  "
                            + String.join("\n  ", o.problems().stream().map(Safe::forTerminal).toList()));
                }
            }
        });
        int passed = result.passed();
        if (json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("passed", passed);
            doc.put("failed", failures.size());
            doc.put("failures", failures);
            if (cov != null) {
                doc.put("coverage", RuleCoverage.json(cov.report()));
            }
            out.println(new JsonRenderer().mapper().writeValueAsString(doc));
        } else {
            out.println(passed + " passed, " + failures.size() + " failed");
            out.println();
            out.println("confidence against the scenarios' causes:");
            out.print(calibration.render());
            for (io.triage.explain.Calibration.Entry x : calibration.highButWrong()) {
                out.println(Safe.forTerminal("WRONG AT HIGH CONFIDENCE " + x.scenario() + ": " + x.verdict()));
            }
            for (io.triage.explain.Calibration.Entry x : calibration.highButAccepted()) {
                out.println(Safe.forTerminal("accepted alternative at high confidence " + x.scenario() + ": "
                        + x.verdict()));
            }
            if (cov != null) {
                // line by line: the report is long, and each line is made safe on its own
                RuleCoverage.text(cov.report()).lines().forEach(l -> out.println(Safe.forTerminal(l)));
            }
        }
        out.flush();
        return failures.isEmpty() ? Main.OK : Main.BROKEN_KNOWLEDGE;
    }
}
