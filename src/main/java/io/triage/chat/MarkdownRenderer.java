package io.triage.chat;

import io.triage.explain.Diagnosis;

import java.util.ArrayList;
import java.util.List;

/**
 * Renders a diagnosis as CommonMark (GitHub-flavoured) for a chat bot that posts markdown: the verdict
 * and confidence, the summary, a short BECAUSE chain, what was ruled out, the questions that remain, the
 * next steps with their commands in fenced code blocks, and what was looked at (and what was not).
 *
 * <p>Everything is rendered from the diagnosis's fields. Text that may come from a host (excerpts,
 * facts, reasons, notes, values filled into commands) can never become markup: evidence excerpts sit in
 * code spans whose delimiter is longer than any backtick run inside, commands in fenced blocks whose
 * fence is longer than any backtick run inside, and all other text has markdown's punctuation
 * backslash-escaped (so no emphasis, link, image, autolink, HTML, heading, list, table or mention can
 * start inside it). Code blocks sit at the top level, never inside a list item, so that no line of a
 * command can end the block early. Control and bidi characters are made visible first.
 */
public final class MarkdownRenderer {
    /** Characters that start markup somewhere in CommonMark, GFM or a chat's dialect: always escaped. */
    private static final String ESCAPED = "\\`*_{}[]()<>#|~!&:@$^";

    private final int maxGrounds;

    public MarkdownRenderer() {
        this(3);
    }

    /** @param maxGrounds pieces of raw evidence shown under each link of the chain (the page has them all) */
    public MarkdownRenderer(int maxGrounds) {
        if (maxGrounds < 0) {
            throw new IllegalArgumentException("maxGrounds must be 0 or more");
        }
        this.maxGrounds = maxGrounds;
    }

    /**
     * @param d the diagnosis
     * @param link the diagnosis's page (an absolute http(s) URL), or null when the server has no public URL
     * @throws IllegalArgumentException when there is no diagnosis or the link is not an http(s) URL
     */
    public String render(Diagnosis d, String link) {
        if (d == null) {
            throw new IllegalArgumentException("no diagnosis to render");
        }
        String page = PageLink.checked(link);
        StringBuilder b = new StringBuilder();

        b.append("**Verdict: ").append(inline(verdict(d))).append("**");
        String title = str(d.title());
        if (!title.isEmpty()) {
            b.append(" — ").append(inline(title));
        }
        b.append('\n');
        List<String> context = new ArrayList<>();
        context.add("confidence **" + inline(str(d.confidence())) + "**");
        if (!str(d.source()).isEmpty()) {
            context.add("source " + code(d.source()));
        }
        if (d.target() != null) {
            if (!str(d.target().server()).isEmpty()) {
                context.add("server " + inline(d.target().server()));
            }
            if (d.target().port() > 0) {
                context.add("port " + d.target().port());
            }
        }
        b.append(String.join(" · ", context)).append('\n');
        if (page != null) {
            b.append("[Full diagnosis](<").append(page).append(">)\n");
        }
        if (!str(d.summary()).isEmpty()) {
            b.append('\n').append(inline(d.summary())).append('\n');
        }
        for (String c : ShortChain.nn(d.caveats())) {
            b.append("\n*Note:* ").append(inline(c)).append('\n');
        }

        because(b, d);
        alsoSupported(b, d);
        ruledOut(b, d);
        questions(b, d);
        nextSteps(b, d);
        coverage(b, d);
        return b.toString();
    }

    private void because(StringBuilder b, Diagnosis d) {
        ShortChain chain = ShortChain.of(d, maxGrounds);
        if (chain.fact().isEmpty() && chain.links().isEmpty()) {
            return;
        }
        b.append("\n**Because**\n\n");
        if (!chain.fact().isEmpty()) {
            b.append(inline(chain.fact())).append(" — rule ").append(code(chain.rule())).append('\n');
            if (!chain.rationale().isEmpty()) {
                b.append('\n').append('*').append(inline(chain.rationale())).append("*\n");
            }
            b.append('\n');
        }
        for (ShortChain.Link l : chain.links()) {
            if (l.evidence() != null) {
                b.append("- ").append(evidence(l.evidence())).append('\n');
                continue;
            }
            b.append("- ").append(inline(l.fact())).append(" — rule ").append(code(l.rule())).append('\n');
            for (Diagnosis.Evidence e : l.grounds()) {
                b.append("  - ").append(evidence(e)).append('\n');
            }
            if (l.groundsLeftOut() > 0) {
                b.append("  - … and ").append(l.groundsLeftOut()).append(" more\n");
            }
        }
    }

