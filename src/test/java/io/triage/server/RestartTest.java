package io.triage.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.triage.TestHome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code triage serve} as a child process on the test classpath, killed with SIGKILL and with SIGTERM:
 * what a caller was given an id for is still there after a restart.
 */
class RestartTest {
    private static final String TOKEN = "restart-" + UUID.randomUUID();
    private static final Pattern URL = Pattern.compile("Triage server on http://127\\.0\\.0\\.1:(\\d+) ");

    @TempDir
    Path data;

    private record Child(Process process, int port, StringBuffer output) { }

    private Child start() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "io.triage.cli.Main", "--home", TestHome.HOME.toString(),
                "serve", "--port", "0", "--data", data.toString(), "--lab-pacing", "1000");
        pb.environment().put("TRIAGE_API_TOKEN", TOKEN);
        pb.redirectErrorStream(true);
        Process p = pb.start();
        StringBuffer out = new StringBuffer();
        CompletableFuture<Integer> port = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    out.append(line).append('\n');
                    Matcher m = URL.matcher(line);
                    if (m.find()) {
                        port.complete(Integer.parseInt(m.group(1)));
                    }
                }
            } catch (Exception e) {
                // the process ended
            }
            port.completeExceptionally(new IllegalStateException("the server did not start:\n" + out));
        });
        reader.setDaemon(true);
        reader.start();
        return new Child(p, port.get(180, TimeUnit.SECONDS), out);
    }

    @Test
    void aDiagnosisSurvivesKillDashNineAndOneCutShortIsRecordedAsInterrupted() throws Exception {
        Child first = start();
        String doneId;
        String cutId;
        String document;
        try {
            Http api = new Http(first.port(), TOKEN);
            doneId = Http.json(api.post("/api/v1/diagnoses", "{\"host\":\"gpu-killed\"}")).path("id").asText();
            HttpResponse<String> done = api.awaitFinished(doneId);
            assertEquals("done", done.headers().firstValue("X-Triage-Status").orElse(""), done.body());
            document = done.body();
            // a sweep of every lab host, paced: still running when the process is killed
            cutId = Http.json(api.post("/api/v1/diagnoses", "{\"hosts\":[\"gpu-killed\",\"gpu-healthy\",\"gpu-never-launched\"]}"))
                    .path("id").asText();
        } finally {
            first.process().destroyForcibly();
            first.process().waitFor(60, TimeUnit.SECONDS);
        }

        Child second = start();
        try {
            Http api = new Http(second.port(), TOKEN);
            HttpResponse<String> again = api.get("/api/v1/diagnoses/" + doneId);
            assertEquals(200, again.statusCode(), again.body());
            assertEquals(Http.JSON.readTree(document), Http.JSON.readTree(again.body()), "the same document after kill -9");
            JsonNode cut = Http.json(api.get("/api/v1/diagnoses/" + cutId));
            assertTrue(Set.of("interrupted", "done").contains(cut.path("status").asText()), cut.toString());
            if (cut.path("status").asText().equals("interrupted")) {
                assertEquals("interrupted", cut.path("failure").path("kind").asText());
            }

            // SIGTERM: stops accepting, lets the running diagnosis finish within its bound, exits
            String running = Http.json(api.post("/api/v1/diagnoses", "{\"host\":\"gpu-healthy\"}")).path("id").asText();
            second.process().destroy();
            assertTrue(second.process().waitFor(90, TimeUnit.SECONDS), "SIGTERM did not stop the server:\n" + second.output());
            Child third = start();
            try {
                JsonNode r = Http.json(new Http(third.port(), TOKEN).get("/api/v1/diagnoses/" + running));
                String status = r.has("schema") ? "done" : r.path("status").asText();
                assertTrue(List.of("done", "interrupted").contains(status), r.toString());
            } finally {
                third.process().destroyForcibly();
                third.process().waitFor(60, TimeUnit.SECONDS);
            }
        } finally {
            second.process().destroyForcibly();
            second.process().waitFor(60, TimeUnit.SECONDS);
        }
    }
}
