package io.triage.lab;

import io.triage.probe.ProbeFrames;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a lab host answers, computed from its recording alone. Nothing here runs a process or touches
 * the file system.
 */
final class LabReplies {

    private LabReplies() {
    }

    /** An answer to an ordinary command: its stdout, stderr and exit status. */
    record Answer(byte[] out, byte[] err, int status) {
    }

    /**
     * Writes what the probe bundle would print on the recorded host: what it discovered, then one frame
     * per requested probe that the recording has (absent stays absent), then the end frame.
     */
    static void bundle(LabHost host, BundleScript script, OutputStream out) throws IOException {
        bundle(host, script, out, Duration.ZERO);
    }

    /**
     * As {@link #bundle(LabHost, BundleScript, OutputStream)}, each probe's frame written (and flushed) after
     * the probe's recorded duration, capped at {@code pacing}, as a real host answers one probe after another.
     *
     * @throws InterruptedIOException when the answer is cancelled while waiting
     */
    static void bundle(LabHost host, BundleScript script, OutputStream out, Duration pacing) throws IOException {
        long capMs = pacing == null ? 0 : pacing.toMillis();
        Recording rec = host.recording();
        Map<String, String> target = rec.capture().target();
        ProbeFrames frames = new ProbeFrames(script.nonce());
        List<String> discovered = new ArrayList<>();
        String assumed = null;
        if (script.port().isEmpty()) {
            String p = target.getOrDefault("port", "");
            if (p.matches("[0-9]{1,5}")) {
                discovered.add("port=" + p);
            } else {
                String kind = script.server().isEmpty() ? target.getOrDefault("server", "") : script.server();
                // as the script would: the port its own case arms (the knowledge base's serves:) give the kind
                String port = script.assumedPort(kind);
                assumed = port.isEmpty() ? null : "port=" + port;
            }
        }
        if (script.log().isEmpty()) {
            String l = target.getOrDefault("log", "");
            if (l.startsWith("/") && l.indexOf('\n') < 0) {
                discovered.add("log=" + l);
            }
        }
        if (script.server().isEmpty()) {
            String s = target.getOrDefault("server", "");
            if (s.matches("[A-Za-z0-9_.-]{1,32}")) {
                discovered.add("server=" + s);
            }
        }
        for (String d : discovered) {
            frames.tagged(out, "discovered " + d);
        }
        if (assumed != null) {
            frames.tagged(out, "assumed " + assumed);
        }
        for (String name : script.probes()) {
            Recording.Probe p = rec.probes().get(name);
            if (p == null) {
                continue;
            }
            pause(Math.min(p.ms(), capMs));
            frames.frameEncoded(out, new ProbeFrames.Header(name, p.rc(), p.ms(), p.outBytes(), p.errBytes()),
                    p.outB64(), p.errB64());
            out.flush();
        }
        if (script.ends()) {
            frames.tagged(out, "end");
        }
        out.flush();
    }

    /** The bundle's answer as text (for tests and tools). */
    static String bundle(LabHost host, BundleScript script) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try {
            bundle(host, script, b);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return b.toString(StandardCharsets.UTF_8);
    }

    /**
     * An ordinary command: the recorded probe whose command it is (exactly, by probe name, or by the same
     * program), or a refusal with status 127. Never runs anything.
     */
    static Answer ordinary(LabHost host, String command) {
        Recording.Probe p = match(host.recording(), command);
        if (p == null) {
            String msg = "lab host " + host.name() + ": only the recorded probes can run here ("
                    + describe(host.recording()) + ")\n";
            return new Answer(new byte[0], msg.getBytes(StandardCharsets.UTF_8), 127);
        }
        return new Answer(p.out(), p.err(), p.rc());
    }

    static Recording.Probe match(Recording rec, String command) {
        String c = command == null ? "" : command.strip();
        if (c.isEmpty()) {
            return null;
        }
        for (Recording.Probe p : rec.probes().values()) {
            if (p.cmd() != null && p.cmd().strip().equals(c)) {
                return p;
            }
        }
        Recording.Probe byName = rec.probes().get(c);
        if (byName != null) {
            return byName;
        }
        String program = program(c);
        if (program.isEmpty()) {
            return null;
        }
        Recording.Probe best = null;
        int bestPrefix = -1;
        for (Recording.Probe p : rec.probes().values()) {
            if (p.cmd() == null || !program(p.cmd()).equals(program)) {
                continue;
            }
            String cmd = p.cmd().strip();
            int prefix = commonPrefix(cmd, c);
            if (prefix > bestPrefix || (prefix == bestPrefix && cmd.length() < best.cmd().strip().length())) {
                best = p;
                bestPrefix = prefix;
            }
        }
        return best;
    }

    /** The program a command line starts with, without its directory ({@code /usr/bin/nvidia-smi} → {@code nvidia-smi}). */
    static String program(String command) {
        String s = command.strip();
        int end = 0;
        while (end < s.length() && !Character.isWhitespace(s.charAt(end)) && ";|&<>()".indexOf(s.charAt(end)) < 0) {
            end++;
        }
        String first = s.substring(0, end);
        return first.substring(first.lastIndexOf('/') + 1);
    }

    private static int commonPrefix(String a, String b) {
        int n = Math.min(a.length(), b.length());
        int i = 0;
        while (i < n && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        return i;
    }

    /** The recorded probes for a refusal message: name and program ({@code gpus: nvidia-smi}). */
    static String describe(Recording rec) {
        List<String> parts = new ArrayList<>();
        for (Recording.Probe p : rec.probes().values()) {
            String prog = p.cmd() == null ? "" : program(p.cmd());
            parts.add(prog.isEmpty() ? p.name() : p.name() + ": " + prog);
        }
        return parts.isEmpty() ? "none" : String.join(", ", parts);
    }

    private static void pause(long ms) throws InterruptedIOException {
        if (ms <= 0) {
            return;
        }
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("the answer was cancelled");
        }
    }

}
