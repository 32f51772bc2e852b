package io.triage.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.triage.Triage;
import io.triage.capture.CaptureWriter;
import io.triage.collect.LookFailure;
import io.triage.collect.ProbeBundle;
import io.triage.collect.SshCollector;
import io.triage.collect.SshTarget;
import io.triage.explain.Diagnosis;
import io.triage.explain.JsonRenderer;
import io.triage.explain.TextRenderer;
import io.triage.safety.Safe;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** {@code triage diagnose HOST…}: look at hosts over SSH and diagnose each with the same engine as replay. */
@Command(name = "diagnose", mixinStandardHelpOptions = true,
        description = "Look at one or more hosts over SSH (read-only probes, one exec per host) and diagnose them.")
final class Diagnose implements Callable<Integer> {
    static final int LOOK_FAILED = 4;

    @ParentCommand
    Main parent;

    @Parameters(paramLabel = "HOST", arity = "0..*", description = "user@host, host:port, or an SSH config alias.")
    List<String> hosts = new ArrayList<>();

    @Option(names = "--hosts", paramLabel = "FILE", description = "A file with one host per line (# comments).")
    Path hostsFile;

    @picocli.CommandLine.Mixin
    TargetOptions target = new TargetOptions();

    @Option(names = {"-i", "--identity"}, paramLabel = "FILE", description = "Private key to offer (repeatable).")
    List<Path> identities = new ArrayList<>();

    @Option(names = "--ssh-config", paramLabel = "FILE", description = "SSH config for aliases (default: ~/.ssh/config).")
    Path sshConfig;

    @Option(names = "--known-hosts", paramLabel = "FILE", description = "known_hosts file (default: ~/.ssh/known_hosts).")
    Path knownHosts;

    @Option(names = "--accept-new", description = "Record unknown host keys in known_hosts (changed keys are always refused).")
    boolean acceptNew;

    @Option(names = "--intent", paramLabel = "KEY=VALUE", description = "What you launched (repeatable).")
    Map<String, String> intent = new LinkedHashMap<>();

    @Option(names = "--save", paramLabel = "DIR", description = "Save each look as a capture directory (DIR, or DIR/<host> for several hosts).")
    Path save;

    @Option(names = "--format", defaultValue = "text", description = "text or json (one JSON document per host, one per line).")
    Main.Format format;

    @Option(names = "--parallel", defaultValue = "32", description = "Hosts looked at concurrently (default: ${DEFAULT-VALUE}).")
    int parallel;

    @Option(names = "--deadline", defaultValue = "90", description = "Seconds allowed for one whole look (default: ${DEFAULT-VALUE}).")
    int deadlineSeconds;

    @Option(names = "--no-redact", description = "Show (and save) secrets as they are instead of ‹redacted:…›.")
    boolean noRedact;

    @Option(names = "--details", description = "With several hosts, print each diagnosis, not only the summary table.")
    boolean details;

