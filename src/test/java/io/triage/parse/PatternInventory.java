package io.triage.parse;

import io.triage.knowledge.KnowledgeBase;
import io.triage.knowledge.LinePattern;
import io.triage.knowledge.Marker;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.stream.Stream;

/**
 * Every regex that runs on capture text: the knowledge base's markers and the parsers' own (found by
 * reflection, so a pattern added next year is found too), with a way to run each on a counted line.
 */
public final class PatternInventory {
    /** One pattern, the engine it runs under, and where it comes from. */
    public record Entry(String where, String regex, Object compiled) {
        public boolean jdk() {
            return compiled instanceof java.util.regex.Pattern;
        }

        /** Runs the pattern on the line as the parsers do (one search; every match for a JDK pattern). */
        public void run(CharSequence line) {
            if (compiled instanceof LinePattern p) {
                p.find(line);
            } else if (compiled instanceof java.util.regex.Pattern p) {
                Matcher m = p.matcher(line);
                while (m.find()) {
                    m.group();
                }
            } else {
                com.google.re2j.Matcher m = ((com.google.re2j.Pattern) compiled).matcher(line);
                if (m.find()) {
                    for (int g = 0; g <= m.groupCount(); g++) {
                        m.group(g);
                    }
                }
            }
        }

        /** The same pattern searched by its engines alone, without the literal gate a {@link LinePattern} runs first. */
        public Entry engineOnly() {
            return compiled instanceof LinePattern p ? new Entry(where, regex, p.ungated()) : this;
        }

        /** The size of the compiled program (RE2J), or the regex's length (JDK). */
        public int size() {
            if (compiled instanceof LinePattern p) {
                return p.programSize();
            }
            return compiled instanceof com.google.re2j.Pattern p ? p.matcher("").programSize() : regex.length();
        }

        /** Most reads a linear search of an {@code n}-character line may make. */
        public long bound(int n, int jdkReadsPerChar) {
            long re2j = 4L * (size() + 8) * (n + 1);
            if (compiled instanceof LinePattern) {
                return (long) LinePattern.FAST_READS_PER_CHAR * (n + 1) + re2j;
            }
            return jdk() ? (long) jdkReadsPerChar * (n + 1) : re2j;
        }
    }

    private PatternInventory() {
    }

    public static List<Entry> markers(KnowledgeBase kb) {
        List<Entry> out = new ArrayList<>();
        for (Marker m : kb.markers()) {
            out.add(new Entry("marker " + m.id(), m.pattern().pattern(), m.pattern()));
        }
        return out;
    }

    /** The static patterns of every class of the parse package, JDK and RE2J alike. */
    public static List<Entry> parsers() {
        List<Entry> out = new ArrayList<>();
        try {
            Path dir = Path.of(FactBuilder.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .resolve("io/triage/parse");
            List<Path> classes;
            try (Stream<Path> s = Files.list(dir)) {
                classes = s.filter(p -> p.toString().endsWith(".class")).sorted().toList();
            }
            for (Path c : classes) {
                String name = "io.triage.parse." + c.getFileName().toString().replace(".class", "");
                Class<?> type = Class.forName(name, true, FactBuilder.class.getClassLoader());
                for (Field f : type.getDeclaredFields()) {
                    if (!Modifier.isStatic(f.getModifiers())) {
                        continue;
                    }
                    if (f.getType() == java.util.regex.Pattern.class || f.getType() == com.google.re2j.Pattern.class
                            || f.getType() == LinePattern.class) {
                        f.setAccessible(true);
                        Object p = f.get(null);
                        String regex = p instanceof java.util.regex.Pattern jp ? jp.pattern()
                                : p instanceof LinePattern lp ? lp.pattern() : ((com.google.re2j.Pattern) p).pattern();
                        out.add(new Entry(type.getSimpleName() + "." + f.getName(), regex, p));
                    }
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot list the parsers' patterns", e);
        }
        return out;
    }

    /** The most one log line can be charged (every marker tried on the linear engine, at the cap): the budget's overshoot. */
    public static long oneLineWork(KnowledgeBase kb) {
        long w = 2L * (ReadBudget.LINE_CAP + 1) + 64;
        for (Marker m : kb.markers()) {
            w += m.pattern().cost(ReadBudget.LINE_CAP, false);
        }
        return w;
    }

    /** Literal words of the markers' patterns: lines made of them reach every marker's regex. */
    public static List<String> literals(KnowledgeBase kb) {
        Set<String> out = new LinkedHashSet<>();
        java.util.regex.Pattern word = java.util.regex.Pattern.compile("[A-Za-z][A-Za-z _:.=-]{3,}");
        for (Marker m : kb.markers()) {
            Matcher w = word.matcher(m.pattern().pattern().replace("\\b", " ").replace("\\s+", " ").replace("\\", ""));
            while (w.find()) {
                out.add(w.group().strip());
            }
        }
        return List.copyOf(out);
    }
}
