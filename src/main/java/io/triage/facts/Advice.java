package io.triage.facts;

/** A next step to offer for a cause; text, command and rationale by {@code stepId} in the knowledge base. */
public record Advice(String stepId, String cause) implements Derived {
    @Override
    public String label() {
        return "advice " + stepId;
    }
}
