package io.triage.lab;

import io.triage.TestHome;
import io.triage.collect.ProbeBundle;
import io.triage.collect.SshCollector;
import io.triage.collect.SshTarget;
import io.triage.explain.Diagnosis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/** The product's own collector against the lab: the seed story over real SSH, host key verified. */
class LabCollectorTest {
    @TempDir
    Path tmp;

    @Test
    void theCollectorDiagnosesTheSeedLabHostOverSsh() throws Exception {
        KeyPair key = LabKeys.generate();
        try (LabServer lab = LabServer.start(LabServer.Config.forHome(TestHome.HOME).withAuthorizedKey(key.getPublic()))) {
            Path knownHosts = Files.writeString(tmp.resolve("known_hosts"), lab.knownHostsLine() + "\n");
            SshCollector.Options o = new SshCollector.Options(knownHosts, false, List.of(), tmp.resolve("no-ssh-config"),
                    Duration.ofSeconds(10), Duration.ofSeconds(30));
            Files.writeString(o.sshConfig(), "");
            try (SshCollector collector = new SshCollector(o)) {
                collector.addIdentity(key);
                LabHost host = lab.host("gpu-never-launched").orElseThrow();
                SshCollector.Look look = collector.look(new SshTarget(host.name(), LabServer.ADDRESS, lab.port()),
                        io.triage.TestHome.bundle(null, null, null), host.intent());
                SshCollector.Collected c = assertInstanceOf(SshCollector.Collected.class, look, look.toString());
                assertEquals(1, c.execs());
                Diagnosis live = TestHome.triage().diagnose(c.capture(), Map.of());
                Diagnosis replay = TestHome.triage().replay(host.captureDir(), Map.of());
                assertEquals("launch-never-happened", live.cause());
                assertEquals(replay.cause() + "/" + replay.subtype() + " " + replay.confidence(),
                        live.cause() + "/" + live.subtype() + " " + live.confidence());
            }
        }
    }
}
