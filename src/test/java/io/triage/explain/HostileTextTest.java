package io.triage.explain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.triage.TestHome;
import io.triage.capture.Capture;
import io.triage.capture.ProbeOutput;
import io.triage.cli.Main;
import io.triage.safety.Sanitizer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Text from a host reaches the terminal inert through every channel the security review named: an OOM
 * victim's name, an nvidia-smi process name, a server argument's value, a note, a file name, a probe's
 * stderr and a failed look's message (the SSH server's identification string, sent before any
 * authentication). Each time the text output has no raw control, bidi or zero-width character but shows
 * them visibly, and the JSON keeps the exact text with those characters escaped.
 */
class HostileTextTest {
    /** An OSC 52 clipboard write, a screen clear, a carriage-return overwrite, a bidi override, a zero-width space. */
    static final String H = "\u001b]52;c;cm0gLXJmIC8=\u0007\u001b[2J\rFAKE\u202eevil\u200bname";

    static void assertShownInert(String text) {
        text.codePoints().forEach(cp -> assertFalse(cp != '\n' && cp != '\t' && Sanitizer.dangerous(cp),
                String.format("raw U+%04X reached the output:%n%s", cp, text)));
        for (String visible : List.of("␛]52;c;cm0gLXJmIC8=␇", "␛[2J", "␍FAKE", "<U+202E>evil<U+200B>name")) {
            assertTrue(text.contains(visible), "'" + visible + "' not shown in:\n" + text);
        }
    }

    static void assertJsonKeepsTextEscaped(String json) throws Exception {
        json.codePoints().forEach(cp -> assertFalse(cp != '\n' && cp != '\t' && Sanitizer.dangerous(cp),
                String.format("raw U+%04X in JSON", cp)));
        assertTrue(anyText(new ObjectMapper().readTree(json), s -> s.contains(H)), "the JSON lost the text");
    }

    private static boolean anyText(JsonNode n, java.util.function.Predicate<String> p) {
        if (n.isTextual()) {
            return p.test(n.asText());
        }
        for (Iterator<JsonNode> it = n.elements(); it.hasNext(); ) {
            if (anyText(it.next(), p)) {
                return true;
            }
        }
        return false;
    }

    static Capture edit(String scenario, String probe, UnaryOperator<String> out, UnaryOperator<String> err) throws Exception {
        Capture c = TestHome.triage().reader().read(TestHome.fixture(scenario));
        Map<String, ProbeOutput> probes = new LinkedHashMap<>(c.probes());
        ProbeOutput p = probes.get(probe);
        probes.put(probe, new ProbeOutput(p.name(), p.cmd(), out.apply(p.outOrEmpty()), err.apply(p.errOrEmpty()),
                p.rc(), p.seconds(), p.truncated()));
        return new Capture(c.source(), probes, c.target(), c.intent(), c.notes());
    }

    static void check(Capture c, Map<String, String> intent) throws Exception {
        Diagnosis d = TestHome.triage().diagnose(c, intent);
        assertShownInert(new TextRenderer().render(d));
        assertJsonKeepsTextEscaped(new JsonRenderer().render(d));
    }

    @Test
    void anOomVictimsName() throws Exception {
        check(edit("06-oom-killer-host-ram-during-load", "dmesg",
                s -> s.replace("task=python3,", "task=py" + H + ",").replace("(python3)", "(py" + H + ")"),
                UnaryOperator.identity()), Map.of());
    }

    @Test
    void anNvidiaSmiProcessName() throws Exception {
        check(edit("32-orphaned-workers-vllm-tp2", "gpu_apps", s -> s.replace("VLLM::Worker_TP0", "VLLM::Worker_TP0" + H),
                UnaryOperator.identity()), Map.of());
    }

    @Test
    void aServerArgumentsValue() throws Exception {
        Capture c = edit("30-config-mismatch-vllm-max-model-len", "ps",
                s -> s.replace("--max-model-len 8192", "--max-model-len 8192" + H.replace("\r", "")), UnaryOperator.identity());
        Diagnosis d = TestHome.triage().diagnose(c, Map.of());
        String text = new TextRenderer().render(d);
        text.codePoints().forEach(cp -> assertFalse(cp != '\n' && Sanitizer.dangerous(cp), text));
        assertTrue(text.contains("8192␛]52;c;cm0gLXJmIC8=␇␛[2JFAKE<U+202E>evil<U+200B>name"), text);
        assertTrue(new JsonRenderer().render(d).contains("8192\\u001B]52;c;cm0gLXJmIC8=\\u0007\\u001B[2JFAKE\\u202eevil\\u200bname"));
    }

