package io.triage.facts;

/** A fact the rules inferred. Its provenance (rule and premises) is recorded by the engine's trace. */
public interface Derived {
    /** A short, stable label for the fact, used in explanations. */
    String label();
}
