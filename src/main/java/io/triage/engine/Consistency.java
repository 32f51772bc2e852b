package io.triage.engine;

import io.triage.facts.XidInfo;
import io.triage.knowledge.KnowledgeBase;
import io.triage.knowledge.Marker;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.Token;
import org.drools.drl.ast.descr.AccumulateDescr;
import org.drools.drl.ast.descr.AtomicExprDescr;
import org.drools.drl.ast.descr.BaseDescr;
import org.drools.drl.ast.descr.BindingDescr;
import org.drools.drl.ast.descr.CollectDescr;
import org.drools.drl.ast.descr.ConditionalElementDescr;
import org.drools.drl.ast.descr.ConstraintConnectiveDescr;
import org.drools.drl.ast.descr.ExprConstraintDescr;
import org.drools.drl.ast.descr.PackageDescr;
import org.drools.drl.ast.descr.PatternDescr;
import org.drools.drl.ast.descr.RelationalExprDescr;
import org.drools.drl.ast.descr.RuleDescr;
import org.drools.drl.parser.DrlExprParser;
import org.drools.drl.parser.DrlExprParserFactory;
import org.drools.drl.parser.DrlParser;
import org.drools.drl.parser.DroolsParserException;
import org.drools.drl.parser.antlr4.JavaLexer;
import org.kie.internal.builder.conf.LanguageLevelOption;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Whether the rules and the knowledge base agree on their ids, read from Drools' own parse of the DRL (the
 * {@link PackageDescr} of each file, its rules' patterns and the constraint expressions parsed by Drools'
 * expression parser, so {@code in (…)}, {@code not in (…)}, {@code !=} and bound variables are all seen) and
 * from the Java lexer's tokens of each consequence (the facts a rule inserts).
 *
 * <p>Errors (the base must not be used): an id a rule matches that nothing produces (a symptom no rule
 * derives, a cause not in {@code causes.yaml}, a marker kind or subtype that does not exist, a probe no capture
 * has, a step or question with no entry); an id a rule produces that has no text; an id built by concatenation
 * ({@code "probe-" + $m}, {@code "xid-" + $x.code()}) whose possible values lack their entries. Warnings: an id
 * produced and never used (a symptom no rule reads, a sentence, question or step nothing produces), and an id
 * built in a way that cannot be checked. Every problem names the file and line.
 */
public final class Consistency {
    /** What an id names. */
    enum Kind {
        SYMPTOM("symptom"), CAUSE("cause"), SUBTYPE("subtype"), QUESTION("question"), STEP("step"),
        MARKER_KIND("marker kind"), MARKER("marker"), PROBE("probe"), XID("Xid code");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    /** Which field of which fact names which kind of id. */
    private static final Map<String, Kind> FIELDS = Map.ofEntries(
            Map.entry("Symptom.id", Kind.SYMPTOM),
            Map.entry("Hypothesis.cause", Kind.CAUSE), Map.entry("Hypothesis.subtype", Kind.SUBTYPE),
            Map.entry("Exclusion.cause", Kind.CAUSE), Map.entry("Exclusion.missing", Kind.PROBE),
            Map.entry("Refutation.cause", Kind.CAUSE),
            Map.entry("Advice.cause", Kind.CAUSE), Map.entry("Advice.stepId", Kind.STEP),
            Map.entry("AdviceOption.cause", Kind.CAUSE), Map.entry("AdviceOption.stepId", Kind.STEP),
            Map.entry("AdviceOption.subtype", Kind.SUBTYPE),
            Map.entry("Question.id", Kind.QUESTION),
            Map.entry("LogMarker.kind", Kind.MARKER_KIND), Map.entry("LogMarker.markerId", Kind.MARKER),
            Map.entry("LogMarker.subtype", Kind.SUBTYPE),
            Map.entry("ProbeStatus.probe", Kind.PROBE), Map.entry("Unparseable.probe", Kind.PROBE),
            Map.entry("XidInfo.code", Kind.XID));

    /** An id seen in a file at a line, in a rule (or empty). */
    record Site(String file, int line, String rule) { }

    /** The outcome: errors refuse the base, warnings are shown. */
    public record Report(List<RuleBase.Problem> errors, List<RuleBase.Problem> warnings) {
        public Report {
            errors = List.copyOf(errors);
            warnings = List.copyOf(warnings);
        }

        public boolean ok() {
            return errors.isEmpty();
        }
    }

    /** An id built as {@code "prefix" + expression} in a consequence, with the values the expression can take. */
    private record Built(Kind kind, String prefix, Values values, Site site, String expression) { }

    /** What a built id's expression can be: known values, or those produced for a field ({@code Exclusion.missing}). */
    private record Values(Set<String> known, String field) { }

    private final Path home;
    private final KnowledgeBase kb;
    private final Set<String> probes;
    private final Map<Kind, Map<String, Site>> matched = new EnumMap<>(Kind.class);
    private final Map<Kind, Map<String, Site>> produced = new EnumMap<>(Kind.class);
    private final Map<String, Set<String>> producedByField = new HashMap<>();
    private final List<Built> built = new ArrayList<>();
    /** Every rule by name, where it starts. */
    private final Map<String, Site> rules = new LinkedHashMap<>();
    /** A template a rule fills ({@code Detail.of(…)} or {@code Detail.as("key", …)}): symptom details and reasons. */
    private record Filled(String section, String key, Set<String> params, Site site) { }
    private final List<Filled> filled = new ArrayList<>();
    private final List<RuleBase.Problem> errors = new ArrayList<>();
    private final List<RuleBase.Problem> warnings = new ArrayList<>();
    private final Map<String, Map<String, Map<String, Integer>>> yamlLines = new HashMap<>();

