package io.triage.facts;

/**
 * What a supervisor recorded about one thing it ran: a systemd unit, a Docker or podman container, a
 * containerd (CRI) container, a container of a Kubernetes pod, or a Slurm job.
 *
 * @param kind       systemd, docker, podman, containerd, kubernetes or slurm
 * @param name       the unit, container, {@code pod/container} or job id; may be empty when the record does not say
 * @param state      the supervisor's own word for its state ({@code failed}, {@code exited}, {@code Terminated},
 *                   {@code Pending}, {@code TIMEOUT}…), as printed; may be empty
 * @param reason     the supervisor's reason ({@code oom-kill}, {@code OOMKilled}, {@code Evicted}, {@code Error},
 *                   {@code CrashLoopBackOff}…), as printed; may be empty
 * @param exitCode   the last exit code, or -1 when not recorded (a kill by signal N shows as 128+N where the
 *                   supervisor folds it so: Docker, Kubernetes)
 * @param signal     the signal that ended it, without {@code SIG} ({@code KILL}, {@code TERM}), or empty
 * @param oomKilled  the supervisor says the out-of-memory killer ended it
 * @param restarts   the restart count, or -1 when not recorded
 * @param startedAt  when the last run started, as printed; may be empty
 * @param finishedAt when the last run ended, as printed; may be empty
 * @param lastLines  the last log lines the record carries (a status's journal), newline-separated; may be empty
 * @param server     its name, image or command is an inference server's (per {@code processes.yaml}), or the
 *                   capture names nothing else it could be
 */
public record SupervisorRecord(String kind, String name, String state, String reason, int exitCode, String signal,
                               boolean oomKilled, int restarts, String startedAt, String finishedAt, String lastLines,
                               boolean server, String probe, int line, String excerpt) implements Evidence {
}
