package io.triage.knowledge;

import java.util.List;
import java.util.Optional;

/**
 * A knowledge-base regex (RE2 syntax) as a POSIX extended regex for the host's {@code grep -E} and {@code pgrep},
 * so the shell script sent to a host selects process lines with the catalogue's own patterns rather than a
 * hand-kept copy. The translation never selects fewer lines than the RE2 pattern matches: what POSIX cannot say
 * exactly becomes something looser ({@code \b} is dropped, a lazy quantifier becomes greedy, which changes where a
 * match ends but not whether there is one). The client matches the full pattern again, so looser is only less
 * selective, never wrong.
 *
 * <p>Only the POSIX bracket classes ({@code [[:space:]]}) are used, no GNU escapes, so busybox and BSD tools read
 * it too. A construct outside the supported subset gives {@link Optional#empty()}; the caller then falls back to the
 * pattern's required literals.
 */
public final class PosixEre {
    private static final String SPECIAL = ".[]()*+?{}|^$\\";

    private PosixEre() {
    }

    /** The pattern as a POSIX ERE matching at least the lines the RE2 pattern matches, or empty. */
    public static Optional<String> translate(String regex) {
        return translate(regex, "^");
    }

    /**
     * As {@link #translate(String)}, with {@code caretAs} for each start anchor: where the text the pattern was
     * written for sits inside a longer line (a command line after {@code ps} columns), {@code (^|[[:space:]])}.
     */
    public static Optional<String> translate(String regex, String caretAs) {
        boolean caseless = false;
        String r = regex;
        if (r.startsWith("(?i)")) {
            caseless = true;
            r = r.substring(4);
        }
        StringBuilder out = new StringBuilder(r.length() + 16);
        int depth = 0;
        for (int i = 0; i < r.length(); i++) {
            char c = r.charAt(i);
            switch (c) {
                case '\\' -> {
                    if (i + 1 >= r.length()) {
                        return Optional.empty();
                    }
                    char n = r.charAt(++i);
                    String cls = escapeClass(n, false);
                    if (n == 'b' || n == 'B') {
                        // a word boundary: dropped (looser), never translated into something stricter
                        continue;
                    } else if (cls != null) {
                        out.append(cls);
                    } else if (!Character.isLetterOrDigit(n)) {
                        literal(out, n, caseless);
                    } else {
                        return Optional.empty(); // \A, \z, \p{..}, \Q, back-references: outside the subset
                    }
                }
                case '(' -> {
                    int skip = groupHeader(r, i);
                    if (skip < 0) {
                        return Optional.empty();
                    }
                    out.append('(');
                    depth++;
                    i += skip;
                }
                case ')' -> {
                    depth--;
                    out.append(')');
                }
                case '[' -> {
                    int end = bracket(r, i, caseless, out);
                    if (end < 0) {
                        return Optional.empty();
                    }
                    i = end;
                }
                case '*', '+', '?' -> {
                    out.append(c);
                    if (i + 1 < r.length() && (r.charAt(i + 1) == '?' || r.charAt(i + 1) == '+')) {
                        i++; // lazy or possessive: the same lines match
                    }
                }
                case '{' -> {
                    int close = r.indexOf('}', i);
                    if (close < 0 || !r.substring(i + 1, close).matches("\\d{1,3}(,\\d{0,3})?")) {
                        return Optional.empty();
                    }
                    out.append(r, i, close + 1);
                    i = close;
                    if (i + 1 < r.length() && r.charAt(i + 1) == '?') {
                        i++;
                    }
                }
                case '^' -> out.append(caretAs);
                case '.', '|', '$' -> out.append(c);
                default -> literal(out, c, caseless);
            }
        }
        if (depth != 0) {
            return Optional.empty();
        }
        return Optional.of(out.toString());
    }

    /** One alternation of several patterns; each translated, or its required literals where it cannot be. */
    public static String union(List<String> regexes) {
        return union(regexes, "^");
    }

    /** As {@link #union(List)}, with {@code caretAs} for each start anchor (see {@link #translate(String, String)}). */
    public static String union(List<String> regexes, String caretAs) {
        StringBuilder b = new StringBuilder();
        for (String r : regexes) {
            String ere = translate(r, caretAs).orElseGet(() -> literalsEre(r));
            if (ere == null) {
                throw new KnowledgeException("pattern '" + r + "' has neither a POSIX form nor a fixed string"
                        + " of 3 or more characters that its every match contains: the host cannot select its lines");
            }
            if (!b.isEmpty()) {
                b.append('|');
            }
            b.append('(').append(ere).append(')');
        }
        return b.toString();
    }

