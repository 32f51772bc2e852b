package io.triage.collect;

import io.triage.capture.Capture;
import io.triage.capture.ProbeOutput;
import io.triage.probe.ProbeFrames;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what the probe bundle printed back into a {@link Capture}: each probe's stdout, stderr, exit
 * code and duration, plus what the script discovered or assumed. Lines without the run's nonce (a
 * login banner, a shell's noise) are ignored; a run cut short leaves the probes it did not reach absent.
 *
 * <p>The answer is read as a stream ({@link Reader}), line by line as it arrives: noise is dropped at once,
 * each probe's frame is decoded when its line ends, and no line longer than the script can print is kept.
 * What a look holds is the decoded probe output, never the whole answer. Only the probes the bundle runs
 * are taken: a frame for any other name did not come from the script.
 */
public final class BundleOutput {
    /** Longest line the script prints: a base64 frame of a probe's capped output, with slack for the tag lines. */
    static final int MAX_LINE = (Math.max(ProbeBundle.MAX_OUT, ProbeBundle.MAX_ERR) + 2) / 3 * 4 + 256;

    private BundleOutput() {
    }

    public static Capture parse(String source, ProbeBundle bundle, String stdout, Map<String, String> intent,
                                List<String> extraNotes) {
        Reader r = new Reader(bundle);
        byte[] bytes = stdout.getBytes(StandardCharsets.UTF_8);
        r.write(bytes, 0, bytes.length);
        return r.capture(source, intent, extraNotes);
    }

    /**
     * The bundle's answer as an output stream: feed it what the host sends, then ask for the {@link #capture}.
     * Holds at most one line of {@link #MAX_LINE} bytes besides the decoded probe outputs. The frames are read by
     * {@link ProbeFrames}, the one home of their format.
     */
    public static final class Reader extends OutputStream implements ProbeFrames.Listener {
        private final Map<String, ProbeBundle.Probe> known = new LinkedHashMap<>();
        private final Map<String, Frame> frames = new LinkedHashMap<>();
        private final Map<String, String> target;
        private final List<String> notes = new ArrayList<>();
        private final ProbeFrames.Decoder decoder;
        /** The server kinds a discovery may name: those of the knowledge base the bundle was made with. */
        private final List<String> kinds;
        private boolean ended;
        private boolean finished;
        private int unknownNoted;

        public Reader(ProbeBundle bundle) {
            this.target = new LinkedHashMap<>(bundle.target());
            for (ProbeBundle.Probe p : bundle.probes()) {
                known.put(p.name(), p);
            }
            this.kinds = bundle.filters() == null ? List.of() : bundle.filters().servers();
            this.decoder = new ProbeFrames(bundle.nonce()).new Decoder(MAX_LINE, true, this);
        }

        /** One probe's answer: decoded bytes, turned into text only when the capture is made. */
        private record Frame(ProbeFrames.Header header, byte[] out, byte[] err, boolean cut) {
        }

        @Override
        public synchronized void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int n) {
            decoder.write(b, off, n);
        }

        @Override
        public void frame(ProbeFrames.Header h, byte[] out, byte[] err, boolean cut, String problem) {
            if (!known.containsKey(h.probe())) {
                if (unknownNoted++ < 3) {
                    notes.add("the host sent a result for a probe the bundle does not run; ignored");
                }
                return;
            }
            if (problem != null) {
                notes.add(h.probe() + ": " + problem);
            }
            if (cut) {
                notes.add(h.probe() + ": its frame was cut short; what arrived is kept");
            }
            if (out != null && h.outBytes() > out.length) {
                notes.add(h.probe() + ": output cut at " + out.length + " of " + h.outBytes() + " bytes (the probe's cap)");
            }
            frames.put(h.probe(), new Frame(h, out, err, cut));
        }

        @Override
        public void tagged(String body) {
            if (body.startsWith("discovered ") || body.startsWith("assumed ")) {
                discovery(body, target, notes, kinds);
            } else if (body.equals("end")) {
                ended = true;
            } else if (body.startsWith("skipped second_look")) {
                notes.add("second look skipped: health answered in time, or no server process was found");
            }
        }

