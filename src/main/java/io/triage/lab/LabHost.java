package io.triage.lab;

import io.triage.capture.Capture;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One lab host: a name (the SSH user name that addresses it) and the recorded capture it plays. Hosts of
 * a fleet share their capture's recording, so two hundred of them cost what one does.
 */
public final class LabHost {
    private final String name;
    private final Path captureDir;
    private final String note;
    private final Recording recording;

    LabHost(String name, Path captureDir, String note, Recording recording) {
        this.name = name;
        this.captureDir = captureDir;
        this.note = note == null ? "" : note;
        this.recording = recording;
    }

    /** The SSH user name that addresses this host. */
    public String name() {
        return name;
    }

    /** The capture directory it plays. */
    public Path captureDir() {
        return captureDir;
    }

    /** What the host shows, in words ("" when none). */
    public String note() {
        return note;
    }

    /** The capture as {@code CaptureReader} read it at start. */
    public Capture capture() {
        return recording.capture();
    }

    /**
     * What the operator of this host says they intended ({@code intent.txt}). SSH cannot carry it: a
     * collector diagnosing the lab host passes it on as the user's intent, as a person would with
     * {@code --intent}.
     */
    public Map<String, String> intent() {
        return recording.capture().intent();
    }

    /** The probes that ran on the recorded host (those the lab can answer), in the capture's order. */
    public List<String> probes() {
        return List.copyOf(recording.probes().keySet());
    }

    Recording recording() {
        return recording;
    }

    @Override
    public String toString() {
        return name + " (" + captureDir.getFileName() + ")";
    }
}
