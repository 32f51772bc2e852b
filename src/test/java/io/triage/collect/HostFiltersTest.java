package io.triage.collect;

import io.triage.TestHome;
import io.triage.capture.Capture;
import io.triage.knowledge.KnowledgeBase;
import io.triage.knowledge.LinePattern;
import io.triage.knowledge.LogFilter;
import io.triage.knowledge.Marker;
import io.triage.knowledge.RegexExamples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The script's filters are generated from the knowledge base, and a real bash with the real grep selects with
 * them what the catalogue describes: every marker's lines in a log, every server's and client's command line in a
 * process listing, and a marker file that only a new home holds.
 */
class HostFiltersTest {
    @TempDir
    Path tmp;

    /** Runs a command under bash with the given environment; its stdout. */
    private static String bash(String command, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", command).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("LC_ALL", "C");
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return out;
    }

    private static String probe(ProbeBundle b, String name) {
        return b.probes().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow().command();
    }

    /**
     * Lines that the marker's own pattern matches, drawn from its regex (every branch, by many draws); keyed by id,
     * as one marker with several branches is several entries of the catalogue.
     */
    private static Map<String, List<String>> linesPerMarker(List<Marker> markers) {
        RegexExamples ex = new RegexExamples(7);
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (Marker m : markers) {
            List<String> lines = out.computeIfAbsent(m.id(), k -> new ArrayList<>());
            for (String s : ex.draw(m.pattern().pattern(), 200)) {
                if (s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
                    continue;
                }
                // behind a log line's usual head where the pattern allows it, else as it is
                for (String line : List.of("INFO 11-30 00:31:05 " + s, s)) {
                    if (m.pattern().find(line) != null) {
                        if (!lines.contains(line)) {
                            lines.add(line);
                        }
                        break;
                    }
                }
            }
        }
        return out;
    }

    @Test
    void everyMarkerOfTheCatalogueIsSelectedOnTheHostByTheGeneratedFilter() throws Exception {
        KnowledgeBase kb = KnowledgeBase.load(TestHome.HOME.resolve("knowledge-base"));
        LogFilter f = TestHome.filters().log();
        assertEquals(List.of(), f.unfiltered(), "markers without a fixed string the host can select them by");
        String command = probe(TestHome.bundle(null, 1, tmp.resolve("server.log").toString()), "log_markers");
        Map<String, List<String>> lines = linesPerMarker(kb.markers());
        List<String> missed = new ArrayList<>();
        int checked = 0;
        for (Map.Entry<String, List<String>> e : lines.entrySet()) {
            List<String> mine = e.getValue();
            assertFalse(mine.isEmpty(), "no line could be built for marker " + e.getKey());
            boolean routine = kb.markers().stream().anyMatch(m -> m.id().equals(e.getKey())
                    && Marker.ROUTINE_KINDS.contains(m.kind()));
            // fewer lines than the probe keeps of the marker's class, so every one of them must come back
            mine = mine.subList(0, Math.min(mine.size(), routine ? ProbeBundle.ROUTINE_LINES : ProbeBundle.RARE_LINES));
            Path log = Files.writeString(tmp.resolve("server.log"), String.join("\n", mine) + "\n");
            String out = bash(command, Map.of("T_LOG", log.toString()));
            TreeSet<Integer> got = new TreeSet<>();
            for (String l : out.split("\n")) {
                if (!l.isEmpty()) {
                    got.add(Integer.parseInt(l.substring(0, l.indexOf(':'))));
                }
            }
            for (int i = 0; i < mine.size(); i++) {
                checked++;
                if (!got.contains(i + 1)) {
                    missed.add(e.getKey() + ": " + mine.get(i));
                }
            }
        }
        assertEquals(List.of(), missed, "marker lines the generated filter did not select");
        assertTrue(lines.size() >= 150 && checked >= 1000, lines.size() + " markers, " + checked + " lines");
    }

    @Test
    void rareLinesAreNotPushedOutByRequestLines() throws Exception {
        List<String> log = new ArrayList<>();
        log.add("INFO 11-30 00:30:01 [api_server.py:1000] vLLM API server version 0.9.1");
        log.add("INFO 11-30 00:30:01 [api_server.py:1001] non-default args: {'model': 'm', 'port': 8000}");
        for (int i = 0; i < 500; i++) {
            log.add("INFO:     127.0.0.1:5" + i + " - \"POST /v1/completions HTTP/1.1\" 200 OK");
        }
        for (int i = 0; i < 200; i++) {
            log.add("plain chatter " + i);
        }
        Path file = Files.writeString(tmp.resolve("busy.log"), String.join("\n", log) + "\n");
        String out = bash(probe(TestHome.bundle("vllm", 8000, file.toString()), "log_markers"),
                Map.of("T_LOG", file.toString()));
        List<String> lines = out.lines().toList();
        assertTrue(lines.get(0).startsWith("1:") && lines.get(1).startsWith("2:"), out);
        assertEquals(2 + ProbeBundle.ROUTINE_LINES, lines.size(), out);
        assertTrue(lines.get(lines.size() - 1).startsWith("502:"), "in file order, the newest request last: " + out);
    }

