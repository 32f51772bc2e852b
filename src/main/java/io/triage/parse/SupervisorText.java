package io.triage.parse;

import io.triage.facts.SupervisorEvent;

import java.util.Locale;

/**
 * The sentences supervisors print when they end, refuse or restart what they run, recognised in one line
 * of any text: a journal, a pod's event list, what {@code docker run} printed, a Slurm job's output. The
 * wording is the programs' own (systemd's {@code src/core/service.c} and {@code unit.c}, the kubelet's
 * prober and eviction manager, the scheduler's {@code FailedScheduling}, the NVIDIA container toolkit's
 * requirement check, {@code slurmstepd}). Plain substring tests on a line already cut to
 * {@link ReadBudget#LINE_CAP}: no pattern can backtrack.
 */
public final class SupervisorText {
    /** What happened, as the rules read it ({@link #id()}). */
    public enum Event {
        /** systemd: {@code Main process exited, code=killed, status=9/KILL}. */
        KILLED_BY_SIGNAL("killed-signal"),
        /** systemd: {@code code=exited, status=1/FAILURE}; a non-zero exit of the main process. */
        EXITED("exited"),
        /** systemd {@code Result: oom-kill}, Docker's {@code OOMKilled}, the kubelet's {@code OOMKilled}, Slurm's {@code OUT_OF_MEMORY}. */
        OOM_KILL("oom-kill"),
        /** systemd: {@code Stopping vllm.service - …} (a stop job: {@code systemctl stop}, a shutdown, a dependency). */
        STOP_REQUESTED("stop-requested"),
        /** systemd: {@code State 'stop-sigterm' timed out. Killing.} — SIGTERM was not enough, SIGKILL followed. */
        STOP_TIMEOUT("stop-timeout"),
        /**
         * systemd: {@code Start operation timed out. Terminating.} ({@code Start-pre}, {@code Start-post … Stopping.}):
         * the start took longer than {@code TimeoutStartSec=} and systemd killed it (service.c).
         */
        START_TIMEOUT("start-timeout"),
        /** kubelet: {@code Liveness probe failed: …}. */
        LIVENESS_FAILED("liveness-failed"),
        /** kubelet: {@code Container X failed liveness probe, will be restarted}. */
        LIVENESS_KILL("liveness-kill"),
        /** kubelet: {@code Evicted}, {@code The node was low on resource: memory.} */
        EVICTED("evicted"),
        /** scheduler: {@code FailedScheduling … Insufficient nvidia.com/gpu}. */
        INSUFFICIENT_GPU("insufficient-gpu"),
        /** Docker: {@code could not select device driver "" with capabilities: [[gpu]]} (no NVIDIA runtime). */
        NO_GPU_RUNTIME("no-gpu-runtime"),
        /** NVIDIA container toolkit: {@code unsatisfied condition: cuda>=12.4} (the host driver is older than the image needs). */
        DRIVER_TOO_OLD("driver-too-old"),
        /** NVIDIA container toolkit: {@code nvml error: driver/library version mismatch} (the host's driver upgraded without a reboot). */
        DRIVER_MISMATCH("driver-mismatch"),
        /** systemd {@code Scheduled restart job, restart counter is at N}; a container's restart count. */
        RESTART("restart"),
        /** kubelet {@code Back-off restarting failed container}, {@code CrashLoopBackOff}. */
        BACK_OFF("back-off"),
        /** systemd: {@code Start request repeated too quickly.} — it gave up restarting. */
        RESTART_LIMIT("restart-limit"),
        /** Slurm: {@code CANCELLED AT … DUE TO TIME LIMIT}, state {@code TIMEOUT}. */
        TIME_LIMIT("time-limit"),
        /** Slurm: {@code CANCELLED by UID}, {@code *** JOB N ON node CANCELLED AT … ***} (scancel). */
        CANCELLED("cancelled"),
        /** Slurm: {@code NODE_FAIL}, {@code DUE TO NODE FAILURE}. */
        NODE_FAIL("node-fail"),
        /** Slurm: {@code PREEMPTED}, {@code DUE TO PREEMPTION}. */
        PREEMPTED("preempted"),
        /** systemd: {@code Deactivated successfully.}, {@code code=exited, status=0/SUCCESS} — it exited cleanly. */
        EXITED_CLEANLY("exited-cleanly"),
        /** kubelet / Docker: the image could not be pulled ({@code ErrImagePull}, {@code pull access denied}). */
        IMAGE_PULL("image-pull"),
        /** Slurm: the job is still pending for resources ({@code squeue} ST {@code PD (Resources)}, {@code JobState=PENDING}). */
        PENDING("pending"),
        /** srun: {@code Terminating StepId=N.0} — srun ends the rest of a step after one of its tasks ended. */
        STEP_TERMINATING("step-terminating"),
        /** srun: {@code node: task N: Exited with exit code M} — one task of a step ended with a failing code. */
        TASK_EXITED("task-exited");

