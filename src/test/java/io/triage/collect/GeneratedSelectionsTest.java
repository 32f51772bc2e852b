package io.triage.collect;

import com.sun.net.httpserver.HttpServer;
import io.triage.TestHome;
import io.triage.knowledge.Cadence;
import io.triage.knowledge.KnowledgeBase;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The supervisor probes' server words come from {@code processes.yaml} and the markers files' aliases, and the second
 * look's {@code /metrics} series from {@code cadence.yaml}: a real bash with the real grep and awk selects with them a
 * line built from every name of the knowledge base, reads no name as a pattern, and Triton's and llama.cpp's
 * counters reach the second look's sample.
 */
class GeneratedSelectionsTest {
    private static final KnowledgeBase KB = KnowledgeBase.load(TestHome.HOME.resolve("knowledge-base"));

    private static String bash(String command, String stdin, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", command).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("LC_ALL", "C");
        pb.environment().putAll(env);
        Process p = pb.start();
        try (var in = p.getOutputStream()) {
            in.write(stdin.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // a command that reads no input may have exited before it was written: its output still decides
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return out;
    }

    private static String sacctFilter(HostFilters f) {
        return ProbeBundle.jobsFilter(f.serverWords());
    }

    /** Every name of a server the knowledge base knows: kinds, aliases, the literals of {@code containers:}. */
    private static List<String> names() {
        TreeSet<String> n = new TreeSet<>(KB.processes().servers());
        n.addAll(KB.serverAliases());
        n.addAll(KB.processes().containerLiterals());
        return List.copyOf(n);
    }

    @Test
    void everyServerNameOfTheKnowledgeBaseSelectsItsUnitContainerAndJob() throws Exception {
        HostFilters f = TestHome.filters();
        List<String> names = names();
        assertTrue(names.containsAll(List.of("vllm", "sglang", "tgi", "triton", "llamacpp", "llama.cpp", "tritonserver")), names.toString());
        StringBuilder units = new StringBuilder();
        StringBuilder jobs = new StringBuilder("JobID|JobName|User|State\n");
        for (String n : names) {
            String upper = n.toUpperCase(java.util.Locale.ROOT);
            units.append(n).append("-prod.service loaded failed failed\n");
            units.append("sha256:0f1e ghcr.io/acme/").append(upper).append(":v1 \"python3 -m serve\"\n");
            jobs.append("17|").append(n).append("-job|ml|CANCELLED\n");
        }
        units.append("sshd.service loaded active running\nnginx.service loaded inactive dead\n");
        jobs.append("18|preprocess|ml|COMPLETED\n");
        String selected = bash(ProbeBundle.wordsGrep(f.serverWords()), units.toString(), Map.of());
        for (String n : names) {
            assertTrue(selected.contains(n + "-prod.service"), n + " names no unit the probe finds:\n" + selected);
            assertTrue(selected.contains("/" + n.toUpperCase(java.util.Locale.ROOT) + ":"), n + " (any case) in an image:\n" + selected);
        }
        assertFalse(selected.contains("sshd") || selected.contains("nginx"), selected);
        String jobLines = bash(sacctFilter(f), jobs.toString(), Map.of());
        assertTrue(jobLines.startsWith("JobID|JobName"), "the header is kept: " + jobLines);
        for (String n : names) {
            assertTrue(jobLines.contains("17|" + n + "-job|"), n + " names no job the probe finds:\n" + jobLines);
        }
        assertFalse(jobLines.contains("preprocess"), jobLines);
        // the supervisor probes hold the generated filter, not a list of their own
        String script = TestHome.bundle(null, null, null).script();
        assertTrue(script.contains(ProbeBundle.wordsGrep(f.serverWords()).replace("'", "'\"'\"'")), "the script greps the generated words");
        assertTrue(script.contains(ProbeBundle.jobsFilter(f.serverWords()).replace("'", "'\"'\"'")), "and filters jobs by them");
        assertFalse(script.contains("@SERVER_WORDS"), "every stand-in is filled");
    }

    @Test
    void aWordWithPatternCharactersIsMatchedLiterallyByTheGrepAndTheAwk() throws Exception {
        List<String> words = HostFilters.words(List.of("my.srv[1]*", "a+b(c)", "x$y^", "Z.{2}"));
        assertEquals(List.of("a+b(c)", "my.srv[1]*", "x$y^", "z.{2}"), words);
        String lines = "my.srv[1]*-prod.service\nmyXsrv1-prod.service\nmy.srv111-prod.service\n"
                + "a+b(c).service\naab.service\nabc.service\nx$y^.service\nxy.service\nZ.{2}.service\nzaa.service\n";
        String selected = bash(ProbeBundle.wordsGrep(words), lines, Map.of());
        assertEquals("my.srv[1]*-prod.service\na+b(c).service\nx$y^.service\nZ.{2}.service\n", selected);
        HostFilters f = new HostFilters(List.of("x"), null, "", "", "", "", "", Map.of(), "", Map.of(), Map.of(), words,
                List.of("vllm:num_requests_running", "a.b", "ok_total"));
        assertEquals(List.of("vllm:num_requests_running", "ok_total"), f.metricSeries(), "a name Prometheus cannot have is dropped");
        String jobs = bash(sacctFilter(f), "h|h\n1|my.srv[1]*|u\n2|myXsrv1|u\n3|aab|u\n", Map.of());
        assertEquals("h|h\n1|my.srv[1]*|u\n", jobs);
        assertEquals(List.of(), HostFilters.words(List.of("ab", "it's", "a|b", "tab\tbed", "sp ace")),
                "too short, or holding a quote, a bar or a blank: never sent");
        assertEquals(List.of("tgi", "vllm"), HostFilters.words(List.of("vllm", "VLLM", "tgi", "tgi-server", "vllm::x")),
                "a word holding another adds nothing");
        assertEquals("", bash(ProbeBundle.wordsGrep(List.of()), "vllm\n", Map.of()), "no word selects no line");
    }

    @Test
    void everyCadenceSeriesIsKeptByExactNameAndNothingElse() throws Exception {
        HostFilters f = TestHome.filters();
        List<String> series = new ArrayList<>();
        // by name: a role that selects one label of a series keeps the series, the label is read on the client
        KB.cadence().servers().values().forEach(s -> s.metrics().values().forEach(v -> series.add(Cadence.seriesName(v))));
        assertFalse(series.isEmpty());
        assertEquals(new TreeSet<>(series), new TreeSet<>(f.metricSeries()));
        StringBuilder scrape = new StringBuilder("# HELP x y\n");
        for (String s : series) {
            scrape.append(s).append("{model=\"a b\",version=\"1\"} 3\n").append(s).append(" 4\n")
                    .append(s).append("_bucket{le=\"1\"} 5\n").append(s).append("x 6\n").append("other_").append(s).append(" 7\n");
        }
        String command = "M=" + ProbeBundle.quote(String.join(" ", f.metricSeries())) + " awk " + ProbeBundle.SERIES_SELECT;
        String kept = bash(command, scrape.toString(), Map.of());
        List<String> lines = kept.lines().toList();
        assertEquals(series.size() * 2, lines.size(), kept);
        for (String s : series) {
            assertTrue(lines.contains(s + "{model=\"a b\",version=\"1\"} 3") && lines.contains(s + " 4"), s + ":\n" + kept);
        }
    }

    /** A loopback server answering {@code /metrics} with Triton's and llama.cpp's counters. */
    private static HttpServer metricsServer(String body) throws IOException {
        HttpServer h = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        h.createContext("/metrics", ex -> {
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        h.start();
        return h;
    }

    @Test
    void tritonsAndLlamaCppsCountersReachTheSecondLookSample() throws Exception {
        String body = """
                # HELP nv_inference_pending_request_count Instantaneous number of pending requests
                # TYPE nv_inference_pending_request_count gauge
                nv_inference_pending_request_count{model="llama",version="1"} 2
                nv_inference_request_success{model="llama",version="1"} 118
                nv_inference_request_duration_us{model="llama",version="1"} 9.1e+06
                llamacpp:requests_processing 1
                llamacpp:requests_deferred 3
                llamacpp:tokens_predicted_total 4242
                llamacpp:kv_cache_usage_ratio 0.4
                """;
        HttpServer h = metricsServer(body);
        try {
            ProbeBundle b = TestHome.bundle(null, null, null);
            String sample = b.probes().stream().filter(p -> p.name().equals("first_look")).findFirst().orElseThrow().command();
            Map<String, String> env = new HashMap<>();
            env.put("T_PORT", String.valueOf(h.getAddress().getPort()));
            env.put("T_PID", String.valueOf(ProcessHandle.current().pid()));
            env.put("T_LOG", "");
            String out = bash(sample, "", env);
            List<String> metrics = out.lines().filter(l -> l.startsWith("metric ")).toList();
            assertEquals(List.of(
                    "metric nv_inference_pending_request_count{model=\"llama\",version=\"1\"} 2",
                    "metric nv_inference_request_success{model=\"llama\",version=\"1\"} 118",
                    "metric llamacpp:requests_processing 1",
                    "metric llamacpp:requests_deferred 3",
                    "metric llamacpp:tokens_predicted_total 4242"), metrics, out);
            for (String m : metrics) {
                String name = m.substring(7).split("[{ ]", 2)[0];
                assertTrue(KB.cadence().metricRole(name).isPresent(), name + " is read by the rules' parser");
            }
        } finally {
            h.stop(0);
        }
    }
}
