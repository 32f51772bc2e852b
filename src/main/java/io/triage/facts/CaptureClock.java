package io.triage.facts;

/** When the capture was taken, from the {@code date} probe: epoch seconds. */
public record CaptureClock(long epoch, String probe, int line, String excerpt) implements Evidence {
}