    private Consistency(Path home, KnowledgeBase kb, Set<String> probes) {
        this.home = home;
        this.kb = kb;
        this.probes = probes;
        for (Kind k : Kind.values()) {
            matched.put(k, new LinkedHashMap<>());
            produced.put(k, new LinkedHashMap<>());
        }
    }

    /**
     * Checks {@code rules} (compiled from the files under {@code rulesDir}) against {@code kb}: from the descriptors
     * the compiler parsed when the base was compiled here, else from a parse of the files.
     *
     * @param knowledgeDir the directory {@code kb} was loaded from (for the lines of its entries)
     * @param probes the probe names a capture can hold (the bundle's and the capture format's)
     * @param scenariosDir when not null, every {@code expected.txt} under it must name known causes, subtypes and
     *                     steps (a probe to cite that no capture has is a warning)
     */
    public static Report check(RuleBase rules, Path rulesDir, KnowledgeBase kb, Path knowledgeDir, Set<String> probes,
                               Path scenariosDir) {
        return checkAll(rules, rulesDir, kb, knowledgeDir, probes, scenariosDir == null ? List.of() : List.of(scenariosDir));
    }

    /** As above, with several scenario directories (the home's and a site overlay's); none: scenarios unchecked. */
    public static Report checkAll(RuleBase rules, Path rulesDir, KnowledgeBase kb, Path knowledgeDir, Set<String> probes,
                                  List<Path> scenarioDirs) {
        Consistency c = new Consistency(rulesDir.toAbsolutePath().normalize().getParent(), kb, probes);
        c.knowledgeDir = knowledgeDir;
        List<PackageDescr> descrs = rules.descriptors();
        if (descrs == null) {
            descrs = parse(RuleBase.sources(rules.files()));
        }
        c.rulesDir = rulesDir.toAbsolutePath().normalize();
        c.overlayRules = rules.overlayRules();
        for (PackageDescr p : descrs) {
            for (RuleDescr r : p.getRules()) {
                c.readRule(c.fileOf(r), r);
            }
        }
        c.compare();
        c.texts();
        scenarioDirs.forEach(c::scenarios);
        return new Report(c.errors, c.warnings);
    }

    private Path knowledgeDir;
    private Path rulesDir;
    private Path overlayRules;

    // ------------------------------------------------------------------------------------ reading ----

    /** Drools' parse of each DRL file (a file that does not parse is left to the compiler to report). */
    static List<PackageDescr> parse(Map<Path, byte[]> sources) {
        List<PackageDescr> out = new ArrayList<>();
        for (Map.Entry<Path, byte[]> f : sources.entrySet()) {
            if (!f.getKey().toString().endsWith(".drl")) {
                continue; // decision tables have no descriptors of this kind to read
            }
            DrlParser parser = new DrlParser(LanguageLevelOption.DRL6);
            try {
                org.drools.io.ByteArrayResource res = new org.drools.io.ByteArrayResource(f.getValue(), "UTF-8");
                res.setSourcePath(f.getKey().toString());
                PackageDescr pkg = parser.parse(res);
                if (pkg != null && !parser.hasErrors()) {
                    out.add(pkg);
                }
            } catch (DroolsParserException | IOException | RuntimeException e) {
                // the compiler reports what does not parse, with its line
            }
        }
        return out;
    }

    /** The rule's file as the author knows it ({@code rules/10-symptoms.drl}). */
    private String fileOf(RuleDescr r) {
        String src = r.getResource() == null ? null : r.getResource().getSourcePath();
        if (src == null) {
            return "rules";
        }
        Path overlay = RuleBase.overlayFile(src, overlayRules);
        if (overlay != null) {
            return name(overlay);
        }
        String marker = "triage/rules/";
        int at = src.indexOf(marker);
        if (at >= 0) {
            return name(rulesDir.resolve(src.substring(at + marker.length())));
        }
        return name(Path.of(src));
    }

    /** One pattern of a rule: its type and, per field, the literal values its constraints compare with. */
    private record Pat(String type, Map<String, Set<String>> equal, Set<String> flags) { }

    private void readRule(String file, RuleDescr r) {
        rules.putIfAbsent(r.getName(), new Site(file, r.getLine(), r.getName()));
        if (r.getAnnotation("rationale") != null) {
            warn(new Site(file, r.getAnnotation("rationale").getLine() > 0 ? r.getAnnotation("rationale").getLine()
                    : r.getLine(), r.getName()), "ignored", "@rationale in a rule file is not read: the rationale "
                    + "is in texts.yaml (rationales:), by rule name");
        }
        Map<String, Pat> byVar = new HashMap<>();
        Map<String, String[]> bound = new HashMap<>(); // $var -> {pattern var key, field}
        List<Pat> pats = new ArrayList<>();
        walk(r.getLhs(), file, r.getName(), byVar, bound, pats);
        readConsequence(file, r, byVar, bound);
    }

