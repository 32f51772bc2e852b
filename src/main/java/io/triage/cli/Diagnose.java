package io.triage.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.triage.Triage;
import io.triage.collect.LookFailure;
import io.triage.collect.ProbeBundle;
import io.triage.collect.SshCollector;
import io.triage.collect.SshTarget;
import io.triage.explain.Diagnosis;
import io.triage.explain.JsonRenderer;
import io.triage.explain.TextRenderer;
import io.triage.inventory.HostSelection;
import io.triage.inventory.InventoryHost;
import io.triage.inventory.Shard;
import io.triage.look.HostLooks;
import io.triage.look.HostLooks.Outcome;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** {@code triage diagnose HOST…}: look at hosts over SSH and diagnose each with the same engine as replay. */
@Command(name = "diagnose", mixinStandardHelpOptions = true,
        description = "Look at one or more hosts over SSH (read-only probes, one exec per host) and diagnose them.")
final class Diagnose implements Callable<Integer> {
    static final int LOOK_FAILED = 4;

    @ParentCommand
    Main parent;

    @Parameters(paramLabel = "HOST", arity = "0..*",
            description = "user@host, host:port, an SSH config alias, or a pattern of aliases ('gpu-*').")
    List<String> hosts = new ArrayList<>();

    @Option(names = "--hosts", paramLabel = "FILE", description = "A file with one host per line (# comments).")
    Path hostsFile;

    @Option(names = "--inventory", paramLabel = "FILE",
            description = "An Ansible inventory, INI or YAML (groups, children, host ranges, ansible_host/port/user).")
    Path inventory;

    @Option(names = "--group", paramLabel = "NAME", description = "Only this inventory group and its children (repeatable).")
    List<String> groups = new ArrayList<>();

    @Option(names = "--shard", paramLabel = "I/N",
            description = "Only shard I of N (I from 0): a stable slice by the hash of each host's name.")
    String shard;

    @picocli.CommandLine.Mixin
    TargetOptions target = new TargetOptions();

    @Option(names = {"-i", "--identity"}, paramLabel = "FILE", description = "Private key to offer (repeatable).")
    List<Path> identities = new ArrayList<>();

    @Option(names = "--ssh-config", paramLabel = "FILE", description = "SSH config for aliases (default: ~/.ssh/config).")
    Path sshConfig;

    @Option(names = "--known-hosts", paramLabel = "FILE", description = "known_hosts file (default: ~/.ssh/known_hosts).")
    Path knownHosts;

    @Option(names = {"-J", "--jump"}, paramLabel = "[USER@]HOST[:PORT][,…]",
            description = "Reach every host through these jump hosts, in order (as ssh -J; overrides the SSH config's ProxyJump).")
    String jump;

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

    /**
     * The JSON writers, made once per run: a mapper made (or copied) per host rebuilds its serializers each
     * time, which cost a sweep more CPU than its diagnoses, on the one thread that prints the results.
     */
    private static final class Json {
        final com.fasterxml.jackson.databind.ObjectWriter pretty;
        final com.fasterxml.jackson.databind.ObjectWriter compact;

        Json() {
            ObjectMapper m = new JsonRenderer().mapper();
            pretty = m.writer();
            compact = m.writer().without(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT);
        }
    }

