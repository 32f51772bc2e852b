package io.triage.facts;

/**
 * A log line that matched a marker of the knowledge base. Routine lines (served requests and batch
 * statistics) are kept only as the first, the last and the last timestamped of their run: a rule can
 * ask whether one exists before or after another line and how recent the newest is, not count them.
 * Access lines that are health or metrics polls, or answered 5xx, have kind {@code access-noise}.
 *
 * @param kind the marker kind (ready, shutdown, error, access…), see {@code knowledge-base/README.md}
 * @param markerId the id of the marker that matched
 * @param subtype for {@code error} markers, the crash subtype they imply; otherwise empty
 * @param priority for {@code error} markers, how decisive the line is (higher wins)
 * @param seq order of the line in the reconstructed log (0-based, increasing with time)
 * @param run index of the server run the line belongs to (0 = before any run start seen)
 * @param currentRun true when the line belongs to the newest run in the log
 * @param epoch the line's timestamp in epoch seconds, or -1 when it has none
 * @param detail what the marker's named groups captured (exception, message, percent, eta, pid, port)
 */
public record LogMarker(String kind, String markerId, String subtype, int priority, int seq, int run,
                        boolean currentRun, long epoch, String detail, String probe, int line, String excerpt)
        implements Evidence {
}
