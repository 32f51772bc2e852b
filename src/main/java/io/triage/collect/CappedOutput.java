package io.triage.collect;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Keeps at most {@code cap} bytes of what a host sends; the rest is counted, not kept. */
final class CappedOutput extends OutputStream {
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream(64 << 10);
    private final int cap;
    private volatile boolean overflowed;

    CappedOutput(int cap) {
        this.cap = cap;
    }

    @Override
    public synchronized void write(int b) {
        if (kept.size() < cap) {
            kept.write(b);
        } else {
            overflowed = true;
        }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
        int room = cap - kept.size();
        if (len > room) {
            overflowed = true;
        }
        kept.write(b, off, Math.max(0, Math.min(len, room)));
    }

    boolean overflowed() {
        return overflowed;
    }

    synchronized String text() {
        return kept.toString(StandardCharsets.UTF_8);
    }
}
