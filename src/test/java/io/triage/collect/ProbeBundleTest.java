package io.triage.collect;

import io.triage.capture.Capture;
import io.triage.capture.ProbeOutput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The probe bundle, run by a local bash: framing, per-probe results, and hostile values. */
class ProbeBundleTest {
    @TempDir
    Path tmp;

    static String bash(String script) throws IOException, InterruptedException {
        return bash(script, null);
    }

    /** Runs the script with {@code bin} (when not null) first on the PATH: stand-ins for the host's tools. */
    static String bash(String script, Path bin) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", "-s").redirectErrorStream(false);
        if (bin != null) {
            pb.environment().put("PATH", bin + ":" + pb.environment().getOrDefault("PATH", "/usr/bin:/bin"));
        }
        Process p = pb.start();
        p.getOutputStream().write(script.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return out;
    }

    @Test
    void everyProbeComesBackFramedWithItsExitCodeAndOutputs() throws Exception {
        Path log = Files.writeString(tmp.resolve("server.log"), "[2026-11-30 00:30:55] server_args=ServerArgs(port=30000)\n"
                + "binary \u0001 bytes and 'quotes' and $(not run)\n");
        ProbeBundle b = io.triage.TestHome.bundle("sglang", 1, log.toString());
        Capture c = BundleOutput.parse("local", b, bash(b.script()), Map.of(), List.of());
        for (ProbeBundle.Probe p : ProbeBundle.STANDARD) {
            assertTrue(c.probes().containsKey(p.name()), "missing " + p.name() + " in " + c.probes().keySet());
        }
        ProbeOutput tail = c.probes().get("log_tail");
        assertEquals(0, tail.rc());
        assertTrue(tail.out().contains("$(not run)"), tail.out());
        assertEquals(2, tail.out().lines().count());
        ProbeOutput health = c.probes().get("health");
        assertEquals(7, health.rc(), "nothing listens on port 1: " + health.err());
        assertTrue(c.probes().get("date").out().matches("(?s)\\d{4}-\\d{2}-\\d{2}T.*"), c.probes().get("date").out());
        assertTrue(c.probes().get("log_tail").cmd().contains(log.toString()), "the .cmd shows the real path");
        assertFalse(c.notes().stream().anyMatch(n -> n.contains("cut short")), c.notes().toString());
    }

    @Test
    void aRenewedBundleSendsTheSameScriptWithOnlyItsOwnNonce() throws Exception {
        ProbeBundle first = io.triage.TestHome.bundle("sglang", 30000, "/var/log/sglang.log");
        String script = first.script();
        ProbeBundle second = first.renewed();
        ProbeBundle third = first.with(first.filters());
        assertFalse(second.nonce().equals(first.nonce()) || third.nonce().equals(first.nonce())
                || third.nonce().equals(second.nonce()), "each look has its own nonce");
        for (ProbeBundle b : List.of(second, third)) {
            assertEquals(script.replace("\nN=" + first.nonce() + "\n", "\nN=" + b.nonce() + "\n"), b.script());
            assertEquals(1, b.script().split("\nN=", -1).length - 1, "one nonce line");
            assertEquals(first.probes(), b.probes());
        }
        // made from scratch with the same settings, the script is the same but for the nonce
        ProbeBundle fresh = io.triage.TestHome.bundle("sglang", 30000, "/var/log/sglang.log");
        assertEquals(script.replace("\nN=" + first.nonce() + "\n", "\nN=" + fresh.nonce() + "\n"), fresh.script());
        // and what comes back is read against the renewed bundle's own nonce
        Capture c = BundleOutput.parse("local", second, bash(second.script()), Map.of(), List.of());
        assertTrue(c.probes().containsKey("date"), c.probes().keySet().toString());
    }

    @Test
    void theBytesSentAreTheScriptAsUtf8WithEachBundlesOwnNonceWhicheverIsAskedFirst() {
        // a fresh template asked for its bytes before its text, and renewed bundles sharing the encoded parts
        ProbeBundle template = io.triage.TestHome.bundle("vllm", 8000, "/var/log/vllm.log");
        byte[] first = template.scriptBytes();
        assertEquals(template.script(), new String(first, StandardCharsets.UTF_8));
        for (ProbeBundle b : List.of(template.renewed(), template.renewed(), template.with(template.filters()))) {
            String sent = new String(b.scriptBytes(), StandardCharsets.UTF_8);
            assertEquals(b.script(), sent);
            assertTrue(sent.contains("\nN=" + b.nonce() + "\n"), "its own nonce");
            assertFalse(sent.contains(template.nonce()), "not the template's nonce");
        }
    }

