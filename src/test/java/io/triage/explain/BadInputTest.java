package io.triage.explain;

import io.triage.TestHome;
import io.triage.capture.CaptureException;
import io.triage.engine.RuleBase;
import io.triage.engine.RuleBaseException;
import io.triage.knowledge.KnowledgeBase;
import io.triage.knowledge.KnowledgeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad input gets a clear answer: never a stack trace, never a wrong certainty. */
class BadInputTest {
    @TempDir
    Path tmp;

    private Diagnosis replay(Path dir) throws CaptureException {
        return TestHome.triage().replay(dir, Map.of());
    }

    @Test
    void aCaptureDirectoryThatDoesNotExistIsRefusedWithItsName() {
        CaptureException e = assertThrows(CaptureException.class, () -> replay(tmp.resolve("nope")));
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
    }

    @Test
    void aFileOrAnEmptyDirectoryIsNotACapture() throws IOException {
        Path file = Files.writeString(tmp.resolve("f.txt"), "x");
        assertThrows(CaptureException.class, () -> replay(file));
        Path empty = Files.createDirectory(tmp.resolve("empty"));
        CaptureException e = assertThrows(CaptureException.class, () -> replay(empty));
        assertTrue(e.getMessage().contains("no probe output"), e.getMessage());
    }

    @Test
    void emptyProbeFilesGiveInsufficientEvidence() throws Exception {
        for (String p : new String[] {"health", "gpus", "gpu_apps", "pgrep", "ps", "log_tail", "dmesg"}) {
            Files.writeString(tmp.resolve(p + ".out"), "");
        }
        Diagnosis d = replay(tmp);
        assertEquals("insufficient-evidence", d.cause());
        assertFalse(d.questions().isEmpty(), "says what would decide");
    }

    @Test
    void binaryJunkInEveryProbeIsReportedUnreadableAndConcludesNothing() throws Exception {
        Random r = new Random(42);
        for (String p : new String[] {"health", "gpus", "gpu_apps", "pgrep", "ps", "log_tail", "log_markers", "dmesg",
                "nvidia_smi_full", "date", "listen"}) {
            byte[] junk = new byte[4096];
            r.nextBytes(junk);
            Files.write(tmp.resolve(p + ".out"), junk);
        }
        Files.write(tmp.resolve("_probes.txt"), new byte[] {(byte) 0xff, 0, 1, 2, '\n', 'x', ' ', 'r', 'c', '=', 'q'});
        Diagnosis d = replay(tmp);
        assertEquals("insufficient-evidence", d.cause());
        assertFalse(d.coverage().unparseable().isEmpty());
        assertTrue(d.coverage().notes().stream().anyMatch(n -> n.contains("UTF-8") || n.contains("NUL")), d.coverage().notes().toString());
    }

    @Test
    void aModelsAnswerThatIsNotJsonIsReportedAndDecidesNothing() throws Exception {
        Files.writeString(tmp.resolve("target.txt"), "server=vllm port=8000\n");
        Files.writeString(tmp.resolve("intent.txt"), "served_model=support-v7\n");
        Files.writeString(tmp.resolve("health.out"), "200 0.01\n");
        Files.writeString(tmp.resolve("models.out"), "<html>502 Bad Gateway</html> {\"data\": [{\"id\": \n");
        Files.writeString(tmp.resolve("_probes.txt"), "health rc=0 seconds=0.01\nmodels rc=0 seconds=0.01\n");
        Diagnosis d = replay(tmp);
        assertTrue(d.coverage().unparseable().stream().anyMatch(u -> u.toString().contains("models")), d.coverage().toString());
        assertFalse(d.cause().equals("config-mismatch"), "a broken answer says nothing of the models served");

        // the same look with an answer that lists other models: the intended one is not served
        Files.writeString(tmp.resolve("models.out"), "{\"object\":\"list\",\"data\":[{\"id\":\"llama31-8b\"},{\"id\":7}]}\n");
        assertEquals("config-mismatch", replay(tmp).cause());
    }

