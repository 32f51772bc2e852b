package io.triage.parse;

import io.triage.capture.ProbeOutput;
import io.triage.facts.ProcStatus;

import java.util.List;

/**
 * {@code /proc/PID/status} lines, as a probe or a paste ({@code grep -E '^(State|SigPnd|ShdPnd)' /proc/N/status}):
 * the state and the pending signals. The PID is the {@code Pid:} line's, else the one the
 * command names.
 */
final class ProcStatusParser {
    private static final com.google.re2j.Pattern PROC_PID = com.google.re2j.Pattern.compile("/proc/(\\d{1,9})/status");
    private static final com.google.re2j.Pattern FIELD = com.google.re2j.Pattern.compile("^\\s*([A-Za-z_]{2,32}):\\s*(.{0,200}?)\\s*$");
    /** SIGKILL is signal 9: bit 8 of a pending mask. */
    private static final long SIGKILL_BIT = 1L << 8;

    private ProcStatusParser() {
    }

    /** The probe's status, or null when it holds no line of a process status. */
    static ProcStatus parse(ProbeOutput p, Sink sink) {
        int pid = -1;
        if (p.cmd() != null) {
            com.google.re2j.Matcher c = PROC_PID.matcher(p.cmd());
            if (c.find()) {
                pid = Text.parseInt(c.group(1), -1);
            }
        }
        String state = "";
        boolean kill = false;
        int line = 0;
        String excerpt = "";
        boolean any = false;
        List<String> lines = sink.lines(p, 2);
        for (int i = 0; i < lines.size(); i++) {
            com.google.re2j.Matcher m = FIELD.matcher(lines.get(i));
            if (!m.matches()) {
                continue;
            }
            String key = m.group(1);
            String value = m.group(2);
            switch (key) {
                case "Pid" -> {
                    pid = Text.parseInt(value, pid);
                    any = true;
                }
                case "State" -> {
                    state = value.isEmpty() ? "" : value.substring(0, 1);
                    any = true;
                    if (line == 0) {
                        line = i + 1;
                        excerpt = Text.excerpt(lines.get(i).strip());
                    }
                }
                case "SigPnd", "ShdPnd" -> {
                    any = true;
                    long mask = hex(value);
                    if (mask > 0 && (mask & SIGKILL_BIT) != 0) {
                        kill = true;
                        line = i + 1;
                        excerpt = Text.excerpt(lines.get(i).strip());
                    }
                }
                default -> { }
            }
        }
        if (!any) {
            sink.unparseable(p.name(), "no line of a /proc/PID/status", 1, Text.excerpt(lines.isEmpty() ? "" : lines.get(0).strip()));
            return null;
        }
        return new ProcStatus(pid, state, kill, p.name(), line, excerpt);
    }

    /**
     * What a second look compares in a status: {pid, context switches, state}. The switches are the sum of
     * {@code voluntary_ctxt_switches} and {@code nonvoluntary_ctxt_switches}, -1 when either is missing; they count
     * the main thread's only. The pid is -1 when no {@code Pid:} line says it, the state 0 when no {@code State:}.
     */
    static long[] switches(List<String> lines) {
        long pid = -1;
        long voluntary = -1;
        long forced = -1;
        long state = 0;
        for (String l : lines) {
            com.google.re2j.Matcher m = FIELD.matcher(l);
            if (!m.matches()) {
                continue;
            }
            String value = m.group(2);
            switch (m.group(1)) {
                case "Pid" -> pid = Text.parseLong(value, -1);
                case "State" -> state = value.isEmpty() ? 0 : value.charAt(0);
                case "voluntary_ctxt_switches" -> voluntary = Text.parseLong(value, -1);
                case "nonvoluntary_ctxt_switches" -> forced = Text.parseLong(value, -1);
                default -> { }
            }
        }
        return new long[] {pid, voluntary >= 0 && forced >= 0 ? voluntary + forced : -1, state};
    }

    /** A pending-signal mask (16 hex digits), or -1. */
    private static long hex(String s) {
        if (s.isEmpty() || s.length() > 16) {
            return -1;
        }
        try {
            return Long.parseUnsignedLong(s, 16);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
