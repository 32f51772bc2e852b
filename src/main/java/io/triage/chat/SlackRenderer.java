package io.triage.chat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.triage.explain.Diagnosis;

import java.util.ArrayList;
import java.util.List;

/**
 * Renders a diagnosis as a Slack message in Block Kit: {@code {"text": fallback, "blocks": [...]}} with
 * the verdict as a header, the confidence and target as context, then sections for BECAUSE, ruled out,
 * the questions that remain, the next steps (commands in {@code ```} blocks) and what was looked at.
 *
 * <p>Slack's limits hold whatever the diagnosis holds: at most {@value #MAX_BLOCKS} blocks, section text
 * of at most {@value #MAX_SECTION_TEXT} characters, a header of at most {@value #MAX_HEADER_TEXT}, at most
 * {@value #MAX_CONTEXT_ELEMENTS} context elements, at most {@value #MAX_FIELDS} fields of at most
 * {@value #MAX_FIELD_TEXT}. What does not fit is cut, and the cut says so: a link to the diagnosis's page
 * when it is known, else "… (cut)".
 *
 * <p>Text that may come from a host can never ping, link or format: {@code &}, {@code <} and {@code >}
 * are escaped everywhere (so {@code <!channel>}, {@code <@U123>} or {@code <https://evil|click>} read as
 * themselves), evidence excerpts sit in code spans, commands in code blocks, and in prose the formatting
 * characters {@code *}, {@code _}, {@code ~} (where they could open or close formatting) and backticks
 * (everywhere outside code blocks) are replaced by look-alikes that Slack does not interpret. Control and
 * bidi characters are made visible first.
 */
public final class SlackRenderer {
    public static final int MAX_BLOCKS = 50;
    public static final int MAX_SECTION_TEXT = 3000;
    public static final int MAX_HEADER_TEXT = 150;
    public static final int MAX_CONTEXT_ELEMENTS = 10;
    public static final int MAX_FIELDS = 10;
    public static final int MAX_FIELD_TEXT = 2000;

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String FENCE = "```";

    private final int maxGrounds;

    public SlackRenderer() {
        this(3);
    }

    /** @param maxGrounds pieces of raw evidence shown under each link of the chain (the page has them all) */
    public SlackRenderer(int maxGrounds) {
        if (maxGrounds < 0) {
            throw new IllegalArgumentException("maxGrounds must be 0 or more");
        }
        this.maxGrounds = maxGrounds;
    }

    /** A piece of a section's text: mrkdwn, or the content of a code block (rendered between fences). */
    private record Seg(String text, boolean code) {
    }

    /** Text that is kept whole in one section when it fits. */
    private record Unit(List<Seg> segs) {
        static Unit of(String mrkdwn) {
            return new Unit(List.of(new Seg(mrkdwn, false)));
        }

        /** The rendered length: escapes and visible control characters make code longer than its source. */
        int length() {
            return render().length();
        }

        String render() {
            StringBuilder b = new StringBuilder();
            for (Seg s : segs) {
                b.append(s.code ? codeBlock(s.text) : s.text);
            }
            return b.toString();
        }
    }

