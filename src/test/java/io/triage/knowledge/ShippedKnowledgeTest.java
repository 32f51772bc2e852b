package io.triage.knowledge;

import io.triage.TestHome;
import io.triage.engine.Consistency;
import io.triage.engine.RuleBase;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

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

    /**
     * The shipped rules and knowledge agree, by the product's own load-time check ({@code Consistency}, read from
     * Drools' parse of the rules): every id a rule matches is produced, every id produced has its text, every id
     * built by concatenation has its entries, every cause concluded has its steps, every scenario names known
     * causes. Its warnings (produced, never used) are printed for the rule authors.
     */
    @Test
    void theShippedRulesAndKnowledgeAgreeIncludingEveryScenario() {
        KnowledgeBase kb = KnowledgeBase.load(KB);
        RuleBase rules = RuleBase.load(RULES);
        Consistency.Report r = Consistency.check(rules, RULES, kb, KB, io.triage.Triage.probeNames(),
                KB.resolve("scenarios"));
        assertEquals(java.util.List.of(), r.errors(), "consistency errors");
        r.warnings().forEach(w -> System.out.println("consistency " + w));
    }

    @Test
    void everyCauseOfTheCatalogueIsConcludedByARule() {
        KnowledgeBase kb = KnowledgeBase.load(KB);
        Consistency.Report r = Consistency.check(RuleBase.load(RULES), RULES, kb, KB, io.triage.Triage.probeNames(), null);
        for (String c : kb.causes().keySet()) {
            assertTrue(r.warnings().stream().noneMatch(w -> w.text().equals("no rule concludes cause " + c)),
                    "no rule concludes " + c);
        }
    }
}
