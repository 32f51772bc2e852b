package io.triage.collect;

import io.triage.probe.ProbeFrames;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Passes a look's stdout through unchanged and tells a {@link ProbeListener} about each probe frame once
 * it is complete (its header line and its two body lines). The frames are read by {@link ProbeFrames}, headers
 * only: bodies are neither kept nor decoded, and no line longer than {@link ProbeFrames#MAX_HEADER} is buffered.
 */
final class ProbeFrameTap extends OutputStream {
    private final OutputStream next;
    private final ProbeFrames.Decoder decoder;

    ProbeFrameTap(OutputStream next, String nonce, ProbeListener listener) {
        this.next = next;
        this.decoder = new ProbeFrames(nonce).new Decoder(ProbeFrames.MAX_HEADER, false, (h, out, err, cut, problem) -> {
            try {
                listener.probeArrived(h.probe(), h.rc(), h.millis());
            } catch (RuntimeException e) {
                // progress is a courtesy: a listener's failure must not cost the look
            }
        });
    }

    @Override
    public synchronized void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int n) throws IOException {
        next.write(b, off, n);
        decoder.write(b, off, n);
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
