package io.triage.capture;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@link PasteRecognizer} made of a paste: a capture the parsers read like a directory's, the
 * segments it recognised, and the lines it could not read.
 *
 * @param capture the probes filed from the paste (no exit codes: pasted output has none)
 * @param segments recognised parts, in paste order
 * @param unread ranges of non-blank lines that were neither a prompt nor part of a segment
 * @param lines how many lines the paste had (before any cut)
 * @param notes what was cut, removed or supplied while reading (also in the capture's notes)
 */
public record Recognition(Capture capture, List<PasteSegment> segments, List<LineRange> unread, int lines,
                          List<String> notes) {

    public Recognition {
        segments = List.copyOf(segments);
        unread = List.copyOf(unread);
        notes = List.copyOf(notes);
    }

    /** A range of paste lines, 1-based and inclusive. */
    public record LineRange(int from, int to) {
        public String describe() {
            return from == to ? "line " + from : "lines " + from + "–" + to;
        }
    }

    /** One line per segment ("recognised: …"), then one per unread range ("not read: …"). */
    public List<String> summary() {
        List<String> out = new ArrayList<>();
        for (PasteSegment s : segments) {
            out.add("recognised: " + s.describe());
        }
        for (LineRange r : unread) {
            out.add("not read: " + r.describe());
        }
        if (segments.isEmpty() && unread.isEmpty()) {
            out.add("recognised: nothing (the paste holds no command output)");
        }
        return out;
    }
}
