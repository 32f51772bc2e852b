package io.triage.parse;

import io.triage.capture.ProbeOutput;
import io.triage.facts.SupervisorEvent;
import io.triage.facts.SupervisorRecord;

import java.util.List;

/**
 * {@code kubectl get pods} and {@code kubectl describe pod}: a record per pod and per container (init containers
 * too) with its state, the reason and exit code of its last termination ({@code OOMKilled}, {@code Error},
 * {@code Completed}), its restart count; and an event per line of the event list that says what the kubelet or
 * the scheduler did (liveness kill, eviction, {@code FailedScheduling … Insufficient nvidia.com/gpu}, back-off).
 * The describe output is read by its indentation, as kubectl prints it.
 */
public final class KubernetesParser {
    private KubernetesParser() {
    }

    /**
     * {@code kubectl get pods}: {@code NAME READY STATUS RESTARTS AGE [IP NODE …]}; RESTARTS may read
     * {@code 5 (2m ago)}. {@code kubectl get events} rows are read for what they say.
     */
    public static void get(ProbeOutput p, Sink sink) {
        List<String> lines = sink.lines(p, 2);
        int status = -1;
        int restarts = -1;
        boolean namespaced = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            // kubectl get events: each row's message is the kubelet's or the scheduler's sentence
            SupervisorEvent said = SupervisorText.event(line, "kubernetes", p.name(), i + 1);
            if (said != null) {
                sink.add(said);
            }
            String[] t = line.strip().split("\\s+", 16);
            if (t.length >= 3 && t[0].equals("NAME") || t.length >= 3 && t[0].equals("NAMESPACE") && t[1].equals("NAME")) {
                namespaced = t[0].equals("NAMESPACE");
                status = indexOf(t, "STATUS");
                restarts = indexOf(t, "RESTARTS");
                continue;
            }
            if (status < 0 || t.length <= status || line.isBlank()) {
                continue;
            }
            String name = t[namespaced ? 1 : 0];
            if (name.startsWith("pod/")) {
                name = name.substring(4);
            }
            String st = t[status];
            int r = restarts >= 0 && restarts < t.length ? Text.parseInt(t[restarts], -1) : -1;
            boolean oom = st.equals("OOMKilled");
            sink.add(new SupervisorRecord("kubernetes", SupervisorText.clean(name), SupervisorText.clean(st),
                    SupervisorText.clean(st), -1, "", oom, r, "", "", "", true, p.name(), i + 1, Text.excerpt(line)));
            String event = switch (st) {
                case "CrashLoopBackOff" -> SupervisorText.Event.BACK_OFF.id();
                case "OOMKilled" -> SupervisorText.Event.OOM_KILL.id();
                case "Evicted" -> SupervisorText.Event.EVICTED.id();
                default -> null;
            };
            if (event != null) {
                sink.add(new SupervisorEvent("kubernetes", event, SupervisorText.clean(name), st, -1, p.name(), i + 1,
                        Text.excerpt(line)));
            }
            if (r >= 2) {
                sink.add(new SupervisorEvent("kubernetes", SupervisorText.Event.RESTART.id(), SupervisorText.clean(name),
                        "restart count " + r, r, p.name(), i + 1, Text.excerpt(line)));
            }
        }
    }

    /** {@code kubectl describe pod}: the pod, each container and init container, and the events. */
    public static void describe(ProbeOutput p, Sink sink) {
        List<String> lines = sink.lines(p, 2);
        String pod = "";
        String podStatus = "";
        String podReason = "";
        int podLine = 0;
        String section = "";
        Box c = null;
        String sub = ""; // "State" or "Last State" while their nested fields are read
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int ind = indent(line);
            String s = line.strip();
            if (s.isEmpty()) {
                continue;
            }
            if (ind == 0) {
                if (c != null) {
                    c.emit(pod, p.name(), sink);
                    c = null;
                }
                section = key(s);
                String v = value(s);
                switch (section) {
                    case "Name" -> {
                        if (!pod.isEmpty()) {
                            pod(pod, podStatus, podReason, podLine, p.name(), lines, sink);
                            podStatus = "";
                            podReason = "";
                        }
                        pod = v;
                        podLine = i + 1;
                    }
                    case "Status" -> podStatus = v;
                    case "Reason" -> podReason = v;
                    default -> { }
                }
                SupervisorEvent e = SupervisorText.event(line, "kubernetes", p.name(), i + 1);
                if (e != null && !section.equals("Events")) {
                    sink.add(named(e, pod));
                }
                continue;
            }
            if (section.equals("Events")) {
                SupervisorEvent e = SupervisorText.event(line, "kubernetes", p.name(), i + 1);
                if (e != null) {
                    sink.add(named(e, pod));
                }
                continue;
            }
            if (!section.equals("Containers") && !section.equals("Init Containers")) {
                continue;
            }
            if (ind == 2 && s.endsWith(":") && s.indexOf(' ') < 0) {
                if (c != null) {
                    c.emit(pod, p.name(), sink);
                }
                c = new Box(s.substring(0, s.length() - 1), section.equals("Init Containers"), i + 1, line);
                sub = "";
                continue;
            }
            if (c == null) {
                continue;
            }
            String k = key(s);
            String v = value(s);
            if (ind == 4) {
                switch (k) {
                    case "State" -> {
                        sub = "State";
                        c.state = v;
                        c.stateLine = i + 1;
                        c.excerpt = line;
                    }
                    case "Last State" -> {
                        sub = "Last State";
                        c.lastState = v;
                        if (v.equals("Terminated")) {
                            c.excerpt = line;
                            c.stateLine = i + 1;
                        }
                    }
                    case "Restart Count" -> {
                        c.restarts = Text.parseInt(v, -1);
                        sub = "";
                    }
                    default -> sub = "";
                }
            } else if (ind >= 6 && !sub.isEmpty()) {
                boolean last = sub.equals("Last State");
                switch (k) {
                    case "Reason" -> {
                        if (last) {
                            c.lastReason = v;
                        } else {
                            c.reason = v;
                        }
                    }
                    case "Exit Code" -> {
                        if (last) {
                            c.lastExit = Text.parseInt(v, -1);
                        } else {
                            c.exit = Text.parseInt(v, -1);
                        }
                    }
                    case "Signal" -> c.signal = SupervisorText.signalName(v);
                    case "Started" -> {
                        if (last) {
                            c.lastStarted = v;
                        } else {
                            c.started = v;
                        }
                    }
                    case "Finished" -> {
                        if (last) {
                            c.lastFinished = v;
                        } else {
                            c.finished = v;
                        }
                    }
                    case "Message" -> {
                        if (c.message.isEmpty()) {
                            c.message = v;
                        }
                    }
                    default -> { }
                }
            }
        }
        if (c != null) {
            c.emit(pod, p.name(), sink);
        }
        if (!pod.isEmpty()) {
            pod(pod, podStatus, podReason, podLine, p.name(), lines, sink);
        } else if (!lines.isEmpty()) {
            sink.unparseable(p.name(), "no 'Name:' line: not a kubectl describe pod", 1, Text.excerpt(lines.get(0)));
        }
    }

    private static void pod(String pod, String status, String reason, int line, String probe, List<String> lines, Sink sink) {
        String excerpt = "pod " + pod + ": Status " + status + (reason.isEmpty() ? "" : ", Reason " + reason);
        sink.add(new SupervisorRecord("kubernetes", SupervisorText.clean(pod), SupervisorText.clean(status),
                SupervisorText.clean(reason), -1, "", false, -1, "", "", "", true, probe, line, Text.excerpt(excerpt)));
        if (reason.equals("Evicted")) {
            sink.add(new SupervisorEvent("kubernetes", SupervisorText.Event.EVICTED.id(), SupervisorText.clean(pod),
                    "Reason: Evicted", -1, probe, line, Text.excerpt(excerpt)));
        }
    }

    private static SupervisorEvent named(SupervisorEvent e, String pod) {
        String name = e.name().isEmpty() ? SupervisorText.clean(pod) : e.name();
        return new SupervisorEvent(e.kind(), e.event(), name, e.detail(), e.count(), e.probe(), e.line(), e.excerpt());
    }

    /** One container of the pod, as its block in the describe output says. */
    private static final class Box {
        final String name;
        final boolean init;
        final int line;
        String excerpt;
        int stateLine;
        String state = "";
        String reason = "";
        int exit = -1;
        String lastState = "";
        String lastReason = "";
        int lastExit = -1;
        String signal = "";
        int restarts = -1;
        String started = "";
        String finished = "";
        String lastStarted = "";
        String lastFinished = "";
        String message = "";

        Box(String name, boolean init, int line, String excerpt) {
            this.name = name;
            this.init = init;
            this.line = line;
            this.excerpt = excerpt;
            this.stateLine = line;
        }

        void emit(String pod, String probe, Sink sink) {
            boolean terminated = state.equals("Terminated");
            // the termination that tells how the last run ended: the current one, else the last one
            String endReason = terminated ? reason : lastState.equals("Terminated") ? lastReason : reason;
            int code = terminated ? exit : lastState.equals("Terminated") ? lastExit : -1;
            String sig = !signal.isEmpty() ? signal : code > 128 && code < 160
                    ? SupervisorText.signalName(String.valueOf(code - 128)) : "";
            String full = SupervisorText.clean((pod.isEmpty() ? "" : pod + "/") + name + (init ? " (init)" : ""));
            String ex = full + ": State " + state + (reason.isEmpty() ? "" : " (" + reason + ")")
                    + (lastState.isEmpty() ? "" : ", Last State " + lastState
                    + (lastReason.isEmpty() ? "" : " (" + lastReason + ")"))
                    + (code >= 0 ? ", Exit Code " + code : "") + (restarts >= 0 ? ", Restart Count " + restarts : "");
            boolean oom = endReason.equals("OOMKilled");
            boolean fromLast = !terminated && lastState.equals("Terminated");
            sink.add(new SupervisorRecord("kubernetes", full, SupervisorText.clean(state), SupervisorText.clean(endReason),
                    code, sig, oom, restarts, SupervisorText.clean(fromLast ? lastStarted : started),
                    SupervisorText.clean(fromLast ? lastFinished : finished),
                    SupervisorText.clean(message), !init, probe, stateLine, Text.excerpt(ex)));
            if (reason.equals("CrashLoopBackOff")) {
                sink.add(new SupervisorEvent("kubernetes", SupervisorText.Event.BACK_OFF.id(), full, "CrashLoopBackOff",
                        restarts, probe, stateLine, Text.excerpt(ex)));
            }
            if (restarts >= 2) {
                sink.add(new SupervisorEvent("kubernetes", SupervisorText.Event.RESTART.id(), full,
                        "Restart Count " + restarts, restarts, probe, stateLine, Text.excerpt(ex)));
            }
        }
    }

    private static int indent(String line) {
        int k = 0;
        while (k < line.length() && line.charAt(k) == ' ') {
            k++;
        }
        return k;
    }

    /** {@code Exit Code:    137} → {@code Exit Code}. */
    private static String key(String s) {
        int c = s.indexOf(':');
        return c < 0 ? s : s.substring(0, c).strip();
    }

    private static String value(String s) {
        int c = s.indexOf(':');
        return c < 0 ? "" : s.substring(c + 1).strip();
    }

    private static int indexOf(String[] t, String name) {
        for (int i = 0; i < t.length; i++) {
            if (t[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