    /** The pattern's required literals as an ERE alternation (a superset), or null when it has none. */
    static String literalsEre(String regex) {
        RegexLiterals.Prefilter p = RegexLiterals.prefilter(regex);
        if (p == null) {
            return null;
        }
        StringBuilder b = new StringBuilder();
        for (String l : p.literals()) {
            if (!b.isEmpty()) {
                b.append('|');
            }
            for (char c : l.toCharArray()) {
                literal(b, c, p.caseless());
            }
        }
        return b.toString();
    }

    private static void literal(StringBuilder out, char c, boolean caseless) {
        if (caseless && Character.isLetter(c) && Character.toUpperCase(c) != Character.toLowerCase(c)) {
            out.append('[').append(Character.toLowerCase(c)).append(Character.toUpperCase(c)).append(']');
        } else if (SPECIAL.indexOf(c) >= 0) {
            out.append('\\').append(c);
        } else {
            out.append(c);
        }
    }

    /** {@code \d \s \w} and their negations as POSIX classes (inside a bracket without the brackets). */
    private static String escapeClass(char n, boolean inBracket) {
        String body = switch (n) {
            case 'd' -> "0-9";
            case 's' -> "[:space:]";
            case 'w' -> "[:alnum:]_";
            default -> null;
        };
        if (body != null) {
            return inBracket ? body : "[" + body + "]";
        }
        String negated = switch (n) {
            case 'D' -> "0-9";
            case 'S' -> "[:space:]";
            case 'W' -> "[:alnum:]_";
            default -> null;
        };
        return negated == null || inBracket ? null : "[^" + negated + "]";
    }

    /** Characters to skip after '(' for a group's header, or -1 for a group POSIX has no form for. */
    private static int groupHeader(String r, int open) {
        String rest = r.substring(open + 1);
        if (!rest.startsWith("?")) {
            return 0;
        }
        if (rest.startsWith("?:")) {
            return 2;
        }
        if (rest.startsWith("?P<") || (rest.startsWith("?<") && !rest.startsWith("?<=") && !rest.startsWith("?<!"))) {
            int gt = rest.indexOf('>');
            return gt < 0 ? -1 : gt + 1;
        }
        return -1; // look-arounds, inline flags inside the pattern
    }

    /** Copies a bracket expression from {@code open}; returns the index of its ']', or -1 when it cannot. */
    private static int bracket(String r, int open, boolean caseless, StringBuilder out) {
        StringBuilder b = new StringBuilder("[");
        int i = open + 1;
        if (i < r.length() && r.charAt(i) == '^') {
            b.append('^');
            i++;
        }
        boolean hasClose = false;
        boolean hasDash = false;
        StringBuilder body = new StringBuilder();
        boolean first = true;
        for (; i < r.length(); i++) {
            char c = r.charAt(i);
            if (c == ']' && !first) {
                break;
            }
            first = false;
            if (c == '\\') {
                if (i + 1 >= r.length()) {
                    return -1;
                }
                char n = r.charAt(++i);
                String cls = escapeClass(n, true);
                if (cls != null) {
                    body.append(cls);
                } else if (n == ']') {
                    hasClose = true;
                } else if (n == '-') {
                    hasDash = true;
                } else if (n == '\\' || n == '[') {
                    body.append(n == '[' ? "[" : "\\");
                } else if (!Character.isLetterOrDigit(n)) {
                    body.append(n);
                } else {
                    return -1; // \S or \D inside a class, \p{..}: outside the subset
                }
            } else if (c == '[') {
                if (r.startsWith("[:", i)) {
                    int end = r.indexOf(":]", i);
                    if (end < 0) {
                        return -1;
                    }
                    body.append(r, i, end + 2);
                    i = end + 1;
                } else {
                    body.append('[');
                }
            } else {
                if (caseless && Character.isLetter(c)) {
                    return -1; // a caseless class with letters: left to the literals
                }
                body.append(c);
            }
        }
        if (i >= r.length()) {
            return -1;
        }
        // POSIX: ']' first, '-' last, no escapes inside
        if (body.length() > 1 && body.charAt(0) == '^') {
            body.append('^').deleteCharAt(0); // a literal '^' first would negate
        } else if (b.length() == 1 && body.length() == 1 && body.charAt(0) == '^' && !hasClose && !hasDash) {
            out.append("\\^");
            return i;
        }
        if (hasClose) {
            b.append(']');
        }
        b.append(body);
        if (hasDash) {
            b.append('-');
        }
        b.append(']');
        out.append(b);
        return i;
    }
}
