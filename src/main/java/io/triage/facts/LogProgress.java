package io.triage.facts;

/**
 * The newest run's lines of work (batch statistics, served requests) measured against the server's
 * logging cadence ({@code knowledge-base/cadence.yaml}). One fact per capture with a log.
 *
 * <p>{@code state} is one of: {@code none} (no line of work in the newest run), {@code untimed} (lines of
 * work without timestamps, or no capture clock: silence cannot be measured), {@code continuing} (at least
 * the cadence's number of lines, the last within the stall window), {@code single} (one line of work, the
 * last within the window: one moment, not a rhythm), {@code zero-throughput} (lines keep coming but the
 * newest say requests run while no token is produced), {@code stalled} (work pending on the last line
 * and silence longer than the stall window), {@code quiet} (silence longer than the window, whether work
 * is pending unknown), {@code idle} (the last line says nothing runs or waits), {@code no-cadence} (the
 * server logs nothing periodic: silence is judged by the log-stalled threshold alone), {@code not-taken} (the
 * newest line says nothing ran, and generation requests the front end accepted after it went unreported for longer
 * than the stall window by a server that logs whenever it works: the engine takes no request).
 *
 * @param lines lines of work in the newest run (timestamped or not)
 * @param zeroLines newest consecutive lines that report requests running and zero throughput
 * @param lastEpoch timestamp of the newest line of work, epoch seconds, or -1
 * @param silenceSeconds seconds from the newest line of work to the capture's clock, or -1 when unknown
 * @param cadenceSeconds the rhythm silence is measured against, seconds (0: none)
 * @param cadenceSource {@code knowledge} or {@code observed} (the log's own median gap was slower)
 * @param stallAfterSeconds silence beyond which pending work is stalled, seconds, or -1 (no cadence)
 * @param running requests running on the newest line that says, or -1 when unknown
 * @param waiting requests waiting on the newest line that says, or -1 when unknown
 * @param throughput generation throughput on the newest line that says, tokens/s, or -1 when unknown
 * @param stallWarnings the server's own stall warnings (shared-memory broadcast, watchdog, health
 *                      check) in the newest run after its last line of work
 */
public record LogProgress(String server, String state, int lines, int zeroLines, long lastEpoch,
                          long silenceSeconds, long cadenceSeconds, String cadenceSource, long stallAfterSeconds,
                          int running, int waiting, double throughput, int stallWarnings, String probe, int line,
                          String excerpt) implements Evidence {
    /** True when the newest line that says reports requests running or waiting. */
    public boolean workPending() {
        return running > 0 || waiting > 0;
    }
}