    /**
     * @param d the diagnosis
     * @param link the diagnosis's page (an absolute http(s) URL), or null when the server has no public URL
     * @throws IllegalArgumentException when there is no diagnosis or the link is not an http(s) URL
     */
    public ObjectNode render(Diagnosis d, String link) {
        if (d == null) {
            throw new IllegalArgumentException("no diagnosis to render");
        }
        String page = PageLink.checked(link);
        String more = page == null ? "… (cut)" : "… <" + escape(page) + "|full diagnosis>";

        List<ObjectNode> blocks = new ArrayList<>();
        blocks.add(header("Verdict: " + verdict(d.cause(), d.subtype())
                + (str(d.title()).isEmpty() ? "" : " — " + d.title())));
        blocks.add(context(d));

        List<Unit> intro = new ArrayList<>();
        if (!str(d.summary()).isEmpty()) {
            intro.add(Unit.of(prose(d.summary())));
        }
        for (String c : nn(d.caveats())) {
            intro.add(Unit.of("_Note:_ " + prose(c)));
        }
        sections(blocks, "", intro, more);
        sections(blocks, "*Because*", because(d), more);
        sections(blocks, "*Also supported*", alsoSupported(d), more);
        sections(blocks, "*Ruled out*", ruledOut(d), more);
        sections(blocks, "*To decide what remains*", questions(d), more);
        sections(blocks, "*Next steps*", nextSteps(d), more);
        blocks.add(coverage(d, more));

        ArrayNode arr = JSON.arrayNode();
        boolean cut = blocks.size() + (page == null ? 0 : 1) > MAX_BLOCKS;
        if (cut) {
            blocks = new ArrayList<>(blocks.subList(0, MAX_BLOCKS - 1));
            blocks.add(section(more));
        } else if (page != null) {
            blocks.add(contextOf(List.of("<" + escape(page) + "|Full diagnosis>")));
        }
        blocks.forEach(arr::add);

        ObjectNode msg = JSON.objectNode();
        msg.put("text", fit("Triage: " + prose(verdict(d.cause(), d.subtype())) + " (" + prose(str(d.confidence()))
                + ")" + (str(d.title()).isEmpty() ? "" : " — " + prose(d.title())), MAX_SECTION_TEXT, "…"));
        msg.set("blocks", arr);
        return msg;
    }

    private List<Unit> because(Diagnosis d) {
        ShortChain chain = ShortChain.of(d, maxGrounds);
        List<Unit> out = new ArrayList<>();
        if (!chain.fact().isEmpty()) {
            out.add(Unit.of("*" + prose(chain.fact()) + "* — rule " + codeSpan(chain.rule())
                    + (chain.rationale().isEmpty() ? "" : "\n_" + prose(chain.rationale()) + "_")));
        }
        for (ShortChain.Link l : chain.links()) {
            if (l.evidence() != null) {
                out.add(Unit.of("• " + evidence(l.evidence())));
                continue;
            }
            StringBuilder b = new StringBuilder("• ").append(prose(l.fact())).append(" — rule ").append(codeSpan(l.rule()));
            for (Diagnosis.Evidence e : l.grounds()) {
                b.append("\n      ◦ ").append(evidence(e));
            }
            if (l.groundsLeftOut() > 0) {
                b.append("\n      ◦ … and ").append(l.groundsLeftOut()).append(" more");
            }
            out.add(Unit.of(b.toString()));
        }
        return out;
    }

    private static List<Unit> alsoSupported(Diagnosis d) {
        List<Unit> out = new ArrayList<>();
        List<Diagnosis.HypothesisView> hs = nn(d.hypotheses());
        for (int i = 1; i < hs.size(); i++) {
            Diagnosis.HypothesisView h = hs.get(i);
            if (h != null && "supported".equals(h.status())) {
                out.add(Unit.of("• " + prose(verdict(h.cause(), h.subtype())) + " (" + prose(str(h.confidence()))
                        + ") — " + prose(str(h.title()))));
            }
        }
        return out;
    }

