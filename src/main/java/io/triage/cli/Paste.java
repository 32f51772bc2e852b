package io.triage.cli;

import io.triage.Triage;
import io.triage.capture.CaptureException;
import io.triage.capture.PasteRecognizer;
import io.triage.capture.Recognition;
import io.triage.explain.Diagnosis;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** {@code replay --paste FILE}: what was recognised in the paste, one line each, then the diagnosis. */
final class Paste {
    private Paste() {
    }

    static Diagnosis diagnose(Triage triage, String file, Map<String, String> intent, PrintWriter out)
            throws CaptureException {
        String text = read(file);
        Recognition r = new PasteRecognizer(triage.knowledge()).recognise(text);
        for (String line : r.summary()) {
            // the summary quotes the paste's own commands: secrets redacted, controls made visible
            out.println(io.triage.safety.Safe.forTerminal(triage.redactor().redact(line)));
        }
        out.println();
        return triage.diagnose(r.capture(), intent);
    }

    /** At most a little more than the recognizer reads: its end is kept, the rest is never held. */
    private static String read(String file) throws CaptureException {
        long max = 4L * PasteRecognizer.MAX_CHARS; // UTF-8: up to 4 bytes a character
        try {
            byte[] bytes;
            if (file.equals("-")) {
                bytes = tail(System.in, (int) max);
            } else {
                Path p = Path.of(file);
                if (!Files.isRegularFile(p)) {
                    throw new CaptureException("no such paste file: " + file);
                }
                try (InputStream in = Files.newInputStream(p)) {
                    bytes = tail(in, (int) max);
                }
            }
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new CaptureException("cannot read the paste " + file + ": " + e.getMessage(), e);
        }
    }

    /** The last {@code max} bytes of a stream (never more than twice that held at once). */
    private static byte[] tail(InputStream in, int max) throws IOException {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        byte[] buf = new byte[64 * 1024];
        int n;
        while ((n = in.read(buf)) > 0) {
            b.write(buf, 0, n);
            if (b.size() > 2 * max) {
                byte[] all = b.toByteArray();
                b = new java.io.ByteArrayOutputStream();
                b.write(all, all.length - max, max);
            }
        }
        byte[] all = b.toByteArray();
        return all.length <= max ? all : java.util.Arrays.copyOfRange(all, all.length - max, all.length);
    }
}