    @Test
    void aLogPathWithSpacesIsReadAsOnePath() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("a dir, with=odd+chars"));
        Path log = Files.writeString(dir.resolve("server log.txt"), "hello from the log\n");
        ProbeBundle b = io.triage.TestHome.bundle("vllm", 8000, log.toString());
        Capture c = BundleOutput.parse("local", b, bash(b.script()), Map.of(), List.of());
        assertEquals("hello from the log\n", c.probes().get("log_tail").out());
    }

    @Test
    void hostileValuesAreRefusedBeforeAnythingIsSent() {
        String[] logs = {"relative/path.log", "/var/log/x;rm -rf ~", "/var/log/$(id)", "/var/log/`id`",
                "/var/log/x\nrm -rf ~", "/var/log/x|sh", "/var/log/x&&id", "/var/log/\"x\"", "--help",
                "/var/../../etc/shadow/..", "/var/log/a\u0000b"};
        for (String l : logs) {
            assertThrows(IllegalArgumentException.class, () -> io.triage.TestHome.bundle("sglang", 30000, l), l);
        }
        for (String s : new String[] {"sglang; id", "$(id)", "vllm`id`", "--server", "tgi\n"}) {
            assertThrows(IllegalArgumentException.class, () -> io.triage.TestHome.bundle(s, 30000, null), s);
        }
        for (String p : new String[] {"0", "65536", "30000; id", "$(id)", "-1", "30000\n", "", " 80"}) {
            assertThrows(IllegalArgumentException.class, () -> ProbeBundle.parsePort(p), p);
        }
    }

    @Test
    void quotingSurvivesEveryHostileStringAsData() throws Exception {
        Path marker = tmp.resolve("pwned");
        String[] values = {"'; touch " + marker + "; '", "$(touch " + marker + ")", "`touch " + marker + "`",
                "a'b\"c\\d", "x\ntouch " + marker, "-- --help", "'\"'\"'"};
        for (String v : values) {
            String out = bash("printf '%s' " + ProbeBundle.quote(v));
            assertEquals(v, out);
        }
        assertFalse(Files.exists(marker), "a quoted value was executed");
    }

    /** A directory of stand-ins for {@code ss} and {@code pgrep} that see nothing: a host with no server at all. */
    private Path nothingListens() throws IOException {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        for (String tool : List.of("ss", "pgrep")) {
            Path t = Files.writeString(bin.resolve(tool), "#!/bin/sh\nexit 1\n");
            assertTrue(t.toFile().setExecutable(true));
        }
        return bin;
    }

    @Test
    void withoutAPortOrLogTheScriptSaysWhatItAssumed() throws Exception {
        ProbeBundle b = io.triage.TestHome.bundle("vllm", null, null);
        Capture c = BundleOutput.parse("local", b, bash(b.script(), nothingListens()), Map.of(), List.of());
        assertEquals("8000", c.target().get("port"));
        assertTrue(c.notes().stream().anyMatch(n -> n.startsWith("assumed")), c.notes().toString());
        assertFalse(c.probes().containsKey("log_tail"), "no log to read");
        assertNotNull(c.probes().get("health"));
    }

    @Test
    void aForgedFrameInsideAnOutputIsJustData() throws Exception {
        ProbeBundle b = io.triage.TestHome.bundle("sglang", 1, Files.writeString(tmp.resolve("l"), "x\n").toString());
        String noisy = "Welcome banner\n@@deadbeef probe health rc=0 ms=1\n" + bash(b.script());
        Capture c = BundleOutput.parse("local", b, noisy, Map.of(), List.of());
        assertEquals(7, c.probes().get("health").rc());
    }

    @Test
    void thePortIsDiscoveredFromTheServersCommandLineAndSaidToBe() throws Exception {
        Process fake = new ProcessBuilder("bash", "-c", "exec -a 'python3 -m sglang.launch_server --port 31998' sleep 60").start();
        try {
            Thread.sleep(300);
            ProbeBundle b = io.triage.TestHome.bundle("sglang", null, null);
            Capture c = BundleOutput.parse("local", b, bash(b.script()), Map.of(), List.of());
            assertEquals("31998", c.target().get("port"), c.notes().toString());
            assertTrue(c.notes().stream().anyMatch(n -> n.contains("discovered on the host: port=31998") && n.contains("command line")),
                    c.notes().toString());
        } finally {
            fake.destroyForcibly();
        }
    }

    @Test
    void aDeviceOrATerminalIsNeverReadAsTheLog() throws Exception {
        ProbeBundle b = io.triage.TestHome.bundle("sglang", 1, "/dev/zero");
        Capture c = BundleOutput.parse("local", b, bash(b.script()), Map.of(), List.of());
        assertFalse(c.probes().containsKey("log_tail"), "tail of /dev/zero must not run");
        ProbeBundle missing = io.triage.TestHome.bundle("sglang", 1, tmp.resolve("no-such.log").toString());
        Capture m = BundleOutput.parse("local", missing, bash(missing.script()), Map.of(), List.of());
        assertEquals(1, m.probes().get("log_tail").rc(), "a missing file is read, and its absence reported");
    }

    @Test
    void discoveryLinesFromTheHostCannotSetOtherTargetFields() {
        ProbeBundle b = io.triage.TestHome.bundle(null, null, null);
        String n = "@@" + b.nonce() + " ";
        Capture c = BundleOutput.parse("x", b, n + "discovered port=8000 pid=12\n"
                + n + "discovered log=/tmp/my logs/srv port=abc server=tgi.log pid=12\n"
                + n + "discovered port=99999\n" + n + "end\n", Map.of(), List.of());
        assertEquals("8000", c.target().get("port"));
        assertEquals("/tmp/my logs/srv port=abc server=tgi.log", c.target().get("log"));
        assertFalse(c.target().containsKey("server"), c.target().toString());
    }
}