    @Test
    void nonUtf8BytesInTheLogStillLetItBeRead() throws Exception {
        Files.writeString(tmp.resolve("target.txt"), "server=sglang\nport=30000\n");
        byte[] head = "[2026-11-30 00:30:55] Load weight begin. caf\u00e9 ".getBytes(StandardCharsets.ISO_8859_1);
        String tail = "\nTraceback (most recent call last):\n  File \"x.py\", line 1, in <module>\n"
                + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n";
        Files.write(tmp.resolve("log_tail.out"), concat(head, new byte[] {(byte) 0xc3, (byte) 0x28, (byte) 0xfe}, tail.getBytes(StandardCharsets.UTF_8)));
        Files.writeString(tmp.resolve("pgrep.out"), "9 timeout 10 bash -c pgrep -fa 'sglang'\n");
        Files.writeString(tmp.resolve("_probes.txt"), "log_tail rc=0 seconds=0.01\npgrep rc=0 seconds=0.01\n");
        Diagnosis d = replay(tmp);
        assertEquals("crash", d.cause());
        assertEquals("cuda-oom", d.subtype());
        assertTrue(d.coverage().notes().stream().anyMatch(n -> n.contains("not valid UTF-8")));
    }

    @Test
    void aHugeLogIsReadFromItsEndOnly() throws Exception {
        Path log = tmp.resolve("log_tail.out");
        String line = "INFO:     127.0.0.1:43912 - \"POST /v1/completions HTTP/1.1\" 200 OK\n";
        try (BufferedWriter w = Files.newBufferedWriter(log)) {
            w.write("[2026-11-30 00:00:00] server_args=ServerArgs(model_path='m', port=30000)\n");
            long bytes = 0;
            while (bytes < 200L * 1024 * 1024) {
                w.write(line);
                bytes += line.length();
            }
            w.write("INFO:     Shutting down\nINFO:     Finished server process [42]\n");
        }
        Files.writeString(tmp.resolve("pgrep.out"), "");
        Files.writeString(tmp.resolve("_probes.txt"), "log_tail rc=0 seconds=1.0\npgrep rc=1 seconds=0.01\n");
        Diagnosis d = replay(tmp);
        assertEquals("graceful-shutdown", d.cause());
        assertTrue(d.coverage().notes().stream().anyMatch(n -> n.contains("only its last")), d.coverage().notes().toString());
    }

    @Test
    void aBrokenRuleFileIsReportedWithFileAndLineAndNeverHalfLoaded() throws IOException {
        Path rules = Files.createDirectory(tmp.resolve("rules"));
        try (Stream<Path> s = Files.list(TestHome.HOME.resolve("rules"))) {
            for (Path f : s.toList()) {
                Files.copy(f, rules.resolve(f.getFileName()));
            }
        }
        Files.writeString(rules.resolve("99-broken.drl"), "package triage.rules\nimport io.triage.facts.*;\n\n"
                + "rule \"broken\"\nwhen\n    Symptom(id == )\nthen\nend\n");
        RuleBaseException e = assertThrows(RuleBaseException.class, () -> RuleBase.load(rules));
        assertFalse(e.problems().isEmpty());
        assertTrue(e.problems().stream().anyMatch(p -> p.file().contains("99-broken.drl") && p.line() > 0), e.problems().toString());
    }

    @Test
    void aBrokenKnowledgeFileNamesTheFile() throws IOException {
        Path kb = Files.createDirectory(tmp.resolve("kb"));
        copyTree(TestHome.HOME.resolve("knowledge-base"), kb);
        Files.writeString(kb.resolve("thresholds.yaml"), "logStalledSeconds: [oops\n");
        KnowledgeException e = assertThrows(KnowledgeException.class, () -> KnowledgeBase.load(kb));
        assertTrue(e.getMessage().contains("thresholds.yaml"), e.getMessage());
        Files.writeString(kb.resolve("markers/zz-bad.yaml"), "server: sglang\nmarkers:\n  - id: bad.one\n    kind: error\n    pattern: '(unclosed'\n    subtype: cuda-oom\n    priority: 5\n");
        Files.copy(TestHome.HOME.resolve("knowledge-base/thresholds.yaml"), kb.resolve("thresholds.yaml"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        e = assertThrows(KnowledgeException.class, () -> KnowledgeBase.load(kb));
        assertTrue(e.getMessage().contains("zz-bad.yaml") && e.getMessage().contains("bad.one"), e.getMessage());
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path rel = from.relativize(p);
                if (rel.toString().startsWith("scenarios")) {
                    continue;
                }
                Path dest = to.resolve(rel.toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(dest);
                } else {
                    Files.copy(p, dest);
                }
            }
        }
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
