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
 * that (or recurse too deep) is given to RE2J instead. Lines with other characters go to the JDK too where
 * both engines read those characters alike ({@link Shape}): for a pattern of ASCII text, a symbol such as a
 * progress bar's {@code █} or {@code …} is, to both, no letter, digit, space or word character; a letter
 * such as {@code µ} differs only at a word boundary {@code \b} (a word character to the JDK, not to RE2), so the
 * JDK is shown such a line with every character beyond ASCII read as the symbol {@code ¤} (groups still come
 * from the line as it is), and, under {@code (?i)}, where RE2 folds it onto an ASCII letter ({@code ſ} onto s,
 * the Kelvin sign onto k: never the JDK's). Either way a search costs at most a fixed
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
    private final List<String> groups;
    /** Whether the JDK engine may be tried at all ({@link #linearOnly} says no). */
    private final boolean jdk;
    /**
     * The compiled engines; compiled at construction, or at first use for a {@link #deferred} pattern. Written at
     * most once per thread that finds it missing: {@link Engines} is immutable (final fields), so a thread that sees
     * it sees it whole, and two threads compiling at once compile the same.
     */
    private Engines engines;

    /** The two compiled forms of the regex and what follows from them. */
    private static final class Engines {
        final com.google.re2j.Pattern linear;
        final java.util.regex.Pattern fast;
        final int programSize;
        /**
         * Lines of {@link Shape#SYMBOLS} and {@link Shape#LETTERS} may take the JDK path: the regex is ASCII and names
         * no Unicode class (a line of letters beyond ASCII is shown to it as symbols when the regex has a word boundary).
         */
        final boolean beyondAsciiFast;
        /** The regex has a word boundary ({@code \b}, {@code \B}): the JDK reads letters beyond ASCII as word characters. */
        final boolean boundaries;
        /** Literals one of which every match begins with ({@link #startLiterals}), or null: where a search may begin. */
        final String[] starts;

        Engines(String regex, com.google.re2j.Pattern linear, java.util.regex.Pattern fast) {
            this.linear = linear;
            this.fast = fast;
            // the linear reference (no JDK engine: tests compare the searches with it) searches from the start
            this.starts = fast == null ? null : startLiterals(regex);
            this.programSize = linear.matcher("").programSize();
            boolean ascii = regex.chars().allMatch(c -> c < 0x80) && !regex.contains("\\p") && !regex.contains("\\P");
            this.beyondAsciiFast = fast != null && ascii;
            this.boundaries = regex.contains("\\b") || regex.contains("\\B");
        }

        static Engines compile(String regex, boolean jdk) {
            return compile(regex, com.google.re2j.Pattern.compile(regex), jdk);
        }

        static Engines compile(String regex, com.google.re2j.Pattern linear, boolean jdk) {
            java.util.regex.Pattern fast = null;
            if (jdk) {
                try {
                    fast = java.util.regex.Pattern.compile(regex, java.util.regex.Pattern.UNIX_LINES);
                } catch (java.util.regex.PatternSyntaxException e) {
                    fast = null; // RE2-only syntax such as (?P<name>…): the linear engine alone
                }
            }
            return new Engines(regex, linear, fast);
        }
    }

    /**
     * What a line holds, as far as the two engines could read it differently. One look at each character;
     * a caller trying many patterns on one line asks once.
     */
    public enum Shape {
        /** printable ASCII and tabs, at most {@link #FAST_MAX} characters */
        PLAIN,
        /** as PLAIN, plus symbols and punctuation beyond ASCII (no letter, digit, mark, space or control) */
        SYMBOLS,
        /** as SYMBOLS, plus letters and digits beyond ASCII other than those RE2 folds onto ASCII ones */
        LETTERS,
        /** anything else: too long, controls, spaces beyond ASCII, marks, surrogates, ſ, the Kelvin sign */
        OTHER
    }

    /**
     * Literals of which every match holds one ({@link RegexLiterals}), checked before either engine runs: most
     * lines a pattern is tried on hold none, and a {@link String#indexOf} says so at a fraction of a search's
     * cost. Found on the first search (a pattern never searched costs nothing at start); {@link #NO_GATE} when the
     * regex has none, or a construct the literal reader does not follow. Only the linear reference
     * ({@link #linearOnly}) goes without, so that tests compare the gate with the engine itself.
     */
    private Gate gate;
    private final boolean gated;

    /** The literals (ASCII), compared exactly or, for a {@code (?i)} regex, ASCII case aside. */
    private record Gate(String[] literals, boolean caseless) { }

    private static final Gate NO_GATE = new Gate(new String[0], false);
    /** Longest part of a literal the gate looks for, characters. */
    private static final int GATE_WINDOW = 16;

    private LinePattern(String regex, List<String> groups, boolean jdk, Engines engines, boolean gated) {
        this.gated = gated;
        this.regex = regex;
        this.groups = groups;
        this.jdk = jdk;
        this.engines = engines;
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
        return new LinePattern(regex, List.copyOf(groups), true, Engines.compile(regex, linear, true), true);
    }

    /**
     * A pattern that {@link #compile} accepted before, with the groups it kept, compiled only when first used: a
     * knowledge base read back from its compact form has some five hundred regexes, of which one command uses a few
     * dozen. Nothing is checked here; a regex that does not compile fails at its first use, so only regexes taken from
     * a pattern compiled earlier belong here.
     */
    static LinePattern deferred(String regex, List<String> groups) {
        return new LinePattern(regex, List.copyOf(groups), true, null, true);
    }

    private Engines engines() {
        Engines e = engines;
        if (e == null) {
            e = Engines.compile(regex, jdk);
            engines = e;
        }
        return e;
    }

    /** The same regex under RE2J only: what the JDK path is checked against. */
    public LinePattern linearOnly() {
        return new LinePattern(regex, groups, false, Engines.compile(regex, engines().linear, false), false);
    }

    /** The same pattern without its literal gate: the engines' own work, which tests measure apart from the gate's. */
    public LinePattern ungated() {
        return new LinePattern(regex, groups, jdk, engines(), false);
    }

    public String pattern() {
        return regex;
    }

    public List<String> groups() {
        return groups;
    }

    /** An RE2J matcher over the text (the engine that defines the pattern's meaning). */
    public com.google.re2j.Matcher matcher(CharSequence text) {
        return engines().linear.matcher(text);
    }

    /**
     * What one search of an {@code n}-character line costs, in characters examined: {@code n} on the
     * JDK's path; on RE2J's, {@code n} for every 16 instructions of its program (the automaton steps
     * through up to that many states per character), so the count follows the time.
     */
    public long cost(int n, boolean plain) {
        return cost(n, plain ? Shape.PLAIN : Shape.OTHER);
    }

    /** As {@link #cost(int, boolean)}, for a line of the given shape. */
    public long cost(int n, Shape shape) {
        return fastFor(shape) && n <= FAST_MAX ? n + 1L : (n + 1L) * (1 + engines().programSize / 16);
    }

    /** Whether a line of this shape is tried on the JDK engine first. */
    private boolean fastFor(Shape shape) {
        Engines e = engines();
        return switch (shape) {
            case PLAIN -> e.fast != null;
            case SYMBOLS, LETTERS -> e.beyondAsciiFast;
            case OTHER -> false;
        };
    }

    /** The size of the RE2J program: its work per character is at most proportional to it. */
    public int programSize() {
        return engines().programSize;
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

    /** What the line holds, as far as the engines could read it differently (see {@link Shape}). */
    public static Shape shape(CharSequence line) {
        int n = line.length();
        if (n > FAST_MAX) {
            return Shape.OTHER;
        }
        Shape shape = Shape.PLAIN;
        for (int i = 0; i < n; i++) {
            char c = line.charAt(i);
            if (c >= 0x20 && c <= 0x7E || c == '\t') {
                continue;
            }
            if (c < 0xA0 || c == '\u017F' || c == '\u212A' || Character.isSurrogate(c)) {
                return Shape.OTHER; // controls (C0, DEL, C1); letters RE2 folds onto s and k
            }
            switch (Character.getType(c)) {
                case Character.OTHER_SYMBOL, Character.MATH_SYMBOL, Character.CURRENCY_SYMBOL,
                     Character.MODIFIER_SYMBOL, Character.DASH_PUNCTUATION, Character.START_PUNCTUATION,
                     Character.END_PUNCTUATION, Character.OTHER_PUNCTUATION, Character.INITIAL_QUOTE_PUNCTUATION,
                     Character.FINAL_QUOTE_PUNCTUATION -> {
                    if (shape == Shape.PLAIN) {
                        shape = Shape.SYMBOLS;
                    }
                }
                case Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER,
                     Character.MODIFIER_LETTER, Character.OTHER_LETTER, Character.DECIMAL_DIGIT_NUMBER,
                     Character.LETTER_NUMBER, Character.OTHER_NUMBER -> shape = Shape.LETTERS;
                default -> {
                    return Shape.OTHER; // marks (a word character's tail to the JDK), spaces, unassigned…
                }
            }
        }
        return shape;
    }

    /** The first match in the line with its groups, or null. */
    public Match find(CharSequence line) {
        Gate g = gate();
        if (g != NO_GATE && !g.caseless() && !holdsLiteral(line, g)) {
            return null; // before the line's shape is looked at: an exact literal needs no shape
        }
        Shape shape = shape(line);
        return g.caseless() && !mayMatch(line, shape, g) ? null : search(line, shape);
    }

    private Gate gate() {
        Gate g = gate;
        if (g == null) {
            g = gated ? gateOf(regex) : NO_GATE;
            gate = g; // a race computes the same immutable value twice: harmless
        }
        return g;
    }

    private static Gate gateOf(String regex) {
        // escapes the literal reader takes digits or letters after as plain text (\x41, \0, \cA, \u00e9, \N{…})
        for (int i = regex.indexOf('\\'); i >= 0 && i + 1 < regex.length(); i = regex.indexOf('\\', i + 2)) {
            if ("xuc0123456789NpPQEk".indexOf(regex.charAt(i + 1)) >= 0) {
                return NO_GATE;
            }
        }
        RegexLiterals.Prefilter p;
        try {
            p = RegexLiterals.prefilter(regex);
        } catch (RuntimeException e) {
            return NO_GATE;
        }
        if (p == null || p.literals().isEmpty()
                || p.literals().stream().anyMatch(l -> l.isEmpty() || !l.chars().allMatch(c -> c < 0x80))) {
            return NO_GATE;
        }
        // any part of a required literal is required too: a short one bounds the gate's reads per character
        return new Gate(p.literals().stream().map(l -> l.length() > GATE_WINDOW ? l.substring(0, GATE_WINDOW) : l)
                .distinct().toArray(String[]::new), p.caseless());
    }

    /**
     * Whether the line holds one of the gate's literals. Caseless, ASCII case aside; a line of shape
     * {@link Shape#OTHER} may hold letters RE2 folds onto ASCII ones ({@code ſ}, the Kelvin sign), so it passes.
     */
    private static boolean mayMatch(CharSequence line, Shape shape, Gate g) {
        if (g == NO_GATE || (g.caseless() && shape == Shape.OTHER)) {
            return true;
        }
        return holdsLiteral(line, g);
    }

    private static boolean holdsLiteral(CharSequence line, Gate g) {
        for (String l : g.literals()) {
            if (!g.caseless() && line instanceof String s ? s.contains(l) : contains(line, l, g.caseless())) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code s} holds {@code lit}; {@code folded}: {@code lit} is lower case and the line's ASCII capitals count as their small letters. */
    private static boolean contains(CharSequence s, String lit, boolean folded) {
        int m = lit.length();
        outer:
        for (int i = 0, n = s.length(); i + m <= n; i++) {
            for (int k = 0; k < m; k++) {
                char c = s.charAt(i + k);
                if ((folded && c >= 'A' && c <= 'Z' ? (char) (c + 32) : c) != lit.charAt(k)) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /**
     * The first match in the line with its groups, or null.
     *
     * @param plain what {@link #plain} says of the line (a caller trying many patterns asks once)
     */
    public Match find(CharSequence line, boolean plain) {
        return find(line, plain ? Shape.PLAIN : Shape.OTHER);
    }

    /**
     * The first match in the line with its groups, or null.
     *
     * @param shape what {@link #shape} says of the line (a caller trying many patterns asks once)
     */
    public Match find(CharSequence line, Shape shape) {
        return mayMatch(line, shape, gate()) ? search(line, shape) : null;
    }

    private Match search(CharSequence line, Shape shape) {
        Engines e = engines();
        // no match begins before the first of the literals every match begins with: the search starts there (an
        // engine tries each earlier position in turn, a word boundary's test at each)
        int from = 0;
        if (gated && e.starts != null) { // a gate of its own: the engines' own work is measured without it
            from = earliest(line, e.starts);
            if (from < 0) {
                return null;
            }
        }
        if (fastFor(shape) && line.length() <= FAST_MAX) {
            Leash leashed = new Leash(line, (long) FAST_READS_PER_CHAR * (line.length() + 1),
                    shape == Shape.LETTERS && e.boundaries);
            try {
                java.util.regex.Matcher m = e.fast.matcher(leashed);
                return m.find(from) ? match(m::group) : null;
            } catch (Leash.Exceeded | StackOverflowError x) {
                // the JDK would backtrack (or recurse) too much on this line: the linear engine decides
            }
        }
        com.google.re2j.Matcher m = e.linear.matcher(line);
        return m.find(from) ? match(m::group) : null;
    }

    /** Where the first of the literals occurs in the line, or -1 when none does. */
    private static int earliest(CharSequence line, String[] literals) {
        int best = -1;
        for (String l : literals) {
            int at = line instanceof String str ? str.indexOf(l) : indexOf(line, l);
            if (at >= 0 && (best < 0 || at < best)) {
                best = at;
            }
        }
        return best;
    }

    private static int indexOf(CharSequence s, String lit) {
        outer:
        for (int i = 0, n = s.length(), m = lit.length(); i + m <= n; i++) {
            for (int k = 0; k < m; k++) {
                if (s.charAt(i + k) != lit.charAt(k)) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /**
     * Literals one of which every match of the regex begins with, a leading word boundary aside: the regex's own
     * text up to its first construct, for each branch of a top-level alternation or of a leading non-capturing
     * group ({@code (?:\bA…|\bB…)}). Null when some branch begins otherwise (a class, an anchor, a flag, a group
     * that may be skipped, fewer than two literal characters, anything beyond ASCII): the search then begins at
     * the line's start.
     */
    static String[] startLiterals(String regex) {
        // a quoted span (\Q…\E) or an inline flag ((?i), (?i:…)) changes what the text after it means, in this branch
        // and the ones after it: no start is read from such a regex
        if (regex.contains("\\Q") || hasFlag(regex)) {
            return null;
        }
        List<String> branches = RegexLiterals.splitTopLevel(regex);
        List<String> out = new java.util.ArrayList<>();
        for (String b : branches) {
            String s = b.startsWith("\\b") ? b.substring(2) : b;
            if (s.startsWith("(?:")) {
                int close = RegexLiterals.matching(s, 0);
                if (close < 0 || close + 1 < s.length() && "?*{".indexOf(s.charAt(close + 1)) >= 0) {
                    return null;
                }
                String[] inner = startLiterals(s.substring(3, close));
                if (inner == null) {
                    return null;
                }
                out.addAll(List.of(inner));
                continue;
            }
            String lit = literalPrefix(s);
            if (lit == null) {
                return null;
            }
            out.add(lit);
        }
        // a literal's first characters begin every match too: a short one bounds the search for it per character
        return out.isEmpty() ? null : out.stream().map(l -> l.length() > GATE_WINDOW ? l.substring(0, GATE_WINDOW) : l)
                .distinct().toArray(String[]::new);
    }

    /** Whether the regex has a group opening other than {@code (?:}, {@code (?<name>} or {@code (?P<name>}: a flag. */
    private static boolean hasFlag(String r) {
        for (int i = r.indexOf("(?"); i >= 0; i = r.indexOf("(?", i + 2)) {
            if (i > 0 && r.charAt(i - 1) == '\\') {
                continue;
            }
            String after = r.substring(i + 2, Math.min(r.length(), i + 4));
            boolean named = after.startsWith("<") && !after.startsWith("<=") && !after.startsWith("<!");
            if (!after.startsWith(":") && !named && !after.startsWith("P<")) {
                return true;
            }
        }
        return false;
    }

    /** The regex's leading literal text (at least two characters, ASCII), or null. */
    private static String literalPrefix(String s) {
        StringBuilder b = new StringBuilder();
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            char lit;
            int width;
            if (c == '\\') {
                if (i + 1 >= s.length() || Character.isLetterOrDigit(s.charAt(i + 1)) || s.charAt(i + 1) >= 0x80) {
                    break; // a class (\d, \s, \w), a boundary, an escape spelled in letters or digits
                }
                lit = s.charAt(i + 1);
                width = 2;
            } else if (".[](){}*+?|^$".indexOf(c) >= 0 || c >= 0x80 || c < 0x20) {
                break;
            } else {
                lit = c;
                width = 1;
            }
            char after = i + width < s.length() ? s.charAt(i + width) : 0;
            if (after == '?' || after == '*' || after == '{') {
                break; // this character may be absent or repeated a counted number of times
            }
            b.append(lit);
            i += width;
            if (after == '+') {
                break; // present, but what follows it is not at a fixed place
            }
        }
        return b.length() >= 2 ? b.toString() : null;
    }

    /** The named groups' values, read from whichever engine matched. */
    private Match match(java.util.function.UnaryOperator<String> group) {
        String[] values = new String[groups.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = group.apply(groups.get(i));
        }
        return new Match(groups, values);
    }

    /**
     * A line that stops the JDK engine after a number of character reads, and shows it, when asked, every character
     * beyond ASCII as the symbol {@code ¤}: to the JDK a letter such as {@code µ} is a word character at {@code \b},
     * to RE2 it is not, and for an ASCII regex without Unicode classes that is the only difference between a letter
     * and a symbol. {@link #subSequence} (what a group's value is read from) gives the line as it is. Not
     * thread-safe; one per search.
     */
    private static final class Leash implements CharSequence {
        /** Thrown past the limit; carries no stack trace, as it is control flow. */
        static final class Exceeded extends RuntimeException {
            static final Exceeded INSTANCE = new Exceeded();

            private Exceeded() {
                super("read limit", null, false, false);
            }
        }

        /** What a letter beyond ASCII is shown as: a currency sign, no letter, digit or word character to either engine. */
        static final char SYMBOL = '\u00A4';

        private final CharSequence text;
        private final boolean asSymbols;
        private long left;

        Leash(CharSequence text, long limit, boolean asSymbols) {
            this.text = text;
            this.left = limit;
            this.asSymbols = asSymbols;
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
            char c = text.charAt(index);
            return asSymbols && c >= 0x80 ? SYMBOL : c;
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
