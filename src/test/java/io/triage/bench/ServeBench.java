package io.triage.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.triage.Triage;
import io.triage.collect.ProbeBundle;
import io.triage.lab.LabKeys;
import io.triage.lab.LabServer;
import io.triage.server.ServeSettings;
import io.triage.server.Tokens;
import io.triage.server.TriageServer;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Benchmark, not a test. (1) 50 concurrent API diagnoses of lab hosts through a warm {@code triage serve}
 * (in process, over HTTP on loopback): p50/p99 from POST to done, errors, heap after. (2) A sweep of N fleet
 * hosts through the same warm server versus {@code xargs -P 32 ssh … bash -s < bundle} over the same hosts
 * (the OpenSSH client only runs the bundle; it diagnoses nothing), alternating, several runs.
 * Run: {@code java -cp target/classes:target/test-classes:$(cat target/cp.txt) io.triage.bench.ServeBench [runs] [fleet]}
 * after {@code mvn -q dependency:build-classpath -Dmdep.outputFile=target/cp.txt}.
 */
public final class ServeBench {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int fleet = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        Path home = Path.of("").toAbsolutePath();
        Path tmp = Files.createTempDirectory("triage-serve-bench");
        Triage triage = Triage.load(home);
        KeyPair client = LabKeys.loadOrCreate(tmp.resolve("client_key"));
        String token = "bench-" + Tokens.class.getSimpleName() + System.nanoTime();
        try (LabServer lab = LabServer.start(LabServer.Config.forHome(home).withPort(0).withFleet("lab", fleet)
                .withAuthorizedKey(client.getPublic()))) {
            Path data = tmp.resolve("data");
            Files.createDirectories(data.resolve("ssh"));
            Path kh = Files.writeString(data.resolve("ssh/known_hosts"), lab.knownHostsLine() + "\n");
            StringBuilder inv = new StringBuilder();
            for (String h : lab.hosts()) {
                inv.append(h).append(' ').append(h).append("@127.0.0.1:").append(lab.port()).append('\n');
            }
            Path inventory = Files.writeString(tmp.resolve("inventory.txt"), inv);
            TriageServer server = TriageServer.start(new TriageServer.Setup(triage, data, Tokens.of("bench", token), false,
                    Duration.ZERO, inventory, List.of(), List.of(tmp.resolve("client_key")), Duration.ofSeconds(60),
                    ServeSettings.defaults().withBind("127.0.0.1", 0).withLimits(ServeSettings.DEFAULT_MAX_BODY, 64, 10_000, 32,
                            Duration.ofSeconds(5))));
            try {
                Api api = new Api(server.port(), token);
                List<String> named = lab.hosts().stream().filter(h -> !h.startsWith("lab-")).toList();
                for (int i = 0; i < 20; i++) { // warm-up
                    api.diagnose("{\"host\":\"" + named.get(i % named.size()) + "\"}");
                }

                System.out.printf("50 concurrent API diagnoses of lab hosts (POST → done), %d runs:%n", runs);
                double[] p50s = new double[runs];
                double[] p99s = new double[runs];
                long errors = 0;
                ExecutorService callers = Executors.newFixedThreadPool(50);
                for (int r = 0; r < runs; r++) {
                    List<Future<Double>> fs = new ArrayList<>();
                    for (int i = 0; i < 50; i++) {
                        String host = named.get(i % named.size());
                        fs.add(callers.submit(() -> api.diagnose("{\"host\":\"" + host + "\"}")));
                    }
                    double[] lat = new double[50];
                    int n = 0;
                    for (Future<Double> f : fs) {
                        double v = f.get();
                        if (v < 0) {
                            errors++;
                        } else {
                            lat[n++] = v;
                        }
                    }
                    double[] ok = Arrays.copyOf(lat, n);
                    Arrays.sort(ok);
                    p50s[r] = ok[ok.length / 2];
                    p99s[r] = ok[Math.min(ok.length - 1, (int) Math.ceil(ok.length * 0.99) - 1)];
                    System.out.printf("  run %d: p50 %.0f ms, p99 %.0f ms%n", r + 1, p50s[r], p99s[r]);
                }
                callers.shutdown();
                System.gc();
                Thread.sleep(200);
                long heap = Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();
                System.out.printf("  median of runs: p50 %.0f ms, p99 %.0f ms; errors %d of %d; heap after GC %d MiB%n",
                        median(p50s), median(p99s), errors, 50L * runs, heap >> 20);

                Path bundle = Files.writeString(tmp.resolve("bundle.sh"), io.triage.TestHome.bundle(null, null, null).script());
                List<String> fleetHosts = lab.hosts().stream().filter(h -> h.startsWith("lab-")).toList();
                Path users = Files.writeString(tmp.resolve("users.txt"), String.join("\n", fleetHosts) + "\n");
                String sweepBody = JSON.writeValueAsString(java.util.Map.of("hosts", fleetHosts));
                String xargs = "xargs -P 32 -I{} sh -c 'ssh -p " + lab.port() + " -i " + tmp.resolve("client_key")
                        + " -o UserKnownHostsFile=" + kh + " -o StrictHostKeyChecking=yes -o BatchMode=yes -F /dev/null"
                        + " {}@127.0.0.1 bash -s < " + bundle + " > /dev/null' < " + users;
                sh(xargs); // warm the lab's side for the OpenSSH client too
                System.out.printf("sweep of %d fleet hosts: warm server (diagnoses each) vs xargs -P 32 ssh (runs the bundle only), %d runs:%n",
                        fleetHosts.size(), runs);
                double[] ours = new double[runs];
                double[] theirs = new double[runs];
                for (int r = 0; r < runs; r++) {
                    long s = System.nanoTime();
                    JsonNode done = api.sweep(sweepBody);
                    ours[r] = (System.nanoTime() - s) / 1e9;
                    long failed = 0;
                    for (JsonNode h : done.path("results")) {
                        failed += h.path("status").asText().equals("done") ? 0 : 1;
                    }
                    s = System.nanoTime();
                    int rc = sh(xargs);
                    theirs[r] = (System.nanoTime() - s) / 1e9;
                    System.out.printf("  run %d: server %.2f s (%d results, %d failed), xargs ssh %.2f s (rc %d), ratio %.2fx%n",
                            r + 1, ours[r], done.path("results").size(), failed, theirs[r], rc, theirs[r] / ours[r]);
                }
                System.out.printf("  median: server %.2f s = %.0f hosts/s, xargs ssh %.2f s = %.0f hosts/s; ratio %.2fx%n",
                        median(ours), fleetHosts.size() / median(ours), median(theirs), fleetHosts.size() / median(theirs),
                        median(theirs) / median(ours));
            } finally {
                server.stop();
            }
        } finally {
            try (var s = Files.walk(tmp)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        System.exit(0);
    }

    private static int sh(String cmd) throws Exception {
        Process p = new ProcessBuilder("sh", "-c", cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return p.waitFor();
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    /** POST, then wait for the verdict on the event stream. */
    private static final class Api {
        private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        private final String base;
        private final String token;

        Api(int port, String token) {
            this.base = "http://127.0.0.1:" + port;
            this.token = token;
        }

        /** Milliseconds from POST to the verdict, or -1 when anything failed. */
        double diagnose(String body) {
            long s = System.nanoTime();
            try {
                String id = create(body);
                String verdict = awaitVerdict(id);
                return verdict.contains("\"status\":\"done\"") ? (System.nanoTime() - s) / 1e6 : -1;
            } catch (Exception e) {
                return -1;
            }
        }

        JsonNode sweep(String body) throws Exception {
            String id = create(body);
            awaitVerdict(id);
            return JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/diagnoses/" + id))
                    .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString()).body());
        }

        private String create(String body) throws Exception {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/diagnoses"))
                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 201) {
                throw new IllegalStateException(r.statusCode() + " " + r.body());
            }
            return JSON.readTree(r.body()).path("id").asText();
        }

        private String awaitVerdict(String id) throws Exception {
            HttpResponse<java.util.stream.Stream<String>> r = http.send(HttpRequest.newBuilder(
                    URI.create(base + "/api/v1/diagnoses/" + id + "/events")).header("Authorization", "Bearer " + token)
                    .header("Accept", "text/event-stream").build(), HttpResponse.BodyHandlers.ofLines());
            String last = "";
            boolean verdict = false;
            try (var lines = r.body()) {
                for (String line : (Iterable<String>) lines::iterator) {
                    if (line.equals("event: verdict")) {
                        verdict = true;
                    } else if (verdict && line.startsWith("data:")) {
                        last = line;
                        break;
                    }
                }
            }
            return last;
        }
    }

    private ServeBench() {
    }
}
