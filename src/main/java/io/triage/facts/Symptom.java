package io.triage.facts;

/**
 * A symptom the rules derived from evidence: {@code id} is stable (its sentence lives in
 * {@code knowledge-base/texts.yaml} under {@code symptoms:}); {@code value} is what later rules compare (a
 * subtype, a PID, an argument name), {@code detail} the values a person needs to see, put into the template of
 * {@code details:} by the text layer.
 */
public record Symptom(String id, String value, Detail detail) implements Derived {
    public Symptom {
        value = value == null ? "" : value;
        detail = detail == null ? Detail.NONE : detail;
    }

    public Symptom(String id) {
        this(id, "", Detail.NONE);
    }

    public Symptom(String id, Detail detail) {
        this(id, "", detail);
    }

    @Override
    public String label() {
        return "symptom " + id + (detail.isEmpty() ? "" : " (" + detail + ")");
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
