package io.triage.inventory;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Ansible's host ranges: {@code gpu[01:20].cluster} is gpu01 … gpu20 (a start with leading zeros gives the
 * width), {@code node[a:f]} letters, {@code [0:30:10]} a stride; several ranges in one name multiply. An
 * expansion larger than {@link #MAX_HOSTS} is refused rather than built.
 */
final class HostRanges {
    /** More hosts than any inventory this tool sweeps: a larger expansion is an error, not a memory spike. */
    static final int MAX_HOSTS = 1_000_000;
    private static final Pattern RANGE = Pattern.compile("\\[([0-9]+|[a-zA-Z]):([0-9]+|[a-zA-Z])(?::([0-9]+))?\\]");

    private HostRanges() {
    }

    /** The names a pattern stands for (the pattern itself when it holds no range). */
    static List<String> expand(String pattern) {
        List<String> out = new ArrayList<>();
        expand(pattern, out);
        return out;
    }

    private static void expand(String pattern, List<String> out) {
        Matcher m = RANGE.matcher(pattern);
        if (!m.find()) {
            if (out.size() >= MAX_HOSTS) {
                throw new IllegalArgumentException("host range expands to more than " + MAX_HOSTS + " hosts");
            }
            out.add(pattern);
            return;
        }
        String head = pattern.substring(0, m.start());
        String tail = pattern.substring(m.end());
        String a = m.group(1);
        String b = m.group(2);
        int stride = m.group(3) == null ? 1 : parse(m.group(3));
        if (stride < 1) {
            throw new IllegalArgumentException("host range stride must be at least 1: " + m.group());
        }
        boolean letters = Character.isLetter(a.charAt(0));
        if (letters != Character.isLetter(b.charAt(0))) {
            throw new IllegalArgumentException("host range mixes letters and numbers: " + m.group());
        }
        int from = letters ? a.charAt(0) : parse(a);
        int to = letters ? b.charAt(0) : parse(b);
        if (to < from) {
            throw new IllegalArgumentException("host range ends before it starts: " + m.group());
        }
        if ((long) (to - from) / stride + 1 > MAX_HOSTS) {
            throw new IllegalArgumentException("host range expands to more than " + MAX_HOSTS + " hosts: " + m.group());
        }
        int width = !letters && a.length() > 1 && a.startsWith("0") ? a.length() : 0;
        for (int i = from; i <= to; i += stride) {
            String v = letters ? String.valueOf((char) i) : width > 0 ? String.format("%0" + width + "d", i) : String.valueOf(i);
            expand(head + v + tail, out);
        }
    }

    private static int parse(String digits) {
        if (digits.length() > 9) {
            throw new IllegalArgumentException("host range bound too large: " + digits);
        }
        return Integer.parseInt(digits);
    }
}
