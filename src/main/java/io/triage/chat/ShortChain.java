package io.triage.chat;

import io.triage.explain.Diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The reasoning chain cut to what a chat message can hold: the verdict's conclusion, the conclusions it
 * rests on, and under each the raw evidence (probe, line, excerpt) that grounds it. Read from the
 * links' kinds: a symptom or a rule's conclusion is a conclusion, evidence is raw evidence, and the
 * rest (knowledge the rules consulted, the target, a cut) is left out.
 *
 * @param fact the verdict's conclusion, or empty when the chain has no concluding rule
 * @param rule the rule that concluded it, or empty
 * @param rationale why that rule concludes it, or empty
 * @param links what it rests on, in the engine's order
 */
record ShortChain(String fact, String rule, String rationale, List<Link> links) {

    /**
     * One link under the verdict.
     *
     * @param fact what the link says
     * @param rule the rule that concluded it, or empty for raw evidence
     * @param evidence the raw evidence when the link is evidence itself, else null
     * @param grounds the raw evidence found under a concluded link, at most the cap given
     * @param groundsLeftOut how many more pieces of evidence the cap left out
     */
    record Link(String fact, String rule, Diagnosis.Evidence evidence, List<Diagnosis.Evidence> grounds,
                int groundsLeftOut) {
    }

    static ShortChain of(Diagnosis d, int maxGrounds) {
        if (d.hypotheses() == null || d.hypotheses().isEmpty()) {
            return new ShortChain("", "", "", List.of());
        }
        List<Diagnosis.Node> because = nn(d.hypotheses().get(0).because());
        if (because.size() == 1 && because.get(0).kind().concluded()) {
            Diagnosis.Node top = because.get(0);
            return new ShortChain(str(top.fact()), str(top.rule()), str(top.rationale()),
                    links(nn(top.premises()), maxGrounds));
        }
        return new ShortChain("", "", "", links(because, maxGrounds));
    }

    private static List<Link> links(List<Diagnosis.Node> nodes, int maxGrounds) {
        List<Link> out = new ArrayList<>();
        for (Diagnosis.Node n : nodes) {
            if (n == null) {
                continue;
            }
            if (n.kind() == Diagnosis.Kind.EVIDENCE && n.evidence() != null) {
                out.add(new Link(str(n.fact()), "", n.evidence(), List.of(), 0));
            } else if (n.kind().concluded()) {
                Set<Diagnosis.Evidence> all = new LinkedHashSet<>();
                collect(n, all, 0);
                List<Diagnosis.Evidence> kept = all.stream().limit(Math.max(0, maxGrounds)).toList();
                out.add(new Link(str(n.fact()), str(n.rule()), null, kept, all.size() - kept.size()));
            }
        }
        return out;
    }

    private static void collect(Diagnosis.Node n, Set<Diagnosis.Evidence> into, int depth) {
        if (n == null || depth > 64) {
            return;
        }
        if (n.kind() == Diagnosis.Kind.EVIDENCE && n.evidence() != null) {
            into.add(n.evidence());
        }
        for (Diagnosis.Node p : nn(n.premises())) {
            collect(p, into, depth + 1);
        }
    }

    static <T> List<T> nn(List<T> l) {
        return l == null ? List.of() : l;
    }

    static String str(String s) {
        return s == null ? "" : s;
    }
}
