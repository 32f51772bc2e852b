package io.triage.knowledge;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;

/**
 * Which markers a line may match, found in one pass over the line: an Aho-Corasick automaton over
 * every marker's prefilter literals (one automaton for case-sensitive literals, one for case-folded
 * ones). Markers without a usable prefilter are always candidates. Immutable once built.
 */
public final class LiteralIndex {
    private static final int ASCII = 128;
    /** Longest part of a literal the automaton checks, characters. */
    private static final int WINDOW = 16;

    /**
     * A deterministic automaton over the characters the literals use (every other character is one
     * class): next[state * classes + class[c]], outputs per state. Kept small so it stays in cache.
     */
    private record Automaton(short[] next, int[][] outputs, byte[] classOf, int classes) {
        static Automaton build(List<String> rawLiterals, List<Integer> owners) {
            // any part of a required literal is required too: short windows keep the automaton small
            List<String> literals = rawLiterals.stream().map(l -> l.length() > WINDOW ? l.substring(0, WINDOW) : l).toList();
            byte[] classOf = new byte[ASCII];
            int classes = 1;
            for (String l : literals) {
                for (char c : l.toCharArray()) {
                    if (classOf[c] == 0) {
                        classOf[c] = (byte) classes++;
                    }
                }
            }
            for (char c = 'A'; c <= 'Z'; c++) {
                classOf[c] = classOf[Character.toLowerCase(c)];
            }
            return buildOverClasses(literals, owners, classOf, classes);
        }

        /**
         * The trie of the literals and its failure links, built over the character classes rather than over all of
         * ASCII: the same automaton, with a row per state as wide as the classes the literals use (a few dozen)
         * instead of 128. Built on a command's first line of a server kind, cold: the narrower rows are most of
         * the saving.
         */
        private static Automaton buildOverClasses(List<String> literals, List<Integer> owners, byte[] classOf,
                                                  int classes) {
            List<int[]> gotos = new ArrayList<>();
            List<List<Integer>> outs = new ArrayList<>();
            gotos.add(newRow(classes));
            outs.add(new ArrayList<>());
            for (int i = 0; i < literals.size(); i++) {
                int s = 0;
                String l = literals.get(i);
                for (int j = 0; j < l.length(); j++) {
                    int k = classOf[l.charAt(j)];
                    int t = gotos.get(s)[k];
                    if (t <= 0) {
                        gotos.add(newRow(classes));
                        outs.add(new ArrayList<>());
                        t = gotos.size() - 1;
                        gotos.get(s)[k] = t;
                    }
                    s = t;
                }
                outs.get(s).add(owners.get(i));
            }
            int n = gotos.size();
            if (n >= Short.MAX_VALUE) {
                throw new IllegalStateException("too many literal states: " + n);
            }
            int[] fail = new int[n];
            short[] next = new short[n * classes];
            ArrayDeque<Integer> queue = new ArrayDeque<>();
            int[] root = gotos.get(0);
            for (int k = 0; k < classes; k++) {
                int t = root[k];
                if (t > 0) {
                    fail[t] = 0;
                    queue.add(t);
                    next[k] = (short) t;
                }
            }
            while (!queue.isEmpty()) {
                int s = queue.poll();
                outs.get(s).addAll(outs.get(fail[s]));
                int[] row = gotos.get(s);
                int base = s * classes;
                int failBase = fail[s] * classes;
                for (int k = 0; k < classes; k++) {
                    int t = row[k];
                    if (t > 0) {
                        fail[t] = next[failBase + k];
                        queue.add(t);
                        next[base + k] = (short) t;
                    } else {
                        next[base + k] = next[failBase + k];
                    }
                }
            }
            int[][] outputs = new int[n][];
            for (int s = 0; s < n; s++) {
                outputs[s] = outs.get(s).stream().mapToInt(Integer::intValue).distinct().toArray();
            }
            return new Automaton(next, outputs, classOf, classes);
        }

        private static int[] newRow(int width) {
            int[] row = new int[width];
            Arrays.fill(row, -1);
            return row;
        }

        void scan(String text, BitSet into) {
            int s = 0;
            for (int i = 0, n = text.length(); i < n; i++) {
                char c = text.charAt(i);
                s = c < ASCII ? next[s * classes + classOf[c]] : 0;
                int[] out = outputs[s];
                if (out.length > 0) {
                    for (int o : out) {
                        into.set(o);
                    }
                }
            }
        }
    }

    private final Automaton folded;
    private final BitSet always = new BitSet();

    /**
     * One automaton over case-folded literals: a case-sensitive literal then matches in any case too,
     * which only adds candidates (the regex decides), and a line is scanned once without lower-casing.
     */
    public LiteralIndex(List<Marker> markers) {
        List<String> lits = new ArrayList<>();
        List<Integer> owners = new ArrayList<>();
        for (int i = 0; i < markers.size(); i++) {
            RegexLiterals.Prefilter p = markers.get(i).prefilter();
            if (p == null || p.literals().stream().anyMatch(l -> !l.chars().allMatch(ch -> ch < ASCII))) {
                always.set(i);
                continue;
            }
            for (String l : p.literals()) {
                lits.add(l.toLowerCase(Locale.ROOT));
                owners.add(i);
            }
        }
        this.folded = Automaton.build(lits, owners);
    }

    /** The indexes of the markers that may match {@code line}: a superset of those that do. */
    public BitSet candidates(String line) {
        BitSet b = (BitSet) always.clone();
        folded.scan(line, b);
        return b;
    }
}
