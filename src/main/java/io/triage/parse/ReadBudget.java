package io.triage.parse;

import io.triage.capture.ProbeOutput;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How much of one capture the parsers read. Text from a host is hostile: one line may be a megabyte,
 * a log may be built to be slow. So every line is cut to {@link #LINE_CAP} characters before any
 * pattern sees it, and the parsing of one capture has a work budget counted in characters examined
 * (a line's length once for every pass over it: the literal scan, each regex tried, the timestamp; a
 * pass of the linear engine counts more, as it costs more: see {@link io.triage.knowledge.LinePattern#cost}).
 * The budget is checked between lines, so a capture costs at most the budget plus one line's passes;
 * past it, the rest is not read and says so ({@link io.triage.facts.Unparseable}), and the diagnosis
 * goes on with what was read. Cuts are reported as notes. Counting work rather than time keeps the
 * outcome the same on a fast and on a loaded machine. One instance per capture; not thread-safe.
 */
public final class ReadBudget {
    /** Longest line any parser sees, characters; longer lines are cut here and the cut is noted. */
    public static final int LINE_CAP = 8 * 1024;
    /**
     * Characters examined per capture (about 30 to 150 ns each here: a few seconds at most). The
     * scenarios need 0.25 M at most, a log of 1 MiB of ordinary lines under 3 M, a 1 MiB process list
     * about 15 M; only a capture built to be slow, or every probe full at once, reaches it.
     */
    public static final long CAPTURE_WORK = 32L * 1024 * 1024;

    private final long limit;
    private long spent;
    private boolean exhausted;
    /** Per probe: the lines cut (a probe read twice is counted once), and the longest. */
    private final Map<String, Cuts> cuts = new LinkedHashMap<>();

    private static final class Cuts {
        final java.util.TreeSet<Integer> lines = new java.util.TreeSet<>();
        long longest;
    }

    public ReadBudget(long limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("budget must be positive: " + limit);
        }
        this.limit = limit;
    }

    /** A budget of {@link #CAPTURE_WORK}. */
    public ReadBudget() {
        this(CAPTURE_WORK);
    }

    /** Work spent so far, characters examined. */
    public long spent() {
        return spent;
    }

    public long limit() {
        return limit;
    }

    /** True once the budget ran out: the parsers read no further. */
    public boolean exhausted() {
        return exhausted;
    }

    /**
     * Charges {@code work} to the budget before a line is read; false (and nothing charged) when the
     * budget is already spent, and from then on.
     */
    boolean charge(long work) {
        if (exhausted || spent >= limit) {
            exhausted = true;
            return false;
        }
        spent += work;
        return true;
    }

    /** Charges work already begun (the rest of a line's passes), whether or not the budget allows it. */
    void spend(long work) {
        spent += work;
    }

    /** The line cut to {@link #LINE_CAP}, the cut recorded against {@code probe}'s line {@code lineNo}. */
    String cut(String probe, int lineNo, String line) {
        if (line.length() <= LINE_CAP) {
            return line;
        }
        Cuts c = cuts.computeIfAbsent(probe, k -> new Cuts());
        c.lines.add(lineNo);
        c.longest = Math.max(c.longest, line.length());
        return line.substring(0, LINE_CAP);
    }

    /**
     * The probe's output as lines, each cut to the cap; each line charged {@code passes} times its
     * length. When the budget runs out, the lines read so far are returned and the rest is reported
     * unread in {@code sink}.
     */
    List<String> lines(ProbeOutput p, int passes, Sink sink) {
        return lines(p.name(), p.outOrEmpty(), passes, sink);
    }

    List<String> lines(String probe, String text, int passes, Sink sink) {
        List<String> all = Text.lines(text);
        List<String> out = new ArrayList<>(all.size());
        for (int i = 0; i < all.size(); i++) {
            String line = cut(probe, i + 1, all.get(i));
            if (!charge((long) passes * (line.length() + 1))) {
                unread(probe, i + 1, all.size(), sink);
                break;
            }
            out.add(line);
        }
        return out;
    }

    /** Reports lines {@code from}…{@code of} (1-based) of a probe as not read. */
    void unread(String probe, int from, int of, Sink sink) {
        sink.unparseable(probe, "lines " + from + "–" + of + " not read: the capture's parsing budget ("
                + limit + " characters examined) was spent", from, "");
    }

    /** One note per probe that had lines cut. */
    List<String> notes() {
        List<String> out = new ArrayList<>();
        cuts.forEach((probe, c) -> out.add(probe + ": " + c.lines.size() + (c.lines.size() == 1 ? " line" : " lines")
                + " longer than " + LINE_CAP + " characters cut to " + LINE_CAP + " before matching (first at line "
                + c.lines.first() + ", longest " + c.longest + ")"));
        if (exhausted) {
            out.add("parsing stopped after " + spent + " characters examined (budget " + limit
                    + "): the rest of the capture was not read");
        }
        return out;
    }
}
