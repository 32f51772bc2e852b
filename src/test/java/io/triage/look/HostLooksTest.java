package io.triage.look;

import io.triage.TestHome;
import io.triage.collect.HostileSshd;
import io.triage.collect.ProbeBundle;
import io.triage.collect.SshCollector;
import io.triage.collect.SshTarget;
import io.triage.explain.Diagnosis;
import io.triage.lab.LabHost;
import io.triage.lab.LabKeys;
import io.triage.lab.LabServer;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The use case end to end: the lab and hostile hosts over real SSH on loopback, saved looks replayed. */
class HostLooksTest {
    @TempDir
    Path tmp;

    private SshCollector collector(String knownHosts, Duration deadline, KeyPair... keys) throws Exception {
        Path kh = Files.writeString(tmp.resolve("known_hosts"), knownHosts);
        SshCollector c = new SshCollector(new SshCollector.Options(kh, false, List.of(),
                Files.writeString(tmp.resolve("ssh_config"), "# none\n"), Duration.ofSeconds(20), deadline, null));
        for (KeyPair k : keys) {
            c.addIdentity(k);
        }
        return c;
    }

    @Test
    void everyLabHostLookedAtLiveSavedAndReplayedGivesTheLiveVerdict() throws Exception {
        KeyPair key = LabKeys.generate();
        try (LabServer lab = LabServer.start(LabServer.Config.forHome(TestHome.HOME).withAuthorizedKey(key.getPublic()));
             SshCollector c = collector(lab.knownHostsLine() + "\n", Duration.ofSeconds(60), key)) {
            HostLooks looks = new HostLooks(TestHome.triage(), c);
            Path saves = tmp.resolve("saves");
            Map<String, Diagnosis> live = new HashMap<>();
            for (String name : lab.hosts()) {
                LabHost host = lab.host(name).orElseThrow();
                HostLooks.Outcome o = looks.look(new SshTarget(name, LabServer.ADDRESS, lab.port()),
                        io.triage.TestHome.bundle(null, null, null), host.intent(), saves.resolve(name));
                assertNull(o.failure(), name + ": " + o.failure());
                live.put(name, o.diagnosis());
            }
            int compared = 0;
            for (String name : lab.hosts()) {
                Diagnosis l = live.get(name);
                Set<String> replays = new HashSet<>();
                Diagnosis r = null;
                for (int i = 0; i < 3; i++) {
                    r = TestHome.triage().replay(saves.resolve(name), Map.of());
                    replays.add(full(r));
                }
                if (replays.size() == 1) {
                    assertEquals(full(l), full(r), name + ": live vs its saved capture replayed");
                    compared++;
                } else {
                    // the engine itself varies on this capture from run to run: compare what it holds to
                    assertEquals(l.cause() + " " + l.confidence(), r.cause() + " " + r.confidence(), name);
                }
            }
            assertTrue(compared > lab.hosts().size() / 2, compared + " of " + lab.hosts().size() + " compared in full");
        }
    }

    private static String full(Diagnosis d) {
        return d.cause() + "/" + d.subtype() + " (" + d.confidence() + ") " + d.hypotheses().stream()
                .map(h -> h.cause() + "/" + h.subtype() + ":" + h.status() + ":" + h.confidence()).toList();
    }

    @Test
    void aStaleSaveDirectoryIsRefusedBeforeTheHostIsAskedAnything() throws Exception {
        KeyPair key = LabKeys.generate();
        try (LabServer lab = LabServer.start(LabServer.Config.forHome(TestHome.HOME).withAuthorizedKey(key.getPublic()));
             SshCollector c = collector(lab.knownHostsLine() + "\n", Duration.ofSeconds(60), key)) {
            Path stale = Files.createDirectories(tmp.resolve("stale"));
            Files.writeString(stale.resolve("dmesg.out"), "old\n");
            String name = lab.hosts().get(0);
            HostLooks.Outcome o = new HostLooks(TestHome.triage(), c).look(new SshTarget(name, LabServer.ADDRESS, lab.port()),
                    io.triage.TestHome.bundle(null, null, null), Map.of(), stale);
            assertEquals("save-failed", o.failure().kind(), o.failure().toString());
            assertTrue(o.failure().message().contains("already exists and is not empty"), o.failure().message());
            assertEquals(0, c.execs(), "the host was not asked");
            assertEquals(List.of(stale.resolve("dmesg.out")), Files.list(stale).toList());
        }
    }

