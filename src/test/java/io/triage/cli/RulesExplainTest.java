package io.triage.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.triage.TestHome;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RulesExplainTest {
    private record Run(int code, String out, String err) { }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    private static final String KILLED = TestHome.fixture("04-external-kill-shell-killed-clean-dmesg").toString();

    @Test
    void explainSaysWhichConditionOfTheOomRulesTheCaptureDidNotMeet() {
        Run r = run("--home", TestHome.HOME.toString(), "rules", "explain", "oom-killer", KILLED);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("Why not oom-killer"), r.out());
        assertTrue(r.out().contains("the verdict is external-kill"), r.out());
        assertTrue(r.out().contains("✗ line ") && r.out().contains("the kernel OOM killer killed a server process"), r.out());
        assertTrue(r.out().contains("\"OOM killer killed the server\" (30-hypotheses.drl:"), r.out());
    }

    @Test
    void explainAsJsonListsEachConditionMetOrNot() throws Exception {
        Run r = run("--home", TestHome.HOME.toString(), "rules", "explain", "oom-killer", KILLED, "--format", "json");
        assertEquals(0, r.code(), r.err());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals("triage.whynot/v1", j.get("schema").asText());
        assertEquals(0, j.get("concluded").size());
        boolean unmetKernel = false;
        for (JsonNode rule : j.get("rules")) {
            for (JsonNode c : rule.get("conditions")) {
                unmetKernel |= c.get("met").asText().equals("unmet") && c.get("condition").asText().contains("kernel-oom-kill");
            }
        }
        assertTrue(unmetKernel, r.out());
    }

    @Test
    void anUnknownCauseOrAMissingCaptureIsUnusableInput() {
        Run cause = run("--home", TestHome.HOME.toString(), "rules", "explain", "gremlins", KILLED);
        assertEquals(2, cause.code());
        assertTrue(cause.err().contains("unknown cause 'gremlins'") && cause.err().contains("oom-killer"), cause.err());
        Run missing = run("--home", TestHome.HOME.toString(), "rules", "explain", "oom-killer", KILLED + "-nowhere");
        assertEquals(2, missing.code(), missing.out() + missing.err());
    }
}