    private List<Unit> ruledOut(Diagnosis d) {
        List<Unit> out = new ArrayList<>();
        for (Diagnosis.Exclusion e : nn(d.ruledOut())) {
            if (e == null) {
                continue;
            }
            boolean ruledOut = "ruled-out".equals(e.status());
            StringBuilder b = new StringBuilder(ruledOut ? "✗ *" : "? *").append(prose(str(e.cause()))).append("*: ");
            if (!ruledOut) {
                b.append("_not ruled out_ — ");
            }
            b.append(prose(str(e.reason())));
            if (!str(e.missing()).isEmpty()) {
                b.append(" (would need ").append(codeSpan(e.missing())).append(')');
            }
            int shown = 0;
            for (Diagnosis.Node n : nn(e.because())) {
                if (n != null && n.kind() == Diagnosis.Kind.EVIDENCE && n.evidence() != null && shown++ < maxGrounds) {
                    b.append("\n      ◦ ").append(evidence(n.evidence()));
                }
            }
            out.add(Unit.of(b.toString()));
        }
        List<String> refuted = new ArrayList<>();
        for (Diagnosis.HypothesisView h : nn(d.hypotheses())) {
            if (h != null && "refuted".equals(h.status())) {
                refuted.add(prose(str(h.cause())));
            }
        }
        if (!refuted.isEmpty()) {
            out.add(Unit.of("_Refuted:_ " + String.join(", ", refuted)));
        }
        return out;
    }

    private static List<Unit> questions(Diagnosis d) {
        List<Unit> out = new ArrayList<>();
        for (Diagnosis.QuestionView q : nn(d.questions())) {
            if (q == null) {
                continue;
            }
            List<Seg> segs = new ArrayList<>();
            segs.add(new Seg("• " + prose(str(q.text()).isEmpty() ? str(q.id()) : q.text())
                    + (str(q.about()).isEmpty() ? "" : " (about " + prose(q.about()) + ")"), false));
            if (!str(q.command()).isEmpty()) {
                segs.add(new Seg("\n", false));
                segs.add(new Seg(q.command(), true));
            }
            withheld(segs, q.withheld());
            out.add(new Unit(segs));
        }
        return out;
    }

    /** Why a command is not offered (a host value that cannot go into a command safely), shown as prose. */
    private static void withheld(List<Seg> segs, List<String> why) {
        for (String w : nn(why)) {
            segs.add(new Seg("\n_No command offered:_ " + prose(w), false));
        }
    }

    private static List<Unit> nextSteps(Diagnosis d) {
        List<Unit> out = new ArrayList<>();
        int i = 1;
        for (Diagnosis.Step s : nn(d.nextSteps())) {
            if (s == null) {
                continue;
            }
            List<Seg> segs = new ArrayList<>();
            segs.add(new Seg("*" + (i++) + ".* " + prose(str(s.title()).isEmpty() ? str(s.id()) : s.title())
                    + (str(s.forCause()).isEmpty() || s.forCause().equals(d.cause()) ? ""
                    : " _(if " + prose(s.forCause()) + ")_"), false));
            if (!str(s.command()).isEmpty()) {
                segs.add(new Seg("\n", false));
                segs.add(new Seg(s.command(), true));
            }
            withheld(segs, s.withheld());
            if (!str(s.rationale()).isEmpty()) {
                segs.add(new Seg("\n_Why:_ " + prose(s.rationale()), false));
            }
            out.add(new Unit(segs));
        }
        return out;
    }

    private static ObjectNode coverage(Diagnosis d, String more) {
        Diagnosis.Coverage c = d.coverage();
        ObjectNode s = JSON.objectNode();
        s.put("type", "section");
        s.set("text", mrkdwn("*Looked at*"));
        ArrayNode fields = JSON.arrayNode();
        if (c == null) {
            fields.add(mrkdwn("nothing is known of what was looked at"));
        } else {
            List<String> read = new ArrayList<>();
            for (Diagnosis.ProbeView p : nn(c.probes())) {
                if (p != null && ("ok".equals(p.status()) || "no-exit-code".equals(p.status()))) {
                    read.add(prose(str(p.name())));
                }
            }
            fields.add(field("Probes read", read.isEmpty() ? "none" : String.join(", ", read), more));
            addField(fields, "Failed", c.failed(), more);
            addField(fields, "Not run (unknown, not negative)", c.absent(), more);
            addField(fields, "Unreadable", c.unparseable(), more);
            addField(fields, "Notes", c.notes(), more);
        }
        if (d.engine() != null) {
            fields.add(field("Rules fired", d.engine().rulesFired()
                    + (d.engine().stoppedAtLimit() ? " (stopped at the limit)" : ""), more));
        }
        s.set("fields", fields);
        return s;
    }