    /** Made in {@link #call()} for --format json only: picocli builds every command at start, whatever runs. */
    private Json json;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = parent.spec.commandLine().getOut();
        PrintWriter err = parent.spec.commandLine().getErr();
        if (format == Main.Format.json) {
            json = new Json();
        }
        if (deadlineSeconds < 1 || parallel < 1) {
            err.println("triage: --deadline and --parallel must be at least 1");
            return Main.BAD_INPUT;
        }
        SshCollector.Options defaults = SshCollector.Options.defaults();
        SshCollector.Options opts;
        try {
            opts = new SshCollector.Options(knownHosts != null ? knownHosts : defaults.knownHosts(),
                    acceptNew, identities, sshConfig, defaults.connectTimeout(), Duration.ofSeconds(deadlineSeconds))
                    .withProxyJump(jump);
        } catch (IllegalArgumentException e) {
            err.println("triage: refused: " + e.getMessage());
            return Main.BAD_INPUT;
        }
        // the SSH client (its classes, the keys read and parsed, its I/O threads) is made while the hosts are
        // selected and the knowledge base is read on this thread: neither needs the other, and both take a while cold
        CompletableFuture<SshCollector> client = new CompletableFuture<>();
        Thread starting = new Thread(() -> {
            try {
                client.complete(new SshCollector(opts));
            } catch (RuntimeException | Error e) {
                client.completeExceptionally(e);
            }
        }, "triage-ssh-client");
        starting.setDaemon(true);
        starting.start();
        try {
            return run(out, err, client);
        } finally {
            if (!clientTaken) {
                // a run that ends before it looks at any host (bad input, an empty shard) closes the client too
                client.thenAccept(SshCollector::close);
            }
        }
    }

    /** Whether {@link #run} took the SSH client made for it (and so closes it). */
    private boolean clientTaken;

    private int run(PrintWriter out, PrintWriter err, CompletableFuture<SshCollector> client) throws Exception {
        List<SshTarget> targets = new ArrayList<>();
        ProbeBundle bundle;
        try {
            HostSelection selection = HostSelection.of(new HostSelection.Request(hosts, hostsFile, inventory, groups,
                    sshConfig != null ? sshConfig : Path.of(System.getProperty("user.home"), ".ssh", "config"),
                    shard == null ? null : Shard.parse(shard)));
            for (String p : selection.problems()) {
                err.println("triage: " + Safe.forTerminal(p));
            }
            if (selection.total() == 0) {
                err.println("triage: no host given (HOST…, --hosts FILE or --inventory FILE)");
                return Main.BAD_INPUT;
            }
            if (shard != null) {
                err.printf("triage: shard %s: %d of %d hosts%n", shard, selection.hosts().size(), selection.total());
                if (selection.hosts().isEmpty()) {
                    return Main.OK;
                }
            }
            for (InventoryHost h : selection.hosts()) {
                targets.add(h.target());
            }
            bundle = target.bundle(parent.knowledge());
        } catch (IllegalArgumentException e) {
            err.println("triage: refused: " + Safe.forTerminal(e.getMessage()));
            return Main.BAD_INPUT;
        } catch (IOException e) {
            err.println("triage: cannot read " + Safe.forTerminal(String.valueOf(e.getMessage())));
            return Main.BAD_INPUT;
        }
        // compile the rules while the first hosts are being looked at: both take a second or two cold
        java.util.concurrent.CompletableFuture<Triage> triage =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> noRedact ? parent.triage().unredacted()
                        : parent.triage());
        SshCollector collector;
        clientTaken = true;
        try {
            collector = client.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof IllegalArgumentException bad) {
                err.println("triage: refused: " + bad.getMessage());
                return Main.BAD_INPUT;
            }
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        try (collector) {
            HostLooks looks = new HostLooks(triage, collector);
            if (targets.size() == 1) {
                Outcome o = looks.look(targets.get(0), bundle, intent, save);
                print(o, out, true);
                return o.failed() ? LOOK_FAILED : Main.OK;
            }
            return fleet(looks, targets, bundle, out, err);
        }
    }

    private int fleet(HostLooks looks, List<SshTarget> targets, ProbeBundle bundle, PrintWriter out, PrintWriter err)
            throws InterruptedException {
        long start = System.nanoTime();
        int[] n = {0};
        List<Outcome> outcomes = new ArrayList<>(looks.sweep(targets, bundle, intent,
                save == null ? null : t -> save.resolve(HostLooks.saveName(t)), parallel, o -> {
                    err.printf("[%d/%d] %s: %s (%.1f s)%n", ++n[0], targets.size(), Safe.forTerminal(o.host()),
                            Safe.forTerminal(o.verdict()), o.seconds());
                    err.flush();
                    if (format == Main.Format.json) {
                        print(o, out, false);
                    } else if (details) {
                        print(o, out, true);
                    }
                }));
        double secs = (System.nanoTime() - start) / 1e9;
        if (format == Main.Format.text) {
            outcomes.sort((a, b) -> a.host().compareTo(b.host()));
            int w = Math.max(4, outcomes.stream().mapToInt(o -> Safe.forTerminal(o.host()).length()).max().orElse(4));
            out.printf("%-" + w + "s  %-34s  %-10s  %7s%n", "HOST", "VERDICT", "CONFIDENCE", "SECONDS");
            for (Outcome o : outcomes) {
                out.printf(Locale.ROOT, "%-" + w + "s  %-34s  %-10s  %7.1f%n", Safe.forTerminal(o.host()),
                        Safe.forTerminal(o.verdict()),
                        o.diagnosis() == null ? "-" : Safe.forTerminal(o.diagnosis().confidence()), o.seconds());
            }
            out.printf(Locale.ROOT, "%d hosts in %.1f s (%.1f hosts/s)%n", outcomes.size(), secs, outcomes.size() / secs);
        }
        out.flush();
        return outcomes.stream().allMatch(o -> !o.failed()) ? Main.OK : LOOK_FAILED;
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
            try {
                out.println((pretty ? json.pretty : json.compact).writeValueAsString(doc));
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
