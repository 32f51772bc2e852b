package io.triage.facts;

/**
 * A cause the rules concluded is supported. {@code confidence} is high, medium or low; {@code subtype}
 * may be empty.
 */
public record Hypothesis(String cause, String subtype, String confidence) implements Derived {
    @Override
    public String label() {
        return cause + (subtype.isEmpty() ? "" : "/" + subtype) + " (" + confidence + ")";
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
