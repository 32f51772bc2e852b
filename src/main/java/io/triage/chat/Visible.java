package io.triage.chat;

/**
 * Makes invisible characters of host-supplied text visible before a chat renderer escapes it: C0 and C1
 * control characters and DEL become {@code \xNN} (ESC becomes {@code ␛}, so a colour sequence such as
 * {@code ESC[31m} reads {@code ␛[31m}), and the bidirectional overrides and isolates become
 * {@code \u202E}-style escapes so that they cannot reorder what a reader sees.
 *
 * <p>This is the one place the chat renderers clean characters; once the product has its shared
 * sanitiser, {@link #text(String, boolean)} delegates to it and nothing else changes.
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
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String r = replacement(c, keepNewlines);
            if (r == null) {
                if (b != null) {
                    b.append(c);
                }
                continue;
            }
            if (b == null) {
                b = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            b.append(r);
        }
        return b == null ? s : b.toString();
    }

    private static String replacement(char c, boolean keepNewlines) {
        if (c == '\n' && keepNewlines) {
            return null;
        }
        if (c == 0x1B) {
            return "␛";
        }
        if (c < 0x20 || (c >= 0x7F && c <= 0x9F)) {
            return String.format("\\x%02X", (int) c);
        }
        if ((c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) || c == 0x200E || c == 0x200F
                || c == 0x061C) {
            return String.format("\\u%04X", (int) c);
        }
        return null;
    }
}
