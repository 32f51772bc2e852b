package io.triage.collect;

import io.triage.capture.Capture;
import io.triage.capture.ProbeOutput;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what the probe bundle printed back into a {@link Capture}: each probe's stdout, stderr, exit
 * code and duration, plus what the script discovered or assumed. Lines without the run's nonce (a
 * login banner, a shell's noise) are ignored; a run cut short leaves the probes it did not reach absent.
 */
public final class BundleOutput {
    private BundleOutput() {
    }

    public static Capture parse(String source, ProbeBundle bundle, String stdout, Map<String, String> intent,
                                List<String> extraNotes) {
        String tag = "@@" + bundle.nonce() + " ";
        Pattern probeLine = Pattern.compile("^probe ([a-z_]+) rc=(-?\\d+) ms=(-?\\d+)$");
        Map<String, ProbeOutput> probes = new LinkedHashMap<>();
        Map<String, String> target = new LinkedHashMap<>(bundle.target());
        List<String> notes = new ArrayList<>(extraNotes);
        Map<String, ProbeBundle.Probe> known = new LinkedHashMap<>();
        for (ProbeBundle.Probe p : bundle.probes()) {
            known.put(p.name(), p);
        }
        String[] lines = stdout.split("\n", -1);
        boolean ended = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (!line.startsWith(tag)) {
                continue;
            }
            String body = line.substring(tag.length()).strip();
            Matcher m = probeLine.matcher(body);
            if (m.matches()) {
                String name = m.group(1);
                String out = i + 1 < lines.length ? decode(lines[i + 1], name, notes) : null;
                String err = i + 2 < lines.length ? decode(lines[i + 2], name, notes) : null;
                i += 2;
                ProbeBundle.Probe p = known.get(name);
                int rc = Integer.parseInt(m.group(2));
                double secs = Integer.parseInt(m.group(3)) / 1000.0;
                String cmd = p == null ? null : p.display(io.triage.parse.Text.parseInt(target.getOrDefault("port", "-1"), -1),
                        target.getOrDefault("log", ""));
                probes.put(name, new ProbeOutput(name, cmd, out, err, rc, secs, false));
            } else if (body.startsWith("discovered ") || body.startsWith("assumed ")) {
                discovery(body, target, notes);
            } else if (body.equals("end")) {
                ended = true;
            }
        }
        if (!ended) {
            notes.add("the probe run was cut short: probes it did not reach are absent (unknown)");
        }
        if (!target.containsKey("log")) {
            notes.add("no log path given or found: the log was not read (give --log)");
        }
        return new Capture(source, probes, target, intent, notes);
    }

    private static final Pattern PORT_LINE =
            Pattern.compile("^(discovered|assumed) port=(\\d{1,5})(?: pid=(\\d+))?( from its command line)?$");
    private static final Pattern LOG_LINE = Pattern.compile("^discovered log=(/.*?)(?: pid=(\\d+))?$");
    private static final Pattern SERVER_LINE = Pattern.compile("^discovered server=(sglang|vllm|tgi)$");

    /**
     * A discovery line, read by its exact shape: values come from the host (a log path may contain
     * anything a file name can), so nothing in them may add or change other target fields.
     */
    private static void discovery(String body, Map<String, String> target, List<String> notes) {
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
        } else if ((m = LOG_LINE.matcher(body)).matches()) {
            target.put("log", m.group(1));
            notes.add("discovered on the host: log=" + m.group(1) + (m.group(2) == null ? "" : " (from PID " + m.group(2) + ")"));
        } else if ((m = SERVER_LINE.matcher(body)).matches()) {
            target.putIfAbsent("server", m.group(1));
            notes.add("discovered on the host: server=" + m.group(1));
        } else {
            notes.add("a discovery line from the host was not understood and ignored");
        }
    }

    private static String decode(String b64, String probe, List<String> notes) {
        if (b64.isEmpty()) {
            return "";
        }
        try {
            return new String(Base64.getDecoder().decode(b64.strip()), StandardCharsets.UTF_8).replace("\r\n", "\n");
        } catch (IllegalArgumentException e) {
            notes.add(probe + ": output frame not readable (" + e.getMessage() + ")");
            return null;
        }
    }
}
