package io.triage.chat;

import io.triage.safety.Sanitizer;

/**
 * Makes invisible characters of host-supplied text visible before a chat renderer escapes it: C0 and C1
 * control characters become their control pictures (ESC is {@code ␛}, so a colour sequence such as
 * {@code ESC[31m} reads {@code ␛[31m}), and bidi overrides, isolates and zero-width characters become
 * {@code <U+202E>}-style marks so that they cannot reorder or hide what a reader sees. The one place the
 * chat renderers clean characters; it is the product's shared {@link Sanitizer}.
 */
final class Visible {
    private Visible() {
    }

    /**
     * @param s text from a host, a capture or the knowledge base; {@code null} reads as empty
     * @param keepNewlines true inside a multi-line block (a code block), where a newline stays a newline
     */
    static String text(String s, boolean keepNewlines) {
        if (s == null || s.isEmpty()) {
            return "";
        }
        return keepNewlines ? Sanitizer.text(s) : Sanitizer.line(s);
    }
}