    @Test
    void aMarkerFileAddedInAnotherHomeIsSelectedWithNoCodeChange() throws Exception {
        Path home = tmp.resolve("home");
        Path kbDir = home.resolve("knowledge-base");
        copy(TestHome.HOME.resolve("knowledge-base"), kbDir);
        Files.writeString(kbDir.resolve("markers/frobnicator.yaml"), """
                server: frobnicator
                markers:
                  - id: frobnicator.melted
                    kind: error
                    subtype: cuda-error
                    priority: 50
                    pattern: 'Frobnicator core (?<message>\\d+) melted down'
                    note: 'a server the shipped catalogue does not know'
                """);
        KnowledgeBase kb = KnowledgeBase.load(kbDir);
        ProbeBundle b = ProbeBundle.forTarget(null, 1, tmp.resolve("f.log").toString()).with(HostFilters.of(kb));
        assertTrue(b.filters().log().rare().contains("frobnicator core"), b.filters().log().rare().toString());
        List<String> log = new ArrayList<>();
        log.add("2026-11-30 00:31:05 Frobnicator core 3 melted down");
        for (int i = 0; i < 300; i++) {
            log.add("2026-11-30 00:31:06 waiting " + i);
        }
        Path file = Files.writeString(tmp.resolve("f.log"), String.join("\n", log) + "\n");
        // the whole script, as a look runs it: the line is far out of the tail, and the marker grep brings it back
        String answer = ProbeBundleTest.bash(b.script());
        Capture c = BundleOutput.parse("local", b, answer, Map.of(), List.of());
        assertEquals("1:2026-11-30 00:31:05 Frobnicator core 3 melted down\n", c.probes().get("log_markers").out());
        assertFalse(c.probes().get("log_tail").out().contains("Frobnicator"));
        // the shipped filter never heard of it
        assertFalse(bash(probe(TestHome.bundle(null, 1, file.toString()), "log_markers"), Map.of("T_LOG", file.toString()))
                .contains("Frobnicator"));
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.filter(p -> !p.toString().contains("/scenarios/") && !p.endsWith("scenarios")).toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        }
    }

    @Test
    void everyProcessPatternOfTheCatalogueIsFoundInAPsLineBuiltFromIt() throws Exception {
        KnowledgeBase kb = KnowledgeBase.load(TestHome.HOME.resolve("knowledge-base"));
        HostFilters f = TestHome.filters();
        RegexExamples ex = new RegexExamples(11);
        List<String> servers = new ArrayList<>();
        List<String> clients = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String r : kb.processes().serverRegexes()) {
            servers.addAll(commandLines(ex, r, missing));
        }
        for (String r : kb.processes().clientRegexes()) {
            clients.addAll(commandLines(ex, r, missing));
        }
        assertEquals(List.of(), missing, "patterns no command line could be built for");
        StringBuilder ps = new StringBuilder("    PID    PPID STAT ELAPSED   RSS COMMAND\n");
        List<String> all = new ArrayList<>(servers);
        all.addAll(clients);
        for (int i = 0; i < all.size(); i++) {
            ps.append(String.format("%7d %7d Sl    %5d 20480 %s%n", 1000 + i, 1, 60 + i, all.get(i)));
        }
        Path listing = Files.writeString(tmp.resolve("ps.txt"), ps.toString());
        // the ps probe's own filter, with ps replaced by the listing above
        String psProbe = probe(TestHome.bundle(null, 30000, null), "ps");
        assertTrue(psProbe.startsWith("ps -eo pid,ppid,stat,etimes,rss,args | "), psProbe);
        String selected = bash("cat \"$LISTING\" | " + psProbe.substring(psProbe.indexOf('|') + 1),
                Map.of("LISTING", listing.toString()));
        List<String> lost = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            if (!selected.contains(String.format("%7d %7d", 1000 + i, 1))) {
                lost.add(all.get(i));
            }
        }
        assertEquals(List.of(), lost, "command lines the ps filter dropped");
        assertTrue(selected.startsWith("    PID"), "the header is kept: " + selected);
        // pgrep's pattern finds every server line, and the script's client pattern every client line
        Path serverLines = Files.writeString(tmp.resolve("servers.txt"), String.join("\n", servers) + "\n");
        Path clientLines = Files.writeString(tmp.resolve("clients.txt"), String.join("\n", clients) + "\n");
        assertEquals(servers.size(), count(bash("grep -c -E -- \"$E\" \"$F\"", Map.of("E", f.serverEre(), "F", serverLines.toString()))));
        assertEquals(clients.size(), count(bash("grep -c -E -- \"$E\" \"$F\"", Map.of("E", f.clientEre(), "F", clientLines.toString()))));
        assertTrue(servers.size() >= 25 && clients.size() >= 10, servers.size() + " server lines, " + clients.size() + " client lines");
    }

    private static int count(String grepC) {
        return Integer.parseInt(grepC.strip());
    }

    /** Command lines the pattern matches (as ps shows args), a few per pattern. */
    private static List<String> commandLines(RegexExamples ex, String regex, List<String> missing) {
        LinePattern p = LinePattern.compile(regex, List.of());
        List<String> out = new ArrayList<>();
        for (String s : ex.draw(regex, 100)) {
            String line = regex.startsWith("^") ? s + " --port 30000" : "python3 -m " + s + " --port 30000";
            if (!s.isBlank() && s.indexOf('\n') < 0 && p.find(line) != null && !out.contains(line)) {
                out.add(line);
            }
            if (out.size() == 4) {
                break;
            }
        }
        if (out.isEmpty()) {
            missing.add(regex);
        }
        return out;
    }
}
