package io.triage.explain;

import io.triage.capture.Capture;
import io.triage.engine.Engine;
import io.triage.engine.Trace;
import io.triage.facts.Advice;
import io.triage.facts.Derived;
import io.triage.facts.Evidence;
import io.triage.facts.Exclusion;
import io.triage.facts.Hypothesis;
import io.triage.facts.ProbeStatus;
import io.triage.facts.Gpu;
import io.triage.facts.Proc;
import io.triage.facts.Question;
import io.triage.facts.Refutation;
import io.triage.facts.Target;
import io.triage.facts.Unconfirmed;
import io.triage.facts.Unparseable;
import io.triage.knowledge.KnowledgeBase;
import io.triage.parse.FactBuilder;
import io.triage.parse.Observation;
import io.triage.safety.CommandTemplate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Capture in, diagnosis out: parse to facts, run the rules, and assemble the diagnosis and its
 * explanation from what the engine recorded (rule firings and the facts each matched), never from a
 * hand-written narrative.
 */
public final class Diagnoser {
    /** Deepest chain shown: deeper links are cut (and said to be). */
    private static final int MAX_DEPTH = 8;
    private static final List<String> CONFIDENCE = List.of("low", "medium", "high");
    public static final String INSUFFICIENT = "insufficient-evidence";

    private final KnowledgeBase kb;
    private final Engine engine;
    private final FactBuilder facts;

    private final String home;
    private final String ruleBase;
    private final String overlay;

    public Diagnoser(KnowledgeBase kb, Engine engine) {
        this(kb, engine, "");
    }

    /** @param home where the rules and knowledge came from, reported in every diagnosis's engine section */
    public Diagnoser(KnowledgeBase kb, Engine engine, String home) {
        this(kb, engine, home, "");
    }

    /** @param ruleBase the content hash of the rules and knowledge, reported in every diagnosis's engine section */
    public Diagnoser(KnowledgeBase kb, Engine engine, String home, String ruleBase) {
        this(kb, engine, home, ruleBase, "");
    }

    /** @param overlay the site overlay's directory whose rules and knowledge extend the home's, or empty */
    public Diagnoser(KnowledgeBase kb, Engine engine, String home, String ruleBase, String overlay) {
        this.overlay = overlay == null ? "" : overlay;
        this.ruleBase = ruleBase == null ? "" : ruleBase;
        this.home = home == null ? "" : home;
        this.kb = kb;
        this.engine = engine;
        this.facts = new FactBuilder(kb);
    }

    public Diagnosis diagnose(Capture capture, Map<String, String> intent) {
        Observation obs = facts.build(capture, intent);
        Engine.Result run = engine.run(obs.facts());
        return assemble(capture.source(), obs, run);
    }

    /** A diagnosis with every fact the rules ended with: the parsed facts and all they derived (for WHY NOT). */
    public record Examined(Diagnosis diagnosis, List<Object> workingMemory) { }

    /** As {@link #diagnose}, keeping the working memory the rules ended with. */
    public Examined examine(Capture capture, Map<String, String> intent) {
        Observation obs = facts.build(capture, intent);
        Engine.Result run = engine.run(obs.facts());
        return new Examined(assemble(capture.source(), obs, run), List.copyOf(run.facts()));
    }

    /** The parsers' stage alone, for benchmarks and tests that look at raw facts. */
    public FactBuilder facts() {
        return facts;
    }

