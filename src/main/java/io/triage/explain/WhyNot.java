package io.triage.explain;

import io.triage.engine.RuleBase;
import io.triage.facts.Hypothesis;
import io.triage.knowledge.KnowledgeBase;
import org.drools.drl.ast.descr.AndDescr;
import org.drools.drl.ast.descr.BaseDescr;
import org.drools.drl.ast.descr.ExistsDescr;
import org.drools.drl.ast.descr.ImportDescr;
import org.drools.drl.ast.descr.NotDescr;
import org.drools.drl.ast.descr.OrDescr;
import org.drools.drl.ast.descr.PackageDescr;
import org.drools.drl.ast.descr.PatternDescr;
import org.drools.drl.ast.descr.RuleDescr;
import org.drools.drl.parser.DrlParser;
import org.drools.drl.parser.DroolsParserException;
import org.kie.api.KieBase;
import org.kie.api.builder.Message;
import org.kie.api.builder.Results;
import org.kie.api.runtime.KieSession;
import org.kie.api.KieServices;
import org.kie.api.builder.KieFileSystem;
import org.kie.api.builder.ReleaseId;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * WHY NOT a cause: for each rule that would conclude it (a rule whose consequence inserts a {@link Hypothesis}
 * of that cause), which of its conditions the facts at hand meet and which they do not, in the order written.
 *
 * <p>Derived from the rules themselves: the rule files the base was compiled from are parsed into rule
 * descriptors, each top-level condition of a candidate rule becomes a query of its own (with the earlier
 * conditions whose variables it uses), and those queries run over the working memory a diagnosis ended
 * with — the parsed facts and everything the rules derived. A second query per condition, the conditions
 * up to it taken together, says where a rule whose conditions each hold on their own still fails as a whole.
 * The queries of a cause are compiled once per instance and kept.
 */
public final class WhyNot {
    /** Whether a condition holds over the facts at hand. */
    public enum Met { MET, UNMET, UNKNOWN }

    /**
     * One top-level condition of a rule, in the order written.
     *
     * @param line      its line in the rule file
     * @param source    its DRL text
     * @param plain     the same in words (symptom sentences from the knowledge base)
     * @param derivedBy for a condition on a symptom: the rules that insert that symptom, as "name (file:line)"
     */
    public record Condition(int line, String source, String plain, Met met, List<String> derivedBy) { }

    /**
     * A rule that concludes the cause.
     *
     * @param together when each condition holds on its own but the rule as a whole does not match: the index
     *                 (from 0) of the first condition that fails together with those before it; else -1
     * @param note     why some conditions could not be evaluated (empty when all were)
     */
    public record Candidate(String rule, String file, int line, String subtype, String confidence, boolean matches,
                            List<Condition> conditions, int together, String note) {
        public long met() {
            return conditions.stream().filter(c -> c.met() == Met.MET).count();
        }

        public long unmet() {
            return conditions.stream().filter(c -> c.met() == Met.UNMET).count();
        }
    }

    /**
     * The answer.
     *
     * @param concluded the confidences at which the cause is supported now (empty: not concluded)
     * @param rules     the rules that would conclude it, closest first
     * @param notes     what limits the answer (rule files unreadable, changed since compiled…)
     */
    public record Answer(String cause, String title, String verdict, List<String> concluded, List<Candidate> rules,
                         List<String> notes) { }

