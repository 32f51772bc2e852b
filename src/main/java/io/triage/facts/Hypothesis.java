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
}
