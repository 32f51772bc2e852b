package io.triage.explain;

import io.triage.ScenarioSuite;
import io.triage.TestHome;
import io.triage.Triage;
import io.triage.capture.Capture;
import io.triage.capture.ProbeOutput;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The same evidence, presented as people and tools present it, gets the same answer. Every scenario is diagnosed
 * again after its text is changed the way terminals, editors and log collectors change it: CRLF line ends (in its
 * files: the capture's readers make them LF at the boundary), colour
 * codes around the log levels, and a {@code docker compose} service prefix on every log line. Each variant must
 * meet the scenario's whole expectation.
 *
 * <p>And evidence pasted rather than collected (every probe's exit code, time and command lost, its error text run
 * into its output as a terminal shows it) may be answered less surely, but never wrongly at high confidence, nor more surely than collected.
 */
class PresentationVariantsTest {
    private static final Pattern LEVEL = Pattern.compile("\\b(INFO|WARNING|ERROR)\\b");
    private static final List<String> RANK = List.of("low", "medium", "high");
    private static final Pattern NUMBERED = Pattern.compile("^(\\d+[:-])(.*)$");

    @TestFactory
    Stream<DynamicTest> everyScenarioKeepsItsVerdictWhateverTheTextLooksLike() {
        Triage triage = TestHome.triage();
        return ScenarioSuite.find(List.of(TestHome.SCENARIOS)).stream().flatMap(dir -> Stream.of(
                crlfFiles(triage, dir),
                variant(triage, dir, "colours", logLines(l -> LEVEL.matcher(l).replaceAll("\u001b[32m$1\u001b[0m"))),
                variant(triage, dir, "compose prefix", logLines(l -> "inference-1  | " + l))));
    }

    @TestFactory
    Stream<DynamicTest> pastedEvidenceIsNeverWronglyCertain() {
        Triage triage = TestHome.triage();
        return ScenarioSuite.find(List.of(TestHome.SCENARIOS)).stream().map(dir ->
                DynamicTest.dynamicTest(TestHome.SCENARIOS.relativize(dir) + " pasted", () -> {
                    Expectation e = Expectation.read(dir);
                    Capture c = triage.reader().read(dir);
                    Diagnosis collected = triage.diagnose(c, Map.of());
                    Diagnosis d = triage.diagnose(pasted(c), Map.of());
                    if (d.confidence().equals("high")) {
                        assertTrue(d.cause().equals(e.cause()) || e.accept().contains(d.cause()),
                                "pasted, " + d.cause() + " at high confidence; expected " + e.cause() + " " + e.accept());
                    }
                    if (d.cause().equals(collected.cause())) {
                        assertTrue(RANK.indexOf(d.confidence()) <= RANK.indexOf(collected.confidence()),
                                "pasted, " + d.cause() + " at " + d.confidence() + "; collected, at " + collected.confidence());
                    }
                }));
    }

    private static DynamicTest variant(Triage triage, Path dir, String name, UnaryOperator<ProbeOutput> change) {
        return DynamicTest.dynamicTest(TestHome.SCENARIOS.relativize(dir) + " " + name, () -> {
            Capture c = triage.reader().read(dir);
            Map<String, ProbeOutput> probes = new LinkedHashMap<>();
            c.probes().forEach((k, p) -> probes.put(k, change.apply(p)));
            Diagnosis d = triage.diagnose(new Capture(c.source(), probes, c.target(), c.intent(), c.notes()), Map.of());
            assertEquals(List.of(), Expectation.read(dir).failures(d), name);
        });
    }

    /** The scenario's files saved with CRLF line ends (an editor on Windows, a paste from a ticket), read back. */
    private static DynamicTest crlfFiles(Triage triage, Path dir) {
        return DynamicTest.dynamicTest(TestHome.SCENARIOS.relativize(dir) + " CRLF", () -> {
            Path copy = Files.createTempDirectory("crlf");
            try {
                try (Stream<Path> files = Files.list(dir)) {
                    for (Path f : files.toList()) {
                        byte[] b = Files.readAllBytes(f);
                        String s = new String(b, StandardCharsets.ISO_8859_1); // byte for byte, any encoding
                        Files.writeString(copy.resolve(f.getFileName()), s.replace("\n", "\r\n"), StandardCharsets.ISO_8859_1);
                    }
                }
                Diagnosis d = triage.diagnose(triage.reader().read(copy), Map.of());
                assertEquals(List.of(), Expectation.read(dir).failures(d), "CRLF");
            } finally {
                try (Stream<Path> files = Files.list(copy)) {
                    for (Path f : files.toList()) {
                        Files.delete(f);
                    }
                }
                Files.delete(copy);
            }
        });
    }

    /**
     * A change to every line of the server's log (grep's line numbers kept in front), in both takes of a second look:
     * the terminal or the collector that colours or prefixes the first does the same to the second.
     */
    private static UnaryOperator<ProbeOutput> logLines(UnaryOperator<String> change) {
        return p -> {
            if (!p.name().equals("log_tail") && !p.name().equals("log_tail_2") && !p.name().equals("log_markers") || p.out() == null) {
                return p;
            }
            StringBuilder b = new StringBuilder();
            for (String line : p.out().split("\n", -1)) {
                if (!b.isEmpty()) {
                    b.append('\n');
                }
                Matcher m = NUMBERED.matcher(line);
                if (line.isEmpty()) {
                    continue;
                } else if (p.name().equals("log_markers") && m.matches()) {
                    b.append(m.group(1)).append(change.apply(m.group(2)));
                } else {
                    b.append(change.apply(line));
                }
            }
            return new ProbeOutput(p.name(), p.cmd(), b.toString(), p.err(), p.rc(), p.seconds(), p.truncated());
        };
    }

    /**
     * What a terminal shows of each probe: its error text, then its output; no exit code, time or command. The log's
     * tail is saved under a name of the person's ({@code server.log}).
     */
    private static Capture pasted(Capture c) {
        Map<String, ProbeOutput> probes = new LinkedHashMap<>();
        c.probes().forEach((k, p) -> {
            String err = p.err() == null || p.err().isBlank() ? "" : p.err().endsWith("\n") ? p.err() : p.err() + "\n";
            String out = err + p.outOrEmpty();
            String name = k.equals("log_tail") ? "server_log" : k;
            probes.put(name, new ProbeOutput(name, null, out.isEmpty() ? null : out, null, null, null, p.truncated()));
        });
        return new Capture(c.source(), probes, c.target(), c.intent(), c.notes());
    }
}
