package io.triage.facts;

/**
 * A fact observed directly in a capture: where it came from, so that every explanation can end on the
 * raw line that supports it.
 */
public interface Evidence {
    /** Name of the probe whose output held this observation (for example {@code log_tail}). */
    String probe();

    /** 1-based line in that probe's output, or in the log itself when known; 0 when not tied to a line. */
    int line();

    /** The raw text the observation was read from, already cut to a readable length. */
    String excerpt();
}
