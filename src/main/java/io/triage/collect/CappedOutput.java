package io.triage.collect;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * One host's answer against one byte budget for standard output and standard error together. Standard
 * output is handed on as it arrives (to the streaming {@link BundleOutput.Reader}), so the answer is never
 * held in full; of standard error only the first {@code errKeep} bytes are kept (for a note). Once the budget
 * is spent nothing more is passed on, and {@link #overflowed()} tells the look to stop.
 */
final class CappedOutput {
    private final long cap;
    private final OutputStream stdoutSink;
    private final ByteArrayOutputStream errKept;
    private final int errKeep;
    private long received;
    private volatile boolean overflowed;

    /** One of the two streams: what fits the shared budget is kept ({@link #keep}), the rest is dropped. */
    private abstract class Capped extends OutputStream {
        abstract void keep(byte[] b, int off, int n);

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            int n = take(len);
            if (n > 0) {
                keep(b, off, n);
            }
        }
    }

    private final OutputStream stdout = new Capped() {
        @Override
        void keep(byte[] b, int off, int n) {
            try {
                stdoutSink.write(b, off, n);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    };

    private final OutputStream stderr = new Capped() {
        @Override
        void keep(byte[] b, int off, int n) {
            synchronized (errKept) {
                errKept.write(b, off, Math.max(0, Math.min(n, errKeep - errKept.size())));
            }
        }
    };

    /**
     * @param cap most bytes taken from stdout and stderr together
     * @param stdoutSink where standard output goes as it arrives
     * @param errKeep how much of standard error is kept
     */
    CappedOutput(long cap, OutputStream stdoutSink, int errKeep) {
        this.cap = cap;
        this.stdoutSink = stdoutSink;
        this.errKeep = errKeep;
        this.errKept = new ByteArrayOutputStream(Math.min(errKeep, 4096));
    }

    /** How many of {@code len} bytes still fit the budget; marks the overflow when not all do. */
    private synchronized int take(int len) {
        long room = Math.max(0, cap - received);
        int n = (int) Math.min(len, room);
        received += len;
        if (n < len) {
            overflowed = true;
        }
        return n;
    }

    OutputStream stdout() {
        return stdout;
    }

    OutputStream stderr() {
        return stderr;
    }

    boolean overflowed() {
        return overflowed;
    }

    /** Bytes the host sent, counted even beyond the cap. */
    synchronized long received() {
        return received;
    }

    long cap() {
        return cap;
    }

    String errText() {
        synchronized (errKept) {
            return errKept.toString(StandardCharsets.UTF_8);
        }
    }
}