    /** One host's result. */
    record Outcome(String host, Diagnosis diagnosis, LookFailure failure, double seconds) { }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = parent.spec.commandLine().getOut();
        PrintWriter err = parent.spec.commandLine().getErr();
        List<String> all = new ArrayList<>(hosts);
        if (hostsFile != null) {
            for (String line : Files.readAllLines(hostsFile)) {
                String s = line.strip();
                if (!s.isEmpty() && !s.startsWith("#")) {
                    all.add(s);
                }
            }
        }
        if (all.isEmpty()) {
            err.println("triage: no host given (HOST… or --hosts FILE)");
            return Main.BAD_INPUT;
        }
        if (deadlineSeconds < 1 || parallel < 1) {
            err.println("triage: --deadline and --parallel must be at least 1");
            return Main.BAD_INPUT;
        }
        List<SshTarget> targets = new ArrayList<>();
        ProbeBundle bundle;
        try {
            for (String h : all) {
                targets.add(SshTarget.parse(h));
            }
            bundle = target.bundle();
        } catch (IllegalArgumentException e) {
            err.println("triage: refused: " + e.getMessage());
            return Main.BAD_INPUT;
        }
        // compile the rules while the first hosts are being looked at: both take a second or two cold
        java.util.concurrent.CompletableFuture<Triage> triage =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> noRedact ? parent.triage().unredacted()
                        : parent.triage());
        SshCollector.Options defaults = SshCollector.Options.defaults();
        SshCollector.Options opts = new SshCollector.Options(knownHosts != null ? knownHosts : defaults.knownHosts(),
                acceptNew, identities, sshConfig, defaults.connectTimeout(), Duration.ofSeconds(deadlineSeconds));
        try (SshCollector collector = new SshCollector(opts)) {
            if (targets.size() == 1) {
                Outcome o = lookOne(triage, collector, targets.get(0), bundle, save);
                print(o, out, true);
                return o.failure() == null ? Main.OK : LOOK_FAILED;
            }
            return fleet(triage, collector, targets, bundle, out, err);
        }
    }

    private Outcome lookOne(java.util.concurrent.CompletableFuture<Triage> triage, SshCollector collector, SshTarget t,
                            ProbeBundle template, Path saveDir) {
        // a fresh bundle (fresh nonce) per host
        ProbeBundle bundle = ProbeBundle.forTarget(template.server(), template.port() > 0 ? template.port() : null,
                template.log().isEmpty() ? null : template.log());
        SshCollector.Look look = collector.look(t, bundle, intent);
        if (look instanceof SshCollector.Failed f) {
            return new Outcome(t.toString(), null, f.failure(), f.elapsed().toMillis() / 1000.0);
        }
        SshCollector.Collected c = (SshCollector.Collected) look;
        if (saveDir != null) {
            try {
                CaptureWriter.write(triage.join().redactor().redact(c.capture()), saveDir);
            } catch (IOException e) {
                return new Outcome(t.toString(), null, new LookFailure(t.toString(), "save-failed",
                        "the capture could not be saved: " + e.getMessage(), "check " + saveDir), 0);
            }
        }
        Diagnosis d;
        try {
            d = triage.join().diagnose(c.capture(), Map.of());
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        return new Outcome(t.toString(), d, null, c.elapsed().toMillis() / 1000.0);
    }

    private int fleet(java.util.concurrent.CompletableFuture<Triage> triage, SshCollector collector, List<SshTarget> targets, ProbeBundle bundle,
                      PrintWriter out, PrintWriter err) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(parallel, targets.size())));
        CompletionService<Outcome> done = new ExecutorCompletionService<>(pool);
        for (SshTarget t : targets) {
            Path dir = save == null ? null : save.resolve(t.toString().replaceAll("[^A-Za-z0-9._@-]", "_"));
            done.submit(() -> lookOne(triage, collector, t, bundle, dir));
        }
        List<Outcome> outcomes = new ArrayList<>();
        long start = System.nanoTime();
        try {
            for (int i = 0; i < targets.size(); i++) {
                Outcome o = done.take().get();
                outcomes.add(o);
                err.printf("[%d/%d] %s: %s (%.1f s)%n", i + 1, targets.size(), Safe.forTerminal(o.host()),
                        Safe.forTerminal(verdict(o)), o.seconds());
                err.flush();
                if (format == Main.Format.json) {
                    print(o, out, false);
                } else if (details) {
                    print(o, out, true);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        double secs = (System.nanoTime() - start) / 1e9;
        if (format == Main.Format.text) {
            outcomes.sort((a, b) -> a.host().compareTo(b.host()));
            int w = Math.max(4, outcomes.stream().mapToInt(o -> Safe.forTerminal(o.host()).length()).max().orElse(4));
            out.printf("%-" + w + "s  %-34s  %-10s  %7s%n", "HOST", "VERDICT", "CONFIDENCE", "SECONDS");
            for (Outcome o : outcomes) {
                out.printf(Locale.ROOT, "%-" + w + "s  %-34s  %-10s  %7.1f%n", Safe.forTerminal(o.host()),
                        Safe.forTerminal(verdict(o)),
                        o.diagnosis() == null ? "-" : Safe.forTerminal(o.diagnosis().confidence()), o.seconds());
            }
            out.printf(Locale.ROOT, "%d hosts in %.1f s (%.1f hosts/s)%n", outcomes.size(), secs, outcomes.size() / secs);
        }
        out.flush();
        return outcomes.stream().allMatch(o -> o.failure() == null) ? Main.OK : LOOK_FAILED;
    }

    private static String verdict(Outcome o) {
        if (o.failure() != null) {
            return "look failed: " + o.failure().kind();
        }
        Diagnosis d = o.diagnosis();
        return d.cause() + (d.subtype().isEmpty() ? "" : "/" + d.subtype());
    }

    private void print(Outcome o, PrintWriter out, boolean pretty) {
        if (format == Main.Format.json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("host", o.host());
            doc.put("seconds", o.seconds());
            if (o.failure() != null) {
                doc.put("lookFailed", o.failure());
            } else {
                doc.put("diagnosis", o.diagnosis());
            }
            ObjectMapper m = new JsonRenderer().mapper();
            try {
                out.println(pretty ? m.writeValueAsString(doc) : m.copy()
                        .disable(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        } else if (o.failure() != null) {
            LookFailure f = o.failure();
            out.println("Could not look at " + Safe.forTerminal(o.host()) + ": " + Safe.forTerminal(f.kind()));
            out.println("  " + Safe.forTerminal(f.message()));
            out.println("  check: " + Safe.forTerminalText(f.check()).replace("\n", "\n         "));
        } else {
            out.print(new TextRenderer().render(o.diagnosis()));
        }
        out.flush();
    }
}
