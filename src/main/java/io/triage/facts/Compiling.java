package io.triage.facts;

/**
 * A compiler running under a server's process (nvcc, ninja, ptxas… of {@code processes.yaml compilers:}): the server
 * builds kernels.
 *
 * @param pid the compiler's process
 * @param serverPid the server process it descends from
 * @param elapsedSec how long the compiler has run, or -1 when the process list does not say
 */
public record Compiling(int pid, int serverPid, long elapsedSec, String probe, int line, String excerpt)
        implements Evidence {
}
