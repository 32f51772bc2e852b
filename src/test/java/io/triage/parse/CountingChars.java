package io.triage.parse;

/**
 * A line that counts how often a matcher reads it: both regex engines read their input through
 * {@link #charAt}, so the count is the work a pattern does on the line, the same on any machine.
 * Past {@code limit} reads it throws {@link TooMuchWork}, so a runaway pattern ends instead of hanging.
 */
public final class CountingChars implements CharSequence {
    /** Thrown when a pattern has read the line more than the limit allows. */
    public static final class TooMuchWork extends RuntimeException {
        TooMuchWork(long limit) {
            super("more than " + limit + " character reads", null, false, false);
        }
    }

    private final String text;
    private final int from;
    private final int to;
    private final long[] reads;
    private final long limit;

    public CountingChars(String text, long limit) {
        this(text, 0, text.length(), new long[1], limit);
    }

    private CountingChars(String text, int from, int to, long[] reads, long limit) {
        this.text = text;
        this.from = from;
        this.to = to;
        this.reads = reads;
        this.limit = limit;
    }

    public long reads() {
        return reads[0];
    }

    @Override
    public int length() {
        return to - from;
    }

    @Override
    public char charAt(int index) {
        if (++reads[0] > limit) {
            throw new TooMuchWork(limit);
        }
        return text.charAt(from + index);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return new CountingChars(text, from + start, from + end, reads, limit);
    }

    @Override
    public String toString() {
        // group() and friends copy what they return: count it as read
        reads[0] += length();
        return text.substring(from, to);
    }
}
