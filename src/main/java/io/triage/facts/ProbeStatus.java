package io.triage.facts;

/**
 * How one probe went. {@code status} is one of: {@code ok} (ran, exit code acceptable), {@code failed}
 * (ran, non-zero exit), {@code missing-file} (failed because the file it reads does not exist), {@code timeout} (killed by its timeout, rc 124), {@code not-found} (command
 * missing, rc 127), {@code no-exit-code} (output present but no exit code: pasted evidence),
 * {@code absent} (never run: unknown, not negative).
 *
 * @param rc exit code, or -1 when unknown
 * @param seconds wall time in seconds, or -1 when unknown
 * @param outputEmpty true when the probe's standard output was empty
 */
public record ProbeStatus(String probe, String status, int rc, double seconds, boolean outputEmpty, String reason)
        implements Evidence {
    public boolean ran() {
        return !"absent".equals(status);
    }

    /** True when the probe's output can be read as an observation (ran and did not fail). */
    public boolean usable() {
        return "ok".equals(status) || "no-exit-code".equals(status);
    }

    @Override
    public int line() {
        return 0;
    }

    @Override
    public String excerpt() {
        return probe + " " + status + (rc >= 0 ? " rc=" + rc : "") + (seconds >= 0 ? " " + seconds + "s" : "")
                + (reason == null || reason.isEmpty() ? "" : ": " + reason);
    }
}
