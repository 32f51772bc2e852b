package io.triage.knowledge;

import java.util.List;

/**
 * One log marker: a regex that, when it finds a match in one log line, classifies the line. The regex
 * is a {@link LinePattern}: RE2 syntax, searched for in time linear in the line's length whatever the
 * line (no back-references, no look-arounds).
 *
 * @param server the server kind the marker belongs to, or {@code common}
 * @param prefilter literals of which every match contains one (derived from the regex), or null; the
 *                  {@link LiteralIndex} built from them decides which markers a line is tried against
 * @param groups the named groups the pattern declares, among those the parser reads
 */
public record Marker(String id, String server, String kind, LinePattern pattern, String subtype, int priority,
                     RegexLiterals.Prefilter prefilter, List<String> groups) {


    /** Named groups the log parser reads from a marker's match. */
    public static final List<String> KNOWN_GROUPS =
            List.of("exception", "message", "percent", "eta", "pid", "port", "status", "path", "method", "tic", "heartbeat");

    /** Marker kinds the rules know about. */
    public static final List<String> KINDS = List.of("run-start", "server-args", "ready", "shutdown", "signal",
            "loading", "progress", "access", "traceback", "exception", "error", "address-in-use", "port-owner",
            "engine-dead", "health-check-failed", "killed", "nccl-init", "host");

    /**
     * Kinds of routine lines: many per minute in a working server's log, of which the rules read only the first,
     * the last and the newest timestamped of a run. The host-side log filter keeps them apart from the rare ones.
     */
    public static final List<String> ROUTINE_KINDS = List.of("access", "progress");

    /**
     * What the log parser turns an {@code access} line into when it is not served work: a health or
     * metrics poll, or an answer with an error status. Not a marker kind of the files.
     */
    public static final String ACCESS_NOISE = "access-noise";

    /**
     * Crash subtypes an {@code error} marker may name: the root of the failure. A marker that only says
     * that the process failed (a segfault, "Executor worker returned error", a Rust panic) names none: the
     * rules then look for the root elsewhere in the run, and leave the subtype empty when nothing names it.
     */
    public static final List<String> SUBTYPES = List.of("cuda-oom", "cuda-error", "nccl-error", "config-error",
            "model-load-error", "disk-full", "import-error");

    /**
     * Subtypes a {@code loading} marker may name: {@code wait}, a line a launcher repeats on a timer while it waits
     * for a part of itself to start ("Waiting for shard to be ready"). It says start-up is pending, not that it moves:
     * the rules read it as start-up, never as recent progress.
     */
    public static final List<String> LOADING_SUBTYPES = List.of("wait");

    /**
     * Subtypes a {@code shutdown} marker may name: {@code complete}, the line that says the orderly shutdown ran to its
     * end (every request drained, the lifespan finished, the process finished). A signal the process then got, or gave
     * itself (SGLang ends a finished drain by SIGKILLing its own process tree), is the end of that shutdown, not a kill.
     */
    public static final List<String> SHUTDOWN_SUBTYPES = List.of("complete");
}