    private Diagnosis assemble(String source, Observation obs, Engine.Result run) {
        Map<String, Hypothesis> supported = new LinkedHashMap<>();
        Map<String, List<Refutation>> refuted = new HashMap<>();
        List<Exclusion> exclusions = new ArrayList<>();
        List<Question> questions = new ArrayList<>();
        List<Advice> advice = new ArrayList<>();
        List<ProbeStatus> probes = new ArrayList<>();
        List<Unparseable> unparseable = new ArrayList<>();
        List<Proc> procs = new ArrayList<>();
        List<Gpu> gpus = new ArrayList<>();
        Map<String, List<Unconfirmed>> unconfirmed = new HashMap<>();
        Trace trace = run.trace();
        List<Hypothesis> concluded = new ArrayList<>();
        // working memory hands facts back in no fixed order: derived ones in the order rules concluded them
        List<Object> inOrder = new ArrayList<>(run.facts());
        inOrder.sort(Comparator.comparingInt(trace::insertionIndex));
        for (Object f : inOrder) {
            if (f instanceof Hypothesis h) {
                concluded.add(h);
            } else if (f instanceof Unconfirmed u) {
                List<Unconfirmed> l = unconfirmed.computeIfAbsent(u.cause(), k -> new ArrayList<>());
                if (l.stream().noneMatch(x -> x.need().equals(u.need()))) {
                    l.add(u);
                }
            } else if (f instanceof Refutation r) {
                refuted.computeIfAbsent(r.cause(), k -> new ArrayList<>()).add(r);
            } else if (f instanceof Exclusion e) {
                exclusions.add(e);
            } else if (f instanceof Question q) {
                questions.add(q);
            } else if (f instanceof Advice a) {
                advice.add(a);
            } else if (f instanceof ProbeStatus p) {
                probes.add(p);
            } else if (f instanceof Unparseable u) {
                unparseable.add(u);
            } else if (f instanceof Proc p) {
                procs.add(p);
            } else if (f instanceof Gpu g) {
                gpus.add(g);
            }
        }
        unparseable.sort(Comparator.comparing(Unparseable::probe).thenComparingInt(Unparseable::line));
        procs.sort(Comparator.comparingInt(Proc::pid)); // the PID a next step names: the same one every time
        Policy policy = new Policy(unconfirmed);
        for (Hypothesis h : concluded) {
            Hypothesis prev = supported.get(h.cause());
            if (prev == null || better(h, prev, trace, policy)) {
                supported.put(h.cause(), h);
            }
        }
        Chains chains = new Chains(trace);

        List<Hypothesis> ranked = new ArrayList<>(supported.values());
        ranked.removeIf(h -> h.cause().equals(INSUFFICIENT));
        ranked.sort(Comparator.comparingInt((Hypothesis h) -> CONFIDENCE.indexOf(policy.confidence(h))).reversed()
                .thenComparing(Comparator.comparingInt((Hypothesis h) -> kb.cause(h.cause()).rank()).reversed())
                .thenComparing(Hypothesis::cause));
        Hypothesis verdict;
        Hypothesis insufficient = supported.get(INSUFFICIENT);
        if (insufficient != null || ranked.isEmpty()) {
            verdict = insufficient != null ? insufficient : new Hypothesis(INSUFFICIENT, "", "low");
        } else {
            verdict = ranked.get(0);
        }

        List<Diagnosis.HypothesisView> views = new ArrayList<>();
        if (insufficient != null) {
            views.add(view(insufficient, "supported", chains, refuted, policy));
        }
        for (Hypothesis h : ranked) {
            views.add(view(h, "supported", chains, refuted, policy));
        }
        List<String> unknown = new ArrayList<>();
        List<String> against = new ArrayList<>();
        for (String cause : kb.causes().keySet()) {
            if (supported.containsKey(cause) || cause.equals(INSUFFICIENT)) {
                continue;
            }
            (refuted.containsKey(cause) ? against : unknown).add(cause);
        }
        Comparator<String> byRank = Comparator.comparingInt((String c) -> kb.cause(c).rank()).reversed();
        unknown.sort(byRank);
        against.sort(byRank);
        for (String c : unknown) {
            views.add(new Diagnosis.HypothesisView(c, "", "unknown", "", kb.cause(c).title(), List.of(), List.of()));
        }
        for (String c : against) {
            views.add(view(new Hypothesis(c, "", ""), "refuted", chains, refuted, policy));
        }

        exclusions.sort(Comparator.comparing(Exclusion::cause).thenComparing(Exclusion::status)
                .thenComparingInt(trace::insertionIndex));
        List<Diagnosis.Exclusion> ruledOut = new ArrayList<>();
        for (Exclusion e : exclusions) {
            ruledOut.add(new Diagnosis.Exclusion(e.cause(), e.status(), kb.texts().reason(e.reason()), e.missing(),
                    chains.premisesOf(e)));
        }

        Set<String> seenQ = new LinkedHashSet<>();
        List<Diagnosis.QuestionView> qs = new ArrayList<>();
        questions.sort(Comparator.comparing(Question::id).thenComparingInt(trace::insertionIndex));
        // one question per id; the causes it would decide are all said
        Map<String, Set<String>> aboutById = new HashMap<>();
        for (Question q : questions) {
            Set<String> about = aboutById.computeIfAbsent(q.id(), k -> new java.util.TreeSet<>());
            for (String c : q.about().split(",")) {
                if (!c.isBlank()) {
                    about.add(c.strip());
                }
            }
        }
        for (Question q : questions) {
            if (!seenQ.add(q.id())) {
                continue;
            }
            // the consistency check refuses rules asking a question without its text; one only known at run time
            // still reads as a sentence, never as its raw id
            KnowledgeBase.QuestionSpec spec = kb.question(q.id()).orElse(new KnowledgeBase.QuestionSpec(
                    q.probe().isEmpty() || q.probe().equals("operator") ? "Tell what you know about this host's server"
                            : "Get this observation: " + q.probe(), ""));
            CommandTemplate.Filled cmd = fill(spec.command(), known(obs.target(), procs));
            Set<String> about = aboutById.get(q.id());
            qs.add(new Diagnosis.QuestionView(q.id(), spec.text(), cmd.command(),
                    about.size() <= 1 ? q.about() : String.join(", ", about), chains.premisesOf(q), cmd.withheld()));
        }

        List<Diagnosis.Step> steps = steps(verdict, ranked, advice, obs.target(), procs);

        KnowledgeBase.CauseSpec spec = kb.cause(verdict.cause());
        List<String> caveats = new ArrayList<>();
        if (spec.caveat() != null && !spec.caveat().isBlank()) {
            caveats.add(spec.caveat().strip());
        }
        if (run.stoppedAtLimit()) {
            caveats.add("the rules were stopped after " + Engine.MAX_FIRINGS + " firings (a rule loops?)");
        }
        String title = spec.title() + (verdict.subtype().isEmpty() ? "" : " (" + verdict.subtype() + ")");
        Set<String> names = new LinkedHashSet<>();
        for (Trace.Firing f : trace.firings()) {
            names.add(f.ruleName());
        }
        return new Diagnosis(Diagnosis.SCHEMA, source, obs.target(), verdict.cause(), verdict.subtype(),
                policy.confidence(verdict), title, spec.summary() == null ? "" : spec.summary().strip(), caveats, views,
                ruledOut, qs, steps, coverage(probes, unparseable, obs.notes()),
                new Diagnosis.Engine(run.fired(), List.copyOf(names), run.stoppedAtLimit(), home, ruleBase, overlay),
                host(gpus, procs, probes));
    }

