package io.triage.engine;

import io.triage.TestHome;
import io.triage.Triage;
import io.triage.capture.Capture;
import io.triage.capture.CaptureException;
import org.junit.jupiter.api.Test;
import org.kie.api.event.rule.AgendaEventListener;
import org.kie.api.event.rule.RuleRuntimeEventListener;
import org.kie.api.runtime.KieSession;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine takes its sessions from a pool and resets them between runs: a run must end exactly as it would
 * in a session made for it alone, whatever ran in that session before (working memory, agenda, truth
 * maintenance and the trace all start empty).
 */
class EngineReuseTest {
    private final Triage triage = TestHome.triage();

    @Test
    void everyScenarioEndsAsInAFreshSessionAfterAnotherScenarioRanInTheSameEngine() throws Exception {
        List<List<Object>> facts = scenarioFacts();
        assertTrue(facts.size() > 20, "the scenarios are found: " + facts.size());
        Engine engine = new Engine(triage.rules());
        // two passes in opposite orders: each run follows a different one, and the pool's sessions are reused
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < facts.size(); i++) {
            order.add(i);
        }
        for (int pass = 0; pass < 2; pass++) {
            for (int i : order) {
                Outcome fresh = outcome(fresh(triage.rules(), facts.get(i)));
                Outcome reused = outcome(engine.run(facts.get(i)));
                assertEquals(fresh, reused, "scenario #" + i + ", pass " + pass);
            }
            Collections.reverse(order);
        }
    }

    @Test
    void concurrentRunsEachSeeOnlyTheirOwnFacts() throws Exception {
        List<List<Object>> facts = scenarioFacts();
        Engine engine = new Engine(triage.rules());
        List<Outcome> expected = new ArrayList<>();
        for (List<Object> f : facts) {
            expected.add(outcome(fresh(triage.rules(), f)));
        }
        inThreads(3, offset -> {
            for (int k = 0; k < facts.size(); k++) {
                int i = (k + offset * 7) % facts.size();
                assertEquals(expected.get(i), outcome(engine.run(facts.get(i))), "scenario #" + i);
            }
        });
    }

    /** Runs {@code body} on {@code n} threads at once (given 0..n-1), waits for all, and fails with the first failure. */
    private static void inThreads(int n, java.util.function.IntConsumer body) throws InterruptedException {
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            int index = t;
            Thread th = new Thread(() -> {
                try {
                    body.accept(index);
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            th.start();
            threads.add(th);
        }
        for (Thread th : threads) {
            th.join();
        }
        assertTrue(failures.isEmpty(), () -> "first failure: " + failures.get(0));
    }

    @Test
    void aRunThatFailsLeavesNothingForTheNext() throws Exception {
        List<List<Object>> facts = scenarioFacts();
        Engine engine = new Engine(triage.rules());
        List<Object> bad = new ArrayList<>(facts.get(0));
        bad.add(null); // Drools refuses a null fact mid-insertion
        try {
            engine.run(bad);
        } catch (RuntimeException expected) {
            // the session it used is destroyed, not returned
        }
        Outcome fresh = outcome(fresh(triage.rules(), facts.get(1)));
        assertEquals(fresh, outcome(engine.run(facts.get(1))));
        assertFalse(fresh.firings().isEmpty(), "the scenario fires rules");
    }

    @Test
    void aSessionPreparedAheadRunsLikeAFreshOneWhileRunsRaceThePreparation() throws Exception {
        List<List<Object>> facts = scenarioFacts();
        for (int round = 0; round < 3; round++) {
            Engine engine = new Engine(triage.rules());
            engine.prepare();
            engine.prepare(); // a second call while the first is under way starts nothing more
            int r = round;
            // runs started at once with the preparation: each waits for the pool or makes a session
            inThreads(2, t -> {
                int i = (r * 5 + t * 11) % facts.size();
                assertEquals(outcome(fresh(triage.rules(), facts.get(i))), outcome(engine.run(facts.get(i))));
            });
            engine.prepare(); // prepared already: nothing to do
            assertEquals(outcome(fresh(triage.rules(), facts.get(0))), outcome(engine.run(facts.get(0))));
        }
    }

    /** What a run ended with, comparable by value: the facts (records) as text and the firings, both in order. */
    private record Outcome(List<String> facts, List<String> firings, int fired, boolean stopped) { }

    private static Outcome outcome(Engine.Result r) {
        List<String> f = new ArrayList<>();
        for (Object o : r.facts()) {
            f.add(String.valueOf(o));
        }
        List<String> firings = new ArrayList<>();
        for (Trace.Firing x : r.trace().firings()) {
            firings.add(x.ruleName() + " " + x.premises());
        }
        return new Outcome(f, firings, r.fired(), r.stoppedAtLimit());
    }

    /** A run as the engine did it before it pooled sessions: a session made for it, then disposed. */
    private static Engine.Result fresh(RuleBase rules, List<Object> facts) {
        KieSession session = rules.kieBase().newKieSession();
        Trace trace = new Trace();
        try {
            session.addEventListener((AgendaEventListener) trace);
            session.addEventListener((RuleRuntimeEventListener) trace);
            for (Object f : facts) {
                session.insert(f);
            }
            int fired = session.fireAllRules(Engine.MAX_FIRINGS);
            return new Engine.Result(Engine.inInsertionOrder(session), trace, fired, fired >= Engine.MAX_FIRINGS);
        } finally {
            session.dispose();
        }
    }

    private List<List<Object>> scenarioFacts() throws IOException {
        List<Path> dirs;
        try (Stream<Path> s = Files.walk(TestHome.SCENARIOS)) {
            dirs = s.filter(Files::isDirectory).filter(EngineReuseTest::hasProbes).sorted().toList();
        }
        List<List<Object>> out = new ArrayList<>();
        for (Path d : dirs) {
            Capture c;
            try {
                c = triage.redactor().redact(triage.reader().read(d));
            } catch (CaptureException e) {
                continue;
            }
            out.add(triage.diagnoser().facts().build(c, Map.of()).facts());
        }
        return out;
    }

    private static boolean hasProbes(Path d) {
        try (Stream<Path> s = Files.list(d)) {
            return s.anyMatch(p -> p.toString().endsWith(".out"));
        } catch (IOException e) {
            return false;
        }
    }
}
