package io.triage.safety;

import java.util.regex.Pattern;

/** POSIX shell quoting for values that go into a command a person will copy and run. */
public final class ShellQuote {
    /**
     * A word the shell reads as itself: letters, digits and {@code _ . / : @ % + , = -}, not starting
     * with {@code -} (an option) and not containing {@code ~} or glob characters.
     */
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_./:@%+,=][A-Za-z0-9_./:@%+,=-]*");

    private ShellQuote() {
    }

    /** True when the value may stand unquoted in a command. */
    public static boolean isSafeWord(String value) {
        return value != null && SAFE.matcher(value).matches();
    }

    /**
     * True when the value can be offered in a command at all: no control, format or separator character
     * (a newline would end the command, a bidi override would show another command than the one copied).
     */
    public static boolean isQuotable(String value) {
        return value != null && Sanitizer.isInert(value) && value.indexOf('\t') < 0;
    }

    /**
     * The value as one shell word: unchanged when {@link #isSafeWord safe}, else in single quotes with each
     * embedded quote written {@code '\''}.
     *
     * @throws IllegalArgumentException when the value is not {@link #isQuotable quotable}
     */
    public static String quote(String value) {
        if (!isQuotable(value)) {
            throw new IllegalArgumentException("not quotable in a shell command: " + Sanitizer.line(value, 80));
        }
        if (isSafeWord(value)) {
            return value;
        }
        return "'" + value.replace("'", "'\\''") + "'";
    }
}
