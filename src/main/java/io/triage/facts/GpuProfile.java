package io.triage.facts;

/**
 * Thresholds that apply to one GPU, chosen from {@code knowledge-base/gpu-profiles.yaml} by its name.
 *
 * @param idleWattsMax power at or below which the card is idle, watts
 * @param memReleasedMiB memory at or below which the card holds no model, MiB
 * @param utilPinnedPct utilisation at or above which the card is pinned busy, percent
 * @param utilIdlePct utilisation at or below which the card is idle, percent
 */
public record GpuProfile(int gpuIndex, String profile, double idleWattsMax, long memReleasedMiB,
                         int utilPinnedPct, int utilIdlePct) {
}
