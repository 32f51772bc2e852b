package io.triage.facts;

/**
 * What {@code /proc/PID/status} says of a process: its state and whether a SIGKILL waits undelivered. A process
 * that a SIGKILL cannot end is inside the kernel (a driver call, a hard-mounted filesystem) whatever its state letter.
 *
 * @param pid the process, or -1 when neither the command nor the output names it
 * @param state the state letter of its {@code State:} line (R, S, D, T, t, Z, I), or empty when not shown
 * @param killPending true when {@code SigPnd} or {@code ShdPnd} holds SIGKILL (bit 9)
 */
public record ProcStatus(int pid, String state, boolean killPending, String probe, int line,
                         String excerpt) implements Evidence {
}
