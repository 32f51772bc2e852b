package io.triage.parse;

import io.triage.capture.ProbeOutput;
import io.triage.facts.SupervisorEvent;
import io.triage.facts.SupervisorRecord;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Slurm's accounting of a job: {@code sacct} (its default fixed-width table, where {@code CANCELLED by 1000} is
 * cut to {@code CANCELLED+}, or {@code -P}/{@code --parsable2} with {@code |}) and {@code scontrol show job}
 * ({@code JobState=TIMEOUT Reason=TimeLimit}). The job's own row decides the events (its steps are often
 * {@code CANCELLED} when the job itself ran out of time); {@code slurmstepd}'s lines are read wherever they
 * appear by {@link SupervisorText}.
 */
public final class SlurmParser {
    private SlurmParser() {
    }

    public static void sacct(ProbeOutput p, Sink sink) {
        List<String> lines = sink.lines(p, 2);
        String[] header = null;
        int[] starts = null;
        boolean pipes = false;
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String s = line.strip();
            if (s.isEmpty()) {
                continue;
            }
            if (header == null) {
                if (s.startsWith("JobID") || s.startsWith("JobId")) {
                    pipes = s.indexOf('|') >= 0;
                    header = pipes ? s.split("\\|", -1) : s.split("\\s+");
                    if (!pipes) {
                        starts = columnStarts(line, header);
                    }
                }
                continue;
            }
            if (s.startsWith("---")) {
                if (!pipes) {
                    starts = dashStarts(line);
                }
                continue;
            }
            String[] v = pipes ? line.split("\\|", -1) : cut(line, starts);
            rows.add(new Row(header, v, i + 1, line));
        }
        if (header == null) {
            if (!lines.isEmpty()) {
                sink.unparseable(p.name(), "no sacct header (JobID …)", 1, Text.excerpt(lines.get(0)));
            }
            return;
        }
        boolean anyJob = rows.stream().anyMatch(r -> !r.get("JobID").contains(".") && !r.get("JobID").isEmpty());
        for (Row r : rows) {
            String id = r.get("JobID");
            String state = r.get("State");
            String exit = r.get("ExitCode");
            int code = Text.parseInt(SupervisorText.upTo(exit, ':'), -1);
            int sig = exit.indexOf(':') > 0 ? Text.parseInt(exit.substring(exit.indexOf(':') + 1), -1) : -1;
            String signal = sig > 0 ? SupervisorText.signalName(String.valueOf(sig)) : "";
            boolean oom = state.startsWith("OUT_OF_ME");
            String name = r.get("JobName");
            sink.add(new SupervisorRecord("slurm", SupervisorText.clean(id + (name.isEmpty() ? "" : " (" + name + ")")),
                    SupervisorText.clean(state), SupervisorText.clean(state), code, signal, oom, -1,
                    SupervisorText.clean(r.get("Start")), SupervisorText.clean(r.get("End")), "", true, p.name(), r.line,
                    Text.excerpt(r.text)));
            if (!anyJob || !id.contains(".")) {
                SupervisorText.Event e = stateEvent(state);
                if (e != null) {
                    sink.add(new SupervisorEvent("slurm", e.id(), SupervisorText.clean(id), SupervisorText.clean(state), -1,
                            p.name(), r.line, Text.excerpt(r.text)));
                }
            }
        }
    }

    /** {@code scontrol show job N}: {@code key=value} words over several lines. */
    public static void scontrol(ProbeOutput p, Sink sink) {
        List<String> lines = sink.lines(p, 1);
        String id = "";
        String name = "";
        String state = "";
        String reason = "";
        String exit = "";
        String start = "";
        String end = "";
        int stateLine = 0;
        String stateText = "";
        for (int i = 0; i < lines.size(); i++) {
            for (String w : lines.get(i).strip().split("\\s+", 64)) {
                int eq = w.indexOf('=');
                if (eq <= 0) {
                    continue;
                }
                String k = w.substring(0, eq);
                String v = w.substring(eq + 1);
                switch (k) {
                    case "JobId" -> {
                        if (!id.isEmpty()) {
                            emitJob(id, name, state, reason, exit, start, end, p.name(), stateLine, stateText, sink);
                            name = state = reason = exit = start = end = "";
                        }
                        id = v;
                    }
                    case "JobName" -> name = v;
                    case "JobState" -> {
                        state = v;
                        stateLine = i + 1;
                        stateText = lines.get(i);
                    }
                    case "Reason" -> reason = v;
                    case "ExitCode" -> exit = v;
                    case "StartTime" -> start = v;
                    case "EndTime" -> end = v;
                    default -> { }
                }
            }
        }
        if (!id.isEmpty()) {
            emitJob(id, name, state, reason, exit, start, end, p.name(), stateLine, stateText, sink);
        } else if (!lines.isEmpty() && !lines.get(0).isBlank()) {
            sink.unparseable(p.name(), "no JobId= in this scontrol output", 1, Text.excerpt(lines.get(0)));
        }
    }

    private static void emitJob(String id, String name, String state, String reason, String exit, String start, String end,
                                String probe, int line, String text, Sink sink) {
        int code = Text.parseInt(SupervisorText.upTo(exit, ':'), -1);
        int sig = exit.indexOf(':') > 0 ? Text.parseInt(exit.substring(exit.indexOf(':') + 1), -1) : -1;
        sink.add(new SupervisorRecord("slurm", SupervisorText.clean(id + (name.isEmpty() ? "" : " (" + name + ")")),
                SupervisorText.clean(state), SupervisorText.clean(reason), code,
                sig > 0 ? SupervisorText.signalName(String.valueOf(sig)) : "", state.equals("OUT_OF_MEMORY"), -1,
                SupervisorText.clean(start), SupervisorText.clean(end), "", true, probe, line, Text.excerpt(text)));
        SupervisorText.Event e = stateEvent(state);
        if (e == null && reason.equals("TimeLimit")) {
            e = SupervisorText.Event.TIME_LIMIT;
        }
        if (e == null && state.equals("PENDING") && !reason.isEmpty() && !reason.equals("None")) {
            e = SupervisorText.Event.PENDING;
        }
        if (e != null) {
            sink.add(new SupervisorEvent("slurm", e.id(), SupervisorText.clean(id), SupervisorText.clean(state
                    + (reason.isEmpty() || reason.equals("None") ? "" : " Reason=" + reason)), -1, probe, line, Text.excerpt(text)));
        }
    }

    /** A job state that says how the job ended, as an event; null for the others (COMPLETED, FAILED, RUNNING…). */
    static SupervisorText.Event stateEvent(String state) {
        String s = state.toUpperCase(Locale.ROOT);
        if (s.startsWith("TIMEOUT")) {
            return SupervisorText.Event.TIME_LIMIT;
        }
        if (s.startsWith("OUT_OF_ME")) {
            return SupervisorText.Event.OOM_KILL;
        }
        if (s.startsWith("NODE_FAIL")) {
            return SupervisorText.Event.NODE_FAIL;
        }
        if (s.startsWith("PREEMPTED")) {
            return SupervisorText.Event.PREEMPTED;
        }
        if (s.startsWith("CANCELLED")) {
            return SupervisorText.Event.CANCELLED;
        }
        return null;
    }

    private record Row(String[] header, String[] values, int line, String text) {
        String get(String col) {
            for (int i = 0; i < header.length && i < values.length; i++) {
                if (header[i].strip().equalsIgnoreCase(col)) {
                    return values[i].strip();
                }
            }
            return "";
        }
    }

    private static int[] columnStarts(String line, String[] header) {
        int[] st = new int[header.length];
        int from = 0;
        for (int i = 0; i < header.length; i++) {
            int at = line.indexOf(header[i], from);
            st[i] = at < 0 ? from : at;
            from = st[i] + header[i].length();
        }
        return st;
    }

    /** The columns' starts from the dashes under the header ({@code ------------ ---------- …}). */
    private static int[] dashStarts(String line) {
        List<Integer> st = new ArrayList<>();
        for (int i = 0; i < line.length(); i++) {
            if (line.charAt(i) == '-' && (i == 0 || line.charAt(i - 1) == ' ')) {
                st.add(i);
            }
        }
        int[] out = new int[st.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = st.get(i);
        }
        return out;
    }

    /** Cuts a fixed-width row at the columns' starts; a row shorter than a column gives it "". */
    private static String[] cut(String line, int[] starts) {
        if (starts == null || starts.length == 0) {
            return line.strip().split("\\s+");
        }
        String[] v = new String[starts.length];
        for (int i = 0; i < starts.length; i++) {
            int a = Math.min(starts[i], line.length());
            int b = i + 1 < starts.length ? Math.min(starts[i + 1], line.length()) : line.length();
            v[i] = a < b ? line.substring(a, b) : "";
        }
        return v;
    }
}
