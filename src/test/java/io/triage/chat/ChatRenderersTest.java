package io.triage.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.triage.TestHome;
import io.triage.explain.Diagnosis;
import io.triage.explain.JsonRenderer;
import io.triage.facts.Target;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChatRenderersTest {
    private static final String PAGE = "https://triage.example/d/42?view=full&tab=why";
    private final MarkdownRenderer markdown = new MarkdownRenderer();
    private final SlackRenderer slack = new SlackRenderer();

    @TestFactory
    Stream<DynamicTest> theMarkdownOfEveryScenarioIsWellFormedAndCarriesTheDiagnosis() {
        return Scenarios.all().entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
            Diagnosis d = e.getValue();
            String md = markdown.render(d, PAGE);
            ChatChecks.Markdown m = ChatChecks.markdown(md);
            assertEquals(List.of(), m.problems());
            assertTrue(md.startsWith("**Verdict: " + MarkdownRenderer.inline(d.cause())), md);
            assertTrue(m.prose().contains("confidence **" + d.confidence() + "**"), md);
            assertTrue(m.prose().contains("[Full diagnosis](<" + PAGE + ">)"), md);
            for (Diagnosis.Step s : d.nextSteps()) {
                if (!s.command().isEmpty()) {
                    assertTrue(m.codeBlocks().contains(s.command()), "no code block holds " + s.command());
                }
            }
            for (Diagnosis.QuestionView q : d.questions()) {
                if (!q.command().isEmpty()) {
                    assertTrue(m.codeBlocks().contains(q.command()), "no code block holds " + q.command());
                }
            }
            assertTrue(m.prose().contains("**Looked at**"), md);
            for (String absent : d.coverage().absent()) {
                assertTrue(m.prose().contains(MarkdownRenderer.inline(absent)), "coverage does not say " + absent);
            }
            assertFalse(markdown.render(d, null).contains("Full diagnosis"));
        }));
    }

    @TestFactory
    Stream<DynamicTest> theSlackMessageOfEveryScenarioKeepsBlockKitsRules() {
        return Scenarios.all().entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
            Diagnosis d = e.getValue();
            for (String link : new String[]{PAGE, null}) {
                ObjectNode msg = slack.render(d, link);
                assertEquals(List.of(), ChatChecks.blockKit(msg), msg.toPrettyString());
                JsonNode header = msg.get("blocks").get(0);
                assertEquals("header", header.get("type").asText());
                assertTrue(header.at("/text/text").asText().contains(d.cause()));
                assertEquals("context", msg.get("blocks").get(1).get("type").asText());
                assertTrue(msg.get("blocks").get(1).toString().contains("Confidence: *" + d.confidence() + "*"));
                String all = String.join("\n", ChatChecks.mrkdwnTexts(msg));
                for (Diagnosis.Step s : d.nextSteps()) {
                    if (!s.command().isEmpty()) {
                        String escaped = s.command().replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
                        assertTrue(all.contains("```\n" + escaped + "\n```"), "no code block holds " + s.command());
                    }
                }
                assertEquals(link != null, all.contains("|Full diagnosis>"));
            }
        }));
    }

    @Test
    void aCaptureFullOfMarkupAndMentionsRendersAsInertMarkdown(@TempDir Path tmp) throws Exception {
        Diagnosis d = hostile(tmp);
        String md = markdown.render(d, PAGE);
        ChatChecks.Markdown m = ChatChecks.markdown(md);
        assertEquals(List.of(), m.problems());
        assertFalse(md.contains(HostileCapture.ESC), "a raw escape character reached the markdown");
        assertTrue(md.contains("␛[31m") || md.contains("␛\\[31m"), "the escape sequence is not shown");

        String prose = ChatChecks.withoutCodeSpans(m.prose());
        for (String live : new String[]{"<!channel>", "<!here>", "<@U123>", "<#C123>", "<https://evil", "<script>",
                "*bold*", "_it_", "~s~", "[x](", "```fence", " # |", " @here"}) {
            assertFalse(prose.contains(live), "live markup outside code: " + live + "\n" + md);
        }
        assertTrue(prose.contains("\\<\\!channel\\>") && prose.contains("\\*bold\\*") && prose.contains("\\[x\\]\\(http\\:"),
                "the hostile text is not shown escaped in prose:\n" + md);
        // the log path holds an escape character: no command is built with it, the path is shown apart, escaped
        assertTrue(m.codeBlocks().stream().noneMatch(b -> b.contains("/srv/sglang/logs/a")),
                "a command was built with a log path holding a control character:\n" + md);
        assertTrue(prose.contains("No command offered") && prose.contains("a\\`\\`\\`\\`b\\`\\<\\!channel\\>\\*x\\*␛\\[31m.log"),
                "the withheld log path is not shown escaped:\n" + md);
    }

    @Test
    void aCaptureFullOfMarkupAndMentionsRendersAsInertSlack(@TempDir Path tmp) throws Exception {
        Diagnosis d = hostile(tmp);
        ObjectNode msg = slack.render(d, PAGE);
        assertEquals(List.of(), ChatChecks.blockKit(msg));
        String json = msg.toString();
        assertFalse(json.contains(HostileCapture.ESC) || json.contains("\\u001B") || json.contains("\\u001b"));
        List<String> texts = ChatChecks.mrkdwnTexts(msg);
        for (String t : texts) {
            String rest = t.replace("<https://triage.example/d/42?view=full&amp;tab=why|Full diagnosis>", "");
            assertFalse(rest.contains("<") || rest.contains(">"), "a live < or > in: " + t);
            assertFalse(rest.replace("&amp;", "").replace("&lt;", "").replace("&gt;", "").contains("&"),
                    "an unescaped & in: " + t);
            String prose = t.replaceAll("(?s)```.*?```", "").replaceAll("`[^`\n]*`", "");
            for (String live : new String[]{"*bold*", "_it_", "~s~"}) {
                assertFalse(prose.contains(live), "live formatting outside code: " + live + " in " + t);
            }
        }
        String all = String.join("\n", texts);
        assertTrue(all.contains("&lt;!channel&gt;") && all.contains("&lt;@U123&gt;") && all.contains("&lt;#C123&gt;")
                && all.contains("&lt;https://evil.example|click&gt;"), "the hostile text is not shown escaped:\n" + all);
        assertTrue(all.contains("∗bold∗"), "*bold* in prose is not neutralised:\n" + all);
        // the log path holds an escape character: no command is built with it, the path is shown apart, inert
        assertTrue(all.contains("No command offered") && all.contains("&lt;!channel&gt;∗x∗␛[31m.log"),
                "the withheld hostile path:\n" + all);
    }

    @Test
    void anOversizedDiagnosisIsCutWithinSlacksLimitsAndTheCutSaysSo() {
        Diagnosis big = oversized();
        ObjectNode withLink = slack.render(big, PAGE);
        assertEquals(List.of(), ChatChecks.blockKit(withLink));
        assertEquals(ChatChecks.BLOCKS, withLink.get("blocks").size());
        JsonNode last = withLink.get("blocks").get(ChatChecks.BLOCKS - 1);
        assertTrue(last.toString().contains("|full diagnosis>"), last.toString());
        assertTrue(String.join("\n", ChatChecks.mrkdwnTexts(withLink)).contains("… <https://triage.example"));

        ObjectNode noLink = slack.render(big, null);
        assertEquals(List.of(), ChatChecks.blockKit(noLink));
        assertTrue(noLink.get("blocks").get(noLink.get("blocks").size() - 1).toString().contains("… (cut)"));
        assertFalse(noLink.toString().contains("full diagnosis"));

        ChatChecks.Markdown m = ChatChecks.markdown(markdown.render(big, null));
        assertEquals(List.of(), m.problems());
        assertEquals(big.nextSteps().size(), m.codeBlocks().size());
    }

    @Test
    void textThatGrowsWhenEscapedStillFitsItsSection() {
        Diagnosis base = Scenarios.all().values().iterator().next();
        List<Diagnosis.Step> steps = List.of(new Diagnosis.Step("angles", base.cause(), "Angles", "<".repeat(2900), "", List.of()),
                new Diagnosis.Step("controls", base.cause(), "Controls", "\u0001".repeat(1000), "", List.of()));
        Diagnosis d = new Diagnosis(base.schema(), base.source(), base.target(), base.cause(), base.subtype(),
                base.confidence(), base.title(), base.summary(), base.caveats(), base.hypotheses(), base.ruledOut(),
                base.questions(), steps, base.coverage(), base.engine());
        ObjectNode msg = slack.render(d, null);
        assertEquals(List.of(), ChatChecks.blockKit(msg), msg.toPrettyString());
        assertTrue(msg.toString().contains("&lt;&lt;&lt;") && msg.toString().contains("␁␁"));
    }

    @Test
    void aCommandHoldingBacktickRunsIsFencedLongerThanAnyRun() {
        Diagnosis base = Scenarios.all().values().iterator().next();
        String cmd = "grep -n x '/srv/a" + "`".repeat(4) + "b.log'";
        Diagnosis d = new Diagnosis(base.schema(), base.source(), base.target(), base.cause(), base.subtype(),
                base.confidence(), base.title(), base.summary(), base.caveats(), base.hypotheses(), base.ruledOut(),
                base.questions(), List.of(new Diagnosis.Step("ticks", base.cause(), "Ticks", cmd, "", List.of())),
                base.coverage(), base.engine());
        String md = markdown.render(d, PAGE);
        ChatChecks.Markdown m = ChatChecks.markdown(md);
        assertEquals(List.of(), m.problems());
        assertTrue(m.codeBlocks().stream().anyMatch(b -> b.contains(cmd)), "the command is not whole in one block:\n" + md);
        assertTrue(md.contains("`".repeat(5) + "sh\n"), "the fence is not longer than the command's backtick run:\n" + md);
    }

    @Test
    void aLinkMustBeAnAbsoluteHttpUrl() {
        Diagnosis d = Scenarios.all().values().iterator().next();
        for (String bad : new String[]{"javascript:alert(1)", "/d/42", "https://triage.example/a b", "ftp://x/y",
                "https://triage.example/x|evil>"}) {
            assertThrows(IllegalArgumentException.class, () -> markdown.render(d, bad), bad);
            assertThrows(IllegalArgumentException.class, () -> slack.render(d, bad), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> markdown.render(null, PAGE));
        assertThrows(IllegalArgumentException.class, () -> slack.render(null, PAGE));
        assertNull(PageLink.checked("  "));
    }

    @Test
    void controlAndBidiCharactersBecomeVisible() {
        assertEquals("a␀b␇␛[31mred␍\t␡<U+0085><U+202E>evil", Visible.text("a\u0000b\u0007\u001b[31mred\r\t\u007f\u0085\u202eevil", false));
        assertEquals("line1␤line2", Visible.text("line1\nline2", false));
        assertEquals("line1\nline2", Visible.text("line1\nline2", true));
        assertEquals("", Visible.text(null, true));
    }

    @Test
    void markdownInlineTextCannotStartMarkup() {
        assertEquals("1\\. \\*x\\* \\<\\!channel\\> www\\.evil.com \\[a\\]\\(b\\) \\`c\\` \\_d\\_ \\~e\\~ \\#f \\|g\\| \\@h \\&amp;",
                MarkdownRenderer.inline("1. *x* <!channel> www.evil.com [a](b) `c` _d_ ~e~ #f |g| @h &amp;"));
        assertEquals("\\- item", MarkdownRenderer.inline("  - item"));
        assertEquals("``a`b``", MarkdownRenderer.code("a`b"));
        assertEquals("```` ```x ````", MarkdownRenderer.code("```x"));
        assertEquals("````sh\ncat ```a\n````\n", MarkdownRenderer.fenced("cat ```a"));
    }

    @Test
    void slackTextCannotPingLinkOrFormat() {
        assertEquals("&lt;!channel&gt; ∗b∗ ˍiˍ ∼s∼ ˋcˋ gpu_apps 2*3 &amp;", SlackRenderer.prose("<!channel> *b* _i_ ~s~ `c` gpu_apps 2*3 &"));
        assertEquals("`&lt;@U1&gt; ˋxˋ`", SlackRenderer.codeSpan("<@U1> `x`"));
    }

    private static Diagnosis hostile(Path tmp) throws Exception {
        Diagnosis d = TestHome.triage().replay(HostileCapture.build(tmp), Map.of());
        String json = new JsonRenderer().render(d);
        for (String reached : new String[]{"<!channel>", "<@U123>", "*bold*", "```fence", "a````b`"}) {
            assertTrue(json.contains(reached), "the hostile capture no longer brings " + reached + " into the diagnosis");
        }
        return d;
    }

    /** A diagnosis far beyond one message: long excerpts, many exclusions and steps with long commands. */
    private static Diagnosis oversized() {
        String longLine = "x".repeat(5000);
        List<Diagnosis.Node> premises = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            premises.add(new Diagnosis.Node(Diagnosis.Kind.SYMPTOM, "rule " + i, "why " + i, "fact " + i + " " + longLine, null,
                    List.of(new Diagnosis.Node(Diagnosis.Kind.EVIDENCE, "", "", "line", new Diagnosis.Evidence("log_tail", i + 1, longLine), List.of()))));
        }
        Diagnosis.Node top = new Diagnosis.Node(Diagnosis.Kind.RULE, "verdict rule", "because", "crash (high)", null, premises);
        List<Diagnosis.HypothesisView> hs = List.of(new Diagnosis.HypothesisView("crash", "cuda-oom", "supported", "high",
                "Crash", List.of(top), List.of()));
        List<Diagnosis.Exclusion> ex = new ArrayList<>();
        List<Diagnosis.Step> steps = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            ex.add(new Diagnosis.Exclusion("cause-" + i, "ruled-out", "reason " + longLine, "", List.of()));
            steps.add(new Diagnosis.Step("step-" + i, "crash", "Step " + i, "echo " + "`".repeat(i % 5) + longLine, "r", List.of()));
        }
        return new Diagnosis(Diagnosis.SCHEMA, "gpu-node-1", new Target("vllm", 8000, "/var/log/v.log"), "crash", "cuda-oom",
                "high", "T".repeat(400), "summary " + longLine, List.of(), hs, ex, List.of(), steps,
                new Diagnosis.Coverage(List.of(), List.of("dmesg"), List.of("listen (failed: " + longLine + ")"), List.of(),
                        List.of(longLine)), new Diagnosis.Engine(3, List.of("a"), false, ""));
    }
}