    private static void addField(ArrayNode fields, String label, List<String> items, String more) {
        List<String> l = nn(items);
        if (!l.isEmpty()) {
            fields.add(field(label, String.join("; ", l.stream().map(SlackRenderer::prose).toList()), more));
        }
    }

    private static ObjectNode field(String label, String mrkdwn, String more) {
        return mrkdwn(fit("*" + label + "*\n" + mrkdwn, MAX_FIELD_TEXT, more));
    }

    /** Packs units into sections of at most {@link #MAX_SECTION_TEXT}; a unit too long for one is cut. */
    private static void sections(List<ObjectNode> blocks, String title, List<Unit> units, String more) {
        if (units.isEmpty()) {
            return;
        }
        StringBuilder text = new StringBuilder(title);
        for (Unit u : units) {
            int sep = text.length() == 0 ? 0 : 1;
            if (text.length() + sep + u.length() <= MAX_SECTION_TEXT) {
                text.append(sep == 0 ? "" : "\n").append(u.render());
                continue;
            }
            if (text.length() > title.length()) {
                blocks.add(section(text.toString()));
                text = new StringBuilder();
            }
            int room = MAX_SECTION_TEXT - text.length() - (text.length() == 0 ? 0 : 1);
            String rendered = u.length() <= room ? u.render() : cutUnit(u, room, more);
            text.append(text.length() == 0 ? "" : "\n").append(rendered);
        }
        if (text.length() > 0) {
            blocks.add(section(text.toString()));
        }
    }

    /** The unit cut to {@code room} characters, code blocks closed, the cut marked. */
    private static String cutUnit(Unit u, int room, String more) {
        StringBuilder b = new StringBuilder();
        int budget = room - more.length() - 1;
        for (Seg s : u.segs()) {
            String whole = s.code ? codeBlock(s.text) : s.text;
            if (b.length() + whole.length() <= budget) {
                b.append(whole);
                continue;
            }
            int left = budget - b.length();
            if (s.code) {
                int inner = left - 2 * FENCE.length() - 2;
                if (inner > 0) {
                    b.append(FENCE).append('\n').append(cutText(escapeCode(Visible.text(s.text, true)), inner))
                            .append('\n').append(FENCE);
                }
            } else if (left > 0) {
                b.append(cutMrkdwn(s.text, left));
            }
            break;
        }
        return b.append('\n').append(more).toString();
    }

    private static String codeBlock(String raw) {
        return FENCE + "\n" + escapeCode(Visible.text(raw, true)) + "\n" + FENCE;
    }

