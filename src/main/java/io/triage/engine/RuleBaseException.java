package io.triage.engine;

import java.util.List;

/** The rules cannot be built; {@link #problems()} lists every compiler error with file and line. */
public class RuleBaseException extends RuntimeException {
    private final List<RuleBase.Problem> problems;

    public RuleBaseException(String message, List<RuleBase.Problem> problems) {
        super(message + (problems.isEmpty() ? "" : ":\n  " + String.join("\n  ",
                problems.stream().map(RuleBase.Problem::toString).toList())));
        this.problems = List.copyOf(problems);
    }

    public List<RuleBase.Problem> problems() {
        return problems;
    }
}
