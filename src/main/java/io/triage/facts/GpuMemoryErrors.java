package io.triage.facts;

/**
 * A GPU whose {@code nvidia-smi -q} report ({@code -d ECC,ROW_REMAPPER} or a whole report) records uncorrectable
 * memory errors since the driver loaded, or a repair the GPU is waiting for: a row remap (A100 and later) or a page
 * retirement (earlier GPUs) pending, which takes a GPU reset to apply, or a remap that failed.
 *
 * @param gpu the GPU's bus id as the report names it
 * @param volatileUncorrectable uncorrectable ECC errors counted since the driver loaded (the "Volatile" section)
 * @param repairPending a row remap or a page retirement waits for a GPU reset
 * @param remapFailed a row remap failed: the GPU has no spare rows left for that bank
 */
public record GpuMemoryErrors(String gpu, long volatileUncorrectable, boolean repairPending, boolean remapFailed,
                              String probe, int line, String excerpt) implements Evidence {
}
