package io.triage.facts;

/**
 * A process seen by {@code ps} or {@code pgrep}. {@code role} is {@code frontend} (API server or
 * launcher), {@code worker} (engine or GPU worker behind it) or {@code other}; {@code server} is the
 * server kind whose pattern matched, or empty.
 *
 * @param ppid parent PID, or -1 when unknown
 * @param state the first letter of {@code ps} STAT (R, S, D, T, t, Z, I), or empty when unknown
 * @param elapsedSec seconds since the process started, or -1 when unknown
 * @param rssKiB resident memory, KiB, or -1 when unknown
 */
public record Proc(int pid, int ppid, String state, long elapsedSec, long rssKiB, String args, String role,
                   String server, String probe, int line, String excerpt) implements Evidence {
    /** True when the process is a server front end or worker and not a zombie. */
    public boolean live() {
        return !"other".equals(role) && !"Z".equals(state);
    }
}
