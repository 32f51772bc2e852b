package io.triage.facts;

/**
 * Why one GPU runs below its clocks, as {@code nvidia-smi} reports its active clock event reasons (called "clocks
 * throttle reasons" before driver 535): read from the bitmask of {@code clocks_throttle_reasons.active} or from the
 * named reasons, in the CSV query or in the "Clocks Event Reasons" section of {@code nvidia-smi -q -d PERFORMANCE}.
 * Idle, application clocks, sync boost and display clocks are not slowdowns and are not carried. Numeric fields are
 * -1 when not reported.
 *
 * @param gpu the GPU's index; -1 when unknown: {@code nvidia-smi -q} names GPUs by bus id, and its sections are in
 *            index order only when the report covers every GPU attached (not with {@code -i}, nor a section alone)
 * @param thermal software or hardware thermal slowdown is active (the GPU or its memory is too hot)
 * @param hardware hardware slowdown or the hardware power brake is active (clocks cut by half or more: heat, an
 *                 external power-brake signal from the power supply, or power drawn too fast)
 * @param powerCap the software power cap holds the clocks down (the board draws its power limit: ordinary under
 *                 full load at the board's default limit)
 * @param powerLimitLowered the power limit in force is below the board's default (someone set a lower cap)
 * @param reasons the active reasons as nvidia-smi names them, comma-separated ({@code sw_thermal_slowdown,…})
 * @param tempC GPU temperature, degrees Celsius
 * @param powerLimitW the power limit in force, watts
 * @param defaultPowerLimitW the board's default power limit, watts: a lower {@code powerLimitW} was set by someone
 * @param smMHz the SM clock now, MHz
 * @param maxSmMHz the highest SM clock of the board, MHz
 */
public record GpuThrottle(int gpu, boolean thermal, boolean hardware, boolean powerCap,
                          boolean powerLimitLowered, String reasons, int tempC,
                          double powerLimitW, double defaultPowerLimitW, int smMHz, int maxSmMHz, String probe,
                          int line, String excerpt) implements Evidence {
}
