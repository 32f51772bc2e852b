package io.triage.explain;

import io.triage.facts.Target;

import java.util.List;

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
                        List<Step> nextSteps, Coverage coverage, Engine engine) {

    public static final String SCHEMA = "triage.diagnosis/v1";

    /** A link of the reasoning chain: a rule firing and what it concluded, or a piece of raw evidence. */
    public record Node(String rule, String rationale, String fact, Evidence evidence, List<Node> premises) { }

    /** Where a piece of evidence came from. */
    public record Evidence(String probe, int line, String excerpt) { }

    public record HypothesisView(String cause, String subtype, String status, String confidence, String title,
                                 List<Node> because, List<Node> against) { }

    public record Exclusion(String cause, String status, String reason, String missing, List<Node> because) { }

    public record QuestionView(String id, String text, String command, String about, List<Node> because) { }

    public record Step(String id, String forCause, String title, String command, String rationale) { }

    public record ProbeView(String name, String status, int rc, double seconds, String reason) { }

    /** What was looked at: so that no verdict claims more than the probes saw. */
    public record Coverage(List<ProbeView> probes, List<String> absent, List<String> failed,
                           List<String> unparseable, List<String> notes) { }

    /**
     * How the engine got here.
     *
     * @param home the directory whose {@code rules/} and {@code knowledge-base/} were used (absolute), or empty
     */
    public record Engine(int rulesFired, List<String> rulesFiredNames, boolean stoppedAtLimit, String home) { }
}
