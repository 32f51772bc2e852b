package io.triage.collect;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ProbeFrameTapTest {
    private static List<String> feed(String nonce, String text, int chunk, ByteArrayOutputStream sink) throws Exception {
        List<String> seen = new ArrayList<>();
        ProbeFrameTap tap = new ProbeFrameTap(sink, nonce, (p, rc, ms) -> seen.add(p + " " + rc + " " + ms));
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < b.length; i += chunk) {
            tap.write(b, i, Math.min(chunk, b.length - i));
        }
        return seen;
    }

    @Test
    void eachCompleteFrameIsToldOnceWhateverTheChunking() throws Exception {
        String text = "banner\n@@abc discovered port=30000\n@@abc probe health rc=7 ms=12\nAAAA\n\n"
                + "@@abc probe gpus rc=0 ms=34\nBBBB\nCC\n@@abc probe dmesg rc=0 ms=9\nDD\n";
        for (int chunk : new int[] {1, 3, 7, 1000}) {
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            List<String> seen = feed("abc", text, chunk, sink);
            // dmesg's frame is incomplete (its err line has not arrived): not told yet
            assertEquals(List.of("health 7 12", "gpus 0 34"), seen, "chunk " + chunk);
            assertEquals(text, sink.toString(StandardCharsets.UTF_8), "the output passes through unchanged");
        }
    }

    @Test
    void framesOfAnotherRunOrOfAnotherShapeAreIgnored() throws Exception {
        String text = "@@xyz probe health rc=0 ms=1\nA\nB\n@@abc probe Health rc=0 ms=1\nA\nB\n"
                + "@@abc probe health rc=0 ms=1 extra\nA\nB\n" + "@@abc " + "x".repeat(5000) + "\n"
                + "@@abc probe ps rc=0 ms=2\nA\nB\n";
        assertEquals(List.of("ps 0 2"), feed("abc", text, 5, new ByteArrayOutputStream()));
    }

    @Test
    void aListenerThatFailsCostsNothing() throws Exception {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        ProbeFrameTap tap = new ProbeFrameTap(sink, "n", (p, rc, ms) -> {
            throw new IllegalStateException("boom");
        });
        tap.write("@@n probe ps rc=0 ms=2\nA\nB\nrest\n".getBytes(StandardCharsets.UTF_8));
        assertEquals("@@n probe ps rc=0 ms=2\nA\nB\nrest\n", sink.toString(StandardCharsets.UTF_8));
    }
}