        /** Whether any probe's result has come back so far. */
        public synchronized boolean anyProbe() {
            return !frames.isEmpty();
        }

        /** The capture of what came so far; a last line without its newline is read too. */
        public synchronized Capture capture(String source, Map<String, String> intent, List<String> extraNotes) {
            if (!finished) {
                finished = true;
                decoder.finish();
            }
            Map<String, ProbeOutput> probes = new LinkedHashMap<>();
            int port = io.triage.parse.Text.parseInt(target.getOrDefault("port", "-1"), -1);
            for (Frame f : frames.values()) {
                ProbeBundle.Probe p = known.get(f.header().probe());
                String cmd = p.display(port, target.getOrDefault("log", ""));
                boolean truncated = f.out() != null && f.header().outBytes() > f.out().length;
                probes.put(p.name(), new ProbeOutput(p.name(), cmd, text(f.out()), text(f.err()), f.header().rc(),
                        f.header().millis() / 1000.0, truncated));
            }
            List<String> all = new ArrayList<>(extraNotes);
            all.addAll(notes);
            if (!ended) {
                all.add("the probe run was cut short: probes it did not reach are absent (unknown)");
            }
            if (!target.containsKey("log")) {
                all.add("no log path given or found: the log was not read (give --log)");
            }
            return new Capture(source, probes, new LinkedHashMap<>(target), intent, all);
        }

        private static String text(byte[] b) {
            return b == null ? null : new String(b, StandardCharsets.UTF_8).replace("\r\n", "\n");
        }
    }

    private static final Pattern PORT_LINE =
            Pattern.compile("^(discovered|assumed) port=(\\d{1,5})(?: pid=(\\d+))?( from its command line)?$");
    private static final Pattern PID_LINE = Pattern.compile("^discovered pid=(\\d{1,10}) listening on port=(\\d{1,5})$");
    private static final Pattern LOG_LINE = Pattern.compile("^discovered log=(/.*?)(?: pid=(\\d+))?$");
    private static final Pattern SERVER_LINE = Pattern.compile("^discovered server=([a-z0-9][a-z0-9._-]{0,31})$");

    /**
     * A discovery line, read by its exact shape: values come from the host (a log path may contain
     * anything a file name can), so nothing in them may add or change other target fields.
     */
    private static void discovery(String body, Map<String, String> target, List<String> notes, List<String> kinds) {
        Matcher m;
        if ((m = PORT_LINE.matcher(body)).matches()) {
            int port = Integer.parseInt(m.group(2));
            if (port < 1 || port > 65535) {
                notes.add("the host reported an impossible port " + port + "; ignored");
                return;
            }
            boolean discovered = m.group(1).equals("discovered");
            target.put("port", String.valueOf(port));
            String how = m.group(3) == null ? "" : m.group(4) != null ? " (from the command line of PID " + m.group(3) + ")"
                    : " (from PID " + m.group(3) + ")";
            notes.add(discovered ? "discovered on the host: port=" + port + how
                    : "assumed (nothing found to discover): port=" + port);
        } else if ((m = PID_LINE.matcher(body)).matches()) {
            // a note only: which process is the server is decided from the listings, as on a replayed capture
            notes.add("discovered on the host: PID " + m.group(1) + " owns the listener of port " + m.group(2));
        } else if ((m = LOG_LINE.matcher(body)).matches()) {
            target.put("log", m.group(1));
            notes.add("discovered on the host: log=" + m.group(1) + (m.group(2) == null ? "" : " (from PID " + m.group(2) + ")"));
        } else if ((m = SERVER_LINE.matcher(body)).matches() && kinds.contains(m.group(1))) {
            target.putIfAbsent("server", m.group(1));
            notes.add("discovered on the host: server=" + m.group(1));
        } else {
            notes.add("a discovery line from the host was not understood and ignored");
        }
    }

}
