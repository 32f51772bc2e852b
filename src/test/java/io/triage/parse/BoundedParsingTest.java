package io.triage.parse;

import io.triage.TestHome;
import io.triage.capture.Capture;
import io.triage.capture.ProbeOutput;
import io.triage.explain.Diagnosis;
import io.triage.facts.LogMarker;
import io.triage.facts.LogState;
import io.triage.facts.Unparseable;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Hostile lines in real captures: the line cap, the capture's budget, a parser that fails. */
class BoundedParsingTest {
    private static final int MB = 1 << 20;

    private static Capture scenario(String name) throws Exception {
        return TestHome.triage().reader().read(TestHome.fixture(name));
    }

    /** The capture with {@code extra} put in front of the probe's output (its oldest lines). */
    private static Capture withLines(Capture c, String probe, String extra, boolean atEnd) {
        Map<String, ProbeOutput> probes = new LinkedHashMap<>(c.probes());
        ProbeOutput p = probes.get(probe);
        String out = p == null ? "" : p.outOrEmpty();
        String text = atEnd ? out + (out.endsWith("\n") || out.isEmpty() ? "" : "\n") + extra + "\n" : extra + "\n" + out;
        probes.put(probe, p == null ? new ProbeOutput(probe, null, text, "", 0, 0.01, false)
                : new ProbeOutput(probe, p.cmd(), text, p.err(), p.rc(), p.seconds(), p.truncated()));
        return new Capture(c.source(), probes, c.target(), c.intent(), c.notes());
    }

    private static Observation observe(Capture c) {
        return new FactBuilder(TestHome.triage().knowledge()).build(c, Map.of());
    }

    private static <T> List<T> of(Observation o, Class<T> type) {
        return o.facts().stream().filter(type::isInstance).map(type::cast).toList();
    }

    @Test
    void theSixKilobyteDottedLineIsAnExceptionMarkerNotACrash() throws Exception {
        String line = AdversarialLines.repeat("a.", 6 * 1024 - 16) + "ValueError: boom";
        Capture c = withLines(scenario("01-healthy-vllm-h100"), "log_tail", line, true);
        Observation o = observe(c);
        LogMarker m = of(o, LogMarker.class).stream().filter(x -> x.markerId().equals("common.exception")).findFirst()
                .orElseThrow();
        assertTrue(m.detail().startsWith("exception=a.a.a.") && m.detail().endsWith("message=boom"), m.detail());
        assertFalse(o.notes().stream().anyMatch(n -> n.contains("cut")), "a 6 KB line is under the cap: " + o.notes());
        Diagnosis d = TestHome.triage().diagnose(c, Map.of());
        assertEquals("healthy", d.cause());
    }

    @Test
    void aLineAtTheCapIsWholeOneOverItIsCutAndNoted() throws Exception {
        String atCap = AdversarialLines.repeat("a.", ReadBudget.LINE_CAP - 16) + "ValueError: boom";
        Observation o = observe(withLines(scenario("01-healthy-vllm-h100"), "log_tail", atCap, true));
        assertTrue(of(o, LogMarker.class).stream().anyMatch(x -> x.detail().contains("message=boom")));
        assertFalse(o.notes().stream().anyMatch(n -> n.contains("cut")), o.notes().toString());

        String over = AdversarialLines.repeat("a.", ReadBudget.LINE_CAP) + "ValueError: boom";
        o = observe(withLines(scenario("01-healthy-vllm-h100"), "log_tail", over, true));
        assertTrue(o.notes().stream().anyMatch(n -> n.startsWith("log_tail: 1 line longer than " + ReadBudget.LINE_CAP
                + " characters cut")), o.notes().toString());
        // the cut line ends inside the dots: not an exception line any more, and nothing crashed
        assertFalse(of(o, LogMarker.class).stream().anyMatch(x -> x.detail().contains("message=boom")));
    }

