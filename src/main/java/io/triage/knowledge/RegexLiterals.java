package io.triage.knowledge;

/**
 * Finds a literal substring that every match of a regex must contain, so that most lines can be
 * rejected with {@link String#contains} before the regex runs. Conservative: when in doubt, none.
 */
final class RegexLiterals {
    private RegexLiterals() {
    }

    /** The longest literal run outside any group (at least 3 characters), or null. */
    static String requiredLiteral(String regex) {
        if (regex.contains("(?i") || regex.contains("\\Q") || regex.contains("(?x") || hasTopLevelAlternation(regex)) {
            return null;
        }
        String best = "";
        StringBuilder run = new StringBuilder();
        int depth = 0;
        int len = regex.length();
        for (int i = 0; i < len; i++) {
            char c = regex.charAt(i);
            char literal = 0;
            if (c == '\\' && i + 1 < len) {
                char n = regex.charAt(++i);
                if (!Character.isLetterOrDigit(n)) {
                    literal = n;
                }
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth = Math.max(0, depth - 1);
            } else if (c == '[') {
                i = skipClass(regex, i);
            } else if (c == '{') {
                while (i < len && regex.charAt(i) != '}') {
                    i++;
                }
            } else if (".^$|*?+".indexOf(c) < 0) {
                literal = c;
            }
            if (literal == 0 || depth > 0) {
                best = flush(best, run);
                continue;
            }
            char next = i + 1 < len ? regex.charAt(i + 1) : 0;
            if (next == '?' || next == '*' || next == '{') {
                best = flush(best, run);
            } else {
                run.append(literal);
                if (next == '+') {
                    best = flush(best, run);
                }
            }
        }
        best = flush(best, run);
        return best.length() >= 3 ? best : null;
    }

    private static String flush(String best, StringBuilder run) {
        String s = run.toString();
        run.setLength(0);
        return s.length() > best.length() ? s : best;
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

    private static boolean hasTopLevelAlternation(String regex) {
        int depth = 0;
        boolean inClass = false;
        for (int i = 0; i < regex.length(); i++) {
            char c = regex.charAt(i);
            if (c == '\\') {
                i++;
            } else if (inClass) {
                inClass = c != ']';
            } else if (c == '[') {
                inClass = true;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == '|' && depth == 0) {
                return true;
            }
        }
        return false;
    }
}
