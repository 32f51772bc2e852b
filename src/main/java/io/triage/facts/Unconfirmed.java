package io.triage.facts;

/**
 * A cause the rules concluded whose differential is not done: {@code need} was answered by no probe read,
 * so the cause is named at medium confidence at most, and {@code probe} is what would confirm it.
 */
public record Unconfirmed(String cause, String need, String probe) implements Derived {
    @Override
    public String label() {
        return cause + " not confirmed: nothing read says " + need + " (would need: " + probe + ")";
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
