package io.triage.explain;

import io.triage.TestHome;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The explanation is what the engine did: rule names that exist and fired, ending on the capture's lines. */
class ExplanationTest {

    private static Set<String> ruleNames() {
        return TestHome.triage().rules().kieBase().getKiePackages().stream()
                .flatMap(p -> p.getRules().stream()).map(r -> r.getName()).collect(Collectors.toSet());
    }

    private static void walk(Diagnosis.Node n, List<Diagnosis.Node> out) {
        out.add(n);
        n.premises().forEach(p -> walk(p, out));
    }

    @Test
    void everyRuleInTheChainExistsAndFiredAndEveryLeafIsACapturedLine() throws Exception {
        Diagnosis d = TestHome.triage().replay(TestHome.fixture("h200/02-external-kill"), Map.of());
        List<Diagnosis.Node> nodes = new ArrayList<>();
        d.hypotheses().get(0).because().forEach(n -> walk(n, nodes));
        Set<String> names = ruleNames();
        List<String> fired = d.engine().rulesFiredNames();
        int rules = 0;
        for (Diagnosis.Node n : nodes) {
            if (!n.rule().isEmpty()) {
                rules++;
                assertTrue(names.contains(n.rule()), "no such rule: " + n.rule());
                assertTrue(fired.contains(n.rule()), "rule in the chain did not fire: " + n.rule());
                assertFalse(n.rationale().isEmpty(), "rule without rationale: " + n.rule());
            }
        }
        assertTrue(rules >= 4, "chain too shallow: " + rules);
        List<Diagnosis.Evidence> leaves = nodes.stream().map(Diagnosis.Node::evidence).filter(e -> e != null).toList();
        assertTrue(leaves.stream().anyMatch(e -> e.probe().equals("gpus") && e.excerpt().contains("0 MiB")), leaves.toString());
        assertTrue(leaves.stream().anyMatch(e -> e.probe().startsWith("log_") && e.line() > 0), leaves.toString());
    }

    @Test
    void externalKillIsConcludedOnlyAfterEachAlternativeWasExamined() throws Exception {
        Diagnosis d = TestHome.triage().replay(TestHome.fixture("h200/02-external-kill"), Map.of());
        Set<String> examined = d.ruledOut().stream().map(Diagnosis.Exclusion::cause).collect(Collectors.toSet());
        assertEquals(Set.of("oom-killer", "crash", "graceful-shutdown", "gpu-fault"), examined);
        assertTrue(d.ruledOut().stream().allMatch(e -> e.status().equals("ruled-out")));
        assertEquals("high", d.confidence());
    }

    @Test
    void withoutTheKernelLogTheOomKillerIsNotRuledOutAndConfidenceDrops() throws Exception {
        java.nio.file.Path copy = java.nio.file.Files.createTempDirectory("triage-nodmesg");
        try (var s = java.nio.file.Files.list(TestHome.fixture("h200/02-external-kill"))) {
            for (java.nio.file.Path f : s.toList()) {
                if (!f.getFileName().toString().startsWith("dmesg")) {
                    java.nio.file.Files.copy(f, copy.resolve(f.getFileName()));
                }
            }
        }
        java.nio.file.Files.writeString(copy.resolve("_probes.txt"),
                java.nio.file.Files.readString(copy.resolve("_probes.txt")).replaceAll("(?m)^dmesg.*\\n", ""));
        Diagnosis d = TestHome.triage().replay(copy, Map.of());
        assertEquals("external-kill", d.cause());
        assertEquals("medium", d.confidence());
        assertTrue(d.ruledOut().stream().anyMatch(e -> e.cause().equals("oom-killer") && e.status().equals("not-ruled-out")
                && e.missing().equals("dmesg")));
        assertTrue(d.questions().stream().anyMatch(q -> q.id().equals("probe-dmesg")), d.questions().toString());
        assertTrue(d.coverage().absent().contains("dmesg"));
    }

    @Test
    void theSeedStoryAsksWhetherANewLaunchWasExpected() throws Exception {
        Diagnosis d = TestHome.triage().replay(TestHome.fixture("h200/02-external-kill"), Map.of());
        assertTrue(d.questions().stream().anyMatch(q -> q.id().equals("intent")), d.questions().toString());
    }

    @Test
    void aStepAboutAProcessStuckInTheKernelNamesTheStuckProcessNotItsLauncher() throws Exception {
        // ps: the launcher 2711 and the router start first; 2760, the shard, is in state D
        Diagnosis d = TestHome.triage().replay(TestHome.fixture("26-hung-uninterruptible-tgi-nfs"), Map.of());
        List<String> commands = d.nextSteps().stream().map(Diagnosis.Step::command).filter(c -> c.contains("/proc/")).toList();
        assertTrue(!commands.isEmpty(), d.nextSteps().toString());
        assertTrue(commands.stream().allMatch(c -> c.contains("/proc/2760/") && !c.contains("2711")), commands.toString());
    }
}
