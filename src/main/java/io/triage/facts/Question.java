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
}
