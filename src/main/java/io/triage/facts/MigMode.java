package io.triage.facts;

/**
 * A GPU whose {@code nvidia-smi} table row shows MIG mode enabled (the "MIG M." column): the card is
 * partitioned, and a process sees only the MIG instance it was given (a fraction of the memory, one device),
 * never the whole GPU.
 *
 * @param gpu the GPU's index in the table
 */
public record MigMode(int gpu, String probe, int line, String excerpt) implements Evidence {
}