    /** The host at a glance: every GPU as nvidia-smi listed it, and the server's processes. */
    private static Diagnosis.HostView host(List<Gpu> gpus, List<Proc> procs, List<ProbeStatus> probes) {
        List<Diagnosis.GpuView> g = gpus.stream().sorted(Comparator.comparingInt(Gpu::index))
                .map(x -> new Diagnosis.GpuView(x.index(), x.name(), x.memUsedMiB(), x.memTotalMiB(), x.utilPct(),
                        Double.isFinite(x.powerW()) ? x.powerW() : -1)).toList();
        Map<Integer, Proc> byPid = new LinkedHashMap<>();
        procs.stream().filter(p -> !"other".equals(p.role())).sorted(Comparator.comparingInt(Proc::pid))
                .forEach(p -> byPid.putIfAbsent(p.pid(), p));
        List<Diagnosis.ProcessView> ps = byPid.values().stream().map(p -> new Diagnosis.ProcessView(p.pid(), p.ppid(),
                p.state(), p.role(), p.server(), p.args())).toList();
        boolean looked = probes.stream().anyMatch(p -> (p.probe().equals("ps") || p.probe().equals("pgrep"))
                && p.status().equals("ok"));
        return new Diagnosis.HostView(g, ps, looked);
    }

    private List<Diagnosis.Step> steps(Hypothesis verdict, List<Hypothesis> ranked, List<Advice> advice,
                                       Target target, List<Proc> procs) {
        List<String> order = new ArrayList<>();
        order.add(verdict.cause());
        for (Hypothesis h : ranked) {
            if (!order.contains(h.cause())) {
                order.add(h.cause());
            }
        }
        List<Diagnosis.Step> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (String cause : order) {
            advice.stream().filter(a -> a.cause().equals(cause)).sorted(Comparator.comparing(Advice::stepId))
                    .forEach(a -> {
                        if (seen.add(a.stepId())) {
                            KnowledgeBase.StepSpec s = kb.step(a.stepId())
                                    .orElse(new KnowledgeBase.StepSpec(a.stepId(), "", ""));
                            CommandTemplate.Filled cmd = fill(s.command(), known(target, procs));
                            out.add(new Diagnosis.Step(a.stepId(), cause, s.title(), cmd.command(),
                                    s.rationale() == null ? "" : s.rationale().strip(), cmd.withheld()));
                        }
                    });
        }
        return out;
    }

