package io.triage.cli;

import io.triage.Triage;
import io.triage.capture.Capture;
import io.triage.capture.CaptureException;
import io.triage.explain.JsonRenderer;
import io.triage.explain.WhyNot;
import io.triage.safety.Safe;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code triage rules explain CAUSE CAPTURE}: WHY NOT — the rules that would conclude CAUSE, closest first, and
 * which of their conditions the capture's facts meet.
 */
@Command(name = "explain", mixinStandardHelpOptions = true,
        description = "Why a cause is (not) concluded for a capture: each rule that would conclude it, and which of its conditions the facts meet.")
final class RulesExplain implements Callable<Integer> {
    @ParentCommand
    Main.Rules rules;

    @Parameters(index = "0", paramLabel = "CAUSE", description = "A cause id (causes.yaml), e.g. oom-killer.")
    String cause;

    @Parameters(index = "1", paramLabel = "CAPTURE", description = "A capture directory (a scenario, or one saved with diagnose --save).")
    Path capture;

    @Option(names = "--intent", paramLabel = "KEY=VALUE", description = "What you launched, as for replay (repeatable).")
    Map<String, String> intent = new LinkedHashMap<>();

    @Option(names = "--format", defaultValue = "text", description = "text or json (default: ${DEFAULT-VALUE}).")
    Main.Format format;

    @Override
    public Integer call() {
        Main main = (Main) rules.spec.parent().userObject();
        PrintWriter out = rules.spec.commandLine().getOut();
        PrintWriter err = rules.spec.commandLine().getErr();
        Triage t = main.triage(true);
        if (!t.knowledge().causes().containsKey(cause)) {
            err.println(Safe.forTerminal("triage: unknown cause '" + cause + "'; the causes are "
                    + String.join(", ", t.knowledge().causes().keySet())));
            return Main.BAD_INPUT;
        }
        WhyNot.Answer a;
        try {
            Capture c = t.reader().read(capture);
            a = t.whyNot(cause, c, intent);
        } catch (CaptureException e) {
            err.println("triage: " + Main.oneLine(e));
            return Main.BAD_INPUT;
        }
        if (format == Main.Format.json) {
            try {
                out.println(new JsonRenderer().mapper().writeValueAsString(WhyNot.json(a)));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException("the answer could not be written as JSON", e);
            }
        } else {
            WhyNot.text(a).lines().forEach(l -> out.println(Safe.forTerminal(l)));
        }
        out.flush();
        return Main.OK;
    }
}
