package io.triage.facts;

/**
 * The verdict of the differential on one alternative cause: {@code ruled-out} (the evidence that would
 * show it was looked at and is not there) or {@code not-ruled-out} (the evidence is missing;
 * {@code missing} names the probe that would decide). {@code reason} names its words in {@code texts.yaml} (reasons:).
 */
public record Exclusion(String cause, String status, Detail reason, String missing) implements Derived {
    public boolean ruledOut() {
        return "ruled-out".equals(status);
    }

    @Override
    public String label() {
        return cause + " " + status + ": " + reason;
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