    /** The placeholders a command template may use, and what each shows when its value is unknown. */
    static final Map<String, String> PLACEHOLDERS = Map.of("port", "port", "log", "server log", "server", "server",
            "pid", "pid");
    private static final Map<String, String> DESCRIBED = Map.of("port", "the port", "log", "the log path",
            "server", "the server kind", "pid", "the process id");

    /** The values the host gave for the placeholders: the target's port, log and server, the server's PID. */
    static Map<String, String> known(Target target, List<Proc> procs) {
        Map<String, String> v = new HashMap<>();
        if (target.port() > 0) {
            v.put("port", String.valueOf(target.port()));
        }
        if (!target.log().isEmpty()) {
            v.put("log", target.log());
        }
        if (!target.server().isEmpty()) {
            v.put("server", target.server());
        }
        // a server process stuck in the kernel (state D) is the one a step about the server's stack or wait
        // channel is for; otherwise the front end, else any server process
        procs.stream().filter(p -> !"other".equals(p.role()) && p.state() != null && p.state().startsWith("D"))
                .map(p -> String.valueOf(p.pid())).findFirst()
                .or(() -> procs.stream().filter(p -> "frontend".equals(p.role())).map(p -> String.valueOf(p.pid())).findFirst())
                .or(() -> procs.stream().filter(p -> !"other".equals(p.role())).map(p -> String.valueOf(p.pid()))
                        .findFirst())
                .ifPresent(pid -> v.put("pid", pid));
        return v;
    }

    /**
     * Fills {port}, {log}, {server}, {pid} in a command, each value one quoted shell word wherever it stands;
     * what is unknown stays a visible placeholder; a value that cannot be quoted withholds the command.
     */
    static CommandTemplate.Filled fill(String command, Map<String, String> known) {
        Map<String, CommandTemplate.Value> values = new HashMap<>();
        PLACEHOLDERS.forEach((name, unknownAs) -> {
            String v = known.get(name);
            values.put(name, v == null || v.isEmpty() ? CommandTemplate.Value.unknown(unknownAs)
                    : CommandTemplate.Value.known(v, DESCRIBED.get(name)));
        });
        return CommandTemplate.fill(command, values);
    }

