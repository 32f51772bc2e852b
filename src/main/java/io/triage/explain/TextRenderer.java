package io.triage.explain;

import java.util.List;

/**
 * Renders a diagnosis for a person in a terminal: the verdict first, then "because…", "ruled out…",
 * the questions that remain, "next…" and what was looked at.
 */
public final class TextRenderer extends SanitisedView {
    private final int maxDepth;

    public TextRenderer() {
        this(6);
    }

    public TextRenderer(int maxDepth) {
        this.maxDepth = maxDepth;
    }

    @Override
    protected String draw(Diagnosis d) {
        StringBuilder b = new StringBuilder();
        b.append("Triage of ").append(d.source());
        if (!d.target().server().isEmpty() || d.target().port() > 0) {
            b.append("  [").append(d.target().server().isEmpty() ? "server ?" : d.target().server());
            if (d.target().port() > 0) {
                b.append(", port ").append(d.target().port());
            }
            b.append(']');
        }
        b.append("\n\n");
        b.append("VERDICT: ").append(d.cause()).append(d.subtype().isEmpty() ? "" : "/" + d.subtype())
                .append(" — ").append(d.title()).append("   (confidence: ").append(d.confidence()).append(")\n");
        if (!d.summary().isEmpty()) {
            b.append("  ").append(d.summary()).append('\n');
        }
        for (String c : d.caveats()) {
            b.append("  Note: ").append(c).append('\n');
        }

        Diagnosis.HypothesisView verdict = d.hypotheses().isEmpty() ? null : d.hypotheses().get(0);
        if (verdict != null && !verdict.because().isEmpty()) {
            b.append("\nBECAUSE\n");
            for (Diagnosis.Node n : verdict.because()) {
                node(b, n, 1, 0);
            }
        }

        List<Diagnosis.Exclusion> ex = d.ruledOut();
        if (!ex.isEmpty()) {
            b.append("\nRULED OUT\n");
            for (Diagnosis.Exclusion e : ex) {
                b.append(e.status().equals("ruled-out") ? "  ✗ " : "  ? ").append(e.cause()).append(": ")
                        .append(e.status().equals("ruled-out") ? "" : "NOT ruled out — ").append(e.reason());
                if (!e.missing().isEmpty()) {
                    b.append(" (would need: ").append(e.missing()).append(')');
                }
                b.append('\n');
                for (Diagnosis.Node n : e.because()) {
                    if (n.evidence() != null) {
                        b.append("      ").append(evidence(n.evidence())).append('\n');
                    }
                }
            }
        }

        boolean others = false;
        for (int i = 1; i < d.hypotheses().size(); i++) {
            Diagnosis.HypothesisView h = d.hypotheses().get(i);
            if (h.status().equals("supported")) {
                if (!others) {
                    b.append("\nALSO SUPPORTED\n");
                    others = true;
                }
                b.append("  ").append(h.cause()).append(h.subtype().isEmpty() ? "" : "/" + h.subtype())
                        .append(" (").append(h.confidence()).append(") — ").append(h.title()).append('\n');
                for (Diagnosis.Node n : h.because()) {
                    b.append("      by rule \"").append(n.rule()).append("\"\n");
                }
            }
        }
        StringBuilder refuted = new StringBuilder();
        for (Diagnosis.HypothesisView h : d.hypotheses()) {
            if (h.status().equals("refuted")) {
                refuted.append("  not ").append(h.cause()).append(": ");
                refuted.append(String.join("; ", h.against().stream().map(n -> n.fact().replaceFirst("^not [^:]+: ", ""))
                        .distinct().toList()));
                refuted.append('\n');
            }
        }
        if (refuted.length() > 0) {
            b.append("\nREFUTED\n").append(refuted);
        }
        List<String> unknown = d.hypotheses().stream().filter(h -> h.status().equals("unknown"))
                .map(Diagnosis.HypothesisView::cause).toList();
        if (!unknown.isEmpty()) {
            b.append("  neither supported nor refuted: ").append(String.join(", ", unknown)).append('\n');
        }

        if (!d.questions().isEmpty()) {
            b.append("\nTO DECIDE WHAT REMAINS\n");
            for (Diagnosis.QuestionView q : d.questions()) {
                b.append("  • ").append(q.text());
                if (!q.about().isEmpty()) {
                    b.append(" [").append(q.about()).append(']');
                }
                b.append('\n');
                if (!q.command().isEmpty()) {
                    b.append("      $ ").append(q.command()).append('\n');
                }
                withheld(b, q.withheld(), "      ");
            }
        }

        if (!d.nextSteps().isEmpty()) {
            b.append("\nNEXT\n");
            int i = 1;
            for (Diagnosis.Step s : d.nextSteps()) {
                b.append("  ").append(i++).append(". ").append(s.title())
                        .append(s.forCause().equals(d.cause()) ? "" : "  (if " + s.forCause() + ")").append('\n');
                if (!s.command().isEmpty()) {
                    b.append("      $ ").append(s.command()).append('\n');
                }
                withheld(b, s.withheld(), "      ");
                if (!s.rationale().isEmpty()) {
                    b.append("      why: ").append(s.rationale()).append('\n');
                }
            }
        }

        Diagnosis.Coverage c = d.coverage();
        b.append("\nLOOKED AT\n");
        b.append("  probes read: ").append(String.join(", ", c.probes().stream()
                .filter(p -> p.status().equals("ok") || p.status().equals("no-exit-code"))
                .map(Diagnosis.ProbeView::name).toList())).append('\n');
        if (!c.failed().isEmpty()) {
            b.append("  failed: ").append(String.join("; ", c.failed())).append('\n');
        }
        if (!c.absent().isEmpty()) {
            b.append("  not run (unknown, not negative): ").append(String.join(", ", c.absent())).append('\n');
        }
        for (String u : c.unparseable()) {
            b.append("  unreadable: ").append(u).append('\n');
        }
        for (String n : c.notes()) {
            b.append("  note: ").append(n).append('\n');
        }
        b.append("  rules fired: ").append(d.engine().rulesFired()).append('\n');
        if (!d.engine().ruleBase().isEmpty()) {
            // the verdict can be reproduced on the same rules and knowledge: this hash names them (overlay included)
            b.append("  rule base: ").append(d.engine().ruleBase());
            if (!d.engine().overlay().isEmpty()) {
                b.append(" (with the site overlay ").append(d.engine().overlay()).append(')');
            }
            b.append('\n');
        }
        return b.toString();
    }

