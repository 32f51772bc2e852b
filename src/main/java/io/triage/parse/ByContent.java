package io.triage.parse;

import io.triage.capture.Capture;
import io.triage.capture.PasteRecognizer;
import io.triage.capture.PasteSegment;
import io.triage.capture.ProbeOutput;
import io.triage.capture.Recognition;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Evidence by content: a file of a capture whose name no parser reads ({@code notes.out}, {@code paste.out},
 * {@code pod.out}, a collector's own name for a probe) is read as a paste would be — recognised by its shape
 * (an {@code nvidia-smi} table, a traceback, {@code ps} columns, kubelet events, journal lines, a
 * {@code docker inspect} array…) — and each recognised part is filed under the probe name its parser reads,
 * unless the capture already holds that probe. What each file was recognised as is said in the notes.
 */
public final class ByContent {
    /** Names read elsewhere, by name, though no parser here reads them (the server's metrics and model list). */
    private static final Set<String> READ_ELSEWHERE = Set.of("metrics", "models", "target", "intent", "expected", "TRUTH");
    /** Names a recognised part may be filed under beside one already present (their parsers read every such name). */
    private static final List<String> PREFIXED = List.of("systemctl_status", "journal", "docker_inspect", "kubectl_describe",
            "kubectl_get", "kubectl_logs", "crictl_inspect", "crictl_ps", "sacct", "scontrol", "docker_run");

    private final PasteRecognizer recognizer;
    private final Predicate<String> readByName;

    /**
     * @param readByName true for a probe name some parser reads by name; such files are left to it
     */
    public ByContent(PasteRecognizer recognizer, Predicate<String> readByName) {
        this.recognizer = recognizer;
        this.readByName = readByName;
    }

    /** The capture with every unnamed file's recognised parts added; notes say what each file was read as. */
    public Capture apply(Capture capture) {
        Map<String, ProbeOutput> probes = new LinkedHashMap<>(capture.probes());
        List<String> notes = new ArrayList<>(capture.notes());
        boolean changed = false;
        for (ProbeOutput p : capture.probes().values()) {
            String name = p.name();
            if (readByName.test(name) || READ_ELSEWHERE.contains(name) || startsWithStandard(name)
                    || p.outOrEmpty().isBlank()) {
                continue;
            }
            Recognition r = recognizer.recognise(p.outOrEmpty());
            List<String> seen = new ArrayList<>();
            for (PasteSegment s : r.segments()) {
                if (s.kind() != PasteRecognizer.Kind.COMMAND_OUTPUT) {
                    seen.add(s.describe());
                }
            }
            if (seen.isEmpty()) {
                notes.add("file " + name + ": not recognised by its content, not read");
                continue;
            }
            List<String> kept = new ArrayList<>();
            List<String> skipped = new ArrayList<>();
            for (ProbeOutput part : r.capture().probes().values()) {
                String target = part.name();
                if (target.isEmpty() || !readByName.test(target)) {
                    continue;
                }
                if (probes.containsKey(target) && probes.get(target).outOrEmpty().strip().equals(part.outOrEmpty().strip())) {
                    skipped.add(target); // a copy of what the capture already holds
                    continue;
                }
                if (probes.containsKey(target)) {
                    String prefix = PREFIXED.stream().filter(target::startsWith).findFirst().orElse(null);
                    if (prefix == null) {
                        skipped.add(target);
                        continue;
                    }
                    target = prefix + "_" + name;
                    if (probes.containsKey(target)) {
                        skipped.add(part.name());
                        continue;
                    }
                }
                probes.put(target, new ProbeOutput(target, null, part.out(), part.err(), null, null,
                        part.truncated() || p.truncated()));
                kept.add(target);
                changed = true;
            }
            notes.add("file " + name + ": recognised by its content as " + String.join("; ", seen)
                    + (kept.isEmpty() ? "" : " — read as " + String.join(", ", kept))
                    + (skipped.isEmpty() ? "" : " — not read again as " + String.join(", ", skipped)
                    + " (the capture has its own, or the same)"));
        }
        if (!changed && notes.size() == capture.notes().size()) {
            return capture;
        }
        return new Capture(capture.source(), probes, capture.target(), capture.intent(), notes);
    }

    private static boolean startsWithStandard(String name) {
        for (String s : FactBuilder.STANDARD_PROBES) {
            if (name.startsWith(s)) {
                return true;
            }
        }
        return false;
    }
}
