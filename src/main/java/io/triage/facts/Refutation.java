package io.triage.facts;

/** Evidence that speaks against a cause: {@code reason} names its words in {@code texts.yaml} (reasons:). */
public record Refutation(String cause, Detail reason) implements Derived {
    @Override
    public String label() {
        return "not " + cause + ": " + reason;
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