    /** Code block content: {@code & < >} escaped, and no run of three backticks that would close the block. */
    private static String escapeCode(String v) {
        String e = escape(v);
        StringBuilder b = new StringBuilder(e.length());
        int run = 0;
        for (int i = 0; i < e.length(); i++) {
            char c = e.charAt(i);
            run = c == '`' ? run + 1 : 0;
            if (run == 3) {
                b.append('ˋ');
                run = 0;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private ObjectNode context(Diagnosis d) {
        List<String> elements = new ArrayList<>();
        elements.add("Confidence: *" + prose(str(d.confidence())) + "*");
        if (d.target() != null && !str(d.target().server()).isEmpty()) {
            elements.add("Server: " + prose(d.target().server()));
        }
        if (d.target() != null && d.target().port() > 0) {
            elements.add("Port: " + d.target().port());
        }
        if (!str(d.source()).isEmpty()) {
            elements.add("Source: " + codeSpan(d.source()));
        }
        return contextOf(elements);
    }

    private static ObjectNode contextOf(List<String> mrkdwn) {
        ObjectNode c = JSON.objectNode();
        c.put("type", "context");
        ArrayNode els = JSON.arrayNode();
        for (String m : mrkdwn.subList(0, Math.min(mrkdwn.size(), MAX_CONTEXT_ELEMENTS))) {
            els.add(mrkdwn(fit(m, MAX_FIELD_TEXT, "…")));
        }
        c.set("elements", els);
        return c;
    }

    private static ObjectNode header(String plain) {
        ObjectNode h = JSON.objectNode();
        h.put("type", "header");
        ObjectNode t = JSON.objectNode();
        t.put("type", "plain_text");
        t.put("text", cutText(Visible.text(plain, false).strip(), MAX_HEADER_TEXT));
        t.put("emoji", false);
        h.set("text", t);
        return h;
    }

    private static ObjectNode section(String mrkdwn) {
        ObjectNode s = JSON.objectNode();
        s.put("type", "section");
        s.set("text", mrkdwn(mrkdwn));
        return s;
    }

    private static ObjectNode mrkdwn(String text) {
        ObjectNode t = JSON.objectNode();
        t.put("type", "mrkdwn");
        t.put("text", text);
        t.put("verbatim", true);
        return t;
    }

    private static String evidence(Diagnosis.Evidence e) {
        String where = codeSpan("[" + str(e.probe()) + (e.line() > 0 ? ":" + e.line() : "") + "]");
        return str(e.excerpt()).isBlank() ? where : where + " " + codeSpan(e.excerpt());
    }

    private static String verdict(String cause, String subtype) {
        return str(cause) + (str(subtype).isEmpty() ? "" : "/" + subtype);
    }

    /** Slack's three escapes: the only way {@code <!channel>}, {@code <@U…>} or {@code <url|text>} stay text. */
    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /**
     * Prose that may hold host text, on one line: escaped, with backticks (always) and {@code * _ ~} (where
     * one could open or close formatting: next to a space, punctuation or the end) replaced by look-alikes.
     */
    static String prose(String s) {
        String v = escape(Visible.text(s, false).strip());
        StringBuilder b = new StringBuilder(v.length());
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == '`') {
                b.append('ˋ');
            } else if ((c == '*' || c == '_' || c == '~')
                    && !(i > 0 && Character.isLetterOrDigit(v.charAt(i - 1))
                    && i + 1 < v.length() && Character.isLetterOrDigit(v.charAt(i + 1)))) {
                b.append(c == '*' ? '∗' : c == '_' ? 'ˍ' : '∼');
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    /** Inline code: nothing in it formats, pings or links; a backtick becomes a look-alike. */
    static String codeSpan(String s) {
        String v = escape(Visible.text(s, false)).replace('`', 'ˋ');
        return v.isBlank() ? "" : "`" + v + "`";
    }

    /** mrkdwn cut to {@code max} characters with a marker, never inside an escape or a code span. */
    private static String fit(String mrkdwn, int max, String more) {
        if (mrkdwn.length() <= max) {
            return mrkdwn;
        }
        return cutMrkdwn(mrkdwn, max - more.length() - 1) + " " + more;
    }

    private static String cutMrkdwn(String s, int max) {
        String cut = cutText(s, Math.max(0, max - 1));
        int amp = cut.lastIndexOf('&');
        if (amp >= 0 && cut.indexOf(';', amp) < 0) {
            cut = cut.substring(0, amp);
        }
        long ticks = cut.chars().filter(ch -> ch == '`').count();
        return ticks % 2 == 1 ? cut + "`" : cut;
    }

    /** At most {@code max} characters, never splitting a surrogate pair; "…" marks a cut. */
    private static String cutText(String s, int max) {
        if (s.length() <= max) {
            return s;
        }
        if (max <= 0) {
            return "";
        }
        int end = max - 1;
        if (end > 0 && Character.isHighSurrogate(s.charAt(end - 1))) {
            end--;
        }
        return s.substring(0, end) + "…";
    }

    private static <T> List<T> nn(List<T> l) {
        return ShortChain.nn(l);
    }

    private static String str(String s) {
        return s == null ? "" : s;
    }
}