    @Test
    void megabyteLinesInEveryProbeAreCutAndTheVerdictStands() throws Exception {
        Capture c = scenario("06-oom-killer-host-ram-during-load");
        String expected = TestHome.triage().diagnose(c, Map.of()).cause();
        List<String> hostile = List.of(
                AdversarialLines.repeat("a.", MB) + "ValueError: boom",
                AdversarialLines.repeat(" ", MB),
                AdversarialLines.repeat("1", MB),
                AdversarialLines.repeat("0:", MB),
                AdversarialLines.repeat("[", MB),
                "Killed process 1 (" + AdversarialLines.repeat("x", MB),
                AdversarialLines.repeat("| ", MB));
        for (String probe : List.of("log_tail", "dmesg", "ps", "pgrep", "nvidia_smi_full", "gpus", "listen", "health")) {
            for (String h : hostile) {
                c = withLines(c, probe, h, false);
            }
        }
        Observation o = observe(c);
        for (String probe : List.of("log_tail", "dmesg", "ps", "nvidia_smi_full", "listen")) {
            assertTrue(o.notes().stream().anyMatch(n -> n.startsWith(probe + ": " + hostile.size() + " lines longer than")),
                    probe + " " + o.notes());
        }
        Diagnosis d = TestHome.triage().diagnose(c, Map.of());
        assertEquals(expected, d.cause());
        assertTrue(d.coverage().notes().stream().anyMatch(n -> n.contains("cut to " + ReadBudget.LINE_CAP)));
    }

    @Test
    void pastTheBudgetTheOldestLogLinesGoUnreadAndTheDiagnosisGoesOn() throws Exception {
        Capture all = scenario("11-crash-cuda-oom-vllm-graph-capture");
        Map<String, ProbeOutput> logOnly = new LinkedHashMap<>();
        for (String name : List.of("date", "log_tail", "log_markers")) {
            all.probe(name).ifPresent(p -> logOnly.put(name, p));
        }
        Capture c = new Capture(all.source(), logOnly, all.target(), all.intent(), all.notes());
        Observation full = observe(c);
        long budget = full.work() / 3;
        Observation part = new FactBuilder(TestHome.triage().knowledge(), budget).build(c, Map.of());
        List<Unparseable> unread = of(part, Unparseable.class).stream().filter(u -> u.reason().contains("not read"))
                .toList();
        assertFalse(unread.isEmpty(), part.facts().toString());
        assertTrue(part.notes().stream().anyMatch(n -> n.startsWith("parsing stopped after")), part.notes().toString());
        // checked between lines: at most one line's passes over
        long oneLine = PatternInventory.oneLineWork(TestHome.triage().knowledge());
        assertTrue(part.work() <= budget + oneLine, part.work() + " > " + budget);
        // newest first: the log's last line was read
        LogState fullState = of(full, LogState.class).get(0);
        LogState partState = of(part, LogState.class).get(0);
        assertEquals(fullState.excerpt(), partState.excerpt());
        assertTrue(partState.lines() < fullState.lines());
    }

    @Test
    void theWorkCountIsTheSameEveryTime() throws Exception {
        Capture c = scenario("11-crash-cuda-oom-vllm-graph-capture");
        assertEquals(observe(c).work(), observe(c).work());
        assertTrue(observe(c).work() > 0);
    }

    @Test
    void aHugeCaptureStopsAtTheBudgetNotAtTheEnd() throws Exception {
        // every line a candidate for many markers: the costliest ordinary-looking log there is
        String lits = String.join(" ", PatternInventory.literals(TestHome.triage().knowledge()));
        String line = AdversarialLines.repeat(lits + " ", ReadBudget.LINE_CAP);
        StringBuilder log = new StringBuilder();
        for (int i = 0; i < 1500; i++) {
            log.append(line).append('\n');
        }
        Capture c = withLines(scenario("01-healthy-vllm-h100"), "log_tail", log.toString(), true);
        long budget = ReadBudget.CAPTURE_WORK / 8;
        Observation o = new FactBuilder(TestHome.triage().knowledge(), budget).build(c, Map.of());
        assertTrue(o.work() <= budget
                + PatternInventory.oneLineWork(TestHome.triage().knowledge()), "work " + o.work());
        assertTrue(of(o, Unparseable.class).stream().anyMatch(u -> u.probe().equals("log_tail") && u.reason().contains("not read")));
        TestHome.triage().diagnose(c, Map.of()); // goes on with what was read
    }

    @Test
    void aParserThatOverflowsTheStackCostsItsProbeOnly() {
        Sink sink = new Sink();
        ProbeOutput p = new ProbeOutput("dmesg", null, "x\n", "", 0, 0.01, false);
        FactBuilder.guarded(p, sink, q -> recurse(0));
        List<Unparseable> u = sink.facts().stream().filter(Unparseable.class::isInstance).map(Unparseable.class::cast).toList();
        assertEquals(1, u.size());
        assertEquals("dmesg", u.get(0).probe());
        assertTrue(u.get(0).reason().contains("StackOverflowError"), u.get(0).reason());
        FactBuilder.guarded(p, sink, q -> {
            throw new IllegalStateException("boom");
        });
        assertEquals(2, sink.facts().size());
    }

    private static int recurse(int depth) {
        return recurse(depth + 1) + 1;
    }
}
