package io.triage.lab;

import io.triage.TestHome;
import io.triage.capture.Capture;
import io.triage.capture.CaptureReader;
import io.triage.collect.BundleOutput;
import io.triage.collect.ProbeBundle;
import io.triage.explain.Diagnosis;
import org.apache.sshd.client.session.ClientSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.security.KeyPair;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The lab replays a recorded second look: both samples come back over SSH as recorded, and the verdict with them. */
class LabSecondLookTest {
    static final Path BUSY = TestHome.SCENARIOS.resolve("progress-second-look/01-busy-vllm-second-look-tokens-moved");
    static final Path HUNG = TestHome.SCENARIOS.resolve("progress-second-look/02-hung-gpu-busy-vllm-one-recent-line-second-look-still");

    LabServer lab;
    SshTestClient ssh;

    @BeforeEach
    void start() throws Exception {
        KeyPair key = LabKeys.generate();
        lab = LabServer.start(LabServer.Config.empty().withCapture(BUSY).withCapture(HUNG).withAuthorizedKey(key.getPublic()));
        ssh = new SshTestClient(key, lab.hostKey());
    }

    @AfterEach
    void stop() {
        ssh.close();
        lab.close();
    }

    private Capture look(Path dir, ProbeBundle bundle) throws Exception {
        SshTestClient.Result r;
        try (ClientSession s = ssh.connect(lab, dir.getFileName().toString())) {
            r = SshTestClient.exec(s, bundle.script(), null);
        }
        assertEquals(0, r.status(), r.err());
        return BundleOutput.parse("lab", bundle, r.out(), Map.of(), List.of());
    }

    @Test
    void bothSamplesComeBackAsRecordedAndGiveTheVerdictOfTheCapture() throws Exception {
        for (Path dir : List.of(BUSY, HUNG)) {
            Capture overSsh = look(dir, ProbeBundle.forTarget(null, null, null).with(io.triage.TestHome.filters()));
            Capture recorded = new CaptureReader().read(dir);
            for (String name : List.of("first_look", "second_look", "metrics")) {
                assertEquals(recorded.probes().get(name).out(), overSsh.probes().get(name).out(), dir.getFileName() + " " + name);
                assertEquals(recorded.probes().get(name).rc(), overSsh.probes().get(name).rc(), dir.getFileName() + " " + name);
            }
            Diagnosis live = TestHome.triage().diagnose(overSsh, Map.of());
            Diagnosis replay = TestHome.triage().replay(dir, Map.of());
            assertEquals(replay.cause() + "/" + replay.subtype() + " " + replay.confidence(),
                    live.cause() + "/" + live.subtype() + " " + live.confidence(), dir.getFileName().toString());
            assertEquals("high", live.confidence(), "two moments agree in " + dir.getFileName());
        }
    }

    @Test
    void withTheSecondLookOffTheLabSendsNeitherSampleAndTheVerdictIsLessSure() throws Exception {
        Capture overSsh = look(HUNG, ProbeBundle.forTarget(null, null, null).with(io.triage.TestHome.filters()).withSecondLook(0));
        assertNull(overSsh.probes().get("first_look"));
        assertNull(overSsh.probes().get("second_look"));
        Diagnosis live = TestHome.triage().diagnose(overSsh, Map.of());
        assertEquals("hung", live.cause(), "the cadence alone already says the work stalled");
        assertEquals("medium", live.confidence(), "one moment");
    }
}
