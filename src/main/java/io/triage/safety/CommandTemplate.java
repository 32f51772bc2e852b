package io.triage.safety;

import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * Fills a command template's {@code {name}} placeholders with values from a host or a capture so that each
 * value stays one literal shell word wherever the placeholder stands: bare, inside single quotes, inside
 * double quotes, or inside a {@code $( … )} substitution. A value that cannot be quoted (a control,
 * bidi or zero-width character) is never spliced in: the command is withheld and the value reported apart.
 * A placeholder with no value stays as a visible {@code <what>} the person fills in.
 */
public final class CommandTemplate {
    /** Longest value put into a command; a longer one is withheld (it would not be read before running). */
    public static final int MAX_VALUE_CHARS = 1024;

    private CommandTemplate() {
    }

    /**
     * The filled command, or the reasons it is withheld.
     *
     * @param command the command to offer, empty when withheld (or when the template was empty)
     * @param withheld one line per value that could not be put into a command, naming it; empty when offered
     */
    public record Filled(String command, List<String> withheld) {
        public boolean offered() {
            return withheld.isEmpty();
        }
    }

    /** The value of one placeholder: the host's value, or null when unknown, with a name for messages. */
    public record Value(String value, String unknownAs, String describedAs) {
        public static Value known(String value, String describedAs) {
            return new Value(value, "", describedAs);
        }

        public static Value unknown(String unknownAs) {
            return new Value(null, unknownAs, "");
        }
    }

    private enum Ctx { WORD, SINGLE, DOUBLE, COMMENT }

    /**
     * Fills {@code template}. Placeholders are {@code {name}} with {@code name} a key of {@code values};
     * other braces ({@code %{http_code}}, {@code \{}) are kept.
     */
    public static Filled fill(String template, Map<String, Value> values) {
        if (template == null || template.isBlank()) {
            return new Filled("", List.of());
        }
        String t = template.strip();
        StringBuilder out = new StringBuilder(t.length() + 32);
        List<String> withheld = new ArrayList<>();
        Deque<Ctx> stack = new ArrayDeque<>();
        stack.push(Ctx.WORD);
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            Ctx ctx = stack.peek();
            if (c == '{' && (ctx != Ctx.WORD || i == 0 || t.charAt(i - 1) != '\\')) {
                int close = t.indexOf('}', i);
                String name = close > i ? t.substring(i + 1, close) : "";
                Value v = values.get(name);
                if (v != null) {
                    out.append(placed(v, ctx, withheld));
                    i = close;
                    continue;
                }
            }
            out.append(c);
            switch (ctx) {
                case COMMENT -> {
                    if (c == '\n') {
                        stack.pop();
                    }
                }
                case SINGLE -> {
                    if (c == '\'') {
                        stack.pop();
                    }
                }
                case DOUBLE -> {
                    if (c == '\\' && i + 1 < t.length()) {
                        out.append(t.charAt(++i));
                    } else if (c == '"') {
                        stack.pop();
                    } else if (c == '$' && i + 1 < t.length() && t.charAt(i + 1) == '(') {
                        out.append('(');
                        i++;
                        stack.push(Ctx.WORD);
                    }
                }
                case WORD -> {
                    if (c == '#' && (i == 0 || " \t;|&(".indexOf(t.charAt(i - 1)) >= 0)) {
                        // a comment to the end: quotes in it mean nothing to the shell
                        stack.push(Ctx.COMMENT);
                    } else if (c == '\\' && i + 1 < t.length()) {
                        out.append(t.charAt(++i));
                    } else if (c == '\'') {
                        stack.push(Ctx.SINGLE);
                    } else if (c == '"') {
                        stack.push(Ctx.DOUBLE);
                    } else if (c == '$' && i + 1 < t.length() && t.charAt(i + 1) == '(') {
                        out.append('(');
                        i++;
                        stack.push(Ctx.WORD);
                    } else if (c == '(') {
                        stack.push(Ctx.WORD);
                    } else if (c == ')' && stack.size() > 1) {
                        stack.pop();
                    }
                }
            }
        }
        if (!withheld.isEmpty()) {
            return new Filled("", List.copyOf(withheld));
        }
        return new Filled(out.toString(), List.of());
    }

    private static String placed(Value v, Ctx ctx, List<String> withheld) {
        if (v.value() == null || v.value().isEmpty()) {
            // a visible blank the person fills in: inside quotes it is plain text, bare it cannot be run as is
            return "<" + v.unknownAs() + ">";
        }
        String value = v.value();
        String why = value.length() > MAX_VALUE_CHARS ? "is " + value.length() + " characters long"
                : !ShellQuote.isQuotable(value) ? "holds control, bidi or invisible characters"
                : value.startsWith("-") ? "starts with '-' and would be read as an option"
                : null;
        if (why != null) {
            String line = v.describedAs() + " " + Sanitizer.line(value, 200) + " is not put into a command: it " + why;
            if (!withheld.contains(line)) {
                withheld.add(line);
            }
            return "";
        }
        String word = ShellQuote.quote(value);
        return switch (ctx) {
            case WORD, COMMENT -> word;
            // close the quotes, add the quoted word, reopen: the shell joins the three into one word
            case SINGLE -> ShellQuote.isSafeWord(value) ? value : "'" + word + "'";
            case DOUBLE -> ShellQuote.isSafeWord(value) ? value : "\"" + word + "\"";
        };
    }
}
