package io.triage.lab;

import io.triage.TestHome;
import io.triage.capture.Capture;
import io.triage.collect.BundleOutput;
import io.triage.collect.ProbeBundle;
import io.triage.explain.Diagnosis;
import org.apache.sshd.client.session.ClientSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.security.KeyPair;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The point of the lab: diagnosing lab host X over SSH gives exactly the verdict of replaying capture X's
 * directory (with the capture's intent given as the operator's, since SSH cannot carry it).
 */
class LabVerdictTest {
    static LabServer lab;
    static SshTestClient ssh;

    @BeforeAll
    static void start() throws Exception {
        KeyPair key = LabKeys.generate();
        lab = LabServer.start(LabServer.Config.forHome(TestHome.HOME).withFleet("fleet", 2).withAuthorizedKey(key.getPublic()));
        ssh = new SshTestClient(key, lab.hostKey());
    }

    @AfterAll
    static void stop() {
        if (ssh != null) {
            ssh.close();
        }
        if (lab != null) {
            lab.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyLabHostGivesTheVerdictOfItsCapture() {
        return lab.hosts().stream().map(name -> DynamicTest.dynamicTest(name, () -> check(name)));
    }

    static void check(String name) throws Exception {
        LabHost host = lab.host(name).orElseThrow();
        ProbeBundle bundle = io.triage.TestHome.bundle(null, null, null);
        SshTestClient.Result r;
        try (ClientSession s = ssh.connect(lab, name)) {
            r = SshTestClient.exec(s, bundle.script(), null);
        }
        assertEquals(0, r.status(), r.err());
        Capture overSsh = BundleOutput.parse("ssh://" + name, bundle, r.out(), host.intent(), List.of());
        Diagnosis live = TestHome.triage().diagnose(overSsh, Map.of());
        Diagnosis replay = TestHome.triage().replay(host.captureDir(), Map.of());
        if (replayIsStable(host)) {
            assertEquals(verdict(replay), verdict(live), name + ": over SSH vs replay of " + host.captureDir().getFileName());
            assertEquals(hypotheses(replay), hypotheses(live), name + ": hypotheses");
        } else {
            // the engine itself picks this capture's subtype differently from run to run: compare the rest
            assertEquals(replay.cause() + " (" + replay.confidence() + ")", live.cause() + " (" + live.confidence() + ")",
                    name + ": over SSH vs replay of " + host.captureDir().getFileName());
        }
    }

    /** Whether replaying the capture gives one verdict every time (the lab cannot be more stable than that). */
    static boolean replayIsStable(LabHost host) throws Exception {
        java.util.Set<String> seen = new java.util.HashSet<>();
        java.util.Set<String> verdicts = new java.util.TreeSet<>();
        for (int i = 0; i < 6; i++) {
            Diagnosis d = TestHome.triage().replay(host.captureDir(), Map.of());
            seen.add(verdict(d) + hypotheses(d));
            verdicts.add(verdict(d));
        }
        if (seen.size() > 1) {
            System.err.println("LabVerdictTest: replaying " + host.captureDir().getFileName()
                    + " does not give the same diagnosis every time (" + verdicts + "): compared cause and confidence only");
        }
        return seen.size() == 1;
    }

    static String verdict(Diagnosis d) {
        return d.cause() + "/" + d.subtype() + " (" + d.confidence() + ")";
    }

    static List<String> hypotheses(Diagnosis d) {
        return d.hypotheses().stream().map(h -> h.cause() + "/" + h.subtype() + ":" + h.status() + ":" + h.confidence()).toList();
    }
}