    private void walk(BaseDescr d, String file, String rule, Map<String, Pat> byVar, Map<String, String[]> bound,
                      List<Pat> pats) {
        if (d == null) {
            return;
        }
        if (d instanceof PatternDescr p) {
            String type = simple(p.getObjectType());
            Pat pat = new Pat(type, new HashMap<>(), new LinkedHashSet<>());
            String key = p.getIdentifier() != null ? p.getIdentifier() : "#" + pats.size();
            byVar.put(key, pat);
            pats.add(pat);
            for (BaseDescr c : p.getDescrs()) {
                if (c instanceof ExprConstraintDescr e) {
                    constraint(e.getExpression(), type, file, e.getLine() > 0 ? e.getLine() : p.getLine(), rule, pat,
                            key, bound);
                }
            }
            if (p.getSource() instanceof AccumulateDescr a) {
                walk(a.getInput(), file, rule, byVar, bound, pats);
            } else if (p.getSource() instanceof CollectDescr c) {
                walk(c.getInputPattern(), file, rule, byVar, bound, pats);
            }
        } else if (d instanceof ConditionalElementDescr ce) {
            for (Object o : ce.getDescrs()) {
                if (o instanceof BaseDescr b) {
                    walk(b, file, rule, byVar, bound, pats);
                }
            }
        }
    }

    private void constraint(String expr, String type, String file, int line, String rule, Pat pat, String patKey,
                            Map<String, String[]> bound) {
        // only a comparison with a literal or a binding can name an id: the others need no parse
        if (expr == null || expr.indexOf('"') < 0 && expr.indexOf(':') < 0 && !expr.matches("(?s).*[=!]=\\s*-?\\d.*")) {
            return;
        }
        ConstraintConnectiveDescr parsed = expressions.computeIfAbsent(expr, e -> {
            try {
                DrlExprParser ep = DrlExprParserFactory.getDrlExprParser(LanguageLevelOption.DRL6);
                ConstraintConnectiveDescr d = ep.parse(e);
                return d == null || ep.hasErrors() ? EMPTY : d;
            } catch (RuntimeException ex) {
                return EMPTY;
            }
        });
        relations(parsed, type, file, line, rule, pat, patKey, bound);
    }

    private static final ConstraintConnectiveDescr EMPTY = new ConstraintConnectiveDescr();
    private final Map<String, ConstraintConnectiveDescr> expressions = new HashMap<>();

    private void relations(BaseDescr d, String type, String file, int line, String rule, Pat pat, String patKey,
                           Map<String, String[]> bound) {
        if (d instanceof ConstraintConnectiveDescr c) {
            for (BaseDescr x : c.getDescrs()) {
                relations(x, type, file, line, rule, pat, patKey, bound);
            }
        } else if (d instanceof BindingDescr b) {
            bound.put(b.getVariable(), new String[] {patKey, field(b.getExpression())});
        } else if (d instanceof RelationalExprDescr rel) {
            BaseDescr left = rel.getLeft();
            BaseDescr right = rel.getRight();
            if (left instanceof BindingDescr b) {
                bound.put(b.getVariable(), new String[] {patKey, field(b.getExpression())});
            }
            String field = fieldOf(left);
            String value = literal(right);
            if (field == null || value == null) {
                field = fieldOf(right);
                value = literal(left);
            }
            if (field == null || value == null) {
                return;
            }
            String op = rel.getOperator();
            if ("==".equals(op)) {
                pat.equal().computeIfAbsent(field, k -> new LinkedHashSet<>()).add(value);
            }
            Kind kind = FIELDS.get(type + "." + field);
            if (kind != null && !value.isEmpty() && ("==".equals(op) || "!=".equals(op))) {
                matched.get(kind).putIfAbsent(value, new Site(file, line, rule));
            }
        }
    }

    /** The field an expression reads ({@code id}, {@code this.id}, {@code id()}), or null. */
    private static String fieldOf(BaseDescr d) {
        if (d instanceof BindingDescr b) {
            return field(b.getExpression());
        }
        if (d instanceof AtomicExprDescr a && !a.isLiteral()) {
            return field(a.getExpression());
        }
        return null;
    }

    private static final Pattern FIELD = Pattern.compile("(?:this\\.)?([a-zA-Z_][a-zA-Z0-9_]*)(?:\\(\\))?");

    private static String field(String expr) {
        if (expr == null) {
            return null;
        }
        Matcher m = FIELD.matcher(expr.strip());
        return m.matches() ? m.group(1) : null;
    }

    /** The value of a string (or integer) literal, or null. */
    private static String literal(BaseDescr d) {
        if (!(d instanceof AtomicExprDescr a)) {
            return null;
        }
        String e = a.getExpression().strip();
        if (e.length() >= 2 && (e.startsWith("\"") && e.endsWith("\"") || e.startsWith("'") && e.endsWith("'"))) {
            return unescape(e.substring(1, e.length() - 1));
        }
        return e.matches("-?\\d{1,9}") ? e : null;
    }

    private static String unescape(String s) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                b.append(switch (n) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    default -> n;
                });
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static String simple(String type) {
        if (type == null) {
            return "";
        }
        int dot = type.lastIndexOf('.');
        return dot < 0 ? type : type.substring(dot + 1);
    }

