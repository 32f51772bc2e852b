package io.triage.safety;

/**
 * The one sanitiser for text that reaches a person: a terminal, markdown, Slack blocks or HTML. It makes
 * visible, never silently drops, what could rewrite the screen or hide what is shown:
 * <ul>
 *   <li>C0 controls become their Unicode control pictures: ESC is {@code ␛} (so the colour sequence
 *       {@code ESC[31m} reads {@code ␛[31m} and an OSC 52 clipboard write {@code ESC]52;c;…BEL} reads
 *       {@code ␛]52;c;…␇}), CR is {@code ␍}, BS {@code ␈}, LF {@code ␤} (in {@link #line}); DEL is {@code ␡};</li>
 *   <li>C1 controls (U+0080–U+009F, among them the one-byte CSI U+009B), every format character (Unicode
 *       category Cf: bidi embeddings, overrides and isolates U+202A–U+202E and U+2066–U+2069, the marks
 *       U+200E/U+200F/U+061C, zero-width U+200B–U+200D, U+2060, U+FEFF, soft hyphen, tag characters…),
 *       the line and paragraph separators U+2028/U+2029 and unpaired surrogates become {@code <U+202E>};</li>
 *   <li>a value longer than its cap is cut, with {@code …[+N chars]} saying how much was cut.</li>
 * </ul>
 * Tab stays (it moves the cursor right, never over text). Everything else is kept as it is. The
 * rendering layer adds its own escaping on top (HTML entities, markdown) — this only makes the text
 * inert and visible.
 */
public final class Sanitizer {
    /** Longest value shown, in code points, before it is cut with a visible marker. */
    public static final int MAX_CHARS = 4000;

    private Sanitizer() {
    }

    /** One line of text: every control, including line feed, made visible; capped at {@link #MAX_CHARS}. */
    public static String line(String s) {
        return clean(s, false, MAX_CHARS);
    }

    /** Text that may span lines (knowledge prose, an operator hint): line feeds kept, the rest as {@link #line}. */
    public static String text(String s) {
        return clean(s, true, MAX_CHARS);
    }

    /** {@link #line} with another cap. */
    public static String line(String s, int maxChars) {
        return clean(s, false, maxChars);
    }

    /** True when {@link #line} would change nothing but the length: no control, format or separator character. */
    public static boolean isInert(String s) {
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            if (cp != '\t' && dangerous(cp)) {
                return false;
            }
            i += Character.charCount(cp);
        }
        return true;
    }

    /**
     * True for a character that must not reach a screen raw: C0 and C1 controls, DEL, format characters
     * (Cf), U+2028/U+2029 and unpaired surrogates.
     */
    public static boolean dangerous(int cp) {
        if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
            return true;
        }
        if (cp == 0x2028 || cp == 0x2029) {
            return true;
        }
        int type = Character.getType(cp);
        return type == Character.FORMAT || type == Character.SURROGATE;
    }

    private static String clean(String s, boolean keepNewlines, int maxChars) {
        if (s == null) {
            return "";
        }
        int max = Math.max(16, maxChars);
        StringBuilder b = null;
        int count = 0;
        int i = 0;
        for (; i < s.length(); ) {
            if (count >= max) {
                break;
            }
            char ch = s.charAt(i);
            if (ch >= 0x20 && ch < 0x7f) {
                // printable ASCII, the common case
                if (b != null) {
                    b.append(ch);
                }
                count++;
                i++;
                continue;
            }
            int cp = s.codePointAt(i);
            int n = Character.charCount(cp);
            String visible = null;
            if (cp == '\t' || (cp == '\n' && keepNewlines)) {
                visible = null;
            } else if (cp < 0x20) {
                visible = new String(Character.toChars(cp == '\n' ? 0x2424 : 0x2400 + cp));
            } else if (cp == 0x7f) {
                visible = "\u2421";
            } else if (dangerous(cp)) {
                visible = String.format("<U+%04X>", cp);
            }
            if (visible != null && b == null) {
                b = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (b != null) {
                if (visible != null) {
                    b.append(visible);
                } else {
                    b.appendCodePoint(cp);
                }
            }
            count++;
            i += n;
        }
        if (i < s.length()) {
            int rest = s.codePointCount(i, s.length());
            if (b == null) {
                b = new StringBuilder(s.length()).append(s, 0, i);
            }
            b.append("…[+").append(rest).append(" chars]");
        }
        return b == null ? s : b.toString();
    }
}
