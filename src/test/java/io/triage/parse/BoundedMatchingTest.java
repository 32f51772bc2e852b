package io.triage.parse;

import io.triage.TestHome;
import io.triage.knowledge.KnowledgeBase;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Boundedness without a clock: every pattern that runs on capture text is run on lines built to be
 * slow, through a line that counts the engine's reads. At the line cap, and at half of it, the reads
 * must be linear in the line: a fixed multiple of its length, and doubling the line at most doubles
 * them (a quadratic pattern quadruples them, an exponential one never ends: the count stops it).
 */
class BoundedMatchingTest {
    /**
     * The JDK patterns left in the parsers, each reviewed for backtracking: pattern → why it is linear.
     * A new JDK pattern fails {@link #jdkPatternsInTheParsersAreOnTheReviewedList} until it is added
     * here, with its reason, or moved to RE2J.
     */
    static final Map<String, String> REVIEWED = new LinkedHashMap<>();

    static {
        REVIEWED.put("--port[= ](\\d{1,5})(?!\\d)", "literal first, bounded digits");
        REVIEWED.put("(?:--port[= ]|:)(\\d{1,5})(?!\\d)", "literal first, bounded digits");
        REVIEWED.put("(?i)no such file|cannot open", "literals only; runs on a 240-character excerpt");
        REVIEWED.put("^(\\d+)[:-](.*)$", "anchored: one start; the digits give back at most once each");
        REVIEWED.put("\u001B\\[[0-9;?]*[ -/]*[@-~]", "starts only at ESC; its classes are disjoint and exclude ESC");
        REVIEWED.put("^/(?:health|healthz|health_generate|ping|metrics|ready|live|v1/models|get_model_info|server_info)(?:[/?].*)?$",
                "anchored literal alternation, one trailing wildcard");
        REVIEWED.put("^\\s*(\\d{3})\\s+(\\d+(?:\\.\\d+)?)\\s*$", "anchored (matches()); adjacent classes disjoint");
        REVIEWED.put("^\\s*(\\d{3})\\s*$", "anchored, fixed digits");
        REVIEWED.put("curl: \\((\\d+)\\)", "literal first");
        REVIEWED.put("^\\s*(\\d+)\\s+(.+)$", "anchored (matches()); adjacent classes disjoint");
        REVIEWED.put("^(?:(\\d+)-)?(?:(\\d+):)?(\\d+):(\\d+)$", "anchored; each digit run ends at a distinct separator");
        REVIEWED.put("(\\d{4})-(\\d{2})-(\\d{2})[ T](\\d{2}):(\\d{2}):(\\d{2})(?:[.,]\\d+)?(Z|[+-]\\d{2}:?\\d{2})?",
                "fixed widths: each start reads at most a few dozen characters (a date line the hand reading did not take)");
        REVIEWED.put("^([0-9]{1,9}) ([A-Za-z]) ([0-9]{1,18})$", "anchored, bounded runs split by single spaces");
        REVIEWED.put("^([0-9]{1,3}), *([0-9]{1,3}|\\[N/A\\]|\\[Not Supported\\]), *([0-9]{1,9}|\\[N/A\\])$",
                "anchored, bounded digit runs and literals split by commas");
        REVIEWED.put("(?:^|_)([0-9]{1,4})s(?:_|$)", "runs on a probe's name; bounded digits, then a literal");
        REVIEWED.put("^([0-9]{1,15}(?:[.,][0-9]{1,3})?)([KMGTP]?)i?B?\\s+(\\S.{0,4095})$",
                "anchored; bounded number, disjoint space and non-space, bounded rest");
        REVIEWED.put("\\bsleep ([0-9]{1,4})\\b", "literal first, bounded digits");
        REVIEWED.put("^([a-z_]{1,32}) ?(.*)$", "anchored; a bounded key, then one optional space and the rest");
        REVIEWED.put("^\\[(?:\\w{3}) (\\w{3})\\s+(\\d{1,2}) (\\d{2}):(\\d{2}):(\\d{2}) (\\d{4})\\]", "anchored, fixed widths");
    }

    /** Reads per character allowed to a JDK pattern (reviewed ones read each character a few times). */
    private static final int JDK_READS_PER_CHAR = 8;
    /** Stops a runaway pattern: far above any linear bound here. */
    private static final long RUNAWAY = 200_000_000L;

    private static KnowledgeBase kb;
    private static List<PatternInventory.Entry> all;
    private static Map<String, IntFunction<String>> families;