    @Test
    void inASweepEachHostileHostFailsAsWhatItDidAndTheHonestHostIsDiagnosed() throws Exception {
        KeyPair key = LabKeys.generate();
        Map<String, HostileSshd.Mode> modes = Map.of("flood-out", HostileSshd.Mode.FLOOD_STDOUT,
                "flood-err", HostileSshd.Mode.FLOOD_STDERR, "no-probes", HostileSshd.Mode.NO_PROBES,
                "trickle", HostileSshd.Mode.TRICKLE);
        try (LabServer lab = LabServer.start(LabServer.Config.forHome(TestHome.HOME).withAuthorizedKey(key.getPublic()));
             HostileSshd hostile = new HostileSshd(modes::get, 256L << 20);
             SshCollector c = collector(lab.knownHostsLine() + "\n[127.0.0.1]:" + hostile.port() + " "
                     + PublicKeyEntry.toString(hostile.hostKey.getPublic()) + "\n", Duration.ofSeconds(8), key, hostile.clientKey)) {
            String honest = lab.hosts().get(0);
            List<SshTarget> targets = new ArrayList<>();
            targets.add(new SshTarget(honest, LabServer.ADDRESS, lab.port()));
            for (String user : modes.keySet()) {
                targets.add(new SshTarget(user, "127.0.0.1", hostile.port()));
            }
            List<HostLooks.Outcome> got = new HostLooks(TestHome.triage(), c).sweep(targets,
                    io.triage.TestHome.bundle(null, null, null), Map.of(), null, 8, o -> { });
            Map<String, String> verdicts = new HashMap<>();
            got.forEach(o -> verdicts.put(o.host().substring(0, o.host().indexOf('@')), o.verdict()));
            assertEquals(5, got.size());
            assertEquals("look failed: output-cap", verdicts.get("flood-out"));
            assertEquals("look failed: output-cap", verdicts.get("flood-err"));
            assertEquals("look failed: no-probes", verdicts.get("no-probes"));
            assertEquals("look failed: deadline", verdicts.get("trickle"));
            assertFalse(verdicts.get(honest).startsWith("look failed"), verdicts.toString());
            assertNotNull(got.stream().filter(o -> o.host().startsWith(honest + "@")).findFirst().orElseThrow().diagnosis());
        }
    }

    @Test
    void aSweepGoesOnLookingWhileTheRulesLoadAndHoldsNoMoreAnswersThanItsParallelismAllows() throws Exception {
        KeyPair key = LabKeys.generate();
        try (LabServer lab = LabServer.start(LabServer.Config.forHome(TestHome.HOME).withAuthorizedKey(key.getPublic()));
             SshCollector c = collector(lab.knownHostsLine() + "\n", Duration.ofSeconds(60), key)) {
            List<SshTarget> targets = new ArrayList<>();
            for (String name : lab.hosts().subList(0, 6)) {
                targets.add(new SshTarget(name, LabServer.ADDRESS, lab.port()));
            }
            // the product is still "loading" until this test completes it
            java.util.concurrent.CompletableFuture<io.triage.Triage> loading = new java.util.concurrent.CompletableFuture<>();
            List<HostLooks.Outcome> seen = java.util.Collections.synchronizedList(new ArrayList<>());
            java.util.concurrent.CompletableFuture<List<HostLooks.Outcome>> sweep = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    return new HostLooks(loading, c).sweep(targets, io.triage.TestHome.bundle(null, null, null), Map.of(),
                            null, 2, seen::add);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            // two looks at a time, two answers waiting for a diagnosis: four hosts are looked at before any rule
            // is there (a look that waited for the rules would have stopped at two)
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (c.execs() < 4 && System.nanoTime() < until) {
                Thread.sleep(20);
            }
            assertEquals(4, c.execs(), "hosts looked at while the rules load");
            Thread.sleep(300);
            assertEquals(4, c.execs(), "no more answers held than the sweep's bound");
            assertTrue(seen.isEmpty(), "nothing is diagnosed before the rules are there: " + seen);
            loading.complete(TestHome.triage());
            List<HostLooks.Outcome> got = sweep.get(120, TimeUnit.SECONDS);
            assertEquals(6, got.size());
            assertEquals(6, c.execs());
            assertEquals(got, seen, "every outcome handed over as it finished, in that order");
            for (HostLooks.Outcome o : got) {
                assertNull(o.failure(), o.host() + ": " + o.failure());
                assertNotNull(o.diagnosis(), o.host());
            }
        }
    }

