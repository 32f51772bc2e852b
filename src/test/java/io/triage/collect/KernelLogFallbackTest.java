package io.triage.collect;

import io.triage.TestHome;
import io.triage.capture.Capture;
import io.triage.capture.ProbeOutput;
import io.triage.explain.Diagnosis;
import io.triage.parse.KernelLogSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The dmesg probe's fallbacks, run as the bundle runs them ({@code bash -c} with stdin closed), against
 * stand-in {@code dmesg}, {@code sudo} and {@code journalctl} placed first on PATH: each prints what the real
 * program prints in that situation (the refusal message of a restricted kernel log, sudo's answer without a
 * rule). This checks the script's logic, which no machine of ours can show live (tests run as root, where
 * dmesg is never refused); the diagnosis then says which read was used.
 */
class KernelLogFallbackTest {
    private static final String REFUSED = "dmesg: read kernel buffer failed: Operation not permitted";
    private static final String OOM = "[Mon Nov 30 00:41:02 2026] Out of memory: Killed process 4242 (python3) "
            + "total-vm:81234567kB, anon-rss:61234567kB";

    @TempDir
    Path bin;

    private void tool(String name, String body) throws Exception {
        Path p = Files.writeString(bin.resolve(name), "#!/bin/bash\n" + body + "\n");
        assertTrue(p.toFile().setExecutable(true));
    }

    /** Runs the dmesg probe's command; returns stdout. */
    private String run() throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", io.triage.probe.ProbeCatalogue.DMESG)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().put("PATH", bin + ":/usr/bin:/bin");
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(20, TimeUnit.SECONDS));
        return out;
    }

    private static Diagnosis diagnose(String dmesgOut) {
        Capture c = new Capture("fallback", Map.of("dmesg", new ProbeOutput("dmesg", null, dmesgOut, "", 0, 0.05, false)),
                Map.of("server", "sglang"), Map.of(), List.of());
        return TestHome.triage().diagnose(c, Map.of());
    }

    @Test
    void aRefusedDmesgIsReadWithSudoNAndTheDiagnosisSaysSo() throws Exception {
        tool("dmesg", "echo '" + REFUSED + "' >&2; exit 1");
        tool("sudo", "[ \"$1\" = -n ] || { echo 'sudo: would prompt' >&2; exit 99; }; shift; "
                + "[ \"$1\" = dmesg ] && { echo '" + OOM + "'; exit 0; }; exit 1");
        String out = run();
        assertEquals(KernelLogSource.SUDO_DMESG.header() + "\n" + OOM + "\n", out);
        Diagnosis d = diagnose(out);
        assertTrue(d.coverage().notes().contains(KernelLogSource.SUDO_DMESG.note()), d.coverage().notes().toString());
        assertTrue(d.coverage().failed().stream().noneMatch(f -> f.contains("dmesg")), d.coverage().failed().toString());
    }

    @Test
    void withoutASudoRuleTheJournalIsTriedAndOtherwiseTheRefusalIsReported() throws Exception {
        tool("dmesg", "echo '" + REFUSED + "' >&2; exit 1");
        // sudo without a rule for this user: -n makes it fail at once instead of prompting
        tool("sudo", "echo 'sudo: a password is required' >&2; exit 1");
        tool("journalctl", "echo 'Nov 30 00:41:02 gpu7 kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.'");
        String out = run();
        assertTrue(out.startsWith(KernelLogSource.JOURNAL.header() + "\n"), out);
        assertTrue(diagnose(out).coverage().notes().contains(KernelLogSource.JOURNAL.note()));

        tool("journalctl", "echo 'Hint: You are currently not seeing messages from other users and the system.' >&2; "
                + "echo '-- No entries --'");
        out = run();
        assertEquals(REFUSED + "\n", out, "nothing else answered: the refusal itself is the output");
        Diagnosis d = diagnose(out);
        assertTrue(d.coverage().failed().stream().anyMatch(f -> f.contains("dmesg")), d.coverage().failed().toString());
        assertFalse(d.coverage().notes().stream().anyMatch(n -> n.contains("kernel log read with")));
    }

    @Test
    void aPlainReadThatWorksIsPrintedAsItIsAndSudoIsNeverTried() throws Exception {
        Path marker = bin.resolve("sudo-was-run");
        tool("dmesg", "echo '" + OOM + "'");
        tool("sudo", "touch " + marker + "; exit 1");
        assertEquals(OOM + "\n", run());
        assertFalse(Files.exists(marker));
    }

    @Test
    void aKernelLineThatImitatesTheHeaderLaterInTheLogIsJustALine() {
        Diagnosis d = diagnose(OOM + "\n" + KernelLogSource.SUDO_DMESG.header() + "\n");
        assertFalse(d.coverage().notes().contains(KernelLogSource.SUDO_DMESG.note()));
    }
}
