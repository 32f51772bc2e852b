package io.triage.facts;

import java.util.List;

/**
 * Knowledge: one need of a cause's differential ({@code knowledge-base/differentials.yaml}). The cause is
 * named with high confidence only when one of {@code probes} was read or one of the {@code evidence} symptoms
 * holds; otherwise the first probe is asked for.
 *
 * @param need what the probes answer, in words
 * @param probes probe names, at least one; any one read answers the need
 * @param evidence symptom ids, maybe none; any one present answers the need from what was read (a supervisor that
 *                 recorded the exit says the process no longer runs as well as a process listing would)
 */
public record DifferentialNeed(String cause, String need, List<String> probes, List<String> evidence) {
    public DifferentialNeed {
        probes = List.copyOf(probes);
        evidence = List.copyOf(evidence);
    }

    /** The probe to ask for when none was read. */
    public String first() {
        return probes.get(0);
    }
}