    private Diagnosis.HypothesisView view(Hypothesis h, String status, Chains chains,
                                          Map<String, List<Refutation>> refuted, Policy policy) {
        List<Diagnosis.Node> against = new ArrayList<>();
        for (Refutation r : refuted.getOrDefault(h.cause(), List.of())) {
            against.add(chains.node(r, 0, new IdentityHashMap<>()));
        }
        List<Diagnosis.Node> because = List.of();
        if (status.equals("supported")) {
            Diagnosis.Node top = chains.node(h, 0, new IdentityHashMap<>());
            // the concluding rule's node holds its premises: they are built on their own only without one
            because = top.rule().isEmpty() ? chains.premisesOf(h) : List.of(top);
            List<Unconfirmed> open = policy.unconfirmed(h.cause());
            if (!open.isEmpty()) {
                List<Diagnosis.Node> withOpen = new ArrayList<>();
                for (Diagnosis.Node n : because) {
                    // the concluding rule's confidence, and what the diagnosis reports instead
                    withOpen.add(n == top && !policy.confidence(h).equals(h.confidence())
                            ? new Diagnosis.Node(n.kind(), n.rule(), n.rationale(), n.fact() + ", reported "
                                    + policy.confidence(h) + ": the differential is not done", n.evidence(), n.premises())
                            : n);
                }
                for (Unconfirmed u : open) {
                    withOpen.add(chains.unconfirmed(u));
                }
                because = List.copyOf(withOpen);
            }
        }
        return new Diagnosis.HypothesisView(h.cause(), h.subtype(), status, policy.confidence(h),
                kb.cause(h.cause()).title(), because, against);
    }

    /**
     * The partial-evidence policy's last step: a cause the rules concluded with high confidence whose
     * differential is not done (an {@link Unconfirmed} fact of {@code 45-partial-evidence.drl}, from the needs of
     * {@code knowledge-base/differentials.yaml}) is reported at medium. Lower confidences stand as concluded.
     */
    private static final class Policy {
        private final Map<String, List<Unconfirmed>> unconfirmed;

        Policy(Map<String, List<Unconfirmed>> unconfirmed) {
            this.unconfirmed = unconfirmed;
        }

        String confidence(Hypothesis h) {
            return "high".equals(h.confidence()) && unconfirmed.containsKey(h.cause()) ? "medium" : h.confidence();
        }

        List<Unconfirmed> unconfirmed(String cause) {
            return unconfirmed.getOrDefault(cause, List.of());
        }
    }

    /**
     * Of two hypotheses for one cause: the more confident; then the one with a subtype; then the one
     * a rule concluded first (deterministic, whatever order working memory returns them in).
     */
    private static boolean better(Hypothesis a, Hypothesis b, Trace trace, Policy policy) {
        int ca = CONFIDENCE.indexOf(policy.confidence(a));
        int cb = CONFIDENCE.indexOf(policy.confidence(b));
        if (ca != cb) {
            return ca > cb;
        }
        if (a.subtype().isEmpty() != b.subtype().isEmpty()) {
            return !a.subtype().isEmpty();
        }
        return trace.insertionIndex(a) < trace.insertionIndex(b);
    }

    private static Diagnosis.Coverage coverage(List<ProbeStatus> probes, List<Unparseable> unparseable,
                                               List<String> notes) {
        probes.sort(Comparator.comparing(ProbeStatus::probe));
        List<Diagnosis.ProbeView> views = new ArrayList<>();
        List<String> absent = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (ProbeStatus p : probes) {
            if (!p.ran()) {
                absent.add(p.probe());
                continue;
            }
            views.add(new Diagnosis.ProbeView(p.probe(), p.status(), p.rc(), p.seconds(), p.reason()));
            if (!p.usable()) {
                failed.add(p.probe() + " (" + p.status() + (p.reason().isEmpty() ? "" : ": " + p.reason()) + ")");
            }
        }
        List<String> bad = new ArrayList<>();
        for (Unparseable u : unparseable) {
            bad.add(u.probe() + (u.line() > 0 ? " line " + u.line() : "") + ": " + u.reason()
                    + (u.excerpt().isEmpty() ? "" : " — " + u.excerpt()));
        }
        return new Diagnosis.Coverage(views, absent, failed, bad, List.copyOf(notes));
    }

    /** Builds reasoning chains from the trace: rule → premises → … → raw evidence. */
    private final class Chains {
        private final Trace trace;
        /** Each fact's description, made once: the same premises (thresholds, the target, a log line) recur in every chain. */
        private final IdentityHashMap<Object, String> described = new IdentityHashMap<>();

