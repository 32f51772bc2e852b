package io.triage.facts;

/**
 * {@code nvidia-smi} could not do its job. {@code kind} is one of {@code driver-mismatch},
 * {@code no-driver}, {@code device-handle}, {@code gpu-lost}, {@code no-devices}, {@code err-field},
 * {@code timeout}, {@code other}.
 */
public record SmiFailure(String kind, String probe, int line, String excerpt) implements Evidence {
}