    /**
     * The facts a consequence creates ({@code new Symptom("id", …)}): read from the Java lexer's tokens, so that
     * comments and strings never pass for code.
     */
    private void readConsequence(String file, RuleDescr r, Map<String, Pat> byVar, Map<String, String[]> bound) {
        Object cons = r.getConsequence();
        if (!(cons instanceof String text) || text.isBlank()) {
            return;
        }
        List<Token> toks = new ArrayList<>();
        JavaLexer lexer = new JavaLexer(CharStreams.fromString(text));
        lexer.removeErrorListeners();
        for (Token t = lexer.nextToken(); t.getType() != Token.EOF; t = lexer.nextToken()) {
            if (t.getChannel() == Token.DEFAULT_CHANNEL) {
                toks.add(t);
            }
        }
        // the consequence's text starts after "then": on the next line when the parser kept the line break
        int base = Math.max(r.getConsequenceLine(), r.getLine()) + (text.startsWith("\n") || text.startsWith("\r") ? 0 : 1);
        for (int i = 0; i + 2 < toks.size(); i++) {
            if (!"new".equals(toks.get(i).getText()) || !"(".equals(toks.get(i + 2).getText())) {
                continue;
            }
            String type = toks.get(i + 1).getText();
            Class<?> record = factClass(type);
            if (record == null) {
                continue;
            }
            List<List<Token>> args = arguments(toks, i + 3);
            details(type, args, file, base, r.getName());
            var components = record.getRecordComponents();
            for (int a = 0; a < args.size(); a++) {
                // the canonical constructor maps every argument; a shorter one only its first (an id)
                String comp = args.size() == components.length ? components[a].getName() : a == 0 ? components[0].getName() : null;
                Kind kind = comp == null ? null : FIELDS.get(type + "." + comp);
                if (kind == null || args.get(a).isEmpty()) {
                    continue;
                }
                List<Token> arg = args.get(a);
                Site site = new Site(file, base + arg.get(0).getLine() - 1, r.getName());
                if (arg.size() == 1 && isString(arg.get(0))) {
                    String v = unescape(strip(arg.get(0).getText()));
                    if (!v.isEmpty()) {
                        produced.get(kind).putIfAbsent(v, site);
                        producedByField.computeIfAbsent(type + "." + comp, k -> new LinkedHashSet<>()).add(v);
                    }
                } else if (arg.size() >= 3 && isString(arg.get(0)) && "+".equals(arg.get(1).getText())) {
                    List<Token> rest = arg.subList(2, arg.size());
                    String expr = String.join("", rest.stream().map(Token::getText).toList());
                    built.add(new Built(kind, unescape(strip(arg.get(0).getText())),
                            values(rest, byVar, bound), site, expr));
                } else if (kind != Kind.SUBTYPE) {
                    // a subtype carried over from a matched fact is as known as the fact; any other id built
                    // at run time cannot be checked here
                    String expr = String.join(" ", arg.stream().map(Token::getText).toList());
                    if (!expr.matches("\\$[A-Za-z0-9_]+(\\s*\\.\\s*[a-zA-Z]+\\s*\\(\\s*\\))?")) {
                        warn(site, "unchecked", kind.label + " id built as " + expr + " cannot be checked");
                    }
                }
            }
        }
    }

    /**
     * The template a construction fills: a symptom's {@code Detail.of(…)} names the symptom's own ({@code details:}
     * id), {@code Detail.as("word", …)} its variant ({@code id.word}); a refutation's or an exclusion's
     * {@code Detail.as("id", …)} names a reason ({@code reasons:} id). The names of the values passed are kept, to
     * check the template asks for no other.
     */
    private void details(String type, List<List<Token>> args, String file, int base, String rule) {
        for (List<Token> arg : args) {
            if (arg.size() < 4 || !"Detail".equals(arg.get(0).getText()) || !".".equals(arg.get(1).getText())
                    || !"(".equals(arg.get(3).getText())) {
                continue;
            }
            String how = arg.get(2).getText();
            List<List<Token>> inner = arguments(arg, 4);
            Site site = new Site(file, base + arg.get(0).getLine() - 1, rule);
            Set<String> keys = new LinkedHashSet<>();
            int from = 0;
            if (how.equals("as")) {
                if (inner.isEmpty()) {
                    continue;
                }
                inner.get(0).stream().filter(Consistency::isString).forEach(t -> keys.add(unescape(strip(t.getText()))));
                from = 1;
                if (keys.isEmpty()) {
                    warn(site, "unchecked", "a Detail key built as " + String.join(" ", inner.get(0).stream()
                            .map(Token::getText).toList()) + " cannot be checked");
                    continue;
                }
            } else if (!how.equals("of")) {
                continue;
            } else {
                keys.add("");
            }
            Set<String> params = new LinkedHashSet<>();
            boolean known = true;
            for (int a = from; a < inner.size(); a += 2) {
                List<Token> n = inner.get(a);
                if (n.size() == 1 && isString(n.get(0))) {
                    params.add(unescape(strip(n.get(0).getText())));
                } else {
                    known = false;
                }
            }
            if (type.equals("Symptom")) {
                List<Token> id = args.get(0);
                if (id.size() != 1 || !isString(id.get(0))) {
                    continue;
                }
                String sid = unescape(strip(id.get(0).getText()));
                for (String k : keys) {
                    filled.add(new Filled("details", k.isEmpty() ? sid : sid + "." + k, known ? params : null, site));
                }
            } else {
                for (String k : keys) {
                    filled.add(new Filled("reasons", k, known ? params : null, site));
                }
            }
        }
    }

    private static final Pattern PARAM = Pattern.compile("\\{([A-Za-z0-9_]+)}");