    /** The verdict, its reasoning chain and the first next step: for a screen of many diagnoses. */
    public String renderBrief(Diagnosis raw) {
        Diagnosis d = sanitise(raw);
        StringBuilder b = new StringBuilder();
        b.append("VERDICT: ").append(d.cause()).append(d.subtype().isEmpty() ? "" : "/" + d.subtype())
                .append(" — ").append(d.title()).append("   (confidence: ").append(d.confidence()).append(")\n");
        Diagnosis.HypothesisView verdict = d.hypotheses().isEmpty() ? null : d.hypotheses().get(0);
        if (verdict != null && !verdict.because().isEmpty()) {
            b.append("BECAUSE\n");
            for (Diagnosis.Node n : verdict.because()) {
                node(b, n, 1, 0);
            }
        }
        long notRuledOut = d.ruledOut().stream().filter(e -> !e.status().equals("ruled-out")).count();
        if (!d.ruledOut().isEmpty()) {
            b.append("RULED OUT: ").append(String.join(", ", d.ruledOut().stream().filter(e -> e.status().equals("ruled-out"))
                    .map(Diagnosis.Exclusion::cause).toList()));
            if (notRuledOut > 0) {
                b.append("; not ruled out for lack of evidence: ").append(String.join(", ", d.ruledOut().stream()
                        .filter(e -> !e.status().equals("ruled-out")).map(e -> e.cause() + " (needs " + e.missing() + ")").toList()));
            }
            b.append('\n');
        }
        if (!d.nextSteps().isEmpty()) {
            Diagnosis.Step s = d.nextSteps().get(0);
            b.append("NEXT: ").append(s.title()).append('\n');
            if (!s.command().isEmpty()) {
                b.append("  $ ").append(s.command()).append('\n');
            }
            withheld(b, s.withheld(), "  ");
        }
        return b.toString();
    }

    private void node(StringBuilder b, Diagnosis.Node n, int indent, int depth) {
        String pad = "  ".repeat(indent);
        if (n.kind() == Diagnosis.Kind.EVIDENCE && n.evidence() != null) {
            b.append(pad).append("← ").append(evidence(n.evidence())).append('\n');
            return;
        }
        b.append(pad).append(depth == 0 ? "" : "← ").append(n.fact());
        if (n.kind().concluded() && !n.rule().isEmpty()) {
            b.append("   [rule \"").append(n.rule()).append("\"]");
        }
        b.append('\n');
        if (depth == 0 && !n.rationale().isEmpty()) {
            b.append(pad).append("  ").append(n.rationale()).append('\n');
        }
        if (depth + 1 >= maxDepth) {
            return;
        }
        for (Diagnosis.Node p : n.premises()) {
            if (p.kind() == Diagnosis.Kind.STEP || p.kind() == Diagnosis.Kind.TARGET) {
                continue;
            }
            node(b, p, indent + 1, depth + 1);
        }
    }

    private static void withheld(StringBuilder b, List<String> withheld, String pad) {
        for (String w : withheld) {
            b.append(pad).append("(no command offered: ").append(w).append(")\n");
        }
    }

    private static String evidence(Diagnosis.Evidence e) {
        return "[" + e.probe() + (e.line() > 0 ? ":" + e.line() : "") + "] " + e.excerpt();
    }
}
