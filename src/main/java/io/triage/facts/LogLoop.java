package io.triage.facts;

/**
 * The log ends in one message repeated, its times and numbers aside: a loop (a retry, a wait), not work.
 *
 * @param lines how many of the last lines are that message
 * @param ofLines how many lines were read
 */
public record LogLoop(int lines, int ofLines, String probe, int line, String excerpt) implements Evidence {
}