    @Test
    void aNote() throws Exception {
        Capture c = TestHome.triage().reader().read(TestHome.fixture("01-healthy-vllm-h100"));
        List<String> notes = new ArrayList<>(c.notes());
        notes.add("odd line: " + H);
        check(new Capture(c.source(), c.probes(), c.target(), c.intent(), notes), Map.of());
    }

    @Test
    void aFileNameAndALogPath(@TempDir Path tmp) throws Exception {
        Path src = TestHome.fixture("30-config-mismatch-vllm-max-model-len");
        Path dir = Files.createDirectory(tmp.resolve("capture" + H));
        try (Stream<Path> files = Files.list(src)) {
            for (Path f : files.toList()) {
                Files.copy(f, dir.resolve(f.getFileName().toString()));
            }
        }
        Files.writeString(dir.resolve("target.txt"), "server=vllm\nport=8000\nlog=/srv/" + H.replace("\r", "") + ".log\n");
        Diagnosis d = TestHome.triage().replay(dir, Map.of("max_model_len", "32768"));
        String text = new TextRenderer().render(d);
        assertShownInert(text);
        assertTrue(text.contains("(no command offered: the log path /srv/␛]52;c;cm0gLXJmIC8=␇␛[2JFAKE<U+202E>evil"
                + "<U+200B>name.log is not put into a command: it holds control, bidi or invisible characters)"), text);
        assertJsonKeepsTextEscaped(new JsonRenderer().render(d));
    }

    @Test
    void aProbesStderr() throws Exception {
        // the parser's excerpt already replaced the C0 controls with U+FFFD; bidi and zero-width are left to the view
        Diagnosis d = TestHome.triage().diagnose(edit("01-healthy-vllm-h100", "listen", UnaryOperator.identity(),
                s -> "bash: line 1: ss: " + H + "\n"), Map.of());
        String text = new TextRenderer().render(d);
        text.codePoints().forEach(cp -> assertFalse(cp != '\n' && Sanitizer.dangerous(cp), text));
        assertTrue(text.contains("failed: listen (not-found: bash: line 1: ss: \ufffd]52;c;cm0gLXJmIC8=\ufffd\ufffd[2J"
                + "\ufffdFAKE<U+202E>evil<U+200B>name)"), text);
        String json = new JsonRenderer().render(d);
        assertTrue(json.contains("FAKE\\u202eevil\\u200bname"), json);
    }

    @Test
    void theIdentificationStringOfAnSshServerThatFailsTheLook(@TempDir Path tmp) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> {
                try (Socket s = server.accept()) {
                    OutputStream o = s.getOutputStream();
                    o.write(("SSH-2.0-" + H + "\r\n").getBytes(StandardCharsets.UTF_8));
                    o.write("not a key exchange\r\n".repeat(4).getBytes(StandardCharsets.UTF_8));
                    o.flush();
                    s.getInputStream().read(new byte[4096]);
                } catch (Exception e) {
                    // the client hung up: the test reads what it printed
                }
            });
            t.setDaemon(true);
            t.start();
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int rc = Main.run(new String[] {"--home", TestHome.HOME.toString(), "diagnose",
                    "tester@127.0.0.1:" + server.getLocalPort(), "--known-hosts", tmp.resolve("known_hosts").toString(),
                    "--deadline", "15"}, new PrintWriter(out, true), new PrintWriter(err, true));
            String all = out + "\n" + err;
            assertEquals(4, rc, all);
            all.codePoints().forEach(cp -> assertFalse(cp != '\n' && cp != '\t' && Sanitizer.dangerous(cp),
                    String.format("raw U+%04X reached the output:%n%s", cp, all)));
            assertTrue(all.contains("Could not look at"), all);
            assertTrue(all.contains("SSH-2.0-␛]52;c;cm0gLXJmIC8=␇␛[2J"), "the identification string, made visible: " + all);
        }
    }
}
