package io.triage.facts;

/**
 * A kernel log event. {@code kind} is one of {@code oom-kill}, {@code xid}, {@code fallen-off-bus},
 * {@code hung-task}, {@code segfault}.
 *
 * @param pid process named by the event, or -1
 * @param process process name named by the event, or empty
 * @param code the Xid code for {@code xid} events, else -1
 * @param epoch the event's time when {@code dmesg -T} printed one, epoch seconds, or -1
 * @param serverProcess true when {@code process} (the kernel's 15-character name) is a server's or its
 *                      workers' name, per {@code knowledge-base/processes.yaml}
 */
public record KernelEvent(String kind, int pid, String process, int code, long epoch, boolean serverProcess,
                          String probe, int line, String excerpt) implements Evidence {
    public KernelEvent(String kind, int pid, String process, int code, long epoch, String probe, int line,
                       String excerpt) {
        this(kind, pid, process, code, epoch, false, probe, line, excerpt);
    }
}
