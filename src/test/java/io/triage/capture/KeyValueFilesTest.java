package io.triage.capture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** target.txt and intent.txt: one pair per line, or several on one line as the capture format's summary writes them. */
class KeyValueFilesTest {
    @TempDir
    Path tmp;

    private Capture read(String target, String intent) throws Exception {
        Files.writeString(tmp.resolve("health.out"), "200 0.01\n");
        Files.writeString(tmp.resolve("target.txt"), target);
        if (intent != null) {
            Files.writeString(tmp.resolve("intent.txt"), intent);
        }
        return new CaptureReader().read(tmp);
    }

    @Test
    void onePairPerLineIsRead() throws Exception {
        Capture c = read("server=sglang\nport=30000\nlog=/var/log/llm/server.log\n", null);
        assertEquals(Map.of("server", "sglang", "port", "30000", "log", "/var/log/llm/server.log"), c.target());
    }

    @Test
    void severalPairsOnOneLineAreSeveralPairs() throws Exception {
        Capture c = read("server=ollama port=11434 log=/var/log/ollama.log\n", "launched_at=2026-12-01T10:00:00Z  max_model_len=32768\n");
        assertEquals(Map.of("server", "ollama", "port", "11434", "log", "/var/log/ollama.log"), c.target());
        assertEquals(Map.of("launched_at", "2026-12-01T10:00:00Z", "max_model_len", "32768"), c.intent());
    }

    @Test
    void aBlankInsideAValueStaysInTheValue() throws Exception {
        Capture c = read("log=/data/my logs/vllm.log port=8000\n", "extra=--max-model-len=4096 --tp 2\n");
        assertEquals(Map.of("log", "/data/my logs/vllm.log", "port", "8000"), c.target());
        assertEquals(Map.of("extra", "--max-model-len=4096 --tp 2"), c.intent());
    }

    @Test
    void wordsBeforeTheFirstPairAreSkippedWithANote() throws Exception {
        Capture c = read("the server: server=vllm\n", null);
        assertEquals("vllm", c.target().get("server"));
        assertTrue(c.notes().stream().anyMatch(n -> n.contains("without key=value")), c.notes().toString());
    }

    @Test
    void pairsCutsOnlyBeforeANameAndEquals() {
        assertEquals(List.of("a=1 ", "b=2"), CaptureReader.pairs("a=1 b=2"));
        assertEquals(List.of("a=x y z"), CaptureReader.pairs("a=x y z"));
        assertEquals(List.of("a=x é=1"), CaptureReader.pairs("a=x é=1"));
    }
}
