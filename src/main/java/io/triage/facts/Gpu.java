package io.triage.facts;

/**
 * One GPU as {@code nvidia-smi} reported it. Numeric fields are -1 when the value was not reported,
 * {@code [N/A]} or {@code ERR!}.
 *
 * @param memUsedMiB memory used, MiB
 * @param memTotalMiB memory total, MiB
 * @param utilPct utilisation, percent
 * @param powerW power draw, watts
 * @param tempC temperature, degrees Celsius
 * @param errField true when some field read {@code ERR!} (the driver could not read it)
 */
public record Gpu(int index, String name, long memUsedMiB, long memTotalMiB, int utilPct, double powerW,
                  int tempC, String pstate, boolean errField, String probe, int line, String excerpt)
        implements Evidence {
}
