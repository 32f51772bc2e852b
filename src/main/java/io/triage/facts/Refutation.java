package io.triage.facts;

/** Evidence that speaks against a cause. */
public record Refutation(String cause, String reason) implements Derived {
    @Override
    public String label() {
        return "not " + cause + ": " + reason;
    }
}
