package io.triage.cli;

import io.triage.Triage;
import io.triage.collect.ProbeBundle;
import io.triage.collect.SshCollector;
import io.triage.look.HostLooks;
import io.triage.collect.SshTarget;
import io.triage.explain.Diagnosis;
import io.triage.explain.TextRenderer;
import io.triage.lab.LabHost;
import io.triage.lab.LabKeys;
import io.triage.lab.LabServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/** {@code triage lab} and {@code triage demo}: the embedded lab of recorded hosts over real SSH. */
final class Lab {
    private Lab() {
    }

    @Command(name = "lab", mixinStandardHelpOptions = true,
            description = "Start the embedded lab: recorded hosts served over SSH on 127.0.0.1, until Ctrl-C.")
    static final class Serve implements Callable<Integer> {
        @ParentCommand
        Main parent;

        @Option(names = "--port", defaultValue = "2222", description = "Port on 127.0.0.1 (0 = any free port; default: ${DEFAULT-VALUE}).")
        int port;

        @Option(names = "--fleet", defaultValue = "0", description = "Also serve N fleet hosts lab-1…lab-N cycling through the bundled captures.")
        int fleet;

        @Option(names = "--latency", paramLabel = "TIME", defaultValue = "0",
                description = "Round-trip time added to every exchange with the lab, e.g. 30ms (each direction gets half), "
                        + "to measure sweeps as over a network (default: none).")
        String latency;