    @BeforeAll
    static void load() {
        kb = TestHome.triage().knowledge();
        all = new ArrayList<>(PatternInventory.markers(kb));
        all.addAll(PatternInventory.parsers());
        families = AdversarialLines.families(PatternInventory.literals(kb));
    }

    @Test
    void jdkPatternsInTheParsersAreOnTheReviewedList() {
        List<String> jdk = new ArrayList<>();
        for (PatternInventory.Entry e : PatternInventory.parsers()) {
            if (e.jdk()) {
                jdk.add(e.regex());
                assertTrue(REVIEWED.containsKey(e.regex()), e.where() + " runs under the backtracking JDK engine and is"
                        + " not on the reviewed list; move it to RE2J or review it: " + e.regex());
            }
        }
        for (String r : REVIEWED.keySet()) {
            assertTrue(jdk.contains(r), "reviewed pattern no parser uses any more (drop it from the list): " + r);
        }
        assertTrue(PatternInventory.parsers().stream().anyMatch(e -> !e.jdk()), "the parsers' RE2J patterns are found too");
    }

    @Test
    void everyMarkerRunsUnderTheLinearEngine() {
        assertTrue(kb.markers().size() > 100);
        for (PatternInventory.Entry e : PatternInventory.markers(kb)) {
            assertTrue(e.compiled() instanceof io.triage.knowledge.LinePattern, e.where());
        }
    }

    @Test
    void everyPatternReadsALineOfTheCapLinearly() {
        linear(ReadBudget.LINE_CAP);
    }

    /** Lines the markers' JDK engine is tried on, before the leash or the length hands them to RE2J. */
    @Test
    void everyPatternReadsALineOfTheFastPathLinearly() {
        linear(io.triage.knowledge.LinePattern.FAST_MAX);
    }

    private static void linear(int cap) {
        List<String> failures = new ArrayList<>();
        long worst = 0;
        String worstAt = "";
        for (PatternInventory.Entry e : all) {
            for (Map.Entry<String, IntFunction<String>> f : families.entrySet()) {
                // as the parsers run it, a literal gate first: within the bound
                long gated = reads(e, f.getValue().apply(cap));
                long bound = e.bound(cap, JDK_READS_PER_CHAR);
                // the engines' own reads: a few per character needs no second look; above that, doubling the
                // line must not much more than double them (the allowance covers a match that moves with the
                // line). Apart from the gate, which may turn the half line away and not the whole one.
                PatternInventory.Entry engine = e.engineOnly();
                long full = engine == e ? gated : reads(engine, f.getValue().apply(cap));
                long half = full <= 4L * (cap + 1) ? 0 : reads(engine, f.getValue().apply(cap / 2));
                if (gated > bound || full > bound || (half > 0 && full > 2.25 * half + 2L * (cap + 1))) {
                    failures.add(e.where() + " on " + f.getKey() + ": " + half + " reads at " + cap / 2 + " characters, "
                            + full + " at " + cap + ", " + gated + " with the gate (bound " + bound + ")");
                }
                if (Math.max(full, gated) / (cap + 1) > worst) {
                    worst = Math.max(full, gated) / (cap + 1);
                    worstAt = e.where() + " on " + f.getKey();
                }
            }
        }
        if (!failures.isEmpty()) {
            fail(failures.size() + " superlinear:\n" + String.join("\n", failures));
        }
        System.out.println("most reads per character at " + cap + " characters: " + worst + " (" + worstAt + ")");
    }

    @Test
    void theDottedExceptionLineThatOverflowedTheStackIsReadAsAnException() {
        String line = AdversarialLines.repeat("a.", 6000 - 16) + "ValueError: boom";
        for (PatternInventory.Entry e : PatternInventory.markers(kb)) {
            if (e.where().equals("marker common.exception")) {
                io.triage.knowledge.LinePattern.Match m = ((io.triage.knowledge.LinePattern) e.compiled()).find(line);
                assertTrue(m != null);
                assertTrue(m.group("exception").endsWith(".ValueError"));
                assertEquals("boom", m.group("message"));
                return;
            }
        }
        fail("no marker common.exception");
    }

    private static long reads(PatternInventory.Entry e, String line) {
        CountingChars c = new CountingChars(line, RUNAWAY);
        try {
            e.run(c);
        } catch (CountingChars.TooMuchWork t) {
            return RUNAWAY;
        }
        return c.reads();
    }
}