    private static void alsoSupported(StringBuilder b, Diagnosis d) {
        List<Diagnosis.HypothesisView> hs = ShortChain.nn(d.hypotheses());
        boolean first = true;
        for (int i = 1; i < hs.size(); i++) {
            Diagnosis.HypothesisView h = hs.get(i);
            if (h == null || !"supported".equals(h.status())) {
                continue;
            }
            if (first) {
                b.append("\n**Also supported**\n\n");
                first = false;
            }
            b.append("- ").append(inline(causeOf(h.cause(), h.subtype()))).append(" (")
                    .append(inline(str(h.confidence()))).append(") — ").append(inline(str(h.title()))).append('\n');
        }
    }

    private void ruledOut(StringBuilder b, Diagnosis d) {
        List<Diagnosis.Exclusion> ex = ShortChain.nn(d.ruledOut());
        if (!ex.isEmpty()) {
            b.append("\n**Ruled out**\n\n");
            for (Diagnosis.Exclusion e : ex) {
                if (e == null) {
                    continue;
                }
                boolean out = "ruled-out".equals(e.status());
                b.append("- ").append(out ? "✗ " : "? ").append("**").append(inline(str(e.cause()))).append("**: ");
                if (!out) {
                    b.append("*not ruled out* — ");
                }
                b.append(inline(str(e.reason())));
                if (!str(e.missing()).isEmpty()) {
                    b.append(" (would need ").append(code(e.missing())).append(')');
                }
                b.append('\n');
                int shown = 0;
                for (Diagnosis.Node n : ShortChain.nn(e.because())) {
                    if (n != null && n.kind() == Diagnosis.Kind.EVIDENCE && n.evidence() != null && shown++ < maxGrounds) {
                        b.append("  - ").append(evidence(n.evidence())).append('\n');
                    }
                }
            }
        }
        List<String> refuted = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (Diagnosis.HypothesisView h : ShortChain.nn(d.hypotheses())) {
            if (h != null && "refuted".equals(h.status())) {
                refuted.add(inline(str(h.cause())));
            } else if (h != null && "unknown".equals(h.status())) {
                unknown.add(inline(str(h.cause())));
            }
        }
        if (!refuted.isEmpty() || !unknown.isEmpty()) {
            b.append('\n');
            if (!refuted.isEmpty()) {
                b.append("Refuted: ").append(String.join(", ", refuted)).append('\n');
            }
            if (!unknown.isEmpty()) {
                b.append(refuted.isEmpty() ? "" : "\n").append("Neither supported nor refuted: ")
                        .append(String.join(", ", unknown)).append('\n');
            }
        }
    }

    private static void questions(StringBuilder b, Diagnosis d) {
        List<Diagnosis.QuestionView> qs = ShortChain.nn(d.questions());
        if (qs.isEmpty()) {
            return;
        }
        b.append("\n**To decide what remains**\n");
        for (Diagnosis.QuestionView q : qs) {
            if (q == null) {
                continue;
            }
            b.append("\n- ").append(inline(str(q.text()).isEmpty() ? str(q.id()) : q.text()));
            if (!str(q.about()).isEmpty()) {
                b.append(" (about ").append(inline(q.about())).append(')');
            }
            b.append('\n');
            if (!str(q.command()).isEmpty()) {
                b.append('\n').append(fenced(q.command()));
            }
            withheld(b, q.withheld());
        }
    }

    /** Why a command is not offered (a host value that cannot go into a command safely), shown as prose. */
    private static void withheld(StringBuilder b, List<String> why) {
        for (String w : ShortChain.nn(why)) {
            b.append('\n').append("*No command offered:* ").append(inline(w)).append('\n');
        }
    }

    private static void nextSteps(StringBuilder b, Diagnosis d) {
        List<Diagnosis.Step> steps = ShortChain.nn(d.nextSteps());
        if (steps.isEmpty()) {
            return;
        }
        b.append("\n**Next steps**\n");
        int i = 1;
        for (Diagnosis.Step s : steps) {
            if (s == null) {
                continue;
            }
            b.append("\n**").append(i++).append("\\.** ").append(inline(str(s.title()).isEmpty() ? str(s.id()) : s.title()));
            if (!str(s.forCause()).isEmpty() && !s.forCause().equals(d.cause())) {
                b.append(" *(if ").append(inline(s.forCause())).append(")*");
            }
            b.append('\n');
            if (!str(s.command()).isEmpty()) {
                b.append('\n').append(fenced(s.command()));
            }
            withheld(b, s.withheld());
            if (!str(s.rationale()).isEmpty()) {
                b.append('\n').append("*Why:* ").append(inline(s.rationale())).append('\n');
            }
        }
    }

