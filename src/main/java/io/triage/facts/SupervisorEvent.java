package io.triage.facts;

/**
 * One thing a supervisor said happened, read from its journal, event list or error output: a kill, a stop
 * that timed out, a failed liveness probe, an eviction, a pod that could not be scheduled, a container the
 * runtime refused, a restart.
 *
 * @param kind   systemd, docker, podman, containerd, kubernetes or slurm
 * @param event  what happened, one of {@link io.triage.parse.SupervisorText.Event}'s ids ({@code stop-timeout},
 *               {@code liveness-kill}, {@code evicted}, {@code insufficient-gpu}, {@code no-gpu-runtime}…)
 * @param name   the unit, container, pod or job it concerns; may be empty
 * @param detail what a person needs to see beside the event id: a signal, a counter, the scheduler's reason
 * @param count  a number the event carries (a restart counter), or -1
 */
public record SupervisorEvent(String kind, String event, String name, String detail, int count, String probe,
                              int line, String excerpt) implements Evidence {
}
