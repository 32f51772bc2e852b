package io.triage.facts;

/**
 * An observation that would decide between remaining hypotheses: the {@code probe} (or operator
 * answer) to get and {@code about} which causes it separates. Text by {@code id} in the knowledge base.
 */
public record Question(String id, String probe, String about) implements Derived {
    @Override
    public String label() {
        return "question " + id;
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
