package io.triage.parse;

import io.triage.capture.ProbeOutput;
import io.triage.facts.SupervisorEvent;
import io.triage.facts.SupervisorRecord;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code systemctl status UNIT|PID} and {@code journalctl -u UNIT}: a record per unit (its {@code Active:} state
 * and result, the main process's exit code or signal, the restart counter and the journal lines the status
 * shows) and an event per journal line that says how it ended (see {@link SupervisorText}). A status cut by
 * the terminal ({@code Hint: Some lines were ellipsized}) is read as far as it goes.
 */
public final class SystemdParser {
    private static final int LAST_LINES = 5;

    private SystemdParser() {
    }

    /** A unit's header line: {@code ● vllm.service - vLLM}, {@code × …} (failed), {@code ○ …} (inactive). */
    static String header(String line) {
        String s = line.stripLeading();
        if (s.isEmpty()) {
            return null;
        }
        char c = s.charAt(0);
        if ((c == '\u25CF' || c == '\u00D7' || c == '\u25CB' || c == '*' || c == '\u21BB') && s.length() > 2
                && s.charAt(1) == ' ') {
            String rest = s.substring(2).strip();
            String unit = SupervisorText.upTo(rest, ' ');
            int dot = unit.lastIndexOf('.');
            if (dot > 0 && List.of("service", "scope", "slice", "socket", "mount", "timer", "target")
                    .contains(unit.substring(dot + 1))) {
                return unit;
            }
        }
        return null;
    }

    public static void status(ProbeOutput p, Sink sink) {
        List<String> lines = sink.lines(p, 2);
        Unit u = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String unit = header(line);
            if (unit != null) {
                if (u != null) {
                    sink.add(u.record(p.name()));
                }
                u = new Unit(unit, i + 1, line);
                continue;
            }
            SupervisorEvent e = SupervisorText.event(line, "systemd", p.name(), i + 1);
            if (e != null) {
                sink.add(e);
            }
            if (u == null) {
                continue;
            }
            String s = line.strip();
            if (s.startsWith("Active:")) {
                u.active(s.substring(7).strip());
                u.excerpt = line;
                u.line = i + 1;
            } else if (s.startsWith("Main PID:")) {
                u.mainPid(s.substring(9).strip());
            } else if (s.startsWith("Process:") && u.exitCode < 0 && u.signal.isEmpty() && s.contains("ExecStart=")) {
                u.mainPid(s.substring(s.lastIndexOf('(') < 0 ? s.length() : s.lastIndexOf('(')));
            } else if (journalLine(s)) {
                u.journal.add(s);
                if (s.contains("killed by the OOM killer") || s.contains("Failed with result 'oom-kill'")) {
                    u.oom = true;
                }
                if (e != null && e.event().equals(SupervisorText.Event.RESTART.id())) {
                    u.restarts = Math.max(u.restarts, e.count());
                }
            }
        }
        if (u != null) {
            sink.add(u.record(p.name()));
        } else if (!lines.isEmpty() && sink.facts().stream().noneMatch(f -> f instanceof SupervisorEvent ev
                && ev.probe().equals(p.name()))) {
            sink.unparseable(p.name(), "no unit header (● NAME.service - …) in this systemctl status", 1,
                    Text.excerpt(lines.get(0)));
        }
    }

    /** {@code journalctl -u UNIT}: one event per line that says how the unit ended, stopped or restarted. */
    public static void journal(ProbeOutput p, Sink sink) {
        events(p, "systemd", sink);
    }

    /** Every supervisor event stated in a text (journals, logs, event lists, what a launch printed). */
    public static void events(ProbeOutput p, String kind, Sink sink) {
        List<String> lines = sink.lines(p, 1);
        for (int i = 0; i < lines.size(); i++) {
            SupervisorEvent e = SupervisorText.event(lines.get(i), kind, p.name(), i + 1);
            if (e != null) {
                sink.add(e);
            }
        }
    }

    /** A journal line as the status prints it: {@code Nov 30 10:02:11 host systemd[1]: …} or an ISO stamp. */
    private static boolean journalLine(String s) {
        return s.length() > 16 && (s.indexOf("]: ") > 0 || s.indexOf(": ") > 15)
                && (Character.isDigit(s.charAt(0)) || Character.isUpperCase(s.charAt(0)) && s.charAt(3) == ' ');
    }

    private static final class Unit {
        final String name;
        String state = "";
        String reason = "";
        String since = "";
        int exitCode = -1;
        String signal = "";
        boolean oom;
        int restarts = -1;
        final List<String> journal = new ArrayList<>();
        int line;
        String excerpt;

        Unit(String name, int line, String excerpt) {
            this.name = name;
            this.line = line;
            this.excerpt = excerpt;
        }

        /** {@code failed (Result: oom-kill) since Tue 2026-11-30 10:02:11 UTC; 5min ago}. */
        void active(String a) {
            state = SupervisorText.upTo(a, ' ');
            int r = a.indexOf("(Result: ");
            if (r >= 0) {
                reason = SupervisorText.upTo(a.substring(r + 9), ')');
                oom |= reason.equals("oom-kill");
            }
            int s = a.indexOf(" since ");
            if (s >= 0) {
                since = SupervisorText.upTo(a.substring(s + 7), ';').strip();
            }
        }

        /** {@code 1234 (code=killed, signal=KILL)}, {@code 1234 (code=exited, status=1/FAILURE)}. */
        void mainPid(String m) {
            int sig = m.indexOf("signal=");
            if (sig >= 0) {
                signal = SupervisorText.signalName(SupervisorText.upTo(m.substring(sig + 7), ')'));
            }
            int st = m.indexOf("status=");
            if (st >= 0) {
                String v = SupervisorText.upTo(SupervisorText.upTo(m.substring(st + 7), ')'), '/');
                exitCode = Text.parseInt(v, -1);
            }
        }

        SupervisorRecord record(String probe) {
            boolean ended = state.equals("failed") || state.equals("inactive") || state.equals("activating");
            List<String> last = journal.subList(Math.max(0, journal.size() - LAST_LINES), journal.size());
            return new SupervisorRecord("systemd", SupervisorText.clean(name), state, reason, exitCode, signal, oom,
                    restarts, ended ? "" : since, ended ? since : "", String.join("\n", last), true, probe, line,
                    Text.excerpt(excerpt));
        }
    }
}
