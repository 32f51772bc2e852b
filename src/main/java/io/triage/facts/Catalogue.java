package io.triage.facts;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The knowledge base's per-cause lists the rules consult, as one fact: the next steps it offers
 * ({@link AdviceOption}) and what must have been read before a cause is named with high confidence
 * ({@link DifferentialNeed}). Rules reach them with {@code from $k.advice($cause)} and
 * {@code from $k.needs($cause)}: the same for every diagnosis, so they are looked up by cause instead of
 * being inserted, one fact each, into every session.
 */
public final class Catalogue {
    private final Map<String, List<AdviceOption>> advice;
    private final Map<String, List<DifferentialNeed>> needs;

    public Catalogue(List<AdviceOption> options, List<DifferentialNeed> differentials) {
        Map<String, List<AdviceOption>> a = new LinkedHashMap<>();
        for (AdviceOption o : options) {
            a.computeIfAbsent(o.cause(), k -> new ArrayList<>()).add(o);
        }
        Map<String, List<DifferentialNeed>> n = new LinkedHashMap<>();
        for (DifferentialNeed d : differentials) {
            n.computeIfAbsent(d.cause(), k -> new ArrayList<>()).add(d);
        }
        a.replaceAll((k, v) -> List.copyOf(v));
        n.replaceAll((k, v) -> List.copyOf(v));
        this.advice = Map.copyOf(a);
        this.needs = Map.copyOf(n);
    }

    /** The steps offered for {@code cause} (for any subtype, or for one), in the knowledge base's order. */
    public List<AdviceOption> advice(String cause) {
        return advice.getOrDefault(cause, List.of());
    }

    /** What {@code cause} needs read before it is named with high confidence. */
    public List<DifferentialNeed> needs(String cause) {
        return needs.getOrDefault(cause, List.of());
    }

    @Override
    public String toString() {
        return "Catalogue[" + advice.size() + " causes with steps, " + needs.size() + " with needs]";
    }
}
