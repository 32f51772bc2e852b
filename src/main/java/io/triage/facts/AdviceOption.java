package io.triage.facts;

/**
 * A next step the knowledge base offers for a cause (and, when not empty, only for that subtype).
 * Rules turn options into {@link Advice} for the causes they conclude.
 */
public record AdviceOption(String stepId, String cause, String subtype, int order) {
}
