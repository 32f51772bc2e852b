package io.triage.facts;

/**
 * What moved between the two samples of a second look (taken when health failed or was slow while a
 * server process lived): the same signals read twice, {@code intervalMs} apart. Each delta is -1 when it
 * could not be read in both samples.
 *
 * @param intervalMs time between the two samples, milliseconds
 * @param logGrowthBytes how much the log grew, bytes (a rotated or truncated log counts as moved)
 * @param logLastChanged true when the log's last line differs between the samples
 * @param cpuSeconds CPU time the server's processes (and two generations of children) used in between,
 *                   seconds; -1 when unknown
 * @param cpuPercent that CPU time as a share of one core over the interval, percent; -1 when unknown
 * @param states the processes' states in the second sample (ps letters, e.g. {@code S,R,R}), empty when unread
 * @param gpuUtilFirst highest GPU utilisation in the first sample, percent, or -1
 * @param gpuUtilSecond highest GPU utilisation in the second sample, percent, or -1
 * @param tokens tokens generated in between (the /metrics counter), or -1
 * @param downloadBytes growth of unfinished weight downloads in the Hugging Face cache, bytes, or -1
 * @param moved what moved, comma-separated from {@code log, cpu, tokens, download}; empty when nothing did
 * @param still what was read in both samples and did not move
 */
public record SecondLook(long intervalMs, long logGrowthBytes, boolean logLastChanged, double cpuSeconds,
                         double cpuPercent, String states, int gpuUtilFirst, int gpuUtilSecond, double tokens,
                         long downloadBytes, long running, long waiting, String moved, String still, String probe,
                         int line, String excerpt) implements Evidence {
    public boolean movedAny() {
        return !moved.isEmpty();
    }
}
