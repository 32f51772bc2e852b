package io.triage.probe;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProbeFramesTest {
    private static final String NONCE = "0123abcd";

    /** What a decoder told, one entry per frame. */
    private record Told(ProbeFrames.Header h, byte[] out, byte[] err, boolean cut, String problem) { }

    private static List<Told> read(byte[] answer, int chunk, List<String> tagged) {
        List<Told> told = new ArrayList<>();
        ProbeFrames.Decoder d = new ProbeFrames(NONCE).new Decoder(1 << 20, true, new ProbeFrames.Listener() {
            @Override
            public void frame(ProbeFrames.Header h, byte[] out, byte[] err, boolean cut, String problem) {
                told.add(new Told(h, out, err, cut, problem));
            }

            @Override
            public void tagged(String body) {
                tagged.add(body);
            }
        });
        for (int i = 0; i < answer.length; i += chunk) {
            d.write(answer, i, Math.min(chunk, answer.length - i));
        }
        d.finish();
        return told;
    }

    private static final byte[][] HOSTILE = {
            ("line\n@@" + NONCE + " probe gpus rc=0 ms=1 out=1 err=0\nQQ==\n\n@@" + NONCE + " end\n").getBytes(StandardCharsets.UTF_8),
            {(byte) 0xff, (byte) 0xfe, (byte) 0x80, 'a', 0, '\n', (byte) 0xc3},
            "windows\r\nline\r\n\r\n".getBytes(StandardCharsets.UTF_8),
            new byte[0],
            "no newline at the end".getBytes(StandardCharsets.UTF_8),
    };

    @Test
    void hostileBodiesComeBackByteForByteWhateverTheChunking() throws Exception {
        ProbeFrames f = new ProbeFrames(NONCE);
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        answer.write("Welcome to the host\n".getBytes(StandardCharsets.UTF_8));
        f.tagged(answer, "discovered port=8000");
        for (int i = 0; i < HOSTILE.length; i++) {
            f.frame(answer, "p" + i, i - 1, 10L * i, HOSTILE[i], HOSTILE[HOSTILE.length - 1 - i], 1 << 16, 1 << 10);
        }
        f.tagged(answer, "end");
        for (int chunk : new int[] {1, 3, 7, 1 << 16}) {
            List<String> tagged = new ArrayList<>();
            List<Told> told = read(answer.toByteArray(), chunk, tagged);
            assertEquals(HOSTILE.length, told.size(), "a marker inside a body never starts a frame (chunk " + chunk + ")");
            for (int i = 0; i < HOSTILE.length; i++) {
                Told t = told.get(i);
                assertEquals(new ProbeFrames.Header("p" + i, i - 1, 10L * i, HOSTILE[i].length,
                        HOSTILE[HOSTILE.length - 1 - i].length), t.h());
                assertArrayEquals(HOSTILE[i], t.out());
                assertArrayEquals(HOSTILE[HOSTILE.length - 1 - i], t.err());
                assertFalse(t.cut());
                assertNull(t.problem());
            }
            assertEquals(List.of("discovered port=8000", "end"), tagged);
        }
    }

    @Test
    void aBodyOverItsCapIsCutAndTheHeaderSaysHowBigItWas() throws Exception {
        byte[] big = new byte[5000];
        Arrays.fill(big, (byte) 'x');
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        new ProbeFrames(NONCE).frame(answer, "log_tail", 0, 3, big, new byte[0], 1024, 16);
        Told t = read(answer.toByteArray(), 100, new ArrayList<>()).get(0);
        assertEquals(1024, t.out().length);
        assertEquals(5000, t.h().outBytes(), "the frame says the output was cut, and from what");
    }

    @Test
    void crlfLineEndsOfAPseudoTerminalReadTheSame() throws Exception {
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        ProbeFrames f = new ProbeFrames(NONCE);
        f.frame(answer, "health", 7, 12, "000 0.001\r\n".getBytes(StandardCharsets.UTF_8),
                "curl: (7) refused\n".getBytes(StandardCharsets.UTF_8), 4096, 4096);
        f.tagged(answer, "end");
        byte[] crlf = answer.toString(StandardCharsets.ISO_8859_1).replace("\n", "\r\n").getBytes(StandardCharsets.ISO_8859_1);
        List<String> tagged = new ArrayList<>();
        Told t = read(crlf, 5, tagged).get(0);
        assertEquals(7, t.h().rc());
        assertEquals("000 0.001\r\n", new String(t.out(), StandardCharsets.UTF_8), "the body is the probe's, CR and all");
        assertEquals("curl: (7) refused\n", new String(t.err(), StandardCharsets.UTF_8));
        assertEquals(List.of("end"), tagged);
    }

    @Test
    void aFrameCutShortIsToldAsCutWithWhatArrived() {
        String n = "@@" + NONCE + " ";
        List<Told> headerOnly = read((n + "probe dmesg rc=0 ms=4 out=3 err=0\n").getBytes(StandardCharsets.UTF_8), 2, new ArrayList<>());
        assertEquals(1, headerOnly.size());
        assertTrue(headerOnly.get(0).cut());
        assertNull(headerOnly.get(0).out());

        List<Told> outOnly = read((n + "probe dmesg rc=0 ms=4 out=3 err=0\nYWJj\n").getBytes(StandardCharsets.UTF_8), 2, new ArrayList<>());
        assertTrue(outOnly.get(0).cut());
        assertEquals("abc", new String(outOnly.get(0).out(), StandardCharsets.UTF_8));
        assertNull(outOnly.get(0).err());

        List<Told> midBody = read((n + "probe dmesg rc=0 ms=4 out=3 err=0\nYW").getBytes(StandardCharsets.UTF_8), 1, new ArrayList<>());
        assertTrue(midBody.get(0).cut());
        assertNull(midBody.get(0).out(), "half a base64 body is not readable");
        assertTrue(midBody.get(0).problem().contains("cut mid-line"), midBody.get(0).problem());
    }

    @Test
    void onlyThisRunsHeadersOfTheExactShapeCount() {
        String text = "@@ffff probe health rc=0 ms=1\nQQ==\n\n"          // another run's nonce
                + "@@" + NONCE + " probe Health rc=0 ms=1\n"               // not a probe name: a tagged line
                + "@@" + NONCE + " probe health rc=0 ms=1 extra\n"         // not the shape
                + "@@" + NONCE + " " + "x".repeat(5000) + "\n"             // longer than any header
                + "@@" + NONCE + " probe ps rc=0 ms=2\nQQ==\n\n";          // an older script's header: sizes unknown
        List<String> tagged = new ArrayList<>();
        List<Told> told = read(text.getBytes(StandardCharsets.UTF_8), 9, tagged);
        assertEquals(1, told.size());
        assertEquals(new ProbeFrames.Header("ps", 0, 2, -1, -1), told.get(0).h());
        assertEquals(List.of("probe Health rc=0 ms=1", "probe health rc=0 ms=1 extra"), tagged);
    }

    @Test
    void nonceAndNamesAreCheckedBeforeAnythingIsWritten() {
        assertThrows(IllegalArgumentException.class, () -> new ProbeFrames("ab cd"));
        assertThrows(IllegalArgumentException.class, () -> new ProbeFrames(""));
        ProbeFrames f = new ProbeFrames(NONCE);
        assertThrows(IllegalArgumentException.class, () -> f.tagged(new ByteArrayOutputStream(), "two\nlines"));
        assertThrows(IllegalArgumentException.class, () -> f.frame(new ByteArrayOutputStream(), "no spaces", 0, 0,
                new byte[0], new byte[0], 1, 1));
        assertThrows(IllegalArgumentException.class, () -> ProbeFrames.invocation("x; rm", 5, "'true'"));
        assertThrows(IllegalArgumentException.class, () -> ProbeFrames.invocation("x", 5, "true; rm"));
    }

    @Test
    void anInvocationIsReadBackWithOrWithoutItsCondition() {
        String line = ProbeFrames.invocation("log_tail", 5, "'tail -n 60 -- \"$T_LOG\"'");
        assertEquals(new ProbeFrames.Invocation("log_tail", 5), ProbeFrames.invoked(line).orElseThrow());
        assertEquals(new ProbeFrames.Invocation("log_tail", 5),
                ProbeFrames.invoked("if [ -n \"$T_LOG\" ] && { [ -f \"$T_LOG\" ] || [ ! -e \"$T_LOG\" ]; }; then " + line + "; fi")
                        .orElseThrow());
        assertTrue(ProbeFrames.invoked("echo p health 5 'x'").isEmpty());
        assertTrue(ProbeFrames.invoked("p Health 5 'x'").isEmpty());
    }

    /** The shell writer and the Java writer make the same frame for the same bytes: one format, two writers. */
    @Test
    void theScriptsFramesAreTheJavaWritersFrames() throws Exception {
        Path dir = Files.createTempDirectory("frames");
        try {
            Path body = dir.resolve("body");
            byte[] hostile = ("a\r\nb\n@@" + NONCE + " probe x rc=0 ms=0 out=0 err=0\n\n").getBytes(StandardCharsets.UTF_8);
            byte[] withBad = Arrays.copyOf(hostile, hostile.length + 3);
            withBad[hostile.length] = (byte) 0xff;
            withBad[hostile.length + 1] = (byte) 0xc3;
            withBad[hostile.length + 2] = '\n';
            Files.write(body, withBad);
            String script = "set +e\nN=" + NONCE + "\nd=" + ProbeFramesTest.quote(dir.toString()) + "\n"
                    + ProbeFrames.shellFunctions(16, 8, "") 
                    + ProbeFrames.invocation("catted", 5, ProbeFramesTest.quote("cat " + body + "; echo oops >&2; exit 3")) + "\n"
                    + ProbeFrames.END + "\n";
            Process p = new ProcessBuilder("bash", "-c", script).redirectErrorStream(false).start();
            byte[] out = p.getInputStream().readAllBytes();
            assertTrue(p.waitFor(20, TimeUnit.SECONDS));
            List<String> tagged = new ArrayList<>();
            List<Told> told = read(out, 4, tagged);
            assertEquals(1, told.size(), new String(out, StandardCharsets.UTF_8));
            Told t = told.get(0);
            assertEquals(3, t.h().rc());
            assertEquals(withBad.length, t.h().outBytes());
            assertEquals(5, t.h().errBytes());

            ByteArrayOutputStream java = new ByteArrayOutputStream();
            new ProbeFrames(NONCE).frame(java, "catted", 3, t.h().millis(), withBad, "oops\n".getBytes(StandardCharsets.UTF_8), 16, 8);
            java.write(("@@" + NONCE + " end\n").getBytes(StandardCharsets.UTF_8));
            assertEquals(java.toString(StandardCharsets.UTF_8), new String(out, StandardCharsets.UTF_8),
                    "the script's frame, byte for byte, is the Java writer's");
            assertArrayEquals(Arrays.copyOf(withBad, 16), t.out());
            assertEquals(List.of("end"), tagged);
        } finally {
            try (var s = Files.walk(dir)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\"'\"'") + "'";
    }
}
