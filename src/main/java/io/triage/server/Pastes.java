package io.triage.server;

import io.triage.capture.Capture;
import io.triage.capture.CaptureWriter;
import io.triage.capture.PasteRecognizer;
import io.triage.capture.Recognition;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a pasted text becomes as a capture: {@link PasteRecognizer} reads it by content (an nvidia-smi table,
 * a log tail, ps, dmesg…), and the result is kept as an ordinary capture directory so that a restart, a
 * re-evaluation with more intent and {@code replay} all read the same thing. What was recognised, and what
 * could not be read, leads the capture's notes, so every rendering of the diagnosis says it.
 */
final class Pastes {
    private final PasteRecognizer recognizer;

    Pastes(PasteRecognizer recognizer) {
        this.recognizer = recognizer;
    }

    Map<String, byte[]> files(String text) {
        Recognition r = recognizer.recognise(text);
        Capture c = r.capture();
        List<String> notes = new ArrayList<>(r.summary());
        for (String n : c.notes()) {
            if (!notes.contains(n)) {
                notes.add(n);
            }
        }
        Capture withSummary = new Capture(c.source(), c.probes(), c.target(), c.intent(), notes);
        Map<String, byte[]> files = new LinkedHashMap<>();
        CaptureWriter.files(withSummary).forEach((name, content) -> files.put(name, content.getBytes(StandardCharsets.UTF_8)));
        return files;
    }
}
