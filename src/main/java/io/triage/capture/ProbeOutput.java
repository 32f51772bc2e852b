package io.triage.capture;

/**
 * The raw record of one probe in a capture.
 *
 * @param cmd the command line that was run, or null when not recorded
 * @param out standard output (decoded as UTF-8, bad bytes replaced), or null when absent
 * @param err standard error, or null when absent
 * @param rc exit code, or null when unknown (pasted output)
 * @param seconds wall time, or null when unknown
 * @param truncated true when the output was larger than the reader keeps and only its end was kept
 */
public record ProbeOutput(String name, String cmd, String out, String err, Integer rc, Double seconds,
                          boolean truncated) {

    public String outOrEmpty() {
        return out == null ? "" : out;
    }

    public String errOrEmpty() {
        return err == null ? "" : err;
    }
}
