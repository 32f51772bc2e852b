package io.triage.explain;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.triage.facts.Target;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * One diagnosis, the structure every view renders (terminal text, JSON for the API and bots, the chat
 * page). Field names are the JSON contract.
 *
 * @param cause the verdict's cause id (see {@code knowledge-base/causes.yaml})
 * @param subtype the verdict's subtype, or empty
 * @param confidence high, medium or low
 * @param hypotheses every known cause, ranked: supported first, then unknown, then refuted
 * @param ruledOut the differential: alternatives ruled out, or not ruled out for lack of evidence
 * @param questions observations that would decide between what remains
 * @param nextSteps concrete commands with their rationale
 */
public record Diagnosis(String schema, String source, Target target, String cause, String subtype,
                        String confidence, String title, String summary, List<String> caveats,
                        List<HypothesisView> hypotheses, List<Exclusion> ruledOut, List<QuestionView> questions,
                        List<Step> nextSteps, Coverage coverage, Engine engine,
                        @JsonInclude(JsonInclude.Include.NON_NULL) HostView host) {

    /** A diagnosis without the host at a glance (renderers and tests that build one by hand). */
    public Diagnosis(String schema, String source, Target target, String cause, String subtype, String confidence,
                     String title, String summary, List<String> caveats, List<HypothesisView> hypotheses,
                     List<Exclusion> ruledOut, List<QuestionView> questions, List<Step> nextSteps, Coverage coverage,
                     Engine engine) {
        this(schema, source, target, cause, subtype, confidence, title, summary, caveats, hypotheses, ruledOut,
                questions, nextSteps, coverage, engine, null);
    }

    /**
     * The host at a glance, as the probes saw it: what a person would look at first. Numbers are -1 when
     * the probe did not report them.
     *
     * @param gpus every GPU nvidia-smi listed
     * @param processes the server's processes (front end and workers), with their states
     * @param processesLooked false when no process listing ran (an empty list then says nothing)
     */
    public record HostView(List<GpuView> gpus, List<ProcessView> processes, boolean processesLooked) { }

    /** One GPU: memory in MiB, utilisation in percent, power in watts. */
    public record GpuView(int index, String name, long memoryUsedMiB, long memoryTotalMiB, int utilizationPercent,
                          double powerW) { }

    /** One server process: state is the first letter of ps STAT (R, S, D, T, Z…), or empty when unknown. */
    public record ProcessView(int pid, int ppid, String state, String role, String server, String command) { }

    public static final String SCHEMA = "triage.diagnosis/v1";

    /**
     * A link of the reasoning chain: a rule firing and what it concluded, or a piece of raw evidence, or knowledge.
     *
     * @param kind what the link is, so that a view renders it by kind and never by reading its text
     * @param rule the rule that concluded {@code fact}, or empty (evidence, knowledge, the target, a cut)
     */
    public record Node(Kind kind, String rule, String rationale, String fact, Evidence evidence, List<Node> premises) {
        public Node {
            if (kind == null) {
                // a document stored before links carried their kind: what its shape says, read here once
                kind = evidence != null ? Kind.EVIDENCE : rule != null && !rule.isEmpty() ? Kind.RULE : Kind.KNOWLEDGE;
            }
        }
    }

    /**
     * What a link of the chain is (a closed set; the JSON carries the lower-case name). {@code symptom} and
     * {@code rule} are concluded by the rule the link names; the others are not concluded by a rule.
     */
    public enum Kind {
        /** Something a probe or the operator showed: a parsed line, a probe's status ({@code evidence} may locate it). */
        EVIDENCE,
        /** A fact of the knowledge base: thresholds, a GPU profile, an Xid's meaning, a differential's need. */
        KNOWLEDGE,
        /** A next step the knowledge base offers for a cause (what advice rules read). */
        STEP,
        /** A symptom a rule derived from evidence. */
        SYMPTOM,
        /** Any other conclusion of a rule: a cause, a refutation, a verdict of the differential, a question, advice. */
        RULE,
        /** What was looked at: the server kind, port and log of the look. */
        TARGET,
        /** The chain was cut here (too deep, or a loop). */
        CUT;

        @com.fasterxml.jackson.annotation.JsonValue
        public String json() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        @com.fasterxml.jackson.annotation.JsonCreator
        public static Kind of(String s) {
            return valueOf(s.toUpperCase(java.util.Locale.ROOT));
        }

        /** Whether a rule concluded the link (it names the rule and its rationale). */
        public boolean concluded() {
            return this == SYMPTOM || this == RULE;
        }
    }

    /** Where a piece of evidence came from. */
    public record Evidence(String probe, int line, String excerpt) { }

    public record HypothesisView(String cause, String subtype, String status, String confidence, String title,
                                 List<Node> because, List<Node> against) { }

    public record Exclusion(String cause, String status, String reason, String missing, List<Node> because) { }

    /**
     * @param command the command to run, filled with the target's values; empty when withheld
     * @param withheld why the command is not offered: a value from the host that cannot be put into a
     *                 command safely, shown apart (made visible); empty when the command is offered
     */
    public record QuestionView(String id, String text, String command, String about, List<Node> because,
                               @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> withheld) { }

    /**
     * @param command the command to run, filled with the target's values; empty when withheld
     * @param withheld why the command is not offered (see {@link QuestionView#withheld()})
     */
    public record Step(String id, String forCause, String title, String command, String rationale,
                       @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> withheld) { }

    public record ProbeView(String name, String status, int rc, double seconds, String reason) { }

    /** What was looked at: so that no verdict claims more than the probes saw. */
    public record Coverage(List<ProbeView> probes, List<String> absent, List<String> failed,
                           List<String> unparseable, List<String> notes) { }

    /**
     * How the engine got here.
     *
     * @param home the directory whose {@code rules/} and {@code knowledge-base/} were used (absolute), or empty
     * @param ruleBase the content hash of those rules and knowledge ({@code sha256:} and 16 hex digits), or empty:
     *                 a server that reloads its rules names which base gave each verdict; it covers a site overlay's
     *                 rules and knowledge too
     * @param overlay the site overlay's directory (absolute) whose rules and knowledge extend the home's, or empty
     */
    public record Engine(int rulesFired, List<String> rulesFiredNames, boolean stoppedAtLimit, String home,
                         String ruleBase, String overlay) {
        public Engine(int rulesFired, List<String> rulesFiredNames, boolean stoppedAtLimit, String home) {
            this(rulesFired, rulesFiredNames, stoppedAtLimit, home, "", "");
        }

        public Engine(int rulesFired, List<String> rulesFiredNames, boolean stoppedAtLimit, String home,
                      String ruleBase) {
            this(rulesFired, rulesFiredNames, stoppedAtLimit, home, ruleBase, "");
        }
    }

    /**
     * This diagnosis with {@code f} applied to every string in it (the numbers, ids' structure and order
     * kept): how a view gets a sanitised copy in one call, whatever fields are added later.
     */
    public Diagnosis mapText(UnaryOperator<String> fn) {
        UnaryOperator<String> f = s -> s == null ? null : fn.apply(s);
        return new Diagnosis(f.apply(schema), f.apply(source),
                target == null ? null : new Target(f.apply(target.server()), target.port(), f.apply(target.log())),
                f.apply(cause), f.apply(subtype), f.apply(confidence), f.apply(title), f.apply(summary),
                strings(caveats, f),
                hypotheses.stream().map(h -> new HypothesisView(f.apply(h.cause()), f.apply(h.subtype()),
                        f.apply(h.status()), f.apply(h.confidence()), f.apply(h.title()), nodes(h.because(), f),
                        nodes(h.against(), f))).toList(),
                ruledOut.stream().map(e -> new Exclusion(f.apply(e.cause()), f.apply(e.status()), f.apply(e.reason()),
                        f.apply(e.missing()), nodes(e.because(), f))).toList(),
                questions.stream().map(q -> new QuestionView(f.apply(q.id()), f.apply(q.text()), f.apply(q.command()),
                        f.apply(q.about()), nodes(q.because(), f), strings(q.withheld(), f))).toList(),
                nextSteps.stream().map(s -> new Step(f.apply(s.id()), f.apply(s.forCause()), f.apply(s.title()),
                        f.apply(s.command()), f.apply(s.rationale()), strings(s.withheld(), f))).toList(),
                coverage == null ? null : new Coverage(coverage.probes().stream().map(p -> new ProbeView(f.apply(p.name()),
                        f.apply(p.status()), p.rc(), p.seconds(), f.apply(p.reason()))).toList(),
                        strings(coverage.absent(), f), strings(coverage.failed(), f), strings(coverage.unparseable(), f),
                        strings(coverage.notes(), f)),
                engine == null ? null : new Engine(engine.rulesFired(), strings(engine.rulesFiredNames(), f),
                        engine.stoppedAtLimit(), f.apply(engine.home()), f.apply(engine.ruleBase()),
                        f.apply(engine.overlay())),
                host == null ? null : new HostView(
                        host.gpus().stream().map(g -> new GpuView(g.index(), f.apply(g.name()), g.memoryUsedMiB(),
                                g.memoryTotalMiB(), g.utilizationPercent(), g.powerW())).toList(),
                        host.processes().stream().map(p -> new ProcessView(p.pid(), p.ppid(), f.apply(p.state()),
                                f.apply(p.role()), f.apply(p.server()), f.apply(p.command()))).toList(),
                        host.processesLooked()));
    }

    private static List<String> strings(List<String> in, UnaryOperator<String> f) {
        return in == null ? null : in.stream().map(s -> s == null ? null : f.apply(s)).toList();
    }

    private static List<Node> nodes(List<Node> in, UnaryOperator<String> f) {
        return in == null ? null : in.stream().map(n -> node(n, f)).toList();
    }

    private static Node node(Node n, UnaryOperator<String> f) {
        return new Node(n.kind(), f.apply(n.rule()), f.apply(n.rationale()), f.apply(n.fact()),
                n.evidence() == null ? null : new Evidence(f.apply(n.evidence().probe()), n.evidence().line(),
                        f.apply(n.evidence().excerpt())),
                nodes(n.premises(), f));
    }
}