    /** Rules and their rationales, templates and the details and reasons that fill them: each needs the other. */
    private void texts() {
        io.triage.knowledge.Texts t = kb.texts();
        for (Map.Entry<String, Site> e : rules.entrySet()) {
            String why = t.rationales().get(e.getKey());
            if (why == null || why.isBlank()) {
                error(e.getValue(), "rule \"" + e.getKey() + "\" has no rationale in texts.yaml (rationales:)"
                        + suggest(e.getKey(), t.rationales().keySet()));
            }
        }
        for (String name : t.rationales().keySet()) {
            if (!rules.containsKey(name)) {
                warn(yamlKey("texts.yaml", "rationales", name), "unused", "texts.yaml has a rationale for rule \""
                        + name + "\", which no rule file has" + suggest(name, rules.keySet()));
            }
        }
        Set<String> usedDetails = new LinkedHashSet<>();
        Set<String> usedReasons = new LinkedHashSet<>();
        for (Filled f : filled) {
            Map<String, String> section = f.section().equals("details") ? t.details() : t.reasons();
            (f.section().equals("details") ? usedDetails : usedReasons).add(f.key());
            String template = section.get(f.key());
            if (template == null) {
                error(f.site(), (f.section().equals("details") ? "the detail of symptom " : "reason ") + f.key()
                        + " has no template in texts.yaml (" + f.section() + ":)" + suggest(f.key(), section.keySet()));
                continue;
            }
            if (f.params() == null) {
                continue;
            }
            Matcher m = PARAM.matcher(template);
            while (m.find()) {
                if (!f.params().contains(m.group(1))) {
                    error(f.site(), "texts.yaml " + f.section() + ": " + f.key() + " asks for {" + m.group(1)
                            + "}, which the rule does not pass (it passes " + f.params() + ")");
                }
            }
        }
        for (String k : t.details().keySet()) {
            if (!usedDetails.contains(k)) {
                warn(yamlKey("texts.yaml", "details", k), "unused", "texts.yaml has a detail template " + k
                        + " that no rule fills");
            }
        }
        for (String k : t.reasons().keySet()) {
            if (!usedReasons.contains(k)) {
                warn(yamlKey("texts.yaml", "reasons", k), "unused", "texts.yaml has a reason " + k + " that no rule gives");
            }
        }
    }

