package io.triage.lab;

import io.triage.capture.Capture;
import io.triage.capture.CaptureException;
import io.triage.capture.CaptureReader;
import io.triage.capture.ProbeOutput;
import io.triage.probe.ProbeFrames;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * A capture prepared for playing: for every probe that ran, its outputs as bytes and already
 * base64-encoded (the bundle's framing), its exit code and duration. Immutable, shared by every lab host
 * that plays the same capture.
 */
final class Recording {
    private final Capture capture;
    private final Map<String, Probe> probes;

    /**
     * One probe that ran. {@code out}/{@code err} are never null (empty when not recorded), and hold what the script
     * would send (its caps applied); {@code outBytes}/{@code errBytes} are the sizes recorded, which the frame says.
     */
    record Probe(String name, String cmd, byte[] out, byte[] err, int rc, long ms, byte[] outB64, byte[] errB64,
                 long outBytes, long errBytes) {
    }

    private Recording(Capture capture, Map<String, Probe> probes) {
        this.capture = capture;
        this.probes = probes;
    }

    static Recording read(CaptureReader reader, Path dir) throws CaptureException {
        Capture c = reader.read(dir);
        Set<String> listed = listed(dir.resolve("_probes.txt"));
        Map<String, Probe> probes = new LinkedHashMap<>();
        for (ProbeOutput p : c.probes().values()) {
            // a probe with only a .cmd file did not run: absent, unknown, as in a replay
            if (p.out() == null && p.err() == null && !listed.contains(p.name())) {
                continue;
            }
            // as the bundle does on a real host (head -c): no probe answers with more than the script prints
            byte[] whole = p.outOrEmpty().getBytes(StandardCharsets.UTF_8);
            byte[] wholeErr = p.errOrEmpty().getBytes(StandardCharsets.UTF_8);
            byte[] out = head(whole, io.triage.collect.ProbeBundle.MAX_OUT);
            byte[] err = head(wholeErr, io.triage.collect.ProbeBundle.MAX_ERR);
            long ms = p.seconds() == null ? 0 : Math.max(0, Math.round(p.seconds() * 1000));
            probes.put(p.name(), new Probe(p.name(), p.cmd(), out, err, p.rc() == null ? 0 : p.rc(), ms,
                    ProbeFrames.body(out, out.length), ProbeFrames.body(err, err.length), whole.length, wholeErr.length));
        }
        return new Recording(c, Collections.unmodifiableMap(probes));
    }

    private static byte[] head(byte[] b, int max) {
        return b.length <= max ? b : java.util.Arrays.copyOf(b, max);
    }

    /** The probe names {@code _probes.txt} lists (first word of each line). */
    private static Set<String> listed(Path file) {
        Set<String> names = new LinkedHashSet<>();
        if (!Files.isRegularFile(file)) {
            return names;
        }
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String s = line.strip();
                if (!s.isEmpty() && !s.startsWith("#")) {
                    names.add(s.split("\\s+", 2)[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // unreadable: CaptureReader has noted it; the output files still say what ran
        }
        return names;
    }

    Capture capture() {
        return capture;
    }

    Map<String, Probe> probes() {
        return probes;
    }
}
