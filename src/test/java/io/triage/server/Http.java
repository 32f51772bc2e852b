package io.triage.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** A small HTTP client for the API tests: loopback only, JSON in and out. */
final class Http {
    static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
            .followRedirects(HttpClient.Redirect.NEVER).build();
    private final String base;
    private final String token;

    Http(int port, String token) {
        this.base = "http://127.0.0.1:" + port;
        this.token = token;
    }

    String base() {
        return base;
    }

    HttpRequest.Builder request(String path, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(120));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        for (int i = 0; i + 1 < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return b;
    }

    HttpResponse<String> get(String path, String... headers) throws IOException, InterruptedException {
        return client.send(request(path, headers).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String body, String... headers) throws IOException, InterruptedException {
        return client.send(request(path, headers).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> send(HttpRequest r) throws IOException, InterruptedException {
        return client.send(r, HttpResponse.BodyHandlers.ofString());
    }

    static JsonNode json(HttpResponse<String> r) throws IOException {
        return JSON.readTree(r.body());
    }

    /** A server-sent event and when it arrived at the client (System.nanoTime()). */
    record Sse(String event, JsonNode data, long arrivedNanos) { }

    /** Reads an event stream until it ends (the server closes it after the verdict). */
    List<Sse> events(String path) throws IOException, InterruptedException {
        HttpResponse<Stream<String>> r = client.send(request(path, "Accept", "text/event-stream").GET().build(),
                HttpResponse.BodyHandlers.ofLines());
        List<Sse> out = new ArrayList<>();
        String[] event = {null};
        try (Stream<String> lines = r.body()) {
            for (String line : (Iterable<String>) lines::iterator) {
                if (line.startsWith("event:")) {
                    event[0] = line.substring(6).strip();
                } else if (line.startsWith("data:")) {
                    out.add(new Sse(event[0], JSON.readTree(line.substring(5).strip()), System.nanoTime()));
                }
            }
        }
        return out;
    }

    /** Polls a diagnosis until it is finished; returns the last answer. */
    HttpResponse<String> awaitFinished(String id) throws IOException, InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (true) {
            HttpResponse<String> r = get("/api/v1/diagnoses/" + id);
            String status = r.headers().firstValue("X-Triage-Status").orElse("");
            if (status.equals("done") || status.equals("failed") || status.equals("interrupted") || System.nanoTime() > end) {
                return r;
            }
            Thread.sleep(50);
        }
    }
}