        private final String id;

        Event(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }
    }

    /** How a container runtime says it has no way to give a container GPUs (Docker, the NVIDIA toolkit, CDI). */
    private static final java.util.List<String> NO_RUNTIME = java.util.List.of("unknown or invalid runtime name: nvidia",
            "nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1",
            "no known GPU vendor found");
    /** How the kubelet and Docker say the image could not be pulled. */
    private static final java.util.List<String> IMAGE_PULL = java.util.List.of("Failed to pull image",
            "Back-off pulling image", "pull access denied for", "manifest unknown", "ErrImagePull", "ImagePullBackOff");

    private SupervisorText() {
    }

    /**
     * The supervisor event one line states, or null. {@code kind} is the supervisor the text came from when
     * known ("" otherwise: then it is named from the line).
     */
    public static SupervisorEvent event(String line, String kind, String probe, int lineNo) {
        if (line == null || line.length() < 8) {
            return null;
        }
        String l = line;
        String k = kind;
        // ----- systemd (service.c, unit.c)
        int mpe = l.indexOf("Main process exited, code=");
        if (mpe >= 0) {
            String rest = l.substring(mpe + "Main process exited, code=".length());
            String status = after(rest, "status=");
            String name = unitBefore(l, mpe);
            if (rest.startsWith("killed") || rest.startsWith("dumped")) {
                return ev(or(k, "systemd"), Event.KILLED_BY_SIGNAL, name, status, signalNumber(status), probe, lineNo, l);
            }
            if (rest.startsWith("exited") && !status.startsWith("0/")) {
                return ev(or(k, "systemd"), Event.EXITED, name, status, Text.parseInt(upTo(status, '/'), -1), probe, lineNo, l);
            }
            if (rest.startsWith("exited")) {
                return ev(or(k, "systemd"), Event.EXITED_CLEANLY, name, status, 0, probe, lineNo, l);
            }
            return null;
        }
        if (l.contains("Failed with result 'oom-kill'") || l.contains("killed by the OOM killer")
                || l.contains("(Result: oom-kill)")) {
            return ev(or(k, "systemd"), Event.OOM_KILL, unitBefore(l, l.indexOf("Failed with result")), "oom-kill", -1,
                    probe, lineNo, l);
        }
        int tmo = l.indexOf(" timed out. Killing.");
        if (tmo >= 0 && (l.contains("State 'stop") || l.contains("Stopping timed out"))) {
            return ev(or(k, "systemd"), Event.STOP_TIMEOUT, unitBefore(l, l.indexOf("State '")), quoted(l), -1, probe, lineNo, l);
        }
        int sto = l.indexOf(" operation timed out. ");
        if (sto >= 0 && (l.lastIndexOf(": Start operation", sto) >= 0 || l.lastIndexOf(": Start-pre operation", sto) >= 0
                || l.lastIndexOf(": Start-post operation", sto) >= 0)) {
            int colon = l.lastIndexOf(": Start", sto);
            return ev(or(k, "systemd"), Event.START_TIMEOUT, unitBefore(l, colon + 1), l.substring(colon + 2, sto), -1, probe,
                    lineNo, l);
        }
        if (l.contains("Failed with result 'timeout'")) {
            return null; // a start or a stop timed out: the line before says which
        }
        int rc = l.indexOf("Scheduled restart job, restart counter is at ");
        if (rc >= 0) {
            String n = digitsFrom(l, rc + "Scheduled restart job, restart counter is at ".length());
            return ev(or(k, "systemd"), Event.RESTART, unitBefore(l, rc), "restart counter " + n, Text.parseInt(n, -1),
                    probe, lineNo, l);
        }
        int deact = l.indexOf("Deactivated successfully.");
        if (deact >= 0) {
            return ev(or(k, "systemd"), Event.EXITED_CLEANLY, unitBefore(l, deact), "", 0, probe, lineNo, l);
        }
        if (l.contains("Start request repeated too quickly")) {
            return ev(or(k, "systemd"), Event.RESTART_LIMIT, unitBefore(l, l.indexOf("Start request")), "", -1, probe, lineNo, l);
        }
        int stopping = l.indexOf("]: Stopping ");
        if (stopping >= 0 && l.indexOf("systemd[") >= 0 && (l.endsWith("...") || l.endsWith("…") || l.contains(" - "))) {
            String what = l.substring(stopping + "]: Stopping ".length());
            int end = what.indexOf(" - ");
            what = end > 0 ? what.substring(0, end) : what.replace("...", "").replace("…", "");
            return ev(or(k, "systemd"), Event.STOP_REQUESTED, what.strip(), "", -1, probe, lineNo, l);
        }
        // ----- kubelet and the scheduler (events, as kubectl describe and kubectl get events print them)
        // the kubelet restarts a container for a failed startup probe just as for a liveness one
        // ("Container %s failed %s probe, will be restarted", pkg/kubelet/kuberuntime): the same kill
        boolean probeLine = l.indexOf(" probe") >= 0;
        int lk = probeLine ? l.indexOf(" failed liveness probe, will be restarted") : -1;
        if (probeLine && lk < 0) {
            lk = l.indexOf(" failed startup probe, will be restarted");
        }
        if (lk >= 0) {
            String before = l.substring(0, lk);
            int c = before.lastIndexOf("Container ");
            return ev(or(k, "kubernetes"), Event.LIVENESS_KILL, c >= 0 ? before.substring(c + 10).strip() : "", "", -1,
                    probe, lineNo, l);
        }
        int lf = probeLine ? l.indexOf("Liveness probe failed") : -1;
        if (probeLine && lf < 0) {
            lf = l.indexOf("Startup probe failed");
        }
        if (lf >= 0) {
            return ev(or(k, "kubernetes"), Event.LIVENESS_FAILED, "", l.substring(lf).strip(), -1, probe, lineNo, l);
        }
        int gpu = l.indexOf("Insufficient nvidia.com/gpu");
        if (gpu >= 0) {
            int from = l.indexOf("0/");
            return ev(or(k, "kubernetes"), Event.INSUFFICIENT_GPU, "", (from >= 0 && from < gpu ? l.substring(from) : l.substring(gpu)).strip(),
                    -1, probe, lineNo, l);
        }
        if (l.contains("The node was low on resource:") || evictedEvent(l)) {
            int at = l.indexOf("The node was low on resource:");
            return ev(or(k, "kubernetes"), Event.EVICTED, "", at >= 0 ? l.substring(at).strip() : "", -1, probe, lineNo, l);
        }
        int bo = l.indexOf("Back-off restarting failed container");
        if (bo >= 0) {
            String rest = l.substring(bo + "Back-off restarting failed container".length()).strip();
            return ev(or(k, "kubernetes"), Event.BACK_OFF, upTo(rest, ' '), "", -1, probe, lineNo, l);
        }
        // ----- the container runtime refusing to start a GPU container
        if (l.contains("could not select device driver") && l.contains("capabilities: [[gpu]]")) {
            return ev(or(k, "docker"), Event.NO_GPU_RUNTIME, "", "could not select device driver \"\" with capabilities: [[gpu]]",
                    -1, probe, lineNo, l);
        }
        for (String s : NO_RUNTIME) {
            if (l.contains(s)) {
                return ev(or(k, "docker"), Event.NO_GPU_RUNTIME, "", s, -1, probe, lineNo, l);
            }
        }
        for (String s : IMAGE_PULL) {
            int at = l.indexOf(s);
            if (at >= 0) {
                return ev(or(k, "docker"), Event.IMAGE_PULL, "", l.substring(at).strip(), -1, probe, lineNo, l);
            }
        }
        int nvml = l.indexOf("nvml error: driver/library version mismatch");
        if (nvml >= 0) {
            return ev(or(k, "docker"), Event.DRIVER_MISMATCH, "", l.substring(nvml).strip(), -1, probe, lineNo, l);
        }
        int uc = l.indexOf("unsatisfied condition: cuda");
        if (uc >= 0) {
            String cond = l.substring(uc + "unsatisfied condition: ".length());
            int comma = cond.indexOf(',');
            cond = (comma > 0 ? cond.substring(0, comma) : upTo(cond, ' ')).strip();
            return ev(or(k, "docker"), Event.DRIVER_TOO_OLD, "", cond, -1, probe, lineNo, l);
        }
        // ----- squeue: JOBID PARTITION NAME USER ST TIME NODES NODELIST(REASON)
        if (l.endsWith("(Resources)") || l.endsWith("(Priority)") || l.endsWith("(ReqNodeNotAvail)")) {
            String[] t = l.strip().split("\\s+", 12);
            if (t.length >= 6 && t[4].equals("PD") && !t[0].isEmpty() && Character.isDigit(t[0].charAt(0))) {
                return ev(or(k, "slurm"), Event.PENDING, t[0], t[t.length - 1], -1, probe, lineNo, l);
            }
        }
        // ----- slurmstepd
        int job = l.indexOf("*** JOB ");
        if (job < 0) {
            job = l.indexOf("*** STEP ");
        }
        if (job >= 0 && l.contains(" CANCELLED AT ")) {
            String id = upTo(l.substring(l.indexOf(' ', job + 4) + 1), ' ');
            // DUE TO TASK FAILURE: a task of the step failed and srun (--kill-on-bad-exit) ended the rest, a failure
            // of the job's own, not a cancellation from outside
            Event e = l.contains("DUE TO TIME LIMIT") ? Event.TIME_LIMIT : l.contains("DUE TO PREEMPTION") ? Event.PREEMPTED
                    : l.contains("DUE TO NODE FAIL") ? Event.NODE_FAIL : l.contains("DUE TO TASK FAILURE") ? Event.EXITED
                    : Event.CANCELLED;
            return ev(or(k, "slurm"), e, id, l.substring(job).strip(), -1, probe, lineNo, l);
        }
        int term = l.indexOf("srun: ");
        if (term >= 0 && (l.indexOf("Terminating StepId=", term) > 0 || l.indexOf("Terminating job step", term) > 0)) {
            return ev(or(k, "slurm"), Event.STEP_TERMINATING, "", l.substring(term).strip(), -1, probe, lineNo, l);
        }
        // srun: a task of the step ended with a failing code of its own (srun then terminates the others and the
        // step is logged CANCELLED: srun's doing after the failure, not a cancellation from outside)
        int task = l.indexOf("srun: error: ");
        int exited = task < 0 ? -1 : l.indexOf(": Exited with exit code ", task);
        if (exited > 0 && (l.indexOf(": task ", task) > 0 || l.indexOf(": tasks ", task) > 0)) {
            int code = Text.parseInt(digitsFrom(l, exited + ": Exited with exit code ".length()), -1);
            if (code > 0 && code != 137 && code != 143) {
                return ev(or(k, "slurm"), Event.TASK_EXITED, "", l.substring(task + "srun: error: ".length()).strip(), code,
                        probe, lineNo, l);
            }
        }
        if (l.contains("oom_kill event") || l.contains("oom-kill event")) {
            return ev(or(k, "slurm"), Event.OOM_KILL, "", l.strip(), -1, probe, lineNo, l);
        }
        return null;
    }

