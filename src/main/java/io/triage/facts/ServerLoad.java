package io.triage.facts;

/**
 * The server's own account of its load, from a Prometheus {@code /metrics} scrape (the {@code metrics}
 * probe, or one sample of the second look). Series are summed over their label sets (models, ranks).
 *
 * @param source the probe the scrape came from
 * @param running requests running, or -1 when the server does not export it
 * @param waiting requests waiting in the queue, or -1
 * @param generated tokens generated since the server started (a counter), or -1
 */
public record ServerLoad(String server, String source, long running, long waiting, double generated, String probe,
                         int line, String excerpt) implements Evidence {
    /** True when the scrape says requests run or wait. */
    public boolean workPending() {
        return running > 0 || waiting > 0;
    }
}
