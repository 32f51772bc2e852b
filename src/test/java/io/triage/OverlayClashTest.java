package io.triage;

import io.triage.engine.RuleBase;
import io.triage.engine.RuleBaseException;
import io.triage.knowledge.KnowledgeBase;
import io.triage.knowledge.KnowledgeException;
import io.triage.knowledge.Overlay;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An overlay (or a topic fragment) extends the knowledge base and the rules, never redefines them: the same cause,
 * sentence, step, differential, marker id or rule name given twice is refused, and the message names both files and
 * both lines. The overlay is input like any other: links, oversized files and unknown sections are refused.
 */
class OverlayClashTest {
    private static final Path KB = TestHome.HOME.resolve("knowledge-base");

    @TempDir
    Path tmp;

    /** The 1-based line of the first line of {@code file} that starts with {@code prefix}. */
    static int lineOf(Path file, String prefix) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix)) {
                return i + 1;
            }
        }
        throw new AssertionError(prefix + " not in " + file);
    }

    private Path overlayFile(String rel, String text) throws IOException {
        Path f = tmp.resolve("site").resolve(rel);
        Files.createDirectories(f.getParent());
        Files.writeString(f, text, StandardCharsets.UTF_8);
        return f;
    }

    private String refusal() {
        return assertThrows(KnowledgeException.class, () -> KnowledgeBase.load(KB, Overlay.open(tmp.resolve("site"))))
                .getMessage();
    }

    private void assertNamesBoth(String message, Path shipped, int shippedLine, Path overlay, int overlayLine) {
        assertTrue(message.contains(shipped + ":" + shippedLine), "names the shipped file and line: " + message);
        assertTrue(message.contains(overlay + ":" + overlayLine), "names the overlay's file and line: " + message);
    }

    @Test
    void aCauseGivenTwiceIsRefusedNamingBothFiles() throws IOException {
        Path f = overlayFile("knowledge-base/site.yaml", """
                causes:
                  site-own:
                    title: ours
                    rank: 1
                    summary: s
                    caveat: ''
                  oom-killer:
                    title: Killed by the kernel OOM killer, our words
                    rank: 85
                    summary: s
                    caveat: ''
                """);
        String m = refusal();
        assertNamesBoth(m, KB.resolve("causes.yaml"), lineOf(KB.resolve("causes.yaml"), "  oom-killer:"), f, 7);
        assertTrue(m.contains("causes 'oom-killer' is defined twice"), m);
    }

    @Test
    void aSentenceGivenTwiceIsRefusedNamingBothFiles() throws IOException {
        Path f = overlayFile("knowledge-base/texts.yaml", "symptoms:\n  health-refused: Nothing answers, our words\n");
        assertNamesBoth(refusal(), KB.resolve("texts.yaml"), lineOf(KB.resolve("texts.yaml"), "  health-refused:"), f, 2);
    }

    @Test
    void aStepOrRunbookLinkGivenTwiceIsRefusedNamingBothFiles() throws IOException {
        Path f = overlayFile("knowledge-base/runbooks/kill.yaml", """
                about: our runbook links
                steps:
                  find-the-killer:
                    title: Our runbook https://runbooks.example.com/killed
                    rationale: ours
                    causes: [external-kill]
                """);
        assertNamesBoth(refusal(), KB.resolve("remediation.yaml"), lineOf(KB.resolve("remediation.yaml"), "  find-the-killer:"),
                f, 3);
    }

    @Test
    void aDifferentialGivenTwiceIsRefusedNamingBothFiles() throws IOException {
        Path f = overlayFile("knowledge-base/site.yaml", """
                differentials:
                  external-kill:
                    - need: whether our scheduler killed it
                      probes: [dmesg]
                """);
        assertNamesBoth(refusal(), KB.resolve("differentials.yaml"),
                lineOf(KB.resolve("differentials.yaml"), "  external-kill:"), f, 2);
    }

    @Test
    void aMarkerIdGivenTwiceIsRefusedNamingBothFilesInAMarkerFileOrAFragment() throws IOException {
        Path shipped = KB.resolve("markers/vllm.yaml");
        int line = lineOf(shipped, "  - id: vllm.engine-dead-error");
        Path f = overlayFile("knowledge-base/markers/vllm.yaml", """
                server: vllm
                markers:
                  - id: site.ours
                    kind: host
                    pattern: 'our own words'
                  - id: vllm.engine-dead-error
                    kind: engine-dead
                    pattern: 'EngineDeadError'
                """);
        assertNamesBoth(refusal(), shipped, line, f, 6);
        Files.delete(f);
        Path g = overlayFile("knowledge-base/site.yaml", """
                markers:
                  vllm:
                    - id: vllm.engine-dead-error
                      kind: engine-dead
                      pattern: 'EngineDeadError'
                """);
        String m = refusal();
        assertNamesBoth(m, shipped, line, g, 3);
        assertTrue(m.contains("marker 'vllm.engine-dead-error' is defined twice"), m);
    }

    @Test
    void twoFilesOfTheOverlayClashToo() throws IOException {
        Path a = overlayFile("knowledge-base/a.yaml", "symptoms:\n  site-one: One\n");
        Path b = overlayFile("knowledge-base/b.yaml", "about: b\nsymptoms:\n  site-one: One again\n");
        assertNamesBoth(refusal(), a, 2, b, 3);
    }

    @Test
    void anOverlayExtendsWithoutClashing() throws IOException {
        SiteOverlay.overlay(tmp.resolve("site"));
        KnowledgeBase kb = KnowledgeBase.load(KB, Overlay.open(tmp.resolve("site")));
        KnowledgeBase shipped = KnowledgeBase.load(KB);
        assertEquals(shipped.causes().size() + 1, kb.causes().size());
        assertEquals(shipped.steps().size() + 2, kb.steps().size());
        assertTrue(kb.markers().stream().anyMatch(m -> m.id().equals(SiteOverlay.MARKER) && m.server().equals("common")));
        assertEquals(tmp.resolve("site/knowledge-base/site.yaml").toAbsolutePath(),
                kb.origin("steps", SiteOverlay.STEP).orElseThrow().file());
        assertEquals(KB.resolve("remediation.yaml"), kb.origin("steps", "find-the-killer").orElseThrow().file());
    }

    @Test
    void aRuleNameGivenTwiceIsRefusedNamingBothFilesWhateverThePackage() throws IOException {
        for (String pkg : List.of("triage.rules", "site.rules")) {
            Path f = overlayFile("rules/ours.drl", """
                    package %s

                    import io.triage.facts.*;

                    rule "site: our own rule"
                    when
                        Symptom(id == "health-refused")
                    then
                    end

                    rule "health connection refused"
                    when
                        Symptom(id == "health-refused")
                    then
                    end
                    """.formatted(pkg));
            RuleBaseException e = assertThrows(RuleBaseException.class,
                    () -> RuleBase.load(TestHome.HOME.resolve("rules"), f.getParent()));
            String all = e.problems().toString();
            int shippedLine = lineOf(TestHome.HOME.resolve("rules/10-symptoms.drl"), "rule \"health connection refused\"");
            assertTrue(all.contains("10-symptoms.drl:" + shippedLine), pkg + ": names the shipped file and line: " + all);
            assertTrue(all.contains(f + ":11"), pkg + ": names the overlay's file and line: " + all);
            assertEquals(1, e.problems().size(), all);
            assertEquals(f.toString(), e.problems().get(0).file());
        }
    }

    @Test
    void anUnknownSectionIsRefusedWithItsLine() throws IOException {
        Path f = overlayFile("knowledge-base/site.yaml", "about: x\ncauzes:\n  a: {title: t, rank: 1}\n");
        String m = refusal();
        assertTrue(m.contains(f + ":2") && m.contains("unknown section 'cauzes'"), m);
    }

    @Test
    void theOverlayIsHostileInputLinksAndSizesAreBounded() throws IOException {
        Path outside = tmp.resolve("outside.yaml");
        Files.writeString(outside, "symptoms:\n  site-x: X\n");
        Path site = tmp.resolve("site");
        Files.createDirectories(site.resolve("knowledge-base"));
        Files.createSymbolicLink(site.resolve("knowledge-base/linked.yaml"), outside);
        String m = assertThrows(KnowledgeException.class, () -> Overlay.open(site)).getMessage();
        assertTrue(m.contains("linked.yaml is a symbolic link"), m);
        Files.delete(site.resolve("knowledge-base/linked.yaml"));

        Files.createSymbolicLink(site.resolve("rules"), TestHome.HOME.resolve("rules"));
        m = assertThrows(KnowledgeException.class, () -> Overlay.open(site)).getMessage();
        assertTrue(m.contains("rules is a symbolic link"), m);
        Files.delete(site.resolve("rules"));

        Path linkedOverlay = tmp.resolve("linked-site");
        Files.createSymbolicLink(linkedOverlay, site);
        m = assertThrows(KnowledgeException.class, () -> Overlay.open(linkedOverlay)).getMessage();
        assertTrue(m.contains("is a symbolic link"), m);

        Files.write(site.resolve("knowledge-base/huge.yaml"), new byte[(int) Overlay.MAX_FILE_BYTES + 1]);
        m = assertThrows(KnowledgeException.class, () -> Overlay.open(site)).getMessage();
        assertTrue(m.contains("huge.yaml is larger than 1024 KiB"), m);
        Files.delete(site.resolve("knowledge-base/huge.yaml"));

        m = assertThrows(KnowledgeException.class, () -> Overlay.open(tmp.resolve("missing"))).getMessage();
        assertTrue(m.contains("overlay directory not found"), m);
        Files.createDirectories(tmp.resolve("empty"));
        m = assertThrows(KnowledgeException.class, () -> Overlay.open(tmp.resolve("empty"))).getMessage();
        assertTrue(m.contains("holds neither rules/ nor knowledge-base/"), m);

        // a fragment that is not a map of sections is refused, not half read
        Files.writeString(site.resolve("knowledge-base/list.yaml"), "- a\n- b\n");
        m = assertThrows(KnowledgeException.class, () -> KnowledgeBase.load(KB, Overlay.open(site))).getMessage();
        assertTrue(m.contains("list.yaml") && m.contains("a map of sections"), m);
    }
}