    /** The site of {@code section: key:} in a knowledge file, for keys the line locator cannot read (quoted, with colons). */
    private Site yamlKey(String file, String section, String key) {
        Site s = yaml(file, section, key);
        if (s.line() > 0) {
            return s;
        }
        Path f = knowledgeDir == null ? Path.of("knowledge-base", file) : knowledgeDir.resolve(file);
        try {
            List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
            boolean in = false;
            for (int i = 0; i < lines.size(); i++) {
                String l = lines.get(i);
                if (!l.startsWith(" ") && !l.startsWith("#")) {
                    in = l.startsWith(section + ":");
                } else if (in) {
                    String k = l.strip();
                    for (String q : List.of("\"", "'")) {
                        String quoted = q.equals("'") ? key.replace("'", "''") : key.replace("\\", "\\\\").replace("\"", "\\\"");
                        if (k.startsWith(q + quoted + q + ":")) {
                            return new Site(s.file(), i + 1, "");
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // the site without a line
        }
        return s;
    }

    private static boolean isString(Token t) {
        return t.getText().length() >= 2 && t.getText().startsWith("\"") && t.getText().endsWith("\"");
    }

    private static String strip(String s) {
        return s.substring(1, s.length() - 1);
    }

    /** The arguments of a call whose first token is at {@code from}, split at the commas of its own level. */
    private static List<List<Token>> arguments(List<Token> toks, int from) {
        List<List<Token>> args = new ArrayList<>();
        List<Token> cur = new ArrayList<>();
        int depth = 0;
        for (int i = from; i < toks.size(); i++) {
            String t = toks.get(i).getText();
            if (depth == 0 && (t.equals(")") || t.equals(","))) {
                args.add(cur);
                cur = new ArrayList<>();
                if (t.equals(")")) {
                    return args;
                }
                continue;
            }
            if (t.equals("(") || t.equals("[") || t.equals("{")) {
                depth++;
            } else if (t.equals(")") || t.equals("]") || t.equals("}")) {
                depth--;
            }
            cur.add(toks.get(i));
        }
        return args;
    }

    private static Class<?> factClass(String simpleName) {
        try {
            Class<?> c = Class.forName("io.triage.facts." + simpleName);
            return c.isRecord() ? c : null;
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    /**
     * The values {@code $v} or {@code $v.field()} can take: the literals the rule's own pattern compares that
     * field with; else the literals every rule produces for it; else the knowledge base's catalogue of that kind.
     * Null when the expression is of another shape.
     */
    private Values values(List<Token> expr, Map<String, Pat> byVar, Map<String, String[]> bound) {
        String var;
        String field;
        if (expr.size() == 1) {
            String[] b = bound.get(expr.get(0).getText());
            if (b == null) {
                return null;
            }
            var = b[0];
            field = b[1];
        } else if (expr.size() == 5 && ".".equals(expr.get(1).getText()) && "(".equals(expr.get(3).getText())
                && ")".equals(expr.get(4).getText())) {
            var = expr.get(0).getText();
            field = expr.get(2).getText();
        } else {
            return null;
        }
        Pat pat = byVar.get(var);
        if (pat == null || field == null) {
            return null;
        }
        Set<String> own = pat.equal().get(field);
        if (own != null && !own.isEmpty()) {
            return new Values(own, null);
        }
        Kind kind = FIELDS.get(pat.type() + "." + field);
        if (kind == Kind.XID) {
            Set<String> codes = new TreeSet<>();
            Set<String> fault = pat.equal().get("fault");
            for (XidInfo x : kb.xids().values()) {
                if (fault == null || fault.contains(String.valueOf(x.fault()))) {
                    codes.add(String.valueOf(x.code()));
                }
            }
            return new Values(codes, null);
        }
        if (kind == null) {
            return null;
        }
        return new Values(null, pat.type() + "." + field); // what the rules produce for it: known once all are read
    }

    // ---------------------------------------------------------------------------------- comparing ----

    private void compare() {
        Set<String> symptomsProduced = produced.get(Kind.SYMPTOM).keySet();
        Set<String> causes = kb.causes().keySet();
        Set<String> subtypes = knownSubtypes();
        Set<String> questions = kb.questions().keySet();
        Set<String> markerIds = new LinkedHashSet<>();
        kb.markers().forEach(m -> markerIds.add(m.id()));
        Set<String> offered = new LinkedHashSet<>();
        kb.adviceOptions().forEach(o -> offered.add(o.stepId()));

        // matched ids: each must be produced by a rule or known to the knowledge base
        check(Kind.SYMPTOM, symptomsProduced, "no rule produces symptom");
        check(Kind.CAUSE, causes, "causes.yaml has no cause");
        check(Kind.SUBTYPE, subtypes, "no marker, rule or step knows subtype");
        Set<String> kinds = new LinkedHashSet<>(Marker.KINDS);
        kinds.add(Marker.ACCESS_NOISE); // the parser's own kind for access lines that are not served work
        check(Kind.MARKER_KIND, kinds, "there is no marker kind");
        check(Kind.MARKER, markerIds, "no marker of the knowledge base has id");
        check(Kind.PROBE, probes, "no capture has a probe named");
        Set<String> questionsKnown = new LinkedHashSet<>(questions);
        questionsKnown.addAll(produced.get(Kind.QUESTION).keySet());
        check(Kind.QUESTION, questionsKnown, "no rule asks, and texts.yaml has no, question");
        Set<String> stepsKnown = new LinkedHashSet<>(kb.steps().keySet());
        stepsKnown.addAll(produced.get(Kind.STEP).keySet());
        check(Kind.STEP, stepsKnown, "remediation.yaml has no step");

        // produced ids: each needs its entry
        for (Map.Entry<String, Site> e : produced.get(Kind.SYMPTOM).entrySet()) {
            if (!kb.symptomTexts().containsKey(e.getKey())) {
                error(e.getValue(), "symptom " + e.getKey() + " has no sentence in texts.yaml (symptoms:)"
                        + suggest(e.getKey(), kb.symptomTexts().keySet()));
            }
        }
        for (Map.Entry<String, Site> e : produced.get(Kind.CAUSE).entrySet()) {
            if (!causes.contains(e.getKey())) {
                error(e.getValue(), "cause " + e.getKey() + " is not in causes.yaml" + suggest(e.getKey(), causes));
            } else if (kb.causes().get(e.getKey()).title() == null || kb.causes().get(e.getKey()).title().isBlank()) {
                error(e.getValue(), "cause " + e.getKey() + " has no title in causes.yaml");
            }
        }
        for (Map.Entry<String, Site> e : produced.get(Kind.QUESTION).entrySet()) {
            questionText(e.getKey(), e.getValue());
        }
        for (Map.Entry<String, Site> e : produced.get(Kind.STEP).entrySet()) {
            if (kb.step(e.getKey()).isEmpty()) {
                error(e.getValue(), "step " + e.getKey() + " is not in remediation.yaml" + suggest(e.getKey(), kb.steps().keySet()));
            }
        }
        for (Map.Entry<String, Site> e : produced.get(Kind.PROBE).entrySet()) {
            if (!probes.contains(e.getKey())) {
                error(e.getValue(), "no capture has a probe named " + e.getKey() + suggest(e.getKey(), probes));
            }
        }
        for (Map.Entry<String, Site> e : produced.get(Kind.SUBTYPE).entrySet()) {
            if (!e.getKey().matches("[a-z0-9][a-z0-9-]*")) {
                error(e.getValue(), "subtype '" + e.getKey() + "' is not an id (lower case, digits and -)");
            }
        }
        // every cause a rule concludes offers a next step
        Set<String> withSteps = new LinkedHashSet<>();
        kb.adviceOptions().forEach(o -> withSteps.add(o.cause()));
        Set<String> concluded = producedByField.getOrDefault("Hypothesis.cause", Set.of());
        for (Map.Entry<String, Site> e : produced.get(Kind.CAUSE).entrySet()) {
            if (concluded.contains(e.getKey()) && causes.contains(e.getKey()) && !withSteps.contains(e.getKey())) {
                error(e.getValue(), "cause " + e.getKey() + " is concluded but remediation.yaml offers no step for it");
            }
        }

        // ids built by concatenation: every value they can take has its entry
        Set<String> questionsBuilt = new LinkedHashSet<>();
        boolean xidSteps = false;
        for (Built b : built) {
            if (b.kind() == Kind.SUBTYPE) {
                continue; // a subtype has no entry of its own to check
            }
            Set<String> values = b.values() == null ? null : b.values().known() != null ? b.values().known()
                    : producedValues(b.values().field());
            if (values == null || values.isEmpty()) {
                warn(b.site(), "unchecked", b.kind().label + " id built as \"" + b.prefix() + "\" + " + b.expression()
                        + " cannot be checked (its values are not known before a run)");
                continue;
            }
            for (String v : values) {
                String id = b.prefix() + v;
                switch (b.kind()) {
                    case QUESTION -> {
                        questionsBuilt.add(id);
                        questionText(id, b.site());
                    }
                    case STEP -> {
                        xidSteps |= b.prefix().equals("xid-");
                        if (kb.step(id).isEmpty()) {
                            error(b.site(), "step " + id + " (built as \"" + b.prefix() + "\" + " + b.expression()
                                    + ") has no entry in remediation.yaml" + (b.prefix().equals("xid-")
                                    ? " (Xid steps need the xid-action template and the code in xid.yaml)" : ""));
                        }
                    }
                    case SYMPTOM -> {
                        if (!kb.symptomTexts().containsKey(id)) {
                            error(b.site(), "symptom " + id + " (built as \"" + b.prefix() + "\" + " + b.expression()
                                    + ") has no sentence in texts.yaml");
                        }
                    }
                    default -> { }
                }
            }
        }

        // a symptom a differential names as answering one of its needs is read there (rule "differential not done")
        Set<String> answering = new LinkedHashSet<>();
        for (io.triage.facts.DifferentialNeed n : kb.differentials()) {
            for (String id : n.evidence()) {
                answering.add(id);
                if (!symptomsProduced.contains(id)) {
                    // a warning, as for a rationale of a rule this home lacks: that need then waits for its probes
                    warn(yaml("differentials.yaml", "differentials", n.cause()), "unused", n.cause() + ": need '"
                            + n.need() + "' is answered by symptom " + id + ", which no rule produces");
                }
            }
        }
        // the reverse: produced, never used
        for (Map.Entry<String, Site> e : produced.get(Kind.SYMPTOM).entrySet()) {
            if (!matched.get(Kind.SYMPTOM).containsKey(e.getKey()) && !answering.contains(e.getKey())) {
                warn(e.getValue(), "unused", "symptom " + e.getKey() + " is produced but no rule matches it");
            }
        }
        Set<String> symptomsBuilt = new LinkedHashSet<>();
        built.stream().filter(b -> b.kind() == Kind.SYMPTOM).forEach(b -> symptomsBuilt.add(b.prefix()));
        for (String s : kb.symptomTexts().keySet()) {
            if (!symptomsProduced.contains(s) && symptomsBuilt.stream().noneMatch(s::startsWith)) {
                warn(yaml("texts.yaml", "symptoms", s), "unused", "texts.yaml has a sentence for symptom " + s
                        + " that no rule produces");
            }
        }
        for (String q : questions) {
            if (!produced.get(Kind.QUESTION).containsKey(q) && !questionsBuilt.contains(q)) {
                warn(yaml("texts.yaml", "questions", q), "unused", "texts.yaml has question " + q + " that no rule asks");
            }
        }
        for (String c : causes) {
            if (!concluded.contains(c)) {
                warn(yaml("causes.yaml", "causes", c), "unused", "no rule concludes cause " + c);
            }
        }
        for (String s : kb.steps().keySet()) {
            boolean template = s.equals("xid-action") && xidSteps;
            if (!offered.contains(s) && !produced.get(Kind.STEP).containsKey(s) && !template) {
                warn(yaml("remediation.yaml", "steps", s), "unused", "step " + s + " is offered for no cause and no rule offers it");
            }
        }
    }

    /** The values a field takes when no pattern fixes them: the literals rules produce for it, or the probe names. */
    private Set<String> producedValues(String field) {
        Set<String> v = new LinkedHashSet<>(producedByField.getOrDefault(field, Set.of()));
        if (v.isEmpty() && FIELDS.get(field) == Kind.PROBE) {
            v.addAll(probes);
        }
        return v;
    }

    private void questionText(String id, Site site) {
        KnowledgeBase.QuestionSpec q = kb.questions().get(id);
        if (q == null) {
            error(site, "question " + id + " has no entry in texts.yaml (questions:)" + suggest(id, kb.questions().keySet()));
        } else if (q.text() == null || q.text().isBlank()) {
            error(site, "question " + id + " has no text in texts.yaml");
        }
    }

    /** A subtype that is known, or built by a rule as a known prefix and a value ({@code xid-79}). */
    private static boolean knownSubtype(Set<String> known, String v) {
        return known.contains(v) || known.stream().anyMatch(k -> k.endsWith("*") && v.startsWith(k.substring(0, k.length() - 1))
                && v.length() > k.length() - 1);
    }

    private void check(Kind kind, Set<String> known, String what) {
        for (Map.Entry<String, Site> e : matched.get(kind).entrySet()) {
            if (kind == Kind.SUBTYPE ? !knownSubtype(known, e.getKey()) : !known.contains(e.getKey())) {
                error(e.getValue(), what + " " + e.getKey() + suggest(e.getKey(), known));
            }
        }
    }

    /** Subtypes: the crash subtypes, those of the markers, those rules conclude and those steps are offered for. */
    private Set<String> knownSubtypes() {
        Set<String> s = new LinkedHashSet<>(Marker.SUBTYPES);
        kb.markers().forEach(m -> {
            if (!m.subtype().isEmpty()) {
                s.add(m.subtype());
            }
        });
        s.addAll(produced.get(Kind.SUBTYPE).keySet());
        built.stream().filter(b -> b.kind() == Kind.SUBTYPE).forEach(b -> s.add(b.prefix() + "*"));
        kb.adviceOptions().forEach(o -> {
            if (!o.subtype().isEmpty()) {
                s.add(o.subtype());
            }
        });
        return s;
    }

    // --------------------------------------------------------------------------------- scenarios ----

    private void scenarios(Path dir) {
        if (dir == null || !Files.isDirectory(dir)) {
            return;
        }
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(p -> p.getFileName().toString().equals("expected.txt")).filter(Files::isRegularFile)
                    .sorted().toList();
        } catch (IOException e) {
            errors.add(new RuleBase.Problem("error", name(dir), 0, "cannot list the scenarios: " + e.getMessage()));
            return;
        }
        Set<String> causes = kb.causes().keySet();
        Set<String> subtypes = knownSubtypes();
        for (Path f : files) {
            String file = name(f);
            List<String> lines;
            try {
                lines = Files.readAllLines(f, StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                errors.add(new RuleBase.Problem("error", file, 0, "cannot read: " + e.getMessage()));
                continue;
            }
            boolean cause = false;
            for (int i = 0; i < lines.size(); i++) {
                Site site = new Site(file, i + 1, "");
                for (String tok : lines.get(i).strip().split("\\s+")) {
                    int eq = tok.indexOf('=');
                    if (tok.isEmpty() || tok.startsWith("#")) {
                        break;
                    }
                    if (eq <= 0) {
                        continue;
                    }
                    String k = tok.substring(0, eq);
                    List<String> vs = java.util.Arrays.stream(tok.substring(eq + 1).split(","))
                            .map(String::strip).filter(v -> !v.isEmpty()).toList();
                    switch (k) {
                        case "cause", "accept", "not" -> {
                            cause |= k.equals("cause");
                            for (String v : vs) {
                                if (!causes.contains(v)) {
                                    error(site, k + "=" + v + ": causes.yaml has no cause " + v + suggest(v, causes));
                                }
                            }
                        }
                        case "subtype" -> vs.stream().filter(v -> !knownSubtype(subtypes, v)).forEach(v ->
                                error(site, "subtype=" + v + ": no marker, rule or step knows subtype " + v
                                        + suggest(v, subtypes)));
                        case "steps" -> vs.stream().filter(v -> kb.step(v).isEmpty()).forEach(v ->
                                error(site, "steps=" + v + ": remediation.yaml has no step " + v
                                        + suggest(v, kb.steps().keySet())));
                        case "confidence" -> vs.stream().filter(v -> !Set.of("high", "medium", "low").contains(v))
                                .forEach(v -> error(site, "confidence=" + v + ": one of high, medium, low"));
                        case "cites" -> vs.stream().filter(v -> !probes.contains(v) && !v.endsWith(".txt") && !v.equals("operator")).forEach(v ->
                                warn(site, "unchecked", "cites=" + v + ": not a probe of the bundle or the capture format"));
                        default -> error(site, "unknown key " + k + " (cause, subtype, accept, confidence, not, cites, steps)");
                    }
                }
            }
            if (!cause) {
                errors.add(new RuleBase.Problem("error", file, 0, "no cause= line"));
            }
        }
    }

    // ------------------------------------------------------------------------------------ helpers ----

    private void error(Site s, String text) {
        errors.add(new RuleBase.Problem("error", s.file(), s.line(),
                text + (s.rule().isEmpty() ? "" : " (rule \"" + s.rule() + "\")")));
    }

    private void warn(Site s, String what, String text) {
        warnings.add(new RuleBase.Problem("warning", s.file(), s.line(),
                text + (s.rule().isEmpty() ? "" : " (rule \"" + s.rule() + "\")")));
    }

    /** A path as the author knows it: relative to the home when under it. */
    private String name(Path p) {
        Path a = p.toAbsolutePath().normalize();
        Path h = home == null ? null : home.normalize();
        return (h != null && a.startsWith(h) ? h.relativize(a) : a).toString().replace('\\', '/');
    }

    /** The site of {@code section: key:} in a knowledge file. */
    private Site yaml(String file, String section, String key) {
        java.util.Optional<Path> given = kb.originFile(section, key);
        if (given.isPresent()) {
            // a top-level file, a topic fragment or an overlay's file: wherever the entry was given
            Map<String, Map<String, Integer>> lines = yamlLines.computeIfAbsent(given.get().toString(),
                    x -> keyLines(given.get()));
            return new Site(name(given.get()), lines.getOrDefault(section, Map.of()).getOrDefault(key, 0), "");
        }
        Path f = knowledgeDir == null ? Path.of("knowledge-base", file) : knowledgeDir.resolve(file);
        Map<String, Map<String, Integer>> lines = yamlLines.computeIfAbsent(file, x -> keyLines(f));
        return new Site(name(f), lines.getOrDefault(section, Map.of()).getOrDefault(key, 0), "");
    }

    private static final Pattern TOP = Pattern.compile("^([A-Za-z0-9_.-]+):.*");
    private static final Pattern CHILD = Pattern.compile("^(\\s+)(['\"]?)([^'\"#:\\s][^'\":]*)\\2:(\\s.*)?$");

    /** The line of each key one level under each top-level key (a locator, not a YAML reader). */
    static Map<String, Map<String, Integer>> keyLines(Path f) {
        Map<String, Map<String, Integer>> out = new HashMap<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(f, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return out;
        }
        String section = null;
        int indent = -1;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            Matcher top = TOP.matcher(l);
            if (top.matches()) {
                section = top.group(1);
                indent = -1;
                continue;
            }
            Matcher c = CHILD.matcher(l);
            if (section != null && c.matches()) {
                int in = c.group(1).length();
                if (indent < 0) {
                    indent = in;
                }
                if (in == indent) {
                    out.computeIfAbsent(section, k -> new HashMap<>()).putIfAbsent(c.group(3).strip(), i + 1);
                }
            }
        }
        return out;
    }

    /** " (did you mean X?)" for the closest known id, when one is close. */
    static String suggest(String id, Collection<String> known) {
        String best = null;
        int bestD = Integer.MAX_VALUE;
        for (String k : known) {
            int d = distance(id, k);
            if (d < bestD) {
                bestD = d;
                best = k;
            }
        }
        return best != null && bestD <= Math.max(2, id.length() / 4) ? " (did you mean " + best + "?)" : "";
    }

    private static int distance(String a, String b) {
        if (Math.abs(a.length() - b.length()) > 8) {
            return Integer.MAX_VALUE;
        }
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                cur[j] = Math.min(Math.min(cur[j - 1], prev[j]) + 1,
                        prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