    /** The event of a kubelet event row whose reason is {@code Evicted} ({@code Warning  Evicted  5m  kubelet  …}). */
    private static boolean evictedEvent(String l) {
        if (!l.contains("Evicted")) {
            return false; // every line of a log comes here: split only the few that could be one
        }
        String[] t = l.strip().split("\\s+", 4);
        return t.length >= 2 && (t[0].equals("Warning") || t[0].equals("Normal")) && t[1].equals("Evicted");
    }

    private static SupervisorEvent ev(String kind, Event e, String name, String detail, int count, String probe, int line,
                                      String text) {
        return new SupervisorEvent(kind, e.id(), clean(name), Text.excerpt(detail), count, probe, line, Text.excerpt(text));
    }

    private static String or(String a, String b) {
        return a == null || a.isEmpty() ? b : a;
    }

    /** The unit a systemd message names before position {@code at}: {@code … systemd[1]: vllm.service: Main …}. */
    static String unitBefore(String l, int at) {
        if (at <= 0) {
            return "";
        }
        String before = l.substring(0, at).stripTrailing();
        if (!before.endsWith(":")) {
            return "";
        }
        before = before.substring(0, before.length() - 1);
        int sp = before.lastIndexOf(' ');
        String unit = before.substring(sp + 1);
        return unit.contains(".") && !unit.endsWith("]") ? unit : "";
    }