        @Option(names = "--state", paramLabel = "DIR", description = "Where the lab keeps its host key, a client key and a known_hosts file (default: ~/.config/triage/lab).")
        Path state;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = parent.spec.commandLine().getOut();
            Duration rtt;
            try {
                rtt = duration(latency);
            } catch (IllegalArgumentException e) {
                parent.spec.commandLine().getErr().println("triage: refused: " + e.getMessage());
                return Main.BAD_INPUT;
            }
            Path home = Triage.findHome(parent.home);
            Path dir = state != null ? state : Path.of(System.getProperty("user.home"), ".config", "triage", "lab");
            Files.createDirectories(dir);
            KeyPair client = LabKeys.loadOrCreate(dir.resolve("client_key"));
            LabServer.Config config = LabServer.Config.forHome(home).withPort(port)
                    .withHostKeyFile(dir.resolve("host_key")).withAuthorizedKey(client.getPublic()).withLatency(rtt);
            if (fleet > 0) {
                config = config.withFleet("lab", fleet);
            }
            try (LabServer lab = LabServer.start(config)) {
                Path kh = dir.resolve("known_hosts");
                Files.writeString(kh, lab.knownHostsLine() + "\n");
                out.printf("Triage lab on %s:%d — host key %s%s%n", LabServer.ADDRESS, lab.port(), lab.hostKeyFingerprint(),
                        rtt.isZero() ? "" : " — round trip +" + rtt.toMillis() + " ms");
                out.printf("password for ordinary ssh: %s%n", lab.password());
                out.printf("known_hosts line: %s%n%n", lab.knownHostsLine());
                for (String h : lab.hosts()) {
                    if (h.startsWith("lab-")) {
                        continue;
                    }
                    LabHost host = lab.host(h).orElseThrow();
                    out.printf("  %-22s %s%n", h, host.note());
                    out.printf("  %-22s $ %s nvidia-smi%n", "", lab.sshCommand(h));
                }
                if (fleet > 0) {
                    out.printf("  lab-1 … lab-%d          fleet hosts cycling through the hosts above%n", fleet);
                }
                String first = lab.hosts().get(0);
                out.printf("%nDiagnose one over SSH:%n  java -jar target/triage.jar diagnose -i %s --known-hosts %s %s@%s:%d%n",
                        dir.resolve("client_key"), kh, first, LabServer.ADDRESS, lab.port());
                out.println("Ctrl-C stops the lab.");
                out.flush();
                CountDownLatch forever = new CountDownLatch(1);
                Runtime.getRuntime().addShutdownHook(new Thread(forever::countDown));
                forever.await();
            }
            return Main.OK;
        }
    }

    /** {@code 30ms}, {@code 0.5s}, or milliseconds as a bare number. */
    static Duration duration(String text) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^([0-9]{1,6}(?:\\.[0-9]{1,3})?)(ms|s)?$")
                .matcher(text == null ? "" : text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("a time is like 30ms or 0.5s, not '" + io.triage.safety.Safe.forTerminal(
                    String.valueOf(text)) + "'");
        }
        double v = Double.parseDouble(m.group(1));
        long ms = Math.round("s".equals(m.group(2)) ? v * 1000 : v);
        if (ms > 10_000) {
            throw new IllegalArgumentException("latency must be at most 10 s");
        }
        return Duration.ofMillis(ms);
    }

    @Command(name = "demo", mixinStandardHelpOptions = true,
            description = "Start the embedded lab and diagnose each lab host over real SSH, one after another.")
    static final class Demo implements Callable<Integer> {
        @ParentCommand
        Main parent;

        @Option(names = "--full", description = "Print each diagnosis in full (ruled out, refuted, coverage).")
        boolean full;

        @Option(names = "--hosts", split = ",", paramLabel = "NAME", description = "Only these lab hosts.")
        List<String> only;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = parent.spec.commandLine().getOut();
            Triage triage = parent.triage();
            KeyPair client = LabKeys.generate();
            Path tmp = Files.createTempDirectory("triage-demo");
            try (LabServer lab = LabServer.start(LabServer.Config.forHome(triage.home()).withPort(0)
                    .withAuthorizedKey(client.getPublic()))) {
                Path kh = Files.writeString(tmp.resolve("known_hosts"), lab.knownHostsLine() + "\n");
                Path cfg = Files.writeString(tmp.resolve("ssh_config"), "# the demo uses no aliases\n");
                out.printf("Triage demo: an SSH lab of recorded GPU hosts on %s:%d (host key %s).%n",
                        LabServer.ADDRESS, lab.port(), lab.hostKeyFingerprint());
                out.println("Each host is looked at over real SSH (one exec, read-only probes) and diagnosed by the rules.");
                try (SshCollector collector = new SshCollector(new SshCollector.Options(kh, false, List.of(), cfg,
                        Duration.ofSeconds(10), Duration.ofSeconds(60)))) {
                    collector.addIdentity(client);
                    TextRenderer text = new TextRenderer(4);
                    HostLooks looks = new HostLooks(triage, collector);
                    for (String name : lab.hosts()) {
                        if (only != null && !only.contains(name)) {
                            continue;
                        }
                        LabHost host = lab.host(name).orElseThrow();
                        out.printf("%n════ %s@%s:%d — %s%n", name, LabServer.ADDRESS, lab.port(), host.note());
                        if (!host.intent().isEmpty()) {
                            out.printf("     (the operator says they launched: %s)%n", host.intent());
                        }
                        long start = System.nanoTime();
                        HostLooks.Outcome o = looks.look(new SshTarget(name, LabServer.ADDRESS, lab.port()),
                                ProbeBundle.forTarget(null, null, null), host.intent(), null);
                        if (o.failed()) {
                            out.printf("could not look: %s — %s%n", o.failure().kind(), o.failure().message());
                            continue;
                        }
                        Diagnosis d = o.diagnosis();
                        out.print(full ? text.render(d) : text.renderBrief(d));
                        out.printf("     (%d ms over SSH, %d rules fired)%n", (System.nanoTime() - start) / 1_000_000,
                                d.engine().rulesFired());
                        out.flush();
                    }
                    out.printf("%n%d looks, %d SSH execs. Try: java -jar target/triage.jar lab   (then ssh into a host yourself)%n",
                            lab.hosts().stream().filter(h -> only == null || only.contains(h)).count(), collector.execs());
                }
            } finally {
                try (var s = Files.walk(tmp)) {
                    s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
            return Main.OK;
        }
    }
}