    @Test
    void aSweepWhoseRulesCannotLoadStopsWithThatErrorInsteadOfFailingEachHost() throws Exception {
        KeyPair key = LabKeys.generate();
        try (LabServer lab = LabServer.start(LabServer.Config.forHome(TestHome.HOME).withAuthorizedKey(key.getPublic()));
             SshCollector c = collector(lab.knownHostsLine() + "\n", Duration.ofSeconds(60), key)) {
            List<SshTarget> targets = new ArrayList<>();
            for (String name : lab.hosts().subList(0, 3)) {
                targets.add(new SshTarget(name, LabServer.ADDRESS, lab.port()));
            }
            io.triage.engine.RuleBaseException broken = new io.triage.engine.RuleBaseException("rules/x.drl: broken", List.of());
            HostLooks looks = new HostLooks(java.util.concurrent.CompletableFuture.failedFuture(broken), c);
            io.triage.engine.RuleBaseException thrown = org.junit.jupiter.api.Assertions.assertThrows(
                    io.triage.engine.RuleBaseException.class, () -> looks.sweep(targets,
                            io.triage.TestHome.bundle(null, null, null), Map.of(), null, 2, o -> { }));
            assertEquals(broken, thrown);
        }
    }

    @Test
    void thirtyTwoFloodingHostsCompleteInAJvmWith256MegabytesOfHeap() throws Exception {
        int hosts = 32;
        try (HostileSshd hostile = new HostileSshd(
                u -> Integer.parseInt(u.substring(1)) % 2 == 0 ? HostileSshd.Mode.FLOOD_STDOUT : HostileSshd.Mode.FLOOD_STDERR,
                64L << 20)) {
            Path kh = Files.writeString(tmp.resolve("kh"), "[127.0.0.1]:" + hostile.port() + " "
                    + PublicKeyEntry.toString(hostile.hostKey.getPublic()) + "\n");
            Path id = tmp.resolve("id_flood");
            LabKeys.save(hostile.clientKey, id);
            Path cfg = Files.writeString(tmp.resolve("cfg"), "# none\n");
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process p = new ProcessBuilder(java, "-Xmx256m", "-XX:+ExitOnOutOfMemoryError", "-cp", classPath(),
                    FloodFleet.class.getName(), TestHome.HOME.toString(), String.valueOf(hostile.port()), kh.toString(),
                    id.toString(), cfg.toString(), String.valueOf(hosts))
                    .redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(5, TimeUnit.MINUTES), out);
            assertEquals(0, p.exitValue(), out);
            for (int i = 0; i < hosts; i++) {
                assertTrue(out.contains("host u" + i + "@127.0.0.1:" + hostile.port() + " look failed: output-cap\n"), "u" + i + ":\n" + out);
            }
            assertTrue(out.contains("outcomes=" + hosts + " of=" + hosts), out);
            System.out.println("HostLooksTest 32 flooding hosts in -Xmx256m: " + out.lines().filter(l -> l.startsWith("outcomes=")).findFirst().orElse(""));
        }
    }

    /** The test's class path with every entry absolute. */
    static String classPath() {
        StringBuilder b = new StringBuilder();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!e.isEmpty()) {
                b.append(b.length() == 0 ? "" : File.pathSeparator).append(Path.of(e).toAbsolutePath());
            }
        }
        return b.toString();
    }
}
