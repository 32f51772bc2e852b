package io.triage.collect;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Passes a look's stdout through unchanged and tells a {@link ProbeListener} about each probe frame once
 * it is complete (its header line and its two base64 lines). Only header lines carrying this run's nonce
 * count, read by their exact shape; at most one line is buffered, and a line longer than
 * {@link #MAX_HEADER} cannot be a header, so it is skipped, not kept.
 */
final class ProbeFrameTap extends OutputStream {
    static final int MAX_HEADER = 256;
    private static final Pattern HEADER = Pattern.compile("^probe ([a-z_]+) rc=(-?\\d{1,9}) ms=(-?\\d{1,12})$");

    private final OutputStream next;
    private final String tag;
    private final ProbeListener listener;
    private final byte[] line = new byte[MAX_HEADER];
    private int len;
    private boolean overlong;
    private String pending; // a header seen, waiting for its frame's two lines
    private int pendingRc;
    private long pendingMs;
    private int linesLeft;

    ProbeFrameTap(OutputStream next, String nonce, ProbeListener listener) {
        this.next = next;
        this.tag = "@@" + nonce + " ";
        this.listener = listener;
    }

    @Override
    public synchronized void write(int b) throws IOException {
        next.write(b);
        scan((byte) b);
    }

    @Override
    public synchronized void write(byte[] b, int off, int n) throws IOException {
        next.write(b, off, n);
        for (int i = off; i < off + n; i++) {
            scan(b[i]);
        }
    }

    private void scan(byte b) {
        if (b != '\n') {
            if (len < line.length) {
                line[len++] = b;
            } else {
                overlong = true;
            }
            return;
        }
        if (pending != null) {
            if (--linesLeft == 0) {
                String p = pending;
                pending = null;
                notifyListener(p, pendingRc, pendingMs);
            }
        } else if (!overlong) {
            String s = new String(line, 0, len, StandardCharsets.UTF_8);
            if (s.startsWith(tag)) {
                Matcher m = HEADER.matcher(s.substring(tag.length()).strip());
                if (m.matches()) {
                    pending = m.group(1);
                    pendingRc = Integer.parseInt(m.group(2));
                    pendingMs = Long.parseLong(m.group(3));
                    linesLeft = 2;
                }
            }
        }
        len = 0;
        overlong = false;
    }

    private void notifyListener(String probe, int rc, long ms) {
        try {
            listener.probeArrived(probe, rc, ms);
        } catch (RuntimeException e) {
            // progress is a courtesy: a listener's failure must not cost the look
        }
    }

    @Override
    public void flush() throws IOException {
        next.flush();
    }

    @Override
    public void close() throws IOException {
        next.close();
    }
}
