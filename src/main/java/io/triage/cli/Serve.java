package io.triage.cli;

import io.triage.Triage;
import io.triage.server.ServeSettings;
import io.triage.server.Tokens;
import io.triage.server.TriageServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/** {@code triage serve}: the HTTP API for bots, alerting and the page, until stopped. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Serve the diagnosis API (/api/v1) until stopped (Ctrl-C or SIGTERM).",
                "With no hosts configured it starts the embedded lab and serves its hosts."})
final class Serve implements Callable<Integer> {
    @ParentCommand
    Main parent;

    @Option(names = "--port", defaultValue = "8321", description = "Port (0 = any free port; default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--bind", defaultValue = "127.0.0.1", paramLabel = "ADDR",
            description = "Address to listen on (default: ${DEFAULT-VALUE}); any other needs a configured token.")
    String bind;

    @Option(names = "--data", paramLabel = "DIR", description = "Where diagnoses, captures and the audit log are kept (default: ~/.local/share/triage).")
    Path data;

    @Option(names = "--public-url", paramLabel = "URL", description = "The URL people reach the server at (behind a proxy); https makes the session cookie Secure.")
    String publicUrl;

    @Option(names = "--tokens", paramLabel = "FILE", description = "API tokens, one per line, each optionally followed by a name (default: TRIAGE_API_TOKEN, else one generated and printed).")
    Path tokens;

    @Option(names = "--allow-hosts", arity = "1..*", paramLabel = "PATTERN", description = "Further hosts that may be looked at (* and ? globs, e.g. 'gpu-*.cluster').")
    List<String> allowHosts = new ArrayList<>();

    @Option(names = "--inventory", paramLabel = "FILE", description = "Hosts to serve, one per line: NAME [user@]host[:port]. Replaces the lab unless --lab is given.")
    Path inventory;

    @Option(names = "--lab", description = "Serve the embedded lab even with an inventory.")
    boolean lab;

    @Option(names = "--lab-pacing", defaultValue = "1000", paramLabel = "MS",
            description = "Lab probes answer after their recorded time, capped at MS (0 = at once; default: ${DEFAULT-VALUE}).")
    long labPacing;

    @Option(names = {"-i", "--identity"}, paramLabel = "KEY", description = "Private key for hosts other than the lab's (repeatable).")
    List<Path> identities = new ArrayList<>();

    @Option(names = "--allow-callback", arity = "1..*", paramLabel = "URL_PREFIX", description = "URL prefixes a request's callback may start with.")
    List<String> callbacks = new ArrayList<>();

    @Option(names = "--webhook", paramLabel = "URL", description = "Where diagnoses triggered by Alertmanager are posted.")
    String webhook;

    @Option(names = "--alert-label", defaultValue = "instance", description = "The Alertmanager label naming the host (default: ${DEFAULT-VALUE}; its port is dropped).")
    String alertLabel;

    @Option(names = "--workers", defaultValue = "8", description = "Diagnoses running at once (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--deadline", defaultValue = "90", paramLabel = "SECONDS", description = "Deadline of one look at a host (default: ${DEFAULT-VALUE}).")
    int deadline;

    @Option(names = "--strict-reload", description = "A changed rule base must also pass every scenario of knowledge-base/scenarios before it serves.")
    boolean strictReload;

    @Option(names = "--no-reload", description = "Do not watch rules/ and knowledge-base/ for changes.")
    boolean noReload;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = parent.spec.commandLine().getOut();
        PrintWriter err = parent.spec.commandLine().getErr();
        Path dataDir = data != null ? data : defaultDataDir();
        StringBuilder generated = new StringBuilder();
        Tokens t;
        String env = System.getenv("TRIAGE_API_TOKEN");
        if (tokens != null) {
            t = Tokens.read(tokens);
        } else if (env != null && !env.isBlank()) {
            t = Tokens.of("env", env.strip());
        } else {
            t = Tokens.generate(generated);
        }
        if (workers < 1 || workers > 256) {
            err.println("triage: --workers must be 1-256");
            return Main.BAD_INPUT;
        }
        ServeSettings settings = ServeSettings.defaults().withBind(bind, port).withPublicUrl(publicUrl)
                .withCallbacks(callbacks, webhook, alertLabel)
                .withLimits(ServeSettings.DEFAULT_MAX_BODY, workers, 1000, 32, Duration.ofSeconds(20));
        boolean withLab = lab || inventory == null;
        TriageServer server = TriageServer.start(new TriageServer.Setup(parent.triage(), dataDir, t, withLab,
                Duration.ofMillis(Math.max(0, labPacing)), inventory, allowHosts, identities,
                Duration.ofSeconds(Math.max(1, deadline)), settings,
                new TriageServer.Reload(!noReload, strictReload, Duration.ofMillis(300),
                        h -> io.triage.Triage.load(h, io.triage.safety.RedactionKey.installation(), null, true, null,
                                parent.overlay()))));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop();
            stopped.countDown();
        }, "triage-serve-stop"));
        out.printf("Triage server on %s (data in %s)%n", server.url(), dataDir);
        if (server.skippedRecords() > 0) {
            out.printf("  %d damaged record(s) in the data directory were skipped (see the log)%n", server.skippedRecords());
        }
        if (server.lab() != null) {
            out.printf("  lab: %d recorded hosts over SSH on %s:%d%n", server.lab().hosts().size(), "127.0.0.1", server.lab().port());
        }
        out.printf("Open in a browser (one-time link): %s%n", server.signInUrl());
        if (generated.length() > 0) {
            out.printf("API token (generated for this run; set TRIAGE_API_TOKEN or --tokens to keep one): %s%n", generated);
        } else {
            out.println("API token: the one configured (" + (tokens != null ? tokens : "TRIAGE_API_TOKEN") + ")");
        }
        String host = server.hosts().hosts().isEmpty() ? "HOST" : server.hosts().hosts().get(0).name();
        out.printf("Try:  curl -sS -H \"Authorization: Bearer $TOKEN\" -d '{\"host\": \"%s\"}' %s/api/v1/diagnoses%n", host, server.url());
        if (!noReload) {
            io.triage.knowledge.Overlay ov = server.rules().current().overlay();
            out.printf("  rules %s: changes under rules/ and knowledge-base/%s are checked and served when good%s%n",
                    server.rules().current().contentHash(), ov == null ? "" : " and in the overlay " + ov.dir(),
                    strictReload ? " (and every scenario passes)" : "");
        }
        out.println("Ctrl-C stops the server (running diagnoses get up to 20 s to finish).");
        out.flush();
        stopped.await();
        return Main.OK;
    }

    static Path defaultDataDir() {
        String xdg = System.getenv("XDG_DATA_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".local", "share");
        return base.resolve("triage");
    }
}
