package io.triage.facts;

/**
 * What the log as a whole looks like.
 *
 * @param present true when some log text was captured
 * @param lines number of log lines read
 * @param runs number of server runs found (run starts or argument dumps)
 * @param lastSeq seq of the last line
 * @param lastEpoch timestamp of the newest timestamped line, epoch seconds, or -1
 * @param ageSeconds seconds between that line and the capture's clock, or -1 when either is unknown
 * @param lastMarkerKind kind of the last classified line of the newest run, or empty
 * @param lastWorkSeq seq of the newest run's last line of work (served request, progress or ready), or -1: an
 *                    error after it is one the server did not survive
 */
public record LogState(boolean present, int lines, int runs, int lastSeq, long lastEpoch, long ageSeconds,
                       String lastMarkerKind, String probe, int line, String excerpt, int lastWorkSeq) implements Evidence {
}