    private static void coverage(StringBuilder b, Diagnosis d) {
        Diagnosis.Coverage c = d.coverage();
        b.append("\n**Looked at**\n\n");
        if (c == null) {
            b.append("- nothing is known of what was looked at\n");
            return;
        }
        List<String> read = new ArrayList<>();
        for (Diagnosis.ProbeView p : ShortChain.nn(c.probes())) {
            if (p != null && ("ok".equals(p.status()) || "no-exit-code".equals(p.status()))) {
                read.add(inline(str(p.name())));
            }
        }
        b.append("- probes read: ").append(read.isEmpty() ? "none" : String.join(", ", read)).append('\n');
        list(b, "failed", c.failed());
        list(b, "not run (unknown, not negative)", c.absent());
        for (String u : ShortChain.nn(c.unparseable())) {
            b.append("- unreadable: ").append(inline(u)).append('\n');
        }
        for (String n : ShortChain.nn(c.notes())) {
            b.append("- note: ").append(inline(n)).append('\n');
        }
        if (d.engine() != null) {
            b.append("- rules fired: ").append(d.engine().rulesFired())
                    .append(d.engine().stoppedAtLimit() ? " (stopped at the limit)" : "").append('\n');
        }
    }

    private static void list(StringBuilder b, String label, List<String> items) {
        List<String> l = ShortChain.nn(items);
        if (!l.isEmpty()) {
            b.append("- ").append(label).append(": ")
                    .append(String.join("; ", l.stream().map(MarkdownRenderer::inline).toList())).append('\n');
        }
    }

    private static String verdict(Diagnosis d) {
        return causeOf(d.cause(), d.subtype());
    }

    private static String causeOf(String cause, String subtype) {
        return str(cause) + (str(subtype).isEmpty() ? "" : "/" + subtype);
    }

    private static String evidence(Diagnosis.Evidence e) {
        String where = "[" + str(e.probe()) + (e.line() > 0 ? ":" + e.line() : "") + "]";
        String excerpt = str(e.excerpt());
        return code(where) + (excerpt.isBlank() ? "" : " " + code(excerpt));
    }

    /**
     * Text for a markdown paragraph or list item, one line: control characters visible, outer blanks
     * trimmed (leading blanks would make an indented code block), markup punctuation backslash-escaped,
     * and the few sequences that start a block or an autolink without any of it ({@code 1.}, {@code -},
     * {@code +}, {@code =} at the start; {@code www.}) escaped too.
     */
    static String inline(String s) {
        String v = Visible.text(s, false).strip();
        StringBuilder b = new StringBuilder(v.length() + 16);
        boolean leadingDigits = true;
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            boolean digit = c >= '0' && c <= '9';
            if (ESCAPED.indexOf(c) >= 0
                    || (i == 0 && (c == '-' || c == '+' || c == '='))
                    || (c == '.' && leadingDigits && i > 0)
                    || (c == '.' && i >= 3 && v.regionMatches(true, i - 3, "www", 0, 3))) {
                b.append('\\');
            }
            b.append(c);
            leadingDigits = leadingDigits && digit;
        }
        return b.toString();
    }

    /** A code span that shows {@code s} literally, whatever backticks it holds; empty text gives an empty string. */
    static String code(String s) {
        String v = Visible.text(s, false);
        if (v.isEmpty()) {
            return "";
        }
        String ticks = "`".repeat(longestRun(v, '`') + 1);
        boolean pad = v.startsWith("`") || v.endsWith("`") || (v.startsWith(" ") && v.endsWith(" ") && !v.isBlank());
        String inner = pad ? " " + v + " " : v;
        return ticks + inner + ticks;
    }

    /** A fenced code block at the top level whose fence is longer than any backtick run in the command. */
    static String fenced(String s) {
        String v = Visible.text(s, true).stripTrailing();
        while (v.startsWith("\n")) {
            v = v.substring(1);
        }
        String fence = "`".repeat(Math.max(3, longestRun(v, '`') + 1));
        return fence + "sh\n" + v + "\n" + fence + "\n";
    }

    static int longestRun(String s, char c) {
        int best = 0;
        int run = 0;
        for (int i = 0; i < s.length(); i++) {
            run = s.charAt(i) == c ? run + 1 : 0;
            best = Math.max(best, run);
        }
        return best;
    }

    private static String str(String s) {
        return s == null ? "" : s;
    }
}
