package io.triage.parse;

import io.triage.facts.Target;

import java.util.List;

/**
 * What the parsers made of a capture: the facts for the rule engine, the target as given or
 * discovered, and notes for the coverage (what was discovered, assumed or could not be read).
 *
 * @param work characters examined while parsing (see {@link ReadBudget}): what the capture cost
 */
public record Observation(Target target, List<Object> facts, List<String> notes, long work) {
}