    private static final Pattern HYPOTHESIS = Pattern.compile(
            "new\\s+(?:io\\.triage\\.facts\\.)?Hypothesis\\s*\\(\\s*\"([^\"]*)\"\\s*,\\s*(?:\"([^\"]*)\"|[^,()]*(?:\\([^()]*\\))?[^,()]*)\\s*,\\s*(?:\"([^\"]*)\")?");
    private static final Pattern SYMPTOM = Pattern.compile("new\\s+(?:io\\.triage\\.facts\\.)?Symptom\\s*\\(\\s*\"([^\"]*)\"");
    private static final Pattern BINDS = Pattern.compile("(\\$[A-Za-z_]\\w*)\\s*:(?!=)");
    private static final Pattern USES = Pattern.compile("\\$[A-Za-z_]\\w*");
    private static final Pattern EQ = Pattern.compile("^(\\w+)\\s*==\\s*\"([^\"]*)\"$");
    private static final Pattern IN = Pattern.compile("^(\\w+)\\s+(not\\s+)?in\\s*\\((.*)\\)$");
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]*)\"");

    private final RuleBase rules;
    private final KnowledgeBase kb;
    private final Map<String, Compiled> byCause = new ConcurrentHashMap<>();
    private volatile Parsed parsed;

    public WhyNot(RuleBase rules, KnowledgeBase kb) {
        this.rules = rules;
        this.kb = kb;
    }

    /**
     * Why {@code cause} is or is not concluded over {@code workingMemory} (every fact the rules ended with).
     *
     * @param verdict the diagnosis' verdict, said in the answer
     * @throws IllegalArgumentException when {@code cause} is not one of the knowledge base's causes
     */
    public Answer explain(String cause, String verdict, List<Object> workingMemory) {
        if (!kb.causes().containsKey(cause)) {
            throw new IllegalArgumentException("unknown cause '" + cause + "'; the causes are " + kb.causes().keySet());
        }
        Parsed p = parsed();
        Compiled c = byCause.computeIfAbsent(cause, k -> compile(p, k));
        List<String> concluded = workingMemory.stream().filter(f -> f instanceof Hypothesis h && h.cause().equals(cause))
                .map(f -> ((Hypothesis) f).confidence()).distinct().toList();
        List<Candidate> out = new ArrayList<>();
        KieSession session = c.base == null ? null : c.base.newKieSession();
        try {
            if (session != null) {
                workingMemory.forEach(session::insert);
            }
            for (Query q : c.queries) {
                out.add(evaluate(session, q));
            }
        } finally {
            if (session != null) {
                session.dispose();
            }
        }
        List<Candidate> ranked = new ArrayList<>(out);
        ranked.sort(Comparator.comparing((Candidate x) -> !x.matches())
                .thenComparing(x -> -(double) x.met() / Math.max(1, x.conditions().size()))
                .thenComparingLong(Candidate::unmet));
        List<String> notes = new ArrayList<>(p.notes);
        notes.addAll(c.notes);
        if (ranked.isEmpty()) {
            notes.add("no rule concludes " + cause + ": none inserts a Hypothesis(\"" + cause + "\", …)");
        }
        return new Answer(cause, kb.cause(cause).title(), verdict, concluded, ranked, notes);
    }

    /** Where each rule of the rule files is written, as "file:line", by rule name (in file order). */
    public Map<String, String> ruleLocations() {
        Map<String, String> m = new LinkedHashMap<>();
        parsed().rules.forEach(r -> m.putIfAbsent(r.name, r.file + ":" + r.line));
        return m;
    }

    /** The (cause, subtype) pairs the rules conclude with a literal, non-empty subtype, as "cause/subtype". */
    public Set<String> literalSubtypes() {
        Set<String> out = new java.util.TreeSet<>();
        for (Rule r : parsed().rules) {
            Matcher m = HYPOTHESIS.matcher(r.consequence);
            while (m.find()) {
                if (m.group(2) != null && !m.group(2).isEmpty()) {
                    out.add(m.group(1) + "/" + m.group(2));
                }
            }
        }
        return out;
    }

    private Candidate evaluate(KieSession session, Query q) {
        List<Condition> conds = new ArrayList<>();
        boolean all = true;
        for (int i = 0; i < q.rule.elements.size(); i++) {
            Element e = q.rule.elements.get(i);
            Met m = Met.UNKNOWN;
            if (session != null && q.evaluable) {
                m = session.getQueryResults(q.name + " c" + i).size() > 0 ? Met.MET : Met.UNMET;
            }
            all &= m == Met.MET;
            conds.add(new Condition(e.line, e.text, e.plain, m, e.derivedBy));
        }
        int together = -1;
        boolean matches = false;
        if (all && session != null && q.evaluable) {
            for (int i = 0; i < conds.size(); i++) {
                if (session.getQueryResults(q.name + " p" + i).size() == 0) {
                    together = i;
                    break;
                }
            }
            matches = together < 0;
        }
        return new Candidate(q.rule.name, q.rule.file, q.rule.line, q.subtype, q.confidence, matches, conds,
                together, q.note);
    }

    // ---- the rule files, parsed

    private record Element(int line, String text, String plain, Set<String> binds, Set<String> uses,
                           List<String> derivedBy) { }

    private record Rule(String name, String file, int line, String consequence, List<Element> elements) { }

    private record Parsed(List<String> imports, List<Rule> rules, List<String> notes) { }

    private record Query(String name, Rule rule, String subtype, String confidence, boolean evaluable, String note) { }

    private record Compiled(KieBase base, List<Query> queries, List<String> notes) { }

    private Parsed parsed() {
        Parsed p = parsed;
        if (p == null) {
            synchronized (this) {
                if (parsed == null) {
                    parsed = parse();
                }
                p = parsed;
            }
        }
        return p;
    }

    private Parsed parse() {
        Set<String> imports = new LinkedHashSet<>();
        List<String> notes = new ArrayList<>();
        Map<String, List<String>> symptomBy = new LinkedHashMap<>();
        List<RuleDescr> descrs = new ArrayList<>();
        Map<RuleDescr, String> fileOf = new java.util.IdentityHashMap<>();
        Map<RuleDescr, String> textOf = new java.util.IdentityHashMap<>();
        // a site overlay's files are named in full; the shipped ones relative to their common directory
        Path overlayRules = rules.overlayRules();
        List<Path> shipped = rules.files().stream().filter(f -> overlayRules == null || !f.startsWith(overlayRules)).toList();
        Path dir = shipped.isEmpty() ? null : commonDir(shipped);
        for (Path f : rules.files()) {
            String name = overlayRules != null && f.startsWith(overlayRules) ? f.toString()
                    : dir == null ? f.getFileName().toString() : dir.relativize(f).toString().replace('\\', '/');
            if (!f.toString().endsWith(".drl")) {
                notes.add(name + " is a decision table: its rules are not examined here");
                continue;
            }
            String text;
            try {
                text = Files.readString(f);
            } catch (IOException e) {
                notes.add(name + " could not be read: " + e.getMessage());
                continue;
            }
            DrlParser parser = new DrlParser();
            PackageDescr pkg;
            try {
                pkg = parser.parse(false, text);
            } catch (DroolsParserException e) {
                notes.add(name + " could not be parsed: " + e.getMessage());
                continue;
            }
            if (pkg == null || parser.hasErrors()) {
                notes.add(name + " could not be parsed: " + (pkg == null ? "no package" : parser.getErrors().get(0)));
                continue;
            }
            pkg.getImports().stream().map(ImportDescr::getTarget).forEach(imports::add);
            for (RuleDescr r : pkg.getRules()) {
                descrs.add(r);
                fileOf.put(r, name);
                textOf.put(r, text);
                Object cons = r.getConsequence();
                Matcher m = SYMPTOM.matcher(cons == null ? "" : cons.toString());
                while (m.find()) {
                    symptomBy.computeIfAbsent(m.group(1), k -> new ArrayList<>())
                            .add("\"" + r.getName() + "\" (" + name + ":" + r.getLine() + ")");
                }
            }
        }
        Set<String> compiled = new LinkedHashSet<>();
        rules.kieBase().getKiePackages().forEach(p -> p.getRules().forEach(r -> compiled.add(r.getName())));
        List<Rule> out = new ArrayList<>();
        for (RuleDescr r : descrs) {
            if (!compiled.contains(r.getName())) {
                notes.add("rule \"" + r.getName() + "\" (" + fileOf.get(r) + ") is not among the compiled rules:"
                        + " the rule files changed since the rules were loaded");
            }
            String text = textOf.get(r);
            List<Element> elements = new ArrayList<>();
            for (BaseDescr d : r.getLhs().getDescrs()) {
                String src = slice(text, d);
                Set<String> binds = new LinkedHashSet<>();
                if (d instanceof PatternDescr pd && pd.getIdentifier() != null) {
                    binds.add(pd.getIdentifier().startsWith("$") ? pd.getIdentifier() : pd.getIdentifier());
                }
                Set<String> uses = new LinkedHashSet<>();
                if (d instanceof PatternDescr || d instanceof AndDescr) {
                    Matcher b = BINDS.matcher(src);
                    while (b.find()) {
                        binds.add(b.group(1));
                    }
                }
                Matcher u = USES.matcher(src);
                while (u.find()) {
                    uses.add(u.group());
                }
                uses.removeAll(binds);
                List<String> by = new ArrayList<>();
                for (String id : symptomIds(d)) {
                    by.addAll(symptomBy.getOrDefault(id, List.of()));
                }
                elements.add(new Element(d.getLine(), src, plain(d, src), binds, uses, List.copyOf(by)));
            }
            Object cons = r.getConsequence();
            out.add(new Rule(r.getName(), fileOf.get(r), r.getLine(), cons == null ? "" : cons.toString(), elements));
        }
        return new Parsed(List.copyOf(imports), out, notes);
    }

    private static Path commonDir(List<Path> files) {
        Path d = files.get(0).getParent();
        while (d != null) {
            Path dd = d;
            if (files.stream().allMatch(f -> f.startsWith(dd))) {
                return d;
            }
            d = d.getParent();
        }
        return null;
    }

    /** The element's own text in the file (the parser gives its first and last character). */
    private static String slice(String text, BaseDescr d) {
        int s = d.getStartCharacter();
        int e = d.getEndCharacter();
        if (s < 0 || e < s || s >= text.length()) {
            return d.getText() == null ? d.toString() : d.getText();
        }
        String t = text.substring(s, Math.min(text.length(), e + 1)).strip();
        // an 'or' inside parentheses is given without them: keep the parentheses balanced
        int open = 0;
        for (char ch : t.toCharArray()) {
            open += ch == '(' ? 1 : ch == ')' ? -1 : 0;
        }
        while (open < 0 && t.endsWith(")")) {
            t = t.substring(0, t.length() - 1).strip();
            open++;
        }
        return t.replaceAll("\\s*\\n\\s*", " ");
    }

    // ---- queries

    private Compiled compile(Parsed p, String cause) {
        List<Query> queries = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        Map<Query, String> drlOf = new LinkedHashMap<>();
        int n = 0;
        for (Rule r : p.rules) {
            Matcher m = HYPOTHESIS.matcher(r.consequence);
            String subtype = null;
            String confidence = null;
            boolean concludes = false;
            while (m.find()) {
                if (m.group(1).equals(cause)) {
                    concludes = true;
                    subtype = m.group(2) != null ? m.group(2) : "(from the match)";
                    confidence = m.group(3) != null ? m.group(3) : "(from the match)";
                    break;
                }
            }
            if (!concludes) {
                continue;
            }
            Query q = new Query("whynot " + n++, r, subtype, confidence, true, "");
            drlOf.put(q, queriesOf(q));
            queries.add(q);
        }
        if (queries.isEmpty()) {
            return new Compiled(null, List.of(), notes);
        }
        String header = header(p);
        KieBase base;
        StringBuilder all = new StringBuilder(header);
        drlOf.values().forEach(all::append);
        Built b = build(all.toString());
        if (b.errors.isEmpty()) {
            base = b.base;
        } else {
            // some rule's conditions do not stand on their own as queries: find which, keep the others
            List<Query> kept = new ArrayList<>();
            StringBuilder good = new StringBuilder(header);
            for (Query q : queries) {
                List<String> own = build(header + drlOf.get(q)).errors;
                if (own.isEmpty()) {
                    good.append(drlOf.get(q));
                    kept.add(q);
                } else {
                    kept.add(new Query(q.name, q.rule, q.subtype, q.confidence, false,
                            "its conditions could not be evaluated one by one: " + own.get(0)));
                }
            }
            queries = kept;
            base = kept.stream().anyMatch(Query::evaluable) ? build(good.toString()).base : null;
        }
        return new Compiled(base, queries, notes);
    }

    private static String header(Parsed p) {
        StringBuilder sb = new StringBuilder("package triage.whynot;\n");
        p.imports.forEach(i -> sb.append("import ").append(i).append(";\n"));
        return sb.toString();
    }

    private record Built(KieBase base, List<String> errors) { }

    /** Compiles the queries once: the base, or the compiler's errors. */
    private static Built build(String drl) {
        KieServices ks = KieServices.Factory.get();
        ReleaseId id = ks.newReleaseId("io.triage", "whynot", "1.0.0-" + Long.toHexString(System.nanoTime()));
        KieFileSystem kfs = ks.newKieFileSystem();
        kfs.generateAndWritePomXML(id);
        kfs.write("src/main/resources/triage/whynot/queries.drl", drl);
        try {
            Results res = ks.newKieBuilder(kfs).buildAll().getResults();
            List<String> errors = res.getMessages(Message.Level.ERROR).stream()
                    .map(m -> m.getText().strip().replaceAll("\\s+", " ")).toList();
            return new Built(errors.isEmpty() ? ks.newKieContainer(id).getKieBase() : null, errors);
        } finally {
            ks.getRepository().removeKieModule(id);
        }
    }

    /** Per condition i: "c i", the condition with the earlier ones whose variables it uses; "p i", conditions 0..i. */
    private static String queriesOf(Query q) {
        List<Element> el = q.rule.elements;
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < el.size(); i++) {
            Set<Integer> need = new java.util.TreeSet<>();
            need.add(i);
            boolean grew = true;
            while (grew) {
                grew = false;
                for (int k : List.copyOf(need)) {
                    for (String v : el.get(k).uses) {
                        for (int j = k - 1; j >= 0; j--) {
                            if (el.get(j).binds.contains(v)) {
                                grew |= need.add(j);
                                break;
                            }
                        }
                    }
                }
            }
            sb.append("query \"").append(q.name).append(" c").append(i).append("\"\n");
            need.forEach(k -> sb.append("    ").append(wrap(el.get(k).text)).append('\n'));
            sb.append("end\n");
            sb.append("query \"").append(q.name).append(" p").append(i).append("\"\n");
            for (int k = 0; k <= i; k++) {
                sb.append("    ").append(wrap(el.get(k).text)).append('\n');
            }
            sb.append("end\n");
        }
        return sb.toString();
    }

    private static String wrap(String text) {
        return "( " + text + " )";
    }

    // ---- plain words

    private static List<String> symptomIds(BaseDescr d) {
        List<String> ids = new ArrayList<>();
        if (d instanceof PatternDescr p) {
            if ("Symptom".equals(simple(p.getObjectType()))) {
                for (BaseDescr c : p.getConstraint().getDescrs()) {
                    String t = c.getText() == null ? c.toString() : c.getText().strip();
                    Matcher eq = EQ.matcher(t);
                    Matcher in = IN.matcher(t);
                    if (eq.matches() && eq.group(1).equals("id")) {
                        ids.add(eq.group(2));
                    } else if (in.matches() && in.group(1).equals("id") && in.group(2) == null) {
                        Matcher qm = QUOTED.matcher(in.group(3));
                        while (qm.find()) {
                            ids.add(qm.group(1));
                        }
                    }
                }
            }
        } else if (d instanceof NotDescr || d instanceof ExistsDescr || d instanceof OrDescr || d instanceof AndDescr) {
            for (Object o : ((org.drools.drl.ast.descr.ConditionalElementDescr) d).getDescrs()) {
                ids.addAll(symptomIds((BaseDescr) o));
            }
        }
        return ids;
    }

    private String plain(BaseDescr d, String src) {
        if (d instanceof PatternDescr p) {
            return p.getSource() != null ? src : pattern(p);
        }
        List<BaseDescr> kids = new ArrayList<>();
        if (d instanceof org.drools.drl.ast.descr.ConditionalElementDescr ce) {
            for (Object o : ce.getDescrs()) {
                kids.add((BaseDescr) o);
            }
        }
        List<String> parts = kids.stream().map(k -> plain(k, k.getText() == null ? k.toString() : k.getText())).toList();
        if (d instanceof NotDescr) {
            String inner = String.join(" and ", parts);
            return inner.startsWith("a ") ? "no " + inner.substring(2)
                    : inner.startsWith("an ") ? "no " + inner.substring(3) : "not: " + lower(inner);
        }
        if (d instanceof ExistsDescr) {
            return String.join(" and ", parts);
        }
        if (d instanceof OrDescr) {
            return "either " + String.join(", or ", parts.stream().map(WhyNot::lower).toList());
        }
        if (d instanceof AndDescr) {
            return "(" + String.join(" and ", parts.stream().map(WhyNot::lower).toList()) + ")";
        }
        return src;
    }

    private String pattern(PatternDescr p) {
        String type = simple(p.getObjectType());
        List<String> cons = new ArrayList<>();
        for (BaseDescr c : p.getConstraint().getDescrs()) {
            cons.add(c.getText() == null ? c.toString().strip() : c.getText().strip());
        }
        Map<String, List<String>> eq = new LinkedHashMap<>();
        List<String> rest = new ArrayList<>();
        for (String c : cons) {
            Matcher m = EQ.matcher(c);
            Matcher in = IN.matcher(c);
            if (m.matches()) {
                eq.put(m.group(1), List.of(m.group(2)));
            } else if (in.matches() && in.group(2) == null) {
                List<String> vs = new ArrayList<>();
                Matcher qm = QUOTED.matcher(in.group(3));
                while (qm.find()) {
                    vs.add(qm.group(1));
                }
                eq.put(in.group(1), vs);
            } else if (!c.matches("^\\$\\w+\\s*:\\s*\\w+$")) {
                rest.add(c);
            }
        }
        String base;
        switch (type) {
            case "Symptom" -> {
                List<String> ids = eq.remove("id");
                base = ids == null ? "a symptom" : ids.size() == 1 ? "a symptom: " + lower(kb.symptomText(ids.get(0)))
                        : "a symptom, one of: " + String.join("; ", ids.stream().map(i -> lower(kb.symptomText(i))).toList());
            }
            case "Exclusion" -> {
                List<String> c = eq.remove("cause");
                List<String> s = eq.remove("status");
                String who = c == null ? "an alternative" : String.join(" or ", c.stream().map(this::title).toList());
                base = s == null ? "a verdict on whether " + who + " can be ruled out (either way)"
                        : s.equals(List.of("ruled-out")) ? "a verdict that " + who + " is ruled out"
                        : s.equals(List.of("not-ruled-out")) ? "a verdict that " + who + " could not be ruled out (evidence missing)"
                        : "a verdict on " + who + " of " + s;
            }
            case "Hypothesis" -> {
                List<String> c = eq.remove("cause");
                List<String> conf = eq.remove("confidence");
                base = "a conclusion of " + (c == null ? "any cause" : String.join(" or ", c.stream().map(this::title).toList()))
                        + (conf == null ? "" : " at " + String.join(" or ", conf) + " confidence");
            }
            default -> base = "a " + type;
        }
        List<String> more = new ArrayList<>();
        eq.forEach((k, v) -> more.add(k + (v.size() == 1 ? " " + v.get(0) : " one of " + v)));
        more.addAll(rest);
        return more.isEmpty() ? base : base + " (" + String.join(", ", more) + ")";
    }

    private String title(String cause) {
        KnowledgeBase.CauseSpec c = kb.causes().get(cause);
        return c == null ? cause : cause + " (" + lower(c.title()) + ")";
    }

    private static String simple(String type) {
        return type == null ? "" : type.substring(type.lastIndexOf('.') + 1);
    }

    private static String lower(String s) {
        return s.isEmpty() || (s.length() > 1 && Character.isUpperCase(s.charAt(1))) ? s
                : Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }

    // ---- views

    /** The answer for a terminal: closest rule first, each condition met (✓), not met (✗) or not evaluated (?). */
    public static String text(Answer a) {
        StringBuilder sb = new StringBuilder();
        sb.append("Why not ").append(a.cause()).append(" (").append(a.title()).append(")? ");
        if (a.concluded().isEmpty()) {
            sb.append("It is not concluded; the verdict is ").append(a.verdict()).append(".\n");
        } else {
            sb.append("It is concluded (").append(String.join(", ", a.concluded())).append(" confidence)")
                    .append(a.cause().equals(a.verdict()) ? ": it is the verdict.\n" : ", but the verdict is " + a.verdict() + ".\n");
        }
        if (!a.rules().isEmpty()) {
            sb.append(a.rules().size()).append(a.rules().size() == 1 ? " rule concludes " : " rules conclude ")
                    .append(a.cause()).append(", closest first:\n");
        }
        for (Candidate c : a.rules()) {
            sb.append("\n  \"").append(c.rule()).append("\" (").append(c.file()).append(':').append(c.line())
                    .append(", ").append(c.confidence()).append(") — ");
            if (c.matches()) {
                sb.append("all ").append(c.conditions().size()).append(" conditions met: it fires\n");
            } else {
                sb.append(c.met()).append(" of ").append(c.conditions().size()).append(" conditions met\n");
            }
            for (int i = 0; i < c.conditions().size(); i++) {
                Condition k = c.conditions().get(i);
                String mark = switch (k.met()) {
                    case MET -> "✓";
                    case UNMET -> "✗";
                    case UNKNOWN -> "?";
                };
                sb.append("    ").append(mark).append(" line ").append(k.line()).append(": ").append(k.plain()).append('\n');
                sb.append("        ").append(k.source()).append('\n');
                if (k.met() == Met.UNMET && !k.derivedBy().isEmpty()) {
                    sb.append("        (derived by ").append(String.join(", ", k.derivedBy())).append(")\n");
                }
                if (i == c.together()) {
                    sb.append("        each condition holds on its own, but this one fails together with those before it\n");
                }
            }
            if (!c.note().isEmpty()) {
                sb.append("    note: ").append(c.note()).append('\n');
            }
        }
        for (String n : a.notes()) {
            sb.append("note: ").append(n).append('\n');
        }
        return sb.toString();
    }

    /** The answer as the JSON document of the API ({@code triage.whynot/v1}). */
    public static Map<String, Object> json(Answer a) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema", "triage.whynot/v1");
        m.put("cause", a.cause());
        m.put("title", a.title());
        m.put("verdict", a.verdict());
        m.put("concluded", a.concluded());
        List<Map<String, Object>> rs = new ArrayList<>();
        for (Candidate c : a.rules()) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("rule", c.rule());
            r.put("file", c.file());
            r.put("line", c.line());
            r.put("subtype", c.subtype());
            r.put("confidence", c.confidence());
            r.put("matches", c.matches());
            r.put("met", c.met());
            r.put("of", c.conditions().size());
            List<Map<String, Object>> cs = new ArrayList<>();
            for (int i = 0; i < c.conditions().size(); i++) {
                Condition k = c.conditions().get(i);
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("line", k.line());
                x.put("condition", k.source());
                x.put("plain", k.plain());
                x.put("met", k.met().name().toLowerCase(java.util.Locale.ROOT));
                x.put("derivedBy", k.derivedBy());
                x.put("failsTogether", i == c.together());
                cs.add(x);
            }
            r.put("conditions", cs);
            if (!c.note().isEmpty()) {
                r.put("note", c.note());
            }
            rs.add(r);
        }
        m.put("rules", rs);
        m.put("notes", a.notes());
        return m;
    }
}
