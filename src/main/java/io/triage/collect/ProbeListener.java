package io.triage.collect;

/**
 * Told about each probe of a look as its frame arrives from the host, before the look ends: for progress
 * (a server streams it to its clients). Called from an SSH I/O thread: return quickly, never block.
 */
@FunctionalInterface
public interface ProbeListener {
    /**
     * @param probe the probe's name as the bundle framed it
     * @param rc its exit code on the host
     * @param millis its wall time on the host, ms
     */
    void probeArrived(String probe, int rc, long millis);
}
