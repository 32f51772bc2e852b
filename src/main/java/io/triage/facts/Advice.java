package io.triage.facts;

/** A next step to offer for a cause; text, command and rationale by {@code stepId} in the knowledge base. */
public record Advice(String stepId, String cause) implements Derived {
    @Override
    public String label() {
        return "advice " + stepId;
    }

    /**
     * Identity, not value: each rule firing's conclusion is its own fact, so truth maintenance never
     * merges two rules' conclusions into one and every derived fact keeps the firing that made it.
     */
    @Override
    public boolean equals(Object o) {
        return this == o;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }
}
