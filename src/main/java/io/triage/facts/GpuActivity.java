package io.triage.facts;

/**
 * What the GPUs that hold memory are doing, all together, by their profiles' thresholds.
 * {@code pattern} is one of {@code all-pinned}, {@code all-idle}, {@code mixed} (some pinned, some idle:
 * one rank waits on another), {@code working} (none idle, not all pinned), {@code none} (no GPU holds
 * memory, or no utilisation was read).
 *
 * @param held GPUs holding more than their profile's "released" memory
 * @param pinned of those, at or above the profile's pinned utilisation
 * @param idle of those, at or below the profile's idle utilisation
 */
public record GpuActivity(String pattern, int held, int pinned, int idle, String probe, int line, String excerpt)
        implements Evidence {
}
