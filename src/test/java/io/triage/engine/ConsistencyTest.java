package io.triage.engine;

import io.triage.TestHome;
import io.triage.Triage;
import io.triage.knowledge.KnowledgeBase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The load-time consistency check on small rule sets made for each case, in homes of their own: each mistake a
 * rule author makes is named with its file and line, and refuses the base when it is an error.
 */
class ConsistencyTest {
    static final String RULES = """
            package triage.rules

            import io.triage.facts.*;

            rule "health refused"
            when
                $h: Health(status == "refused")
            then
                insertLogical(new Symptom("health-refused"));
            end

            rule "no process"
            when
                not Proc()
            then
                insertLogical(new Symptom("no-server-process"));
            end

            rule "killed from outside"
            when
                Symptom(id in ("health-refused", "health-timeout"))
                Symptom(id == "no-server-process")
                not Symptom(id not in ("health-refused", "no-server-process", "health-timeout"))
            then
                insertLogical(new Hypothesis("external-kill", "", "medium"));
            end

            rule "timed out"
            when
                Health(status == "timeout")
            then
                insertLogical(new Symptom("health-timeout"));
            end

            rule "kernel log unread"
            when
                ProbeStatus(probe == "dmesg", status != "ok")
            then
                insertLogical(new Exclusion("oom-killer", "not-ruled-out", Detail.as("kernel-log-unread"), "dmesg"));
            end

            rule "ask for what is missing"
            when
                $x: Exclusion(status == "not-ruled-out", $m: missing != "")
            then
                insertLogical(new Question("probe-" + $m, $m, $x.cause()));
            end
            """;

    static final String CAUSES = """
            causes:
              external-kill:
                title: Killed from outside
                rank: 10
                summary: Something killed it.
                caveat: ''
              oom-killer:
                title: The OOM killer
                rank: 20
                summary: The kernel killed it.
                caveat: ''
            """;

    static final String TEXTS = """
            symptoms:
              health-refused: The health endpoint refuses connections
              health-timeout: The health endpoint does not answer in time
              no-server-process: No server process is running
            questions:
              probe-dmesg:
                text: Read the kernel log
                command: sudo dmesg -T | tail -50
            reasons:
              kernel-log-unread: the kernel log was not read
            rationales:
              health refused: Nothing listens.
              no process: Nothing runs.
              killed from outside: Refused and gone.
              timed out: No answer.
              kernel log unread: Without dmesg the OOM killer stays possible.
              ask for what is missing: The missing probe decides.
              GPU hot: Hot.
              after a kill: x
              "a detail: the port": The probe's port.
            """;

    static final String STEPS = """
            steps:
              find-the-killer:
                title: 'Find who sent the kill'
                command: 'journalctl --since -3h'
                rationale: 'The journal says who stopped it.'
                causes: [external-kill]
            """;

    @TempDir
    Path tmp;

    /** A home with the shipped markers, processes, profiles, thresholds, Xids and secrets, and these files. */
    Path home(String rules, String causes, String texts, String steps) throws IOException {
        Path home = tmp.resolve("home");
        Path kb = home.resolve("knowledge-base");
        Files.createDirectories(kb.resolve("markers"));
        Files.createDirectories(home.resolve("rules"));
        Path shipped = TestHome.HOME.resolve("knowledge-base");
        for (String f : List.of("processes.yaml", "gpu-profiles.yaml", "thresholds.yaml", "xid.yaml", "secrets.yaml",
                "cadence.yaml")) {
            Files.copy(shipped.resolve(f), kb.resolve(f));
        }
        try (Stream<Path> s = Files.list(shipped.resolve("markers"))) {
            for (Path m : s.toList()) {
                Files.copy(m, kb.resolve("markers").resolve(m.getFileName()));
            }
        }
        Files.writeString(kb.resolve("causes.yaml"), causes);
        Files.writeString(kb.resolve("texts.yaml"), texts);
        Files.writeString(kb.resolve("remediation.yaml"), steps);
        Files.writeString(kb.resolve("differentials.yaml"), "differentials: {}\n");
        Files.writeString(home.resolve("rules/10-small.drl"), rules);
        return home;
    }

    static Consistency.Report check(Path home) {
        Path rules = home.resolve("rules");
        Path kb = home.resolve("knowledge-base");
        return Consistency.check(RuleBase.load(rules), rules, KnowledgeBase.load(kb), kb, Triage.probeNames(),
                kb.resolve("scenarios"));
    }

