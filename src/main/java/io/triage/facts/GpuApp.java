package io.triage.facts;

/**
 * A compute process on a GPU, from {@code nvidia-smi --query-compute-apps} or the table's process list.
 *
 * @param usedMiB GPU memory held, MiB, or -1 when not reported
 * @param role what its name says it is: frontend, worker or other (see {@link Proc})
 */
public record GpuApp(int pid, String name, long usedMiB, String role, String probe, int line, String excerpt)
        implements Evidence {
}
