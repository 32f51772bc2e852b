package io.triage.capture;

/** The input cannot be read as a capture at all (the CLI exits 2 with this message). */
public class CaptureException extends Exception {
    public CaptureException(String message) {
        super(message);
    }

    public CaptureException(String message, Throwable cause) {
        super(message, cause);
    }
}