    /** The 1-based line of the first line of {@code text} holding {@code needle}. */
    static int lineOf(String text, String needle) {
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].contains(needle)) {
                return i + 1;
            }
        }
        throw new IllegalArgumentException(needle + " not in the text");
    }

    @Test
    void aConsistentRuleSetHasNoErrorsAndItsConcatenatedQuestionIsResolvedFromTheBoundVariable() throws IOException {
        Consistency.Report r = check(home(RULES, CAUSES, TEXTS, STEPS));
        assertEquals(List.of(), r.errors());
        // probe-dmesg is asked through "probe-" + $m: it counts as asked, so it is not reported unused
        assertTrue(r.warnings().stream().noneMatch(w -> w.text().contains("probe-dmesg")), r.warnings().toString());
        assertTrue(r.warnings().stream().noneMatch(w -> w.text().contains("cannot be checked")), r.warnings().toString());
    }

    @Test
    void aTypoInAnIdMatchedInsideInFailsWithTheFileAndLineOfTheConstraint() throws IOException {
        String rules = RULES.replace("Symptom(id in (\"health-refused\", \"health-timeout\"))",
                "Symptom(id in (\"health-refused\", \"health-timeuot\"))");
        Consistency.Report r = check(home(rules, CAUSES, TEXTS, STEPS));
        assertEquals(1, r.errors().size(), r.errors().toString());
        RuleBase.Problem p = r.errors().get(0);
        assertEquals("rules/10-small.drl", p.file());
        assertEquals(lineOf(rules, "health-timeuot"), p.line());
        assertTrue(p.text().contains("no rule produces symptom health-timeuot (did you mean health-timeout?)"), p.text());
        assertTrue(p.text().contains("rule \"killed from outside\""), p.text());
    }

    @Test
    void aTypoInANotInListOrAnInequalityIsFoundToo() throws IOException {
        String rules = RULES.replace("id not in (\"health-refused\", \"no-server-process\", \"health-timeout\")",
                "id not in (\"health-refused\", \"no-sever-process\", \"health-timeout\")")
                .replace("ProbeStatus(probe == \"dmesg\", status != \"ok\")", "ProbeStatus(probe != \"dmseg\", status != \"ok\")");
        Consistency.Report r = check(home(rules, CAUSES, TEXTS, STEPS));
        assertEquals(2, r.errors().size(), r.errors().toString());
        assertTrue(r.errors().stream().anyMatch(p -> p.line() == lineOf(rules, "no-sever-process")
                && p.text().startsWith("no rule produces symptom no-sever-process")), r.errors().toString());
        assertTrue(r.errors().stream().anyMatch(p -> p.line() == lineOf(rules, "dmseg")
                && p.text().startsWith("no capture has a probe named dmseg (did you mean dmesg?)")), r.errors().toString());
    }

    @Test
    void aSymptomWithoutItsSentenceFailsAtTheLineThatProducesIt() throws IOException {
        String texts = TEXTS.replace("  health-timeout: The health endpoint does not answer in time\n", "");
        Path home = home(RULES, CAUSES, texts, STEPS);
        Consistency.Report r = check(home);
        assertEquals(1, r.errors().size(), r.errors().toString());
        RuleBase.Problem p = r.errors().get(0);
        assertEquals("rules/10-small.drl", p.file());
        assertEquals(lineOf(RULES, "new Symptom(\"health-timeout\""), p.line());
        assertTrue(p.text().startsWith("symptom health-timeout has no sentence in texts.yaml"), p.text());
    }

    @Test
    void aQuestionBuiltByConcatenationWithoutItsEntryFails() throws IOException {
        String texts = TEXTS.replace("probe-dmesg:", "probe-dmesgg:");
        Consistency.Report r = check(home(RULES, CAUSES, texts, STEPS));
        assertTrue(r.errors().stream().anyMatch(p -> p.line() == lineOf(RULES, "new Question(\"probe-\" + $m")
                && p.text().startsWith("question probe-dmesg has no entry in texts.yaml")), r.errors().toString());
        // and the entry no rule can ask is a warning at its own line
        assertTrue(r.warnings().stream().anyMatch(w -> w.file().equals("knowledge-base/texts.yaml")
                && w.line() == lineOf(texts, "probe-dmesgg:") && w.text().contains("question probe-dmesgg")), r.warnings().toString());
    }

    @Test
    void aSymptomProducedAndNeverMatchedIsAWarningWithItsLine() throws IOException {
        String rules = RULES + """

                rule "GPU hot"
                when
                    Gpu(utilPct > 99)
                then
                    insertLogical(new Symptom("gpu-hot"));
                end
                """;
        String texts = TEXTS.replace("symptoms:\n", "symptoms:\n  gpu-hot: A GPU is hot\n");
        Consistency.Report r = check(home(rules, CAUSES, texts, STEPS));
        assertEquals(List.of(), r.errors());
        List<RuleBase.Problem> unused = r.warnings().stream().filter(w -> w.text().contains("gpu-hot")).toList();
        assertEquals(1, unused.size(), r.warnings().toString());
        assertEquals("rules/10-small.drl", unused.get(0).file());
        assertEquals(lineOf(rules, "new Symptom(\"gpu-hot\""), unused.get(0).line());
        assertTrue(unused.get(0).text().startsWith("symptom gpu-hot is produced but no rule matches it"));
    }

    @Test
    void anExpectationNamingAnUnknownCauseOrSubtypeFailsWithItsLine() throws IOException {
        Path home = home(RULES, CAUSES, TEXTS, STEPS);
        Path sc = home.resolve("knowledge-base/scenarios/typo");
        Files.createDirectories(sc);
        Files.writeString(sc.resolve("expected.txt"), "cause=external-kill\nnot=oom-kiler subtype=cuda-ooom steps=find-the-killer\n");
        Consistency.Report r = check(home);
        assertEquals(2, r.errors().size(), r.errors().toString());
        for (RuleBase.Problem p : r.errors()) {
            assertEquals("knowledge-base/scenarios/typo/expected.txt", p.file());
            assertEquals(2, p.line());
        }
        assertTrue(r.errors().get(0).text().startsWith("not=oom-kiler: causes.yaml has no cause oom-kiler (did you mean oom-killer?)"));
        assertTrue(r.errors().get(1).text().startsWith("subtype=cuda-ooom: no marker, rule or step knows subtype"));
    }

    @Test
    void aMatchedCauseOrMarkerKindThatDoesNotExistFails() throws IOException {
        String rules = RULES + """

                rule "after a kill"
                when
                    Hypothesis(cause == "externel-kill")
                    LogMarker(kind == "tracebak")
                then
                    insertLogical(new Symptom("no-server-process"));
                end
                """;
        Consistency.Report r = check(home(rules, CAUSES, TEXTS, STEPS));
        assertTrue(r.errors().stream().anyMatch(p -> p.line() == lineOf(rules, "externel-kill")
                && p.text().startsWith("causes.yaml has no cause externel-kill")), r.errors().toString());
        assertTrue(r.errors().stream().anyMatch(p -> p.line() == lineOf(rules, "tracebak")
                && p.text().startsWith("there is no marker kind tracebak (did you mean traceback?)")), r.errors().toString());
    }

    @Test
    void loadingTheProductRefusesInconsistentRulesWithFileAndLine() throws IOException {
        String rules = RULES.replace("Symptom(id == \"no-server-process\")", "Symptom(id == \"no-server-proces\")");
        Path home = home(rules, CAUSES, TEXTS, STEPS);
        RuleBaseException e = assertThrows(RuleBaseException.class, () -> Triage.load(home));
        assertEquals(1, e.problems().size(), e.getMessage());
        assertEquals("rules/10-small.drl", e.problems().get(0).file());
        assertEquals(lineOf(rules, "no-server-proces\""), e.problems().get(0).line());
        assertTrue(e.getMessage().contains("rules/10-small.drl:" + lineOf(rules, "no-server-proces\"")), e.getMessage());
    }

    @Test
    void aConsistentBaseLoadsAndCarriesItsWarningsAndContentHash() throws IOException {
        Path home = home(RULES, CAUSES, TEXTS, STEPS);
        Triage t = Triage.load(home);
        assertTrue(t.rules().consistencyWarnings().stream().anyMatch(w -> w.text().equals("no rule concludes cause oom-killer")),
                t.rules().consistencyWarnings().toString());
        assertTrue(t.contentHash().matches("sha256:[0-9a-f]{16}"), t.contentHash());
        Files.writeString(home.resolve("knowledge-base/texts.yaml"), TEXTS + "  # edited\n");
        assertTrue(!ContentHash.of(home).equals(t.contentHash()), "an edit changes the hash");
    }

    @Test
    void aRuleWithoutItsRationaleFailsAtTheRuleAndARationaleForNoRuleIsReportedAtItsLine() throws IOException {
        String texts = TEXTS.replace("  timed out: No answer.\n", "  timed ot: No answer.\n");
        Consistency.Report r = check(home(RULES, CAUSES, texts, STEPS));
        assertEquals(1, r.errors().size(), r.errors().toString());
        RuleBase.Problem p = r.errors().get(0);
        assertEquals("rules/10-small.drl", p.file());
        assertEquals(lineOf(RULES, "rule \"timed out\""), p.line());
        assertTrue(p.text().startsWith("rule \"timed out\" has no rationale in texts.yaml (rationales:)"), p.text());
        assertTrue(p.text().contains("did you mean timed ot?"), p.text());
        List<RuleBase.Problem> orphan = r.warnings().stream().filter(w -> w.text().contains("timed ot")).toList();
        assertEquals(1, orphan.size(), r.warnings().toString());
        assertEquals("knowledge-base/texts.yaml", orphan.get(0).file());
        assertEquals(lineOf(texts, "timed ot:"), orphan.get(0).line());
        assertTrue(orphan.get(0).text().startsWith("texts.yaml has a rationale for rule \"timed ot\", which no rule file has"),
                orphan.get(0).text());
    }

    @Test
    void aQuotedRationaleKeyWithAColonIsFoundAtItsLine() throws IOException {
        Consistency.Report r = check(home(RULES, CAUSES, TEXTS, STEPS));
        RuleBase.Problem w = r.warnings().stream().filter(x -> x.text().contains("a detail: the port")).findFirst()
                .orElseThrow(() -> new AssertionError(r.warnings().toString()));
        assertEquals(lineOf(TEXTS, "\"a detail: the port\":"), w.line());
    }

    @Test
    void aDetailWithoutItsTemplateOrAskingForAValueTheRuleDoesNotPassFailsAtTheLineThatFillsIt() throws IOException {
        String rules = RULES.replace("insertLogical(new Symptom(\"health-timeout\"));",
                "insertLogical(new Symptom(\"health-timeout\", Detail.of(\"seconds\", 5)));")
                .replace("insertLogical(new Symptom(\"health-refused\"));",
                        "insertLogical(new Symptom(\"health-refused\", Detail.as(\"port\", \"port\", 8000)));");
        String texts = TEXTS + "details:\n  health-refused.port: 'port {port} on {host}'\n  health-ok: 'HTTP {code}'\n";
        Consistency.Report r = check(home(rules, CAUSES, texts, STEPS));
        assertEquals(2, r.errors().size(), r.errors().toString());
        assertTrue(r.errors().stream().anyMatch(p -> p.line() == lineOf(rules, "Detail.of(\"seconds\"")
                && p.text().startsWith("the detail of symptom health-timeout has no template in texts.yaml (details:)")),
                r.errors().toString());
        assertTrue(r.errors().stream().anyMatch(p -> p.line() == lineOf(rules, "Detail.as(\"port\"")
                && p.text().startsWith("texts.yaml details: health-refused.port asks for {host}, which the rule does not pass")),
                r.errors().toString());
        assertTrue(r.warnings().stream().anyMatch(w -> w.line() == lineOf(texts, "health-ok:")
                && w.text().contains("detail template health-ok that no rule fills")), r.warnings().toString());
    }

    @Test
    void aReasonWithoutItsTextFailsAndAnUnusedReasonIsReported() throws IOException {
        String texts = TEXTS.replace("  kernel-log-unread: the kernel log was not read\n",
                "  kernel-log-unred: the kernel log was not read\n");
        Consistency.Report r = check(home(RULES, CAUSES, texts, STEPS));
        assertEquals(1, r.errors().size(), r.errors().toString());
        assertEquals(lineOf(RULES, "kernel-log-unread"), r.errors().get(0).line());
        assertTrue(r.errors().get(0).text().startsWith("reason kernel-log-unread has no template in texts.yaml (reasons:)"
                + " (did you mean kernel-log-unred?)"), r.errors().get(0).text());
        assertTrue(r.warnings().stream().anyMatch(w -> w.line() == lineOf(texts, "kernel-log-unred:")
                && w.text().contains("reason kernel-log-unred that no rule gives")), r.warnings().toString());
    }
}
