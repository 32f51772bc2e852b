package io.triage.parse;

import java.util.ArrayList;
import java.util.List;

/** Small text helpers shared by the parsers. */
public final class Text {
    /** Longest excerpt kept from one line, characters. */
    public static final int EXCERPT = 240;

    private Text() {
    }

    public static String excerpt(String line) {
        String s = line.strip();
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isISOControl(c) && c != '\t') {
                if (b == null) {
                    b = new StringBuilder(s.substring(0, i));
                }
                b.append('\uFFFD');
            } else if (b != null) {
                b.append(c);
            }
        }
        if (b != null) {
            s = b.toString();
        }
        return s.length() <= EXCERPT ? s : s.substring(0, EXCERPT) + "…";
    }

    /** Splits into lines without the trailing empty line a final newline gives. */
    public static List<String> lines(String text) {
        List<String> out = new ArrayList<>();
        if (text == null || text.isEmpty()) {
            return out;
        }
        int start = 0;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            if (text.charAt(i) == '\n') {
                out.add(text.substring(start, i));
                start = i + 1;
            }
        }
        if (start < n) {
            out.add(text.substring(start));
        }
        return out;
    }

    public static long parseLong(String s, long fallback) {
        try {
            return Long.parseLong(s.strip());
        } catch (RuntimeException e) {
            return fallback;
        }
    }

    public static int parseInt(String s, int fallback) {
        try {
            return Integer.parseInt(s.strip());
        } catch (RuntimeException e) {
            return fallback;
        }
    }

    public static double parseDouble(String s, double fallback) {
        try {
            return Double.parseDouble(s.strip());
        } catch (RuntimeException e) {
            return fallback;
        }
    }

    /** Normalises an argument name: lower case, no leading dashes, dashes and dots to underscores. */
    public static String argName(String name) {
        String s = name.strip();
        while (s.startsWith("-")) {
            s = s.substring(1);
        }
        return s.toLowerCase(java.util.Locale.ROOT).replace('-', '_');
    }

    /** Normalises an argument value: no surrounding quotes, booleans lower case. */
    public static String argValue(String value) {
        String s = value.strip();
        if (s.length() >= 2 && ((s.startsWith("'") && s.endsWith("'")) || (s.startsWith("\"") && s.endsWith("\"")))) {
            s = s.substring(1, s.length() - 1);
        }
        if (s.equals("True") || s.equals("False") || s.equals("None")) {
            s = s.toLowerCase(java.util.Locale.ROOT);
        }
        return s;
    }
}
