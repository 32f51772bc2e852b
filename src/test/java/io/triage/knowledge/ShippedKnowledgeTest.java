package io.triage.knowledge;

import io.triage.TestHome;
import io.triage.engine.RuleBase;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Loads every shipped rule and knowledge file exactly as the product does at start-up, so that a
 * typo can never ship: rule errors and warnings both fail, and every id a rule uses has its text.
 */
class ShippedKnowledgeTest {
    private static final Path RULES = TestHome.HOME.resolve("rules");
    private static final Path KB = TestHome.HOME.resolve("knowledge-base");

    @Test
    void everyRuleFileCompilesWithoutErrorsOrWarnings() {
        // some warnings (a constraint on another pattern's variable) are only logged when the base is
        // built, not reported in the builder's results: catch those on stderr too
        java.io.PrintStream err = System.err;
        java.io.ByteArrayOutputStream logged = new java.io.ByteArrayOutputStream();
        RuleBase rules;
        try {
            System.setErr(new java.io.PrintStream(logged, true, java.nio.charset.StandardCharsets.UTF_8));
            rules = RuleBase.load(RULES);
            rules.kieBase().newKieSession().dispose();
        } finally {
            System.setErr(err);
        }
        assertTrue(rules.files().size() >= 5, "rule files found: " + rules.files());
        assertEquals(java.util.List.of(), rules.warnings(), "rule compiler warnings");
        String log = logged.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(!log.contains("WARN") && !log.contains("ERROR"), "the rule engine warned while building:\n" + log);
    }

    @Test
    void everyKnowledgeFileLoads() {
        KnowledgeBase kb = KnowledgeBase.load(KB);
        io.triage.safety.SecretShapes.load(KB);
        assertTrue(kb.markers().size() > 50, "markers: " + kb.markers().size());
        for (String server : new String[] {"sglang", "vllm", "tgi"}) {
            assertTrue(kb.markers().stream().anyMatch(m -> m.server().equals(server)), "markers for " + server);
        }
        for (String kind : Marker.KINDS) {
            assertTrue(kb.markers().stream().anyMatch(m -> m.kind().equals(kind)), "no marker of kind " + kind);
        }
    }

    @Test
    void everySymptomAndQuestionARuleRaisesHasItsText() throws IOException {
        KnowledgeBase kb = KnowledgeBase.load(KB);
        Set<String> symptoms = idsIn("new Symptom\\(\"([a-z0-9-]+)\"");
        Set<String> questions = idsIn("new Question\\(\"([a-z0-9-]+)\"");
        for (String s : symptoms) {
            assertTrue(kb.symptomTexts().containsKey(s), "texts.yaml has no sentence for symptom " + s);
        }
        for (String q : questions) {
            if (!q.equals("probe-")) {
                assertTrue(kb.questions().containsKey(q), "texts.yaml has no question " + q);
            }
        }
        assertTrue(symptoms.size() > 30, "symptoms found in rules: " + symptoms.size());
    }

    @Test
    void everyCauseARuleConcludesIsInTheCatalogueAndHasSteps() throws IOException {
        KnowledgeBase kb = KnowledgeBase.load(KB);
        Set<String> causes = idsIn("new Hypothesis\\(\"([a-z0-9-]+)\"");
        for (String c : causes) {
            assertTrue(kb.causes().containsKey(c), "causes.yaml lacks " + c);
            assertTrue(kb.adviceOptions().stream().anyMatch(o -> o.cause().equals(c)), "no next step offered for " + c);
        }
        for (String c : kb.causes().keySet()) {
            assertTrue(causes.contains(c), "no rule concludes " + c);
        }
    }

    private static Set<String> idsIn(String regex) throws IOException {
        Pattern p = Pattern.compile(regex);
        Set<String> ids = new LinkedHashSet<>();
        try (Stream<Path> files = Files.list(RULES)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".drl")).toList()) {
                Matcher m = p.matcher(Files.readString(f));
                while (m.find()) {
                    ids.add(m.group(1));
                }
            }
        }
        return ids;
    }
}
