package io.triage.capture;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/** Writes a capture in the capture directory format, so that a live look can be replayed later. */
public final class CaptureWriter {
    private CaptureWriter() {
    }

    public static void write(Capture c, Path dir) throws IOException {
        Files.createDirectories(dir);
        StringBuilder table = new StringBuilder();
        for (ProbeOutput p : c.probes().values()) {
            if (p.cmd() != null) {
                Files.writeString(dir.resolve(p.name() + ".cmd"), p.cmd() + "\n", StandardCharsets.UTF_8);
            }
            Files.writeString(dir.resolve(p.name() + ".out"), p.outOrEmpty(), StandardCharsets.UTF_8);
            Files.writeString(dir.resolve(p.name() + ".err"), p.errOrEmpty(), StandardCharsets.UTF_8);
            if (p.rc() != null) {
                table.append(p.name()).append(" rc=").append(p.rc());
                if (p.seconds() != null) {
                    table.append(" seconds=").append(String.format(Locale.ROOT, "%.3f", p.seconds()));
                }
                table.append('\n');
            }
        }
        Files.writeString(dir.resolve("_probes.txt"), table.toString(), StandardCharsets.UTF_8);
        writeKeyValues(dir.resolve("target.txt"), c.target());
        if (!c.intent().isEmpty()) {
            writeKeyValues(dir.resolve("intent.txt"), c.intent());
        }
        if (!c.notes().isEmpty()) {
            Files.writeString(dir.resolve("notes.txt"), String.join("\n", c.notes()) + "\n", StandardCharsets.UTF_8);
        }
    }

    private static void writeKeyValues(Path file, Map<String, String> kv) throws IOException {
        StringBuilder b = new StringBuilder();
        kv.forEach((k, v) -> b.append(k).append('=').append(v.replace('\n', ' ')).append('\n'));
        Files.writeString(file, b.toString(), StandardCharsets.UTF_8);
    }
}
