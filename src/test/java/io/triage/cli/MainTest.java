package io.triage.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.triage.TestHome;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MainTest {
    private record Run(int code, String out, String err) { }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    private static String fixture(String name) {
        return TestHome.fixture(name).toString();
    }

    @Test
    void replayPrintsTheVerdictFirstThenBecauseRuledOutAndNext() {
        Run r = run("--home", TestHome.HOME.toString(), "replay", fixture("h200/02-external-kill"));
        assertEquals(0, r.code(), r.err());
        int verdict = r.out().indexOf("VERDICT: external-kill");
        int because = r.out().indexOf("BECAUSE");
        int ruledOut = r.out().indexOf("RULED OUT");
        int next = r.out().indexOf("NEXT");
        assertTrue(verdict >= 0 && verdict < because && because < ruledOut && ruledOut < next, r.out());
    }

    @Test
    void jsonHasTheStableTopLevelContract() throws Exception {
        Run r = run("--home", TestHome.HOME.toString(), "replay", fixture("h200/04-hung-stopped"), "--format", "json");
        assertEquals(0, r.code(), r.err());
        JsonNode j = new ObjectMapper().readTree(r.out());
        for (String key : new String[] {"schema", "cause", "subtype", "confidence", "hypotheses", "ruledOut", "questions",
                "nextSteps", "coverage"}) {
            assertTrue(j.has(key), "missing " + key + " in " + j.fieldNames());
        }
        assertEquals("hung", j.get("cause").asText());
        assertEquals("stopped", j.get("subtype").asText());
        assertEquals("supported", j.get("hypotheses").get(0).get("status").asText());
    }

    @Test
    void intentOnTheCommandLineTurnsAKillIntoALaunchThatNeverHappened() {
        Run plain = run("--home", TestHome.HOME.toString(), "replay", fixture("h200/02-external-kill"), "--format", "json");
        Run withIntent = run("--home", TestHome.HOME.toString(), "replay", fixture("h200/02-external-kill"),
                "--intent", "moe_runner_backend=flashinfer_trtllm", "--format", "json");
        assertTrue(plain.out().contains("\"cause\" : \"external-kill\""));
        assertTrue(withIntent.out().contains("\"cause\" : \"launch-never-happened\""), withIntent.out());
    }

    @Test
    void unusableInputExitsTwoWithOneLineAndNoStackTrace() {
        Run r = run("--home", TestHome.HOME.toString(), "replay", "/nonexistent/capture");
        assertEquals(2, r.code());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("triage: "), r.err());
        assertFalse(r.err().contains("at io.triage"), r.err());
        assertEquals(2, run("replay").code());
        assertEquals(2, run("--home", TestHome.HOME.toString(), "replay", fixture("h200/02-external-kill"), "--format", "xml").code());
    }

    @Test
    void rulesCheckReportsWhatCompiled() {
        Run r = run("--home", TestHome.HOME.toString(), "rules", "check");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("rules compiled"), r.out());
    }

    @Test
    void aHomeWithoutRulesIsBrokenKnowledgeNotBadInput() {
        Run r = run("--home", "/nonexistent-home", "replay", fixture("h200/02-external-kill"));
        assertEquals(3, r.code(), r.err());
        assertTrue(r.err().contains("not found"), r.err());
    }

    @Test
    void theDemoDiagnosesLabHostsOverRealSsh() {
        Run r = run("--home", TestHome.HOME.toString(), "demo", "--hosts", "gpu-killed,gpu-never-launched,gpu-hung");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("VERDICT: external-kill"), r.out());
        assertTrue(r.out().contains("VERDICT: launch-never-happened"), r.out());
        assertTrue(r.out().contains("VERDICT: hung/idle"), r.out());
        assertTrue(r.out().contains("3 looks, 3 SSH execs"), r.out());
    }

    @Test
    void diagnoseRefusesHostileValuesBeforeConnecting() {
        for (String[] args : new String[][] {
            {"diagnose", "--log", "/var/log/x;id", "u@127.0.0.1:1"},
            {"diagnose", "--port", "80;id", "u@127.0.0.1:1"},
            {"diagnose", "--server", "sglang$(id)", "u@127.0.0.1:1"},
            {"diagnose", "-oProxyCommand=id"},
            {"diagnose", "u@host;id"},
        }) {
            String[] full = new String[args.length + 2];
            full[0] = "--home";
            full[1] = TestHome.HOME.toString();
            System.arraycopy(args, 0, full, 2, args.length);
            Run r = run(full);
            assertEquals(2, r.code(), String.join(" ", args) + " -> " + r.out() + r.err());
        }
    }

    @Test
    void diagnoseWithAnUnreadableKeyIsRefusedBeforeConnecting(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) {
        // the SSH client is made on a thread of its own while the hosts are selected: its refusal still reads as one
        String missing = tmp.resolve("no-such-key").toString();
        Run r = run("--home", TestHome.HOME.toString(), "diagnose", "-i", missing, "--known-hosts",
                tmp.resolve("kh").toString(), "u@127.0.0.1:1", "v@127.0.0.1:1");
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("refused: identity file not readable: " + missing), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        assertEquals("", r.out());
    }

    @Test
    void rulesTestRunsScenariosAndNamesWhatFails(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        java.nio.file.Path wrong = tmp.resolve("wrong");
        java.nio.file.Files.createDirectories(wrong);
        try (var s = java.nio.file.Files.list(TestHome.fixture("h200/02-external-kill"))) {
            for (java.nio.file.Path f : s.toList()) {
                java.nio.file.Files.copy(f, wrong.resolve(f.getFileName()));
            }
        }
        java.nio.file.Files.writeString(wrong.resolve("expected.txt"), "cause=healthy\n");
        Run r = run("--home", TestHome.HOME.toString(), "rules", "test", tmp.toString());
        assertEquals(3, r.code(), r.out());
        assertTrue(r.out().contains("FAIL") && r.out().contains("verdict external-kill"), r.out());
        assertTrue(r.out().contains("0 passed, 1 failed"), r.out());
        Run ok = run("--home", TestHome.HOME.toString(), "rules", "test", TestHome.fixture("h200").toString());
        assertEquals(0, ok.code(), ok.out());
    }

    @Test
    void replayOfAPasteSaysWhatItRecognisedBeforeTheVerdict(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws java.io.IOException {
        java.nio.file.Path dir = TestHome.fixture("06-oom-killer-host-ram-during-load");
        String paste = "here is what I see:\n$ dmesg -T | tail -20\n" + java.nio.file.Files.readString(dir.resolve("dmesg.out"))
                + "$ tail -n 60 server.log\n" + java.nio.file.Files.readString(dir.resolve("log_tail.out"));
        java.nio.file.Path file = tmp.resolve("paste.txt");
        java.nio.file.Files.writeString(file, paste);
        Run r = run("--home", TestHome.HOME.toString(), "replay", "--paste", file.toString());
        assertEquals(0, r.code(), r.err());
        String[] lines = r.out().split("\n");
        assertTrue(lines[0].startsWith("recognised: kernel log (lines 2–"), r.out());
        assertTrue(lines[1].startsWith("recognised: server log"), r.out());
        assertEquals("not read: line 1", lines[2], r.out());
        assertTrue(r.out().contains("oom-killer") || r.out().toLowerCase().contains("out-of-memory killer")
                || r.out().toLowerCase().contains("oom"), r.out());

        Run json = run("--home", TestHome.HOME.toString(), "replay", "--paste", file.toString(), "--format", "json");
        assertTrue(json.out().startsWith("{"), "with --format json the recognition goes to stderr");
        assertTrue(json.err().contains("recognised: kernel log"));
        Run missing = run("--home", TestHome.HOME.toString(), "replay", "--paste", tmp.resolve("nope").toString());
        assertEquals(2, missing.code());
        Run neither = run("--home", TestHome.HOME.toString(), "replay");
        assertEquals(2, neither.code());
    }
}
