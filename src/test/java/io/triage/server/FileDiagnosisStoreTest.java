package io.triage.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FileDiagnosisStoreTest {
    @TempDir
    Path data;

    private static DiagnosisRecord record(String id, String host, DiagnosisRecord.Status status, String created) {
        return new DiagnosisRecord(id, DiagnosisRecord.Kind.host, status, "tester", created, created, List.of(host),
                Map.of("k", "v"), null, "key-" + id, "captures/" + id, null, null, List.of(), List.of());
    }

    @Test
    void aSavedRecordIsReadBackByANewStore() throws Exception {
        FileDiagnosisStore s = new FileDiagnosisStore(data);
        s.save(record("d1", "gpu-a", DiagnosisRecord.Status.done, "2026-11-30T10:00:00.000Z"));
        s.save(record("d2", "gpu-b", DiagnosisRecord.Status.running, "2026-11-30T10:00:01.000Z"));
        FileDiagnosisStore again = new FileDiagnosisStore(data);
        assertEquals("gpu-a", again.find("d1").orElseThrow().hosts().get(0));
        assertEquals(Map.of("k", "v"), again.find("d1").orElseThrow().intent());
        assertEquals("d2", again.findByIdempotencyKey("tester", "key-d2").orElseThrow().id());
        assertTrue(again.findByIdempotencyKey("someone-else", "key-d2").isEmpty(), "keys are per caller");
        assertEquals(List.of("d2", "d1"), again.list(null, 10).stream().map(DiagnosisRecord::id).toList());
        assertEquals(List.of("d1"), again.list("gpu-a", 10).stream().map(DiagnosisRecord::id).toList());
        assertEquals(List.of("d2"), again.unfinished().stream().map(DiagnosisRecord::id).toList());
        try (var files = Files.list(data.resolve("diagnoses"))) {
            assertTrue(files.allMatch(f -> f.getFileName().toString().endsWith(".json")), "no temporary file is left");
        }
    }

    @Test
    void aDamagedRecordIsSkippedWithALogLineAndTheOthersLoad() throws Exception {
        FileDiagnosisStore s = new FileDiagnosisStore(data);
        s.save(record("dgood", "gpu-a", DiagnosisRecord.Status.done, "2026-11-30T10:00:00.000Z"));
        Path dir = data.resolve("diagnoses");
        Files.writeString(dir.resolve("dcut.json"), "{\"id\":\"dcut\",\"kind\":\"host\",\"sta");   // cut mid-write
        Files.write(dir.resolve("dbinary.json"), new byte[] {0, (byte) 0xff, 17});
        Files.writeString(dir.resolve("dother.json"), Files.readString(dir.resolve("dgood.json"))); // id and name disagree
        Files.writeString(dir.resolve(".dgood.json.tmp1234"), "{\"half");                          // a save a crash cut short
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        FileDiagnosisStore again;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            again = new FileDiagnosisStore(data);
        } finally {
            System.setErr(err);
        }
        assertEquals(3, again.skipped());
        assertTrue(again.find("dgood").isPresent());
        assertFalse(again.find("dcut").isPresent());
        String log = captured.toString(StandardCharsets.UTF_8);
        assertTrue(log.contains("skipping damaged record dcut.json"), log);
        assertTrue(log.contains("dbinary.json") && log.contains("dother.json"), log);
        assertFalse(Files.exists(dir.resolve(".dgood.json.tmp1234")), "leftovers of cut saves are removed");
    }

    @Test
    void idsThatAreNotIdsAreNeverWritten() throws Exception {
        FileDiagnosisStore s = new FileDiagnosisStore(data);
        try {
            s.save(record("../escape", "h", DiagnosisRecord.Status.done, "2026-11-30T10:00:00.000Z"));
        } catch (IllegalArgumentException expected) {
            assertFalse(Files.exists(data.resolve("escape.json")));
            return;
        }
        throw new AssertionError("a path-like id was accepted");
    }
}