    private static String after(String s, String key) {
        int i = s.indexOf(key);
        return i < 0 ? "" : upTo(s.substring(i + key.length()), ' ').replace(",", "").replace(")", "");
    }

    static String upTo(String s, char c) {
        int i = s.indexOf(c);
        return i < 0 ? s : s.substring(0, i);
    }

    private static String quoted(String l) {
        int a = l.indexOf('\'');
        int b = a < 0 ? -1 : l.indexOf('\'', a + 1);
        return b > a ? l.substring(a + 1, b) : "";
    }

    private static String digitsFrom(String l, int at) {
        int e = at;
        while (e < l.length() && e - at < 9 && Character.isDigit(l.charAt(e)) && l.charAt(e) < 128) {
            e++;
        }
        return l.substring(at, e);
    }

    /** {@code 9/KILL} → 9; {@code KILL} → 9 for the common names; else -1. */
    static int signalNumber(String status) {
        int n = Text.parseInt(upTo(status, '/'), -1);
        if (n >= 0) {
            return n;
        }
        return switch (signalName(status)) {
            case "KILL" -> 9;
            case "TERM" -> 15;
            case "INT" -> 2;
            case "ABRT" -> 6;
            case "SEGV" -> 11;
            case "HUP" -> 1;
            default -> -1;
        };
    }

    /** {@code 9/KILL}, {@code SIGKILL}, {@code KILL} → {@code KILL}; a bare number by its usual name. */
    static String signalName(String status) {
        String s = status.strip();
        int slash = s.indexOf('/');
        if (slash >= 0) {
            s = s.substring(slash + 1);
        }
        s = s.toUpperCase(Locale.ROOT);
        if (s.startsWith("SIG")) {
            s = s.substring(3);
        }
        return switch (s) {
            case "9" -> "KILL";
            case "15" -> "TERM";
            case "2" -> "INT";
            case "6" -> "ABRT";
            case "11" -> "SEGV";
            default -> s.length() <= 8 && s.chars().allMatch(Character::isLetterOrDigit) ? s : "";
        };
    }

    /** A name for a fact: printable, short. */
    static String clean(String s) {
        String t = s == null ? "" : s.strip();
        if (t.length() > 200) {
            t = t.substring(0, 200);
        }
        return Text.excerpt(t);
    }
}
