package io.triage.facts;

/**
 * Time thresholds from {@code knowledge-base/thresholds.yaml}.
 *
 * @param logStalledSeconds a log with no new line for longer than this is stalled, seconds
 * @param progressRecentSeconds progress newer than this counts as current, seconds
 * @param loadingRecentSeconds loading lines newer than this mean start-up is still going, seconds
 * @param healthSlowSeconds a health answer slower than this is slow, seconds
 * @param launchSlackSeconds how much earlier than the operator's launch time a run may start and
 *                           still be that launch (clocks and log buffering differ), seconds
 */
public record Thresholds(long logStalledSeconds, long progressRecentSeconds, long loadingRecentSeconds,
                         double healthSlowSeconds, long launchSlackSeconds) {
}
