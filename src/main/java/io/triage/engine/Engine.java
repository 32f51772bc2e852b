package io.triage.engine;

import org.kie.api.event.rule.AgendaEventListener;
import org.kie.api.event.rule.RuleRuntimeEventListener;
import org.kie.api.runtime.KieSession;

import java.util.ArrayList;
import java.util.List;

/** Runs the rules over one diagnosis' facts: a fresh session each time, always disposed. */
public final class Engine {
    /** Firings after which a session is stopped: a rule set that loops must not hang a diagnosis. */
    public static final int MAX_FIRINGS = 20_000;

    /** Everything in working memory when the rules were done, and how they got there. */
    public record Result(List<Object> facts, Trace trace, int fired, boolean stoppedAtLimit) { }

    private final RuleBase rules;

    public Engine(RuleBase rules) {
        this.rules = rules;
    }

    public Result run(List<Object> facts) {
        KieSession session = rules.kieBase().newKieSession();
        Trace trace = new Trace();
        try {
            session.addEventListener((AgendaEventListener) trace);
            session.addEventListener((RuleRuntimeEventListener) trace);
            for (Object f : facts) {
                session.insert(f);
            }
            int fired = session.fireAllRules(MAX_FIRINGS);
            return new Result(new ArrayList<>(session.getObjects()), trace, fired, fired >= MAX_FIRINGS);
        } finally {
            session.dispose();
        }
    }

    public RuleBase rules() {
        return rules;
    }
}
