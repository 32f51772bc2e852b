package io.triage.facts;

import java.util.List;

/**
 * Knowledge: one need of a cause's differential ({@code knowledge-base/differentials.yaml}). The cause is
 * named with high confidence only when one of {@code probes} was read; otherwise the first of them is asked for.
 *
 * @param need what the probes answer, in words
 * @param probes probe names, at least one; any one read answers the need
 */
public record DifferentialNeed(String cause, String need, List<String> probes) {
    public DifferentialNeed {
        probes = List.copyOf(probes);
    }

    /** The probe to ask for when none was read. */
    public String first() {
        return probes.get(0);
    }
}
