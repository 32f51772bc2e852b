package io.triage.facts;

/**
 * One server argument, from the newest argument dump in the log ({@code source} = {@code server-args})
 * or from a running process's command line ({@code source} = {@code cmdline}). Names are normalised:
 * lower case, dashes to underscores, no leading dashes. Values are unquoted.
 *
 * @param newest true for arguments of the newest dump in the log, or of a live server process
 * @param pid the process for {@code cmdline} arguments, else -1
 * @param epoch timestamp of the dump's log line, epoch seconds, or -1
 */
public record ServerArg(String name, String value, String source, boolean newest, int pid, long epoch,
                        String probe, int line, String excerpt) implements Evidence {
}
