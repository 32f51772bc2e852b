package io.triage.capture;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Evidence by what it holds, not by the name of the file it came in. A capture's file that no parser reads
 * by its name (a paste saved as {@code error.out}, {@code kernel.out}, {@code smi.out}…) is read by
 * {@link PasteRecognizer}, and each part recognised in it is filed under the probe name the parsers read,
 * where the capture does not hold that probe already (a second log is filed as a log of its own). The
 * health answer's own body (an API error naming a CUDA error, with {@code curl -i} or without {@code -o})
 * reaches the log markers the same way: the log lines recognised in it are filed as a log of their own.
 *
 * <p>What each file was read as is said in the capture's notes. The file itself stays in the capture as it
 * was. The recognizer's own limits bound the work (lines kept, characters a line); a file whose name the
 * parsers read is never touched, and the health probe's status line is left to its parser.
 */
public final class ByContent {
    /** The probe of the health answer: its body is read for log lines; its status line stays its parser's. */
    static final String HEALTH = "health";

    private final PasteRecognizer recognizer;
    private final Predicate<String> readByName;

    /**
     * @param recognizer what reads a file's content
     * @param readByName whether some parser reads a probe of this name (then its file is left as it is)
     */
    public ByContent(PasteRecognizer recognizer, Predicate<String> readByName) {
        this.recognizer = recognizer;
        this.readByName = readByName;
    }

    /** The capture with what its unnamed files hold filed by kind; the same capture when there is nothing to file. */
    public Capture route(Capture capture) {
        List<ProbeOutput> candidates = new ArrayList<>();
        for (ProbeOutput p : capture.probes().values()) {
            if (p.out() == null || p.out().isBlank()) {
                continue;
            }
            if (p.name().equals(HEALTH) ? bodyBesideStatus(p.out()) : !readByName.test(p.name())) {
                candidates.add(p);
            }
        }
        if (candidates.isEmpty()) {
            return capture;
        }
        Map<String, ProbeOutput> probes = new LinkedHashMap<>(capture.probes());
        List<String> notes = new ArrayList<>(capture.notes());
        for (ProbeOutput p : candidates) {
            Recognition r = recognizer.recognise(p.out());
            boolean health = p.name().equals(HEALTH);
            String named = namedBy(p.name());
            if (!health && r.segments().isEmpty() && named != null && !probes.containsKey(named)) {
                // nothing recognised, but the file's name says what it is (ps.txt): read it as that probe
                probes.put(named, new ProbeOutput(named, null, p.out(), p.err(), p.rc(), p.seconds(), p.truncated()));
                notes.add(p.name() + " not recognised by its content; read as " + named + ", as its name says");
                continue;
            }
            for (ProbeOutput part : r.capture().probes().values()) {
                boolean log = part.name().equals("log_tail") || part.name().equals("log_markers");
                if (health && !log) {
                    continue; // the status line and anything else of a health answer is its own parser's
                }
                if (!log && !readByName.test(part.name())) {
                    continue; // the output of a command nothing reads stays where it is
                }
                String name = health ? "log_" + HEALTH : where(part.name(), log, p.name(), probes);
                if (name == null) {
                    notes.add(p.name() + " holds " + label(r, part.name()) + ", but the capture has that probe already;"
                            + " not read twice");
                    continue;
                }
                probes.put(name, new ProbeOutput(name, part.cmd(), part.out(), part.err(),
                        part.rc() != null ? part.rc() : p.rc(), p.seconds(),
                        p.truncated() || part.truncated()));
                notes.add(p.name() + " read by its content as " + label(r, part.name()) + " (filed as " + name + ")");
            }
        }
        return new Capture(capture.source(), probes, capture.target(), capture.intent(), notes);
    }

    /** Where a recognised part goes: its own probe name when free, a log of its own for a second log, else nowhere. */
    private static String where(String probe, boolean log, String file, Map<String, ProbeOutput> probes) {
        if (log) {
            boolean logRead = probes.containsKey("log_tail") || probes.containsKey("log_markers");
            return logRead ? "log_" + file : probe;
        }
        if (!probes.containsKey(probe)) {
            return probe;
        }
        if (probe.equals("dmesg")) {
            for (String other : List.of("kern_log", "journal_kernel")) {
                if (!probes.containsKey(other)) {
                    return other;
                }
            }
        }
        return null;
    }

    /** The probe a saved file's name says it holds ({@code ps_txt} → ps), when a parser reads that name; else null. */
    private String namedBy(String name) {
        int cut = name.lastIndexOf('_');
        String bare = cut > 0 ? name.substring(0, cut) : null;
        return bare != null && readByName.test(bare) ? bare : null;
    }

    private static String label(Recognition r, String probe) {
        List<String> kinds = new ArrayList<>();
        for (PasteSegment s : r.segments()) {
            if (s.probe().equals(probe) && !kinds.contains(s.label())) {
                kinds.add(s.label());
            }
        }
        return kinds.isEmpty() ? probe : String.join(", ", kinds);
    }

    /**
     * Whether a health answer holds more than curl's status line ({@code 200 0.012}, {@code 503}): a line
     * with a letter in it. Plain character tests, so the usual one-line answer costs next to nothing.
     */
    static boolean bodyBesideStatus(String out) {
        for (int i = 0, n = out.length(); i < n; i++) {
            if (Character.isLetter(out.charAt(i))) {
                return true;
            }
        }
        return false;
    }
}
