package io.triage.knowledge;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The host-side selection of log lines, derived from the marker catalogue: fixed strings of which every
 * match of some marker contains one (the same literals the {@link LiteralIndex} prefilter uses), compared
 * without regard to case. A host runs them as {@code grep -i -F}; the client then matches the full patterns
 * on what comes back, exactly as on a replayed capture. A new marker file is thereby seen live with no code
 * change.
 *
 * <p>Two sets, so that frequent lines cannot push rare ones out of a bounded answer: {@link #routine()} for
 * the markers of {@link Marker#ROUTINE_KINDS} (served requests, throughput lines: thousands in a busy log,
 * of which the newest few are what the rules read), {@link #rare()} for every other marker.
 *
 * @param rare literals of the non-routine markers, lower case, none containing another
 * @param routine literals of the routine markers, lower case, none containing another
 * @param unfiltered ids of markers that have no required literal: the host cannot select their lines, so
 *                   they are seen only in the log's tail. The shipped catalogue has none (a test holds it so).
 */
public record LogFilter(List<String> rare, List<String> routine, List<String> unfiltered) {
    /**
     * Longest literal sent, characters: a prefix of a required literal is required too, and shorter words keep
     * the command short. Sixteen is the window the client's own literal scan uses.
     */
    public static final int MAX_LITERAL = 16;
    /**
     * Most literals in one set. The command carrying them is one argument of {@code bash -c}, which Linux caps at
     * 128 KiB; 1,000 literals of at most 16 characters, quoted, stay far below that.
     */
    public static final int MAX_LITERALS = 1000;

    public LogFilter {
        rare = List.copyOf(rare);
        routine = List.copyOf(routine);
        unfiltered = List.copyOf(unfiltered);
    }

    /**
     * The filter for a catalogue.
     *
     * @throws KnowledgeException when the catalogue needs more than {@link #MAX_LITERALS} literals in a set
     */
    public static LogFilter of(List<Marker> markers) {
        Set<String> rare = new LinkedHashSet<>();
        Set<String> routine = new LinkedHashSet<>();
        Set<String> unfiltered = new LinkedHashSet<>();
        for (Marker m : markers) {
            RegexLiterals.Prefilter p = m.prefilter();
            List<String> lits = p == null ? List.of() : p.literals().stream().filter(LogFilter::sendable).toList();
            if (lits.isEmpty() || lits.size() != p.literals().size()) {
                // one branch without a sendable literal: lines of that branch could not be selected
                unfiltered.add(m.id());
                continue;
            }
            Set<String> into = Marker.ROUTINE_KINDS.contains(m.kind()) ? routine : rare;
            for (String l : lits) {
                String s = l.toLowerCase(Locale.ROOT);
                into.add(s.length() > MAX_LITERAL ? s.substring(0, MAX_LITERAL) : s);
            }
        }
        List<String> r = minimal(rare, "rare");
        List<String> q = minimal(routine, "routine");
        return new LogFilter(r, q, List.copyOf(unfiltered));
    }

    /**
     * Printable ASCII without control characters: what {@code grep -F} in the C locale compares as the client does
     * (the client folds ASCII case only), and what a shell word can carry unchanged.
     */
    private static boolean sendable(String literal) {
        if (literal.isEmpty()) {
            return false;
        }
        for (int i = 0; i < literal.length(); i++) {
            char c = literal.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    /** Drops every literal that contains another (a line holding it holds the shorter one too); sorted. */
    private static List<String> minimal(Set<String> literals, String which) {
        List<String> bySize = new ArrayList<>(literals);
        bySize.sort(Comparator.comparingInt(String::length).thenComparing(Comparator.naturalOrder()));
        List<String> kept = new ArrayList<>();
        for (String l : bySize) {
            if (kept.stream().noneMatch(l::contains)) {
                kept.add(l);
            }
        }
        if (kept.size() > MAX_LITERALS) {
            throw new KnowledgeException("the marker catalogue needs " + kept.size() + " fixed strings to select its "
                    + which + " lines on a host, more than " + MAX_LITERALS + ": give markers longer shared words");
        }
        kept.sort(Comparator.naturalOrder());
        return kept;
    }
}
