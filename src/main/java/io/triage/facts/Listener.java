package io.triage.facts;

/**
 * A listening TCP socket from {@code ss -ltnp} (or {@code netstat -ltnp}).
 *
 * @param pid owning process, or -1 when not shown (needs root for other users' sockets)
 * @param process owning process name, or empty
 */
public record Listener(int port, int pid, String process, String probe, int line, String excerpt)
        implements Evidence {
}
