package io.triage.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Splits an argument dump into name/value pairs: SGLang's {@code server_args=ServerArgs(a='x', b=1)},
 * vLLM's {@code non-default args: {'a': 'x'}} and {@code Namespace(a='x')}, TGI's {@code Args { a: "x" }}.
 * A dump cut off mid-way (a pasted or wrapped line) yields the pairs before the cut.
 */
final class ArgsDump {
    private ArgsDump() {
    }

    static List<Map.Entry<String, String>> parse(String line) {
        List<Map.Entry<String, String>> out = new ArrayList<>();
        int goMap = line.indexOf("env=\"map[");
        if (goMap >= 0) {
            goMap(line, goMap + "env=\"map[".length(), out);
            return out;
        }
        // LMDeploy: "input backend=pytorch, backend_config=PytorchEngineConfig(dtype='auto', tp=1, …)": the engine
        // that runs (turbomind falls back to pytorch for a model it does not support), then its configuration
        int backend = line.indexOf("input backend=");
        if (backend >= 0) {
            int from = backend + "input backend=".length();
            int to = from;
            while (to < line.length() && (Character.isLetterOrDigit(line.charAt(to)) || line.charAt(to) == '_')) {
                to++;
            }
            if (to > from) {
                out.add(Map.entry("backend", line.substring(from, to)));
            }
        }
        int start = openingBracket(line);
        if (start >= 0) {
            items(line, start, out);
        }
        return out;
    }

    /** Lines of a wrapped dump joined at most: a dump is one line, a paste wraps it into a few. */
    static final int WRAP_LINES = 12;
    /** Lines of a dump printed one field per line ({@code Args {} then {@code model_id: "…",} …) joined at most. */
    static final int PRETTY_LINES = 200;
    /** Characters of a wrapped dump joined at most. */
    static final int WRAP_CHARS = 16_384;

    /** Whether a dump's map or brackets are still open at the line's end: a wrapped paste's first line. */
    static boolean open(String line) {
        int goMap = line.indexOf("env=\"map[");
        if (goMap >= 0) {
            return line.indexOf("]\"", goMap) < 0;
        }
        int start = openingBracket(line);
        return start >= 0 && items(line, start, null) < 0;
    }

