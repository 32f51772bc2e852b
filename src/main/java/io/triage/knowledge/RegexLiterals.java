package io.triage.knowledge;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Finds literal substrings of which every match of a regex must contain at least one, so that most
 * lines can be rejected with {@link String#contains} before the regex runs. Handles plain sequences,
 * top-level alternation and mandatory groups (recursively), and a leading {@code (?i)} (the literals
 * are then lower case and compared with the lower-cased line). Conservative: when in doubt, none.
 */
final class RegexLiterals {
    /** Shortest literal worth checking, characters. */
    private static final int MIN = 3;

    /** The literals (any one of which a match contains) and whether they are to be compared caselessly. */
    record Prefilter(List<String> literals, boolean caseless) { }

    private RegexLiterals() {
    }

    /** A prefilter for the regex, or null when no safe one exists. */
    static Prefilter prefilter(String regex) {
        boolean caseless = false;
        String body = regex;
        if (body.startsWith("(?i)")) {
            caseless = true;
            body = body.substring(4);
        }
        if (body.contains("(?i") || body.contains("(?x") || body.contains("\\Q") || body.contains("(?u")) {
            return null;
        }
        Set<String> req = required(body);
        if (req == null) {
            return null;
        }
        List<String> lits = new ArrayList<>();
        for (String s : req) {
            lits.add(caseless ? s.toLowerCase(Locale.ROOT) : s);
        }
        return new Prefilter(List.copyOf(lits), caseless);
    }

    /**
     * The branches of a pattern that is one alternation (top-level, or a whole-pattern non-capturing
     * group), each as a pattern of its own with the same leading flags; a single-element list when the
     * pattern is not an alternation. Matching any branch is matching the pattern.
     */
    static List<String> branches(String regex) {
        String flags = regex.startsWith("(?i)") ? "(?i)" : "";
        String body = regex.substring(flags.length());
        if (body.startsWith("(?:") && matching(body, 0) == body.length() - 1) {
            body = body.substring(3, body.length() - 1);
        }
        List<String> parts = splitTopLevel(body);
        if (parts.size() < 2) {
            return List.of(regex);
        }
        List<String> out = new ArrayList<>();
        for (String b : parts) {
            out.add(flags + b);
        }
        return out;
    }

    private static Set<String> required(String r) {
        List<String> branches = splitTopLevel(r);
        if (branches.size() == 1) {
            return requiredSequence(r);
        }
        Set<String> union = new LinkedHashSet<>();
        for (String b : branches) {
            Set<String> s = requiredSequence(b);
            if (s == null) {
                return null;
            }
            union.addAll(s);
        }
        return union;
    }

    private static Set<String> requiredSequence(String r) {
        Set<String> best = null;
        StringBuilder run = new StringBuilder();
        int len = r.length();
        for (int i = 0; i < len; i++) {
            char c = r.charAt(i);
            char literal = 0;
            if (c == '\\' && i + 1 < len) {
                char n = r.charAt(++i);
                if (!Character.isLetterOrDigit(n)) {
                    literal = n;
                }
            } else if (c == '(') {
                best = better(best, flush(run));
                int close = matching(r, i);
                if (close < 0) {
                    return best;
                }
                String inner = r.substring(i + 1, close);
                char after = close + 1 < len ? r.charAt(close + 1) : 0;
                boolean optional = after == '?' || after == '*' || after == '{';
                String content = groupContent(inner);
                if (!optional && content != null) {
                    best = better(best, required(content));
                }
                i = close;
                continue;
            } else if (c == '[') {
                i = skipClass(r, i);
            } else if (c == '{') {
                while (i < len && r.charAt(i) != '}') {
                    i++;
                }
            } else if (".^$|*?+)".indexOf(c) < 0) {
                literal = c;
            }
            if (literal == 0) {
                best = better(best, flush(run));
                continue;
            }
            char next = i + 1 < len ? r.charAt(i + 1) : 0;
            if (next == '?' || next == '*' || next == '{') {
                best = better(best, flush(run));
            } else {
                run.append(literal);
                if (next == '+') {
                    best = better(best, flush(run));
                }
            }
        }
        return better(best, flush(run));
    }

    /** The pattern inside a group (named either way), or null for look-arounds and flag groups. */
    private static String groupContent(String inner) {
        if (!inner.startsWith("?")) {
            return inner;
        }
        if (inner.startsWith("?:")) {
            return inner.substring(2);
        }
        if (inner.startsWith("?P<")) {
            inner = inner.substring(1);
        }
        if (inner.startsWith("?<") && !inner.startsWith("?<=") && !inner.startsWith("?<!")) {
            int gt = inner.indexOf('>');
            return gt < 0 ? null : inner.substring(gt + 1);
        }
        return null;
    }

    private static Set<String> flush(StringBuilder run) {
        String s = run.toString();
        run.setLength(0);
        return s.length() >= MIN ? Set.of(s) : null;
    }

    /** The candidate whose shortest literal is longest (more selective). */
    private static Set<String> better(Set<String> a, Set<String> b) {
        if (b == null || b.isEmpty() || b.stream().anyMatch(s -> s.length() < MIN)) {
            return a;
        }
        if (a == null) {
            return b;
        }
        int ma = a.stream().mapToInt(String::length).min().orElse(0);
        int mb = b.stream().mapToInt(String::length).min().orElse(0);
        return mb > ma ? b : a;
    }

    /**
     * Walks a regex from {@code from}, skipping escapes and character classes, and reports each
     * structural character with the group depth before it; the visitor returns true to stop there.
     * Returns the index it stopped at, or -1.
     */
    private static int walk(String r, int from, java.util.function.BiPredicate<Integer, Integer> visit) {
        int depth = 0;
        for (int i = from; i < r.length(); i++) {
            char c = r.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '[') {
                i = skipClass(r, i); // a ']' first in the class ([]a], [^]a]) is one of its characters
            } else if (c == '(' || c == ')' || c == '|') {
                if (visit.test(i, depth)) {
                    return i;
                }
                depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            }
        }
        return -1;
    }

    /** The index of the parenthesis that closes the one at {@code open}, or -1. */
    static int matching(String r, int open) {
        return walk(r, open, (i, depth) -> r.charAt(i) == ')' && depth == 1);
    }

    private static int skipClass(String regex, int i) {
        int j = i + 1;
        if (j < regex.length() && regex.charAt(j) == '^') {
            j++;
        }
        if (j < regex.length() && regex.charAt(j) == ']') {
            j++;
        }
        while (j < regex.length() && regex.charAt(j) != ']') {
            if (regex.charAt(j) == '\\') {
                j++;
            }
            j++;
        }
        return j;
    }

    /** The regex's top-level alternatives. */
    static List<String> splitTopLevel(String regex) {
        List<String> parts = new ArrayList<>();
        int[] start = {0};
        walk(regex, 0, (i, depth) -> {
            if (regex.charAt(i) == '|' && depth == 0) {
                parts.add(regex.substring(start[0], i));
                start[0] = i + 1;
            }
            return false;
        });
        parts.add(regex.substring(start[0]));
        return parts;
    }
}
