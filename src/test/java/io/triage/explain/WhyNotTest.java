package io.triage.explain;

import io.triage.TestHome;
import io.triage.Triage;
import io.triage.capture.Capture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WhyNotTest {
    private static final String EXTERNAL_KILL = "04-external-kill-shell-killed-clean-dmesg";

    @TempDir
    Path tmp;

    private static Capture capture(Triage t, String scenario) throws Exception {
        return t.reader().read(TestHome.fixture(scenario));
    }

    @Test
    void whyNotTheOomKillerOnAnExternalKillSaysTheKernelLogConditionFailed() throws Exception {
        Triage t = TestHome.triage();
        WhyNot.Answer a = t.whyNot("oom-killer", capture(t, EXTERNAL_KILL), Map.of());
        assertEquals("external-kill", a.verdict());
        assertTrue(a.concluded().isEmpty(), a.concluded().toString());
        assertFalse(a.rules().isEmpty());
        WhyNot.Candidate server = a.rules().stream().filter(c -> c.rule().equals("OOM killer killed the server"))
                .findFirst().orElseThrow();
        assertFalse(server.matches());
        assertEquals("30-hypotheses.drl", server.file());
        assertEquals("high", server.confidence());
        WhyNot.Condition kernel = server.conditions().get(0);
        assertEquals(WhyNot.Met.UNMET, kernel.met());
        assertEquals("$s: Symptom(id == \"kernel-oom-kill-of-server\")", kernel.source());
        assertTrue(kernel.plain().contains("kernel OOM killer killed a server process"), kernel.plain());
        assertTrue(kernel.derivedBy().stream().anyMatch(r -> r.startsWith("\"OOM kill of a server process\"")), kernel.derivedBy().toString());
        // the other condition (no confident healthy verdict) holds: the kernel log is what is missing
        assertEquals(WhyNot.Met.MET, server.conditions().get(1).met());
        for (WhyNot.Candidate c : a.rules()) {
            // every rule that concludes the OOM killer needs evidence of one, the kernel's or the supervisor's record
            assertTrue(c.conditions().stream().anyMatch(k -> k.met() == WhyNot.Met.UNMET
                            && (k.source().contains("kernel-oom-kill") || k.source().contains("supervisor-oom-kill"))),
                    c.rule() + ": " + c.conditions());
        }
        String text = WhyNot.text(a);
        assertTrue(text.contains("✗ line " + kernel.line() + ": a symptom: the kernel OOM killer killed a server process"), text);
    }

    @Test
    void theVerdictsOwnCauseIsConcludedAndARuleMatchesInFull() throws Exception {
        Triage t = TestHome.triage();
        WhyNot.Answer a = t.whyNot("external-kill", capture(t, EXTERNAL_KILL), Map.of());
        assertFalse(a.concluded().isEmpty());
        WhyNot.Candidate first = a.rules().get(0);
        assertTrue(first.matches(), first.toString());
        assertTrue(first.conditions().stream().allMatch(c -> c.met() == WhyNot.Met.MET));
        assertTrue(WhyNot.text(a).contains("it is the verdict"), WhyNot.text(a));
    }

    @Test
    void everyShippedCauseHasRulesWhoseConditionsAllEvaluate() throws Exception {
        Triage t = TestHome.triage();
        Capture c = capture(t, EXTERNAL_KILL);
        for (String cause : t.knowledge().causes().keySet()) {
            WhyNot.Answer a = t.whyNot(cause, c, Map.of());
            assertTrue(a.notes().isEmpty(), cause + ": " + a.notes());
            assertFalse(a.rules().isEmpty(), cause + " has no rule");
            for (WhyNot.Candidate r : a.rules()) {
                assertTrue(r.conditions().stream().noneMatch(k -> k.met() == WhyNot.Met.UNKNOWN), r.rule() + ": " + r.note());
                assertFalse(r.conditions().isEmpty(), r.rule());
            }
        }
    }

    @Test
    void anUnknownCauseIsRefusedByName() throws Exception {
        Triage t = TestHome.triage();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> t.whyNot("gremlins", capture(t, EXTERNAL_KILL), Map.of()));
        assertTrue(e.getMessage().contains("gremlins"));
    }

    private static final String TINY = """
            package triage.rules;
            import io.triage.facts.*;

            rule "tiny: the probes ran alike and the kernel killed something"
                // a rule set made for this test (its rationales are in texts.yaml)
            when
                $p: ProbeStatus(probe == "gpus", $rc: rc)
                ProbeStatus(probe == "dmesg", rc == $rc)
                KernelEvent(kind == "oom-kill")
            then
                insertLogical(new Hypothesis("oom-killer", "", "high"));
            end

            rule "tiny: never"
                // a second candidate that meets nothing
            when
                Gpu(index == -1)
            then
                insertLogical(new Hypothesis("oom-killer", "", "low"));
            end
            """;

    @Test
    void editingOnlyARuleFileChangesTheAnswer() throws Exception {
        Path home = smallHome(TINY);
        Triage before = Triage.load(home);
        WhyNot.Answer a = before.whyNot("oom-killer", capture(before, EXTERNAL_KILL), Map.of());
        assertEquals(2, a.rules().size());
        WhyNot.Candidate tiny = a.rules().get(0);
        assertEquals("tiny: the probes ran alike and the kernel killed something", tiny.rule(), "closest first");
        assertEquals(List.of(WhyNot.Met.MET, WhyNot.Met.MET, WhyNot.Met.UNMET), tiny.conditions().stream().map(WhyNot.Condition::met).toList());
        assertEquals(List.of(7, 8, 9), tiny.conditions().stream().map(WhyNot.Condition::line).toList());
        assertEquals("a KernelEvent (kind oom-kill)", tiny.conditions().get(2).plain());
        assertEquals(List.of(WhyNot.Met.UNMET), a.rules().get(1).conditions().stream().map(WhyNot.Condition::met).toList());
        assertTrue(a.concluded().isEmpty());

        Files.writeString(home.resolve("rules/tiny.drl"), TINY.replace("\n    KernelEvent(", "\n    not KernelEvent("));
        Triage after = Triage.load(home);
        WhyNot.Answer b = after.whyNot("oom-killer", capture(after, EXTERNAL_KILL), Map.of());
        assertEquals(List.of("high"), b.concluded());
        assertTrue(b.rules().get(0).matches());
        assertEquals("no KernelEvent (kind oom-kill)", b.rules().get(0).conditions().get(2).plain());
        assertEquals("oom-killer", b.verdict());
    }

    @Test
    void aConditionThatUsesAnEarlierVariableIsEvaluatedWithIt() throws Exception {
        Path home = smallHome(TINY.replace("ProbeStatus(probe == \"dmesg\", rc == $rc)",
                "ProbeStatus(probe == \"dmesg\", rc == $rc + 1000)"));
        Triage t = Triage.load(home);
        WhyNot.Candidate tiny = t.whyNot("oom-killer", capture(t, EXTERNAL_KILL), Map.of()).rules().get(0);
        assertEquals(List.of(WhyNot.Met.MET, WhyNot.Met.UNMET, WhyNot.Met.UNMET),
                tiny.conditions().stream().map(WhyNot.Condition::met).toList());
    }

    /** A home with the shipped knowledge (scenarios aside) and only the given rules. */
    private Path smallHome(String drl) throws IOException {
        Path home = tmp.resolve("home");
        Path kb = TestHome.HOME.resolve("knowledge-base");
        try (Stream<Path> s = Files.walk(kb)) {
            for (Path f : s.filter(p -> !p.startsWith(kb.resolve("scenarios"))).toList()) {
                Path to = home.resolve(TestHome.HOME.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to);
                }
            }
        }
        Files.createDirectories(home.resolve("rules"));
        Files.writeString(home.resolve("rules/tiny.drl"), drl);
        // the tiny rules' rationales, beside the shipped ones (which name rules this home does not have: warnings)
        Path texts = home.resolve("knowledge-base/texts.yaml");
        Files.writeString(texts, Files.readString(texts).replace("\nrationales:\n", """

                rationales:
                  "tiny: the probes ran alike and the kernel killed something": a rule set made for this test
                  "tiny: never": a second candidate that meets nothing
                """));
        return home;
    }
}