    /**
     * Walks a dump from its opening bracket at {@code start}, quotes and nested brackets kept whole: each top-level
     * item (parted by commas) into {@code out} when given, and the index of the bracket that closes the dump, or -1
     * when the line ends first (a cut-off or wrapped dump: its last item goes in only if its quotes and brackets
     * closed and it does not end in an ellipsis).
     */
    private static int items(String line, int start, List<Map.Entry<String, String>> out) {
        int depth = 0;
        char quote = 0;
        int itemStart = start + 1;
        for (int i = start + 1; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == '\\') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
                continue;
            }
            if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '(' || c == '[' || c == '{') {
                depth++;
            } else if (c == ')' || c == ']' || c == '}') {
                if (depth == 0) {
                    if (out != null) {
                        item(line.substring(itemStart, i), out);
                    }
                    return i;
                }
                depth--;
            } else if (c == ',' && depth == 0 && out != null) {
                item(line.substring(itemStart, i), out);
                itemStart = i + 1;
            }
        }
        if (out != null && quote == 0 && depth == 0) {
            String last = line.substring(itemStart);
            if (!last.endsWith("...") && !last.endsWith("…")) {
                item(last, out);
            }
        }
        return -1;
    }

    /**
     * A wrapped dump's next piece joined to what came before it. A wrap at a word lost its space and a wrap mid-word
     * lost nothing, so the join is read from the dump's grammar: in Go's map a piece that begins a {@code KEY:} after a
     * whole pair is a new pair; a key or value cut in two is glued back; in Python's a piece after a comma or a colon
     * takes a space back.
     */
    static String join(String before, String piece) {
        if (before.isEmpty() || piece.isEmpty() || before.endsWith(" ") || piece.startsWith(" ")) {
            return before + piece;
        }
        if (before.contains("env=\"map[")) {
            int sp = before.lastIndexOf(' ');
            String lastToken = before.substring(sp + 1);
            int colon = piece.indexOf(':');
            int space = piece.indexOf(' ');
            boolean keyFirst = colon > 0 && (space < 0 || colon < space)
                    && piece.substring(0, colon).chars().allMatch(ch -> Character.isUpperCase(ch) || Character.isDigit(ch) || ch == '_');
            return lastToken.indexOf(':') >= 0 && keyFirst ? before + " " + piece : before + piece;
        }
        char last = before.charAt(before.length() - 1);
        return last == ',' || last == ':' ? before + " " + piece : before + piece;
    }

    /**
     * Ollama's {@code server config env="map[OLLAMA_HOST:http://127.0.0.1:11434 OLLAMA_KEEP_ALIVE:5m0s …]"}: Go's
     * printing of a map, {@code KEY:value} pairs parted by spaces, a value in brackets kept whole. A URL value loses its
     * scheme ({@code OLLAMA_HOST=0.0.0.0:11434} prints as {@code http://0.0.0.0:11434}), so an operator's setting reads alike.
     */
    private static void goMap(String line, int from, List<Map.Entry<String, String>> out) {
        int i = from;
        int n = line.length();
        while (i < n) {
            while (i < n && line.charAt(i) == ' ') {
                i++;
            }
            int keyStart = i;
            while (i < n && line.charAt(i) != ':' && line.charAt(i) != ' ' && line.charAt(i) != ']') {
                i++;
            }
            if (i >= n || line.charAt(i) != ':') {
                return; // the map's end, or cut off
            }
            String key = line.substring(keyStart, i);
            int valueStart = ++i;
            int depth = 0;
            while (i < n && (depth > 0 || (line.charAt(i) != ' ' && line.charAt(i) != ']'))) {
                char c = line.charAt(i);
                depth += c == '[' ? 1 : c == ']' ? -1 : 0;
                i++;
            }
            if (i >= n) {
                return; // cut off mid-value
            }
            String value = line.substring(valueStart, i);
            if (value.startsWith("http://") || value.startsWith("https://")) {
                value = value.substring(value.indexOf("://") + 3);
            }
            if (!key.isEmpty() && key.chars().allMatch(ch -> Character.isLetterOrDigit(ch) || ch == '_')) {
                out.add(Map.entry(Text.argName(key), value));
            }
            if (line.charAt(i) == ']') {
                return;
            }
        }
    }

    private static int openingBracket(String line) {
        String[] anchors = {"server_args=", "non-default args:", "args: Namespace", "Args {", "Namespace(", "args=",
                "backend_config="};
        for (String a : anchors) {
            int at = line.indexOf(a);
            if (at >= 0) {
                for (int i = at + a.length() - 1; i < line.length(); i++) {
                    char c = line.charAt(i);
                    if (c == '(' || c == '{') {
                        return i;
                    }
                }
            }
        }
        return -1;
    }

    private static void item(String raw, List<Map.Entry<String, String>> out) {
        String s = raw.strip();
        if (s.isEmpty()) {
            return;
        }
        int eq = s.indexOf('=');
        int colon = s.indexOf(':');
        int sep;
        if (eq > 0 && (colon < 0 || eq < colon)) {
            sep = eq;
        } else if (colon > 0) {
            sep = colon;
        } else {
            return;
        }
        String name = Text.argValue(s.substring(0, sep));
        if (name.isEmpty() || !name.chars().allMatch(ch -> Character.isLetterOrDigit(ch) || ch == '_' || ch == '-'
                || ch == '.')) {
            return;
        }
        out.add(Map.entry(Text.argName(name), Text.argValue(s.substring(sep + 1))));
    }

    /** {@code --name value}, {@code --name=value} and bare flags ({@code true}) from a command line. */
    static List<Map.Entry<String, String>> commandLine(String args) {
        List<Map.Entry<String, String>> out = new ArrayList<>();
        String[] tok = args.strip().split("\\s+");
        for (int i = 0; i < tok.length; i++) {
            String t = tok[i];
            if (!t.startsWith("--") || t.length() < 3) {
                continue;
            }
            int eq = t.indexOf('=');
            if (eq > 0) {
                out.add(Map.entry(Text.argName(t.substring(0, eq)), Text.argValue(t.substring(eq + 1))));
            } else if (i + 1 < tok.length && !tok[i + 1].startsWith("--")) {
                out.add(Map.entry(Text.argName(t), Text.argValue(tok[i + 1])));
                i++;
            } else {
                out.add(Map.entry(Text.argName(t), "true"));
            }
        }
        return out;
    }
}
