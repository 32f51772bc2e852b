package io.triage.facts;

/** Probe output that could not be read; the reason says why. Never an exception. */
public record Unparseable(String probe, String reason, int line, String excerpt) implements Evidence {
}
