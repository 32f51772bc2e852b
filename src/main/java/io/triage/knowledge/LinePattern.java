package io.triage.knowledge;

import java.util.List;

/**
 * A knowledge-base regex, searched for in one line of host text in time linear in the line's length.
 *
 * <p>Every pattern compiles under RE2J, whose automaton never backtracks: that engine decides what a
 * pattern means, and a pattern it cannot compile (back-references, look-arounds, possessive or atomic
 * groups) is refused when the knowledge base loads. RE2J's automaton is slow on ordinary short lines,
 * though, so a line first goes to the JDK's engine, on a leash: a line of at most {@link #FAST_MAX}
 * characters, all printable ASCII or tabs (where the two engines read every construct alike: {@code .},
 * {@code \b}, {@code \s}, {@code (?i)} differ only on other characters), and at most
 * {@link #FAST_READS_PER_CHAR} reads of each character. A line that would make the JDK backtrack past
 * that (or recurse too deep) is given to RE2J instead. Either way a search costs at most a fixed
 * multiple of the line's length, and finds what RE2J finds.
 * Immutable and thread-safe.
 */
public final class LinePattern {
    /** Longest line the JDK engine is tried on, characters: its recursion stays shallow below this. */
    public static final int FAST_MAX = 2048;
    /** Reads of each character the JDK engine may make before the line goes to RE2J. */
    public static final int FAST_READS_PER_CHAR = 16;

    /** The named groups' values of one match, in the order asked for. */
    public record Match(List<String> names, String[] values) {
        /** The group's value, or null when it did not take part or is not among {@link #names}. */
        public String group(String name) {
            int i = names.indexOf(name);
            return i < 0 ? null : values[i];
        }
    }

    private final String regex;
    private final com.google.re2j.Pattern linear;
    private final java.util.regex.Pattern fast;
    private final List<String> groups;
    private final int programSize;

    private LinePattern(String regex, com.google.re2j.Pattern linear, java.util.regex.Pattern fast, List<String> groups) {
        this.regex = regex;
        this.linear = linear;
        this.fast = fast;
        this.groups = groups;
        this.programSize = linear.matcher("").programSize();
    }

    /**
     * Compiles under RE2J (throws its {@link com.google.re2j.PatternSyntaxException} when it cannot),
     * and under the JDK when it can too.
     *
     * @param groups the named groups {@link #find} reports (those the pattern does not declare are dropped)
     */
    public static LinePattern compile(String regex, List<String> groups) {
        com.google.re2j.Pattern linear = com.google.re2j.Pattern.compile(regex);
        groups = groups.stream().filter(linear.namedGroups()::containsKey).toList();
        java.util.regex.Pattern fast;
        try {
            fast = java.util.regex.Pattern.compile(regex, java.util.regex.Pattern.UNIX_LINES);
        } catch (java.util.regex.PatternSyntaxException e) {
            fast = null; // RE2-only syntax such as (?P<name>…): the linear engine alone
        }
        return new LinePattern(regex, linear, fast, List.copyOf(groups));
    }

    /** The same regex under RE2J only: what the JDK path is checked against. */
    public LinePattern linearOnly() {
        return new LinePattern(regex, linear, null, groups);
    }

    public String pattern() {
        return regex;
    }

    public List<String> groups() {
        return groups;
    }

    /** An RE2J matcher over the text (the engine that defines the pattern's meaning). */
    public com.google.re2j.Matcher matcher(CharSequence text) {
        return linear.matcher(text);
    }

    /**
     * What one search of an {@code n}-character line costs, in characters examined: {@code n} on the
     * JDK's path; on RE2J's, {@code n} for every 16 instructions of its program (the automaton steps
     * through up to that many states per character), so the count follows the time.
     */
    public long cost(int n, boolean plain) {
        return fast != null && plain && n <= FAST_MAX ? n + 1L : (n + 1L) * (1 + programSize / 16);
    }

    /** The size of the RE2J program: its work per character is at most proportional to it. */
    public int programSize() {
        return programSize;
    }

    /** True when every character is printable ASCII or a tab: a line the JDK engine may take. */
    public static boolean plain(CharSequence line) {
        if (line.length() > FAST_MAX) {
            return false;
        }
        for (int i = 0, n = line.length(); i < n; i++) {
            char c = line.charAt(i);
            if ((c < 0x20 && c != '\t') || c > 0x7E) {
                return false;
            }
        }
        return true;
    }

    /** The first match in the line with its groups, or null. */
    public Match find(CharSequence line) {
        return find(line, plain(line));
    }

    /**
     * The first match in the line with its groups, or null.
     *
     * @param plain what {@link #plain} says of the line (a caller trying many patterns asks once)
     */
    public Match find(CharSequence line, boolean plain) {
        if (fast != null && plain && line.length() <= FAST_MAX) {
            Leash leashed = new Leash(line, (long) FAST_READS_PER_CHAR * (line.length() + 1));
            try {
                java.util.regex.Matcher m = fast.matcher(leashed);
                return m.find() ? match(m::group) : null;
            } catch (Leash.Exceeded | StackOverflowError e) {
                // the JDK would backtrack (or recurse) too much on this line: the linear engine decides
            }
        }
        com.google.re2j.Matcher m = linear.matcher(line);
        return m.find() ? match(m::group) : null;
    }

    /** The named groups' values, read from whichever engine matched. */
    private Match match(java.util.function.UnaryOperator<String> group) {
        String[] values = new String[groups.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = group.apply(groups.get(i));
        }
        return new Match(groups, values);
    }

    /** A line that stops the JDK engine after a number of character reads. Not thread-safe; one per search. */
    private static final class Leash implements CharSequence {
        /** Thrown past the limit; carries no stack trace, as it is control flow. */
        static final class Exceeded extends RuntimeException {
            static final Exceeded INSTANCE = new Exceeded();

            private Exceeded() {
                super("read limit", null, false, false);
            }
        }

        private final CharSequence text;
        private long left;

        Leash(CharSequence text, long limit) {
            this.text = text;
            this.left = limit;
        }

        @Override
        public int length() {
            return text.length();
        }

        @Override
        public char charAt(int index) {
            if (--left < 0) {
                throw Exceeded.INSTANCE;
            }
            return text.charAt(index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            left -= end - start;
            return text.subSequence(start, end);
        }

        @Override
        public String toString() {
            return text.toString();
        }
    }

    @Override
    public String toString() {
        return regex;
    }
}
