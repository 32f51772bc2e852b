package io.triage.cli;

import io.triage.collect.ProbeBundle;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/** {@code triage bundle}: print the exact script a look sends to a host, for review or for plain ssh. */
@Command(name = "bundle", mixinStandardHelpOptions = true,
        description = "Print the read-only probe script that 'diagnose' sends to a host (one exec: bash -s).")
final class Bundle implements Callable<Integer> {
    @ParentCommand
    Main parent;

    @picocli.CommandLine.Mixin
    TargetOptions target = new TargetOptions();

    @Override
    public Integer call() {
        try {
            ProbeBundle b = target.bundle(parent.knowledge());
            parent.spec.commandLine().getOut().print(b.script());
            parent.spec.commandLine().getOut().flush();
            return Main.OK;
        } catch (IllegalArgumentException e) {
            parent.spec.commandLine().getErr().println("triage: refused: " + e.getMessage());
            return Main.BAD_INPUT;
        }
    }
}
