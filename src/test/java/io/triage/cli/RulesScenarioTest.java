package io.triage.cli;

import io.triage.TestHome;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RulesScenarioTest {
    private static final String HF = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123";

    @TempDir
    Path tmp;
    Path home;
    Path scenarios;
    Path capture;

    private record Run(int code, String out, String err) { }

    private Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] all = new String[args.length + 2];
        all[0] = "--home";
        all[1] = home.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        int code = Main.run(all, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    /** A home of its own with no scenarios, and a copy of an external-kill capture whose process list holds a token. */
    @BeforeEach
    void setUp() throws IOException {
        home = tmp.resolve("home");
        Path kb = TestHome.HOME.resolve("knowledge-base");
        for (Path top : List.of(TestHome.HOME.resolve("rules"), kb)) {
            try (Stream<Path> s = Files.walk(top)) {
                for (Path f : s.filter(p -> !p.startsWith(kb.resolve("scenarios"))).toList()) {
                    Path to = home.resolve(TestHome.HOME.relativize(f).toString());
                    if (Files.isDirectory(f)) {
                        Files.createDirectories(to);
                    } else {
                        Files.copy(f, to);
                    }
                }
            }
        }
        scenarios = Files.createDirectories(home.resolve("knowledge-base/scenarios"));
        capture = Files.createDirectories(tmp.resolve("incident-0412"));
        Path from = TestHome.fixture("04-external-kill-shell-killed-clean-dmesg");
        try (Stream<Path> s = Files.list(from)) {
            for (Path f : s.filter(p -> !p.getFileName().toString().matches("expected.txt|TRUTH.txt")).toList()) {
                Files.copy(f, capture.resolve(f.getFileName()));
            }
        }
        Files.writeString(capture.resolve("ps.out"), Files.readString(capture.resolve("ps.out"))
                + "root 999 0.0 0.0 1000 100 ? S 10:00 0:00 python3 tool.py HF_TOKEN=" + HF + "\n");
    }

    @Test
    void aCaptureThatGivesTheExpectedVerdictBecomesAPassingScenario() throws Exception {
        Run r = run("rules", "scenario", "add", capture.toString(), "--expect", "external-kill", "--not", "oom-killer,crash");
        assertEquals(0, r.code(), r.out() + r.err());
        Path dir = scenarios.resolve("external-kill-incident-0412");
        assertTrue(r.out().contains("PASS external-kill-incident-0412: verdict external-kill"), r.out());
        assertEquals("cause=external-kill not=oom-killer,crash\n", Files.readString(dir.resolve("expected.txt")));
        assertTrue(Files.readString(dir.resolve("TRUTH.txt")).contains("incident-0412"));
        String ps = Files.readString(dir.resolve("ps.out"));
        assertFalse(ps.contains(HF), "the saved scenario holds the token");
        assertTrue(ps.contains("‹redacted:"), ps);
        // it is a scenario like any other
        Run test = run("rules", "test", dir.toString());
        assertEquals(0, test.code(), test.out());
        assertTrue(test.out().contains("1 passed, 0 failed"), test.out());
    }

    @Test
    void aWrongExpectationFailsAndTheScenarioIsKeptForTheAuthor() {
        Run r = run("rules", "scenario", "add", capture.toString(), "--expect", "oom-killer", "--name", "field/oom-that-was-not");
        assertEquals(3, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("FAIL field/oom-that-was-not: verdict external-kill"), r.out());
        assertTrue(r.out().contains("expected oom-killer"), r.out());
        assertTrue(r.out().contains("triage rules explain oom-killer"), r.out());
        assertTrue(Files.isRegularFile(scenarios.resolve("field/oom-that-was-not/expected.txt")));
    }

    @Test
    void namesThatLeaveTheScenariosDirectoryAreRefused() throws Exception {
        for (String bad : List.of("../escaped", "a/../../escaped", "/tmp/escaped", ".hidden", "a//b", "a b", "-x", "a/./b", "")) {
            Run r = run("rules", "scenario", "add", capture.toString(), "--expect", "external-kill", "--name", bad);
            assertEquals(2, r.code(), bad + ": " + r.out() + r.err());
        }
        assertFalse(Files.exists(home.resolve("knowledge-base/escaped")));
        assertFalse(Files.exists(tmp.resolve("escaped")));
        try (Stream<Path> s = Files.list(scenarios)) {
            assertEquals(0, s.count(), "nothing written under scenarios/");
        }
    }

    @Test
    void anExistingScenarioIsNeverOverwritten() throws Exception {
        assertEquals(0, run("rules", "scenario", "add", capture.toString(), "--expect", "external-kill", "--name", "k").code());
        Run again = run("rules", "scenario", "add", capture.toString(), "--expect", "crash", "--name", "k");
        assertEquals(2, again.code());
        assertTrue(again.err().contains("already exists"), again.err());
        assertEquals("cause=external-kill\n", Files.readString(scenarios.resolve("k/expected.txt")));
    }

    @Test
    void symbolicLinksAreRefusedOrNotFollowed() throws Exception {
        Path link = Files.createSymbolicLink(tmp.resolve("link-to-capture"), capture);
        Run r = run("rules", "scenario", "add", link.toString(), "--expect", "external-kill");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("symbolic link"), r.err());

        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.createSymbolicLink(scenarios.resolve("linked"), outside);
        Run through = run("rules", "scenario", "add", capture.toString(), "--expect", "external-kill", "--name", "linked/x");
        assertEquals(2, through.code());
        try (Stream<Path> s = Files.list(outside)) {
            assertEquals(0, s.count(), "written through a link");
        }

        // a link inside the capture is not copied
        Path secret = Files.writeString(tmp.resolve("secret.txt"), "the content of some other file\n");
        Files.createSymbolicLink(capture.resolve("dmesg.err"), secret);
        assertEquals(0, run("rules", "scenario", "add", capture.toString(), "--expect", "external-kill", "--name", "with-link").code());
        Path dir = scenarios.resolve("with-link");
        assertFalse(Files.exists(dir.resolve("dmesg.err")));
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : s.toList()) {
                assertFalse(Files.isSymbolicLink(f));
                assertFalse(Files.readString(f).contains("the content of some other file"), f.toString());
            }
        }
    }

    @Test
    void anUnknownCauseIsRefusedBeforeAnythingIsWritten() throws Exception {
        Run r = run("rules", "scenario", "add", capture.toString(), "--expect", "gremlins");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("unknown cause 'gremlins'"), r.err());
        Run sub = run("rules", "scenario", "add", capture.toString(), "--expect", "crash/Not A Subtype");
        assertEquals(2, sub.code());
        try (Stream<Path> s = Files.list(scenarios)) {
            assertEquals(0, s.count());
        }
    }
}
