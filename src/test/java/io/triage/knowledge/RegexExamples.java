package io.triage.knowledge;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Strings built from a regex of the knowledge base's subset (literals, groups, alternation, classes, the usual
 * escapes and quantifiers), choosing branches, repeat counts and class members at random, so that many draws
 * cover every branch. A draw is only a candidate: callers keep those the regex itself matches.
 */
public final class RegexExamples {
    private final Random random;

    public RegexExamples(long seed) {
        this.random = new Random(seed);
    }

    /** Up to {@code draws} distinct candidates for the regex. */
    public List<String> draw(String regex, int draws) {
        boolean caseless = regex.startsWith("(?i)");
        String body = caseless ? regex.substring(4) : regex;
        Set<String> out = new LinkedHashSet<>();
        for (int i = 0; i < draws; i++) {
            StringBuilder b = new StringBuilder();
            try {
                sequence(body, 0, body.length(), b);
            } catch (IllegalArgumentException e) {
                continue;
            }
            out.add(caseless ? mixCase(b.toString()) : b.toString());
        }
        return new ArrayList<>(out);
    }

    private String mixCase(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            b.append(random.nextBoolean() ? Character.toUpperCase(c) : Character.toLowerCase(c));
        }
        return b.toString();
    }

    /** Writes one string for {@code r[from, to)} (which may hold top-level alternation). */
    private void sequence(String r, int from, int to, StringBuilder b) {
        List<int[]> branches = new ArrayList<>();
        int start = from;
        int depth = 0;
        for (int i = from; i < to; i++) {
            char c = r.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '[') {
                i = classEnd(r, i);
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == '|' && depth == 0) {
                branches.add(new int[] {start, i});
                start = i + 1;
            }
        }
        branches.add(new int[] {start, to});
        int[] pick = branches.get(random.nextInt(branches.size()));
        atoms(r, pick[0], pick[1], b);
    }

    private void atoms(String r, int from, int to, StringBuilder b) {
        int i = from;
        while (i < to) {
            char c = r.charAt(i);
            int next;
            Runnable emit;
            if (c == '(') {
                int close = groupEnd(r, i);
                int bodyStart = i + 1;
                if (r.startsWith("?:", bodyStart)) {
                    bodyStart += 2;
                } else if (r.startsWith("?P<", bodyStart) || r.startsWith("?<", bodyStart)) {
                    bodyStart = r.indexOf('>', bodyStart) + 1;
                } else if (r.charAt(bodyStart) == '?') {
                    throw new IllegalArgumentException("unsupported group");
                }
                int s = bodyStart;
                emit = () -> sequence(r, s, close, b);
                next = close + 1;
            } else if (c == '[') {
                int end = classEnd(r, i);
                String cls = r.substring(i, end + 1);
                emit = () -> b.append(classMember(cls));
                next = end + 1;
            } else if (c == '\\') {
                char n = r.charAt(i + 1);
                emit = () -> escape(n, b);
                next = i + 2;
            } else if (c == '.') {
                emit = () -> b.append(" x/".charAt(random.nextInt(3)));
                next = i + 1;
            } else if (c == '^' || c == '$') {
                emit = () -> { };
                next = i + 1;
            } else {
                emit = () -> b.append(c);
                next = i + 1;
            }
            int[] range = {1, 1};
            if (next < to) {
                char q = r.charAt(next);
                if (q == '?' || q == '*' || q == '+') {
                    range = q == '?' ? new int[] {0, 1} : q == '*' ? new int[] {0, 2} : new int[] {1, 3};
                    next++;
                } else if (q == '{') {
                    int close = r.indexOf('}', next);
                    String[] p = r.substring(next + 1, close).split(",", -1);
                    int lo = Integer.parseInt(p[0]);
                    int hi = p.length == 1 ? lo : p[1].isEmpty() ? lo + 2 : Integer.parseInt(p[1]);
                    range = new int[] {lo, Math.min(hi, lo + 3)};
                    next = close + 1;
                }
                if (next < to && (r.charAt(next) == '?' || r.charAt(next) == '+')) {
                    next++;
                }
            }
            int n = range[0] + random.nextInt(range[1] - range[0] + 1);
            for (int k = 0; k < n; k++) {
                emit.run();
            }
            i = next;
        }
    }

    private void escape(char n, StringBuilder b) {
        switch (n) {
            case 'd' -> b.append((char) ('0' + random.nextInt(10)));
            case 's' -> b.append(' ');
            case 'S', 'w' -> b.append("abcXY_z".charAt(random.nextInt(7)));
            case 'W', 'D' -> b.append(' ');
            case 'b', 'B', 'A', 'z' -> { }
            case 'n' -> b.append('\n');
            case 't' -> b.append('\t');
            default -> {
                if (Character.isLetterOrDigit(n)) {
                    throw new IllegalArgumentException("unsupported escape \\" + n);
                }
                b.append(n);
            }
        }
    }

    /** A character a bracket expression accepts, tried at random among printable ASCII. */
    private char classMember(String cls) {
        com.google.re2j.Pattern p = com.google.re2j.Pattern.compile(cls);
        String preferred = "aZ0 _-./:x9";
        for (char c : preferred.toCharArray()) {
            if (random.nextBoolean() && p.matcher(String.valueOf(c)).matches()) {
                return c;
            }
        }
        for (int tries = 0; tries < 400; tries++) {
            char c = (char) (0x20 + random.nextInt(0x5f));
            if (p.matcher(String.valueOf(c)).matches()) {
                return c;
            }
        }
        throw new IllegalArgumentException("no member for " + cls);
    }

    private static int classEnd(String r, int open) {
        int j = open + 1;
        if (j < r.length() && r.charAt(j) == '^') {
            j++;
        }
        if (j < r.length() && r.charAt(j) == ']') {
            j++;
        }
        while (j < r.length() && r.charAt(j) != ']') {
            if (r.charAt(j) == '\\') {
                j++;
            } else if (r.startsWith("[:", j)) {
                j = r.indexOf(":]", j) + 1;
            }
            j++;
        }
        return j;
    }

    private static int groupEnd(String r, int open) {
        int depth = 0;
        for (int i = open; i < r.length(); i++) {
            char c = r.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '[') {
                i = classEnd(r, i);
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        throw new IllegalArgumentException("unbalanced");
    }
}
