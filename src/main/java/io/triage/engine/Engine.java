package io.triage.engine;

import org.drools.core.common.InternalFactHandle;
import org.kie.api.event.rule.AgendaEventListener;
import org.kie.api.event.rule.RuleRuntimeEventListener;
import org.kie.api.runtime.KieSession;
import org.kie.api.runtime.KieSessionsPool;
import org.kie.api.runtime.rule.FactHandle;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Runs the rules over one diagnosis' facts, each run in a session of its own that starts empty. Sessions
 * come from a pool of this rule base's: one that ran is reset (working memory, agenda, truth maintenance)
 * and taken again, which spares building the network's memories anew for every diagnosis (about a fifth
 * of the rules' cost). A run that failed or hit {@link #MAX_FIRINGS} destroys its session instead. The facts a
 * run ends with come in the order they were inserted, so a diagnosis never depends on which session ran it.
 * Thread-safe: concurrent runs take different sessions.
 */
public final class Engine {
    /** Firings after which a session is stopped: a rule set that loops must not hang a diagnosis. */
    public static final int MAX_FIRINGS = 20_000;

    /** Everything in working memory when the rules were done, and how they got there. */
    public record Result(List<Object> facts, Trace trace, int fired, boolean stoppedAtLimit) { }

    private final RuleBase rules;
    /** Made at the first run, not before: a command that never diagnoses builds no session. */
    private volatile KieSessionsPool pool;
    /** Whether {@link #prepare()} started making the pool already. */
    private final java.util.concurrent.atomic.AtomicBoolean preparing = new java.util.concurrent.atomic.AtomicBoolean();

    public Engine(RuleBase rules) {
        this.rules = rules;
    }

    public Result run(List<Object> facts) {
        KieSession session = pool().newKieSession();
        Trace trace = new Trace();
        boolean reusable = false;
        session.addEventListener((AgendaEventListener) trace);
        session.addEventListener((RuleRuntimeEventListener) trace);
        try {
            for (Object f : facts) {
                session.insert(f);
            }
            int fired = session.fireAllRules(MAX_FIRINGS);
            Result r = new Result(inInsertionOrder(session), trace, fired, fired >= MAX_FIRINGS);
            reusable = !r.stoppedAtLimit();
            return r;
        } finally {
            session.removeEventListener((AgendaEventListener) trace);
            session.removeEventListener((RuleRuntimeEventListener) trace);
            if (reusable) {
                session.dispose(); // back to the pool, reset
            } else {
                session.destroy();
            }
        }
    }

    /**
     * The facts in working memory in the order they were inserted: the same for every run over the same facts,
     * whichever session ran it (the session's own store iterates in an order of identity hashes).
     */
    static List<Object> inInsertionOrder(KieSession session) {
        List<InternalFactHandle> handles = new ArrayList<>();
        for (FactHandle h : session.getFactHandles()) {
            handles.add((InternalFactHandle) h);
        }
        handles.sort(Comparator.comparingLong(InternalFactHandle::getId));
        List<Object> out = new ArrayList<>(handles.size());
        for (InternalFactHandle h : handles) {
            out.add(h.getObject());
        }
        return out;
    }

    /**
     * Starts making the session pool and its first session on a thread of its own, unless that is done or under way:
     * a caller that is about to read a capture and build its facts calls this first, and the first {@link #run} then
     * finds a session ready (or waits for the one being made) instead of making it after the facts. A first session
     * costs a cold process about a fifth of its first diagnosis (classes of the session, its memories).
     */
    public void prepare() {
        if (pool == null && preparing.compareAndSet(false, true)) {
            Thread t = new Thread(this::pool, "triage-engine-prepare");
            t.setDaemon(true);
            t.start();
        }
    }

    private KieSessionsPool pool() {
        KieSessionsPool p = pool;
        if (p == null) {
            synchronized (this) {
                p = pool;
                if (p == null) {
                    p = rules.kieBase().newKieSessionsPool(1);
                    // its first session, made now and given back: a run takes it reset, with nothing left to make
                    p.newKieSession().dispose();
                    pool = p;
                }
            }
        }
        return p;
    }

    public RuleBase rules() {
        return rules;
    }
}
