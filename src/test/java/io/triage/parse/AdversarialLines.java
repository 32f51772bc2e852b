package io.triage.parse;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Lines built to be slow: the shapes on which backtracking patterns (nested quantifiers, a wildcard
 * before a literal, runs of what a quantified class accepts) take quadratic or exponential time.
 * Each family gives a line of any length.
 */
public final class AdversarialLines {
    private AdversarialLines() {
    }

    /** Family name → line of (about) the given length. */
    public static Map<String, IntFunction<String>> families(List<String> literals) {
        Map<String, IntFunction<String>> f = new LinkedHashMap<>();
        f.put("dotted-exception", n -> repeat("a.", n - 16) + "ValueError: boom");
        f.put("dotted-no-end", n -> repeat("a.", n));
        f.put("dotted-caps", n -> repeat("A.", n - 5) + "Error");
        f.put("word-run", n -> repeat("a", n));
        f.put("word-run-bang", n -> repeat("a", n - 1) + "!");
        f.put("caps-run", n -> repeat("A", n - 1) + "!");
        f.put("underscores", n -> repeat("_", n));
        f.put("spaces", n -> repeat(" ", n));
        f.put("spaces-between", n -> "x" + repeat(" ", n - 2) + "x");
        f.put("tabs-spaces", n -> repeat("\t ", n));
        f.put("digits", n -> repeat("1", n));
        f.put("digits-spaces", n -> repeat("1 ", n));
        f.put("colons", n -> repeat(":", n));
        f.put("digit-colons", n -> repeat("0:", n));
        f.put("open-brackets", n -> repeat("[", n));
        f.put("close-brackets", n -> repeat("]", n));
        f.put("brackets", n -> repeat("[0]", n));
        f.put("parens", n -> repeat("(", n));
        f.put("rank-prefixes", n -> repeat("[rank0]: ", n));
        f.put("pipes", n -> repeat("| ", n));
        f.put("pipe-spaces", n -> "|" + repeat(" ", n - 1));
        f.put("dashes", n -> repeat("-", n));
        f.put("quotes", n -> repeat("'", n));
        f.put("iso-times", n -> repeat("2026-11-30T00:31:01 ", n));
        f.put("kill-lines", n -> repeat("Killed process 1 (", n));
        f.put("oom-summary", n -> "oom-kill:" + repeat("task=", n - 9));
        f.put("xid", n -> repeat("NVRM: Xid (", n));
        f.put("segfault-less", n -> repeat("a[1]", n));
        f.put("ss-rows", n -> repeat("tcp 1 1 ", n));
        f.put("port-args", n -> repeat("--port=1", n));
        f.put("ansi", n -> "\u001B[" + repeat("1;", n - 2));
        f.put("carriage-returns", n -> "x" + repeat("\r ", n - 1));
        f.put("info-colons", n -> repeat("INFO:  ", n));
        f.put("mib", n -> repeat("1MiB ", n));
        f.put("percent", n -> repeat("1%|", n));
        StringBuilder all = new StringBuilder();
        for (String l : literals) {
            all.append(l).append(' ');
        }
        String lits = all.length() == 0 ? "x " : all.toString();
        f.put("every-literal", n -> repeat(lits, n));
        f.put("every-literal-spaced", n -> repeat(lits.replace(" ", "    "), n));
        return f;
    }

    /** The text repeated (and cut) to exactly {@code n} characters; at least one character. */
    public static String repeat(String unit, int n) {
        int len = Math.max(1, n);
        StringBuilder b = new StringBuilder(len + unit.length());
        while (b.length() < len) {
            b.append(unit);
        }
        b.setLength(len);
        return b.toString();
    }

    /** The families' lines at one length, in family order. */
    public static List<String> lines(List<String> literals, int n) {
        List<String> out = new ArrayList<>();
        for (IntFunction<String> g : families(literals).values()) {
            out.add(g.apply(n));
        }
        return out;
    }
}