        Chains(Trace trace) {
            this.trace = trace;
        }

        List<Diagnosis.Node> premisesOf(Object fact) {
            Trace.Firing f = trace.justification(fact);
            if (f == null) {
                return List.of();
            }
            List<Diagnosis.Node> out = new ArrayList<>();
            IdentityHashMap<Object, Boolean> path = new IdentityHashMap<>();
            path.put(fact, true);
            for (Object p : f.premises()) {
                out.add(node(p, 1, path));
            }
            return out;
        }

        /** What keeps a cause from high confidence: the rule, and the need's knowledge (not the hypothesis again). */
        Diagnosis.Node unconfirmed(Unconfirmed u) {
            Trace.Firing f = trace.justification(u);
            if (f == null) {
                return new Diagnosis.Node(Diagnosis.Kind.RULE, "", "", describe(u), null, List.of());
            }
            List<Diagnosis.Node> premises = new ArrayList<>();
            for (Object p : f.premises()) {
                if (!(p instanceof Hypothesis)) {
                    premises.add(node(p, 1, new IdentityHashMap<>()));
                }
            }
            return new Diagnosis.Node(Diagnosis.Kind.RULE, f.ruleName(), kb.texts().rationale(f.ruleName()), describe(u),
                    null, premises);
        }

        Diagnosis.Node node(Object fact, int depth, IdentityHashMap<Object, Boolean> path) {
            if (fact instanceof Evidence e) {
                return new Diagnosis.Node(Diagnosis.Kind.EVIDENCE, "", "", describe(fact), new Diagnosis.Evidence(e.probe(), e.line(),
                        e.excerpt()), List.of());
            }
            Trace.Firing f = trace.justification(fact);
            if (f == null) {
                return new Diagnosis.Node(kindOf(fact), "", "", describe(fact), null, List.of());
            }
            List<Diagnosis.Node> premises = new ArrayList<>();
            if (depth >= MAX_DEPTH || path.containsKey(fact)) {
                premises.add(new Diagnosis.Node(Diagnosis.Kind.CUT, "", "", "(chain cut here)", null, List.of()));
            } else {
                path.put(fact, true);
                for (Object p : f.premises()) {
                    premises.add(node(p, depth + 1, path));
                }
                path.remove(fact);
            }
            return new Diagnosis.Node(kindOf(fact), f.ruleName(), kb.texts().rationale(f.ruleName()), describe(fact), null,
                    premises);
        }

        /** What a fact is in the chain, by its type (never by its words). */
        private static Diagnosis.Kind kindOf(Object fact) {
            if (fact instanceof io.triage.facts.Symptom) {
                return Diagnosis.Kind.SYMPTOM;
            } else if (fact instanceof Derived) {
                return Diagnosis.Kind.RULE;
            } else if (fact instanceof Evidence) {
                return Diagnosis.Kind.EVIDENCE;
            } else if (fact instanceof io.triage.facts.Target) {
                return Diagnosis.Kind.TARGET;
            } else if (fact instanceof io.triage.facts.AdviceOption) {
                return Diagnosis.Kind.STEP;
            }
            return Diagnosis.Kind.KNOWLEDGE;
        }

        private String describe(Object fact) {
            String d = described.get(fact);
            if (d == null) {
                d = describeOnce(fact);
                described.put(fact, d);
            }
            return d;
        }

        private String describeOnce(Object fact) {
            if (fact instanceof io.triage.facts.Symptom s) {
                String text = kb.symptomText(s.id());
                String detail = kb.texts().detail(s);
                return text + (detail.isEmpty() ? "" : " (" + detail + ")");
            }
            if (fact instanceof Refutation r) {
                return "not " + r.cause() + ": " + kb.texts().reason(r.reason());
            }
            if (fact instanceof io.triage.facts.Exclusion e) {
                return e.cause() + " " + e.status() + ": " + kb.texts().reason(e.reason());
            }
            if (fact instanceof Derived d) {
                return d.label();
            }
            return Describe.of(fact);
        }
    }
}
