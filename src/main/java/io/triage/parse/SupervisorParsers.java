package io.triage.parse;

import io.triage.capture.Capture;
import io.triage.capture.ProbeOutput;
import io.triage.knowledge.ProcessPatterns;

import java.util.Locale;

/**
 * Sends each supervisor record of a capture to its parser, by the probe name the collector, the capture format
 * and the paste recogniser use ({@code systemctl_status}, {@code journal}, {@code docker_inspect},
 * {@code kubectl_describe_pod}, {@code sacct}…), and reads the sentences supervisors leave in logs
 * ({@code slurmstepd}'s cancellation, a {@code docker run} refusal in a launch's output) from every log-like probe.
 * Each probe is parsed on its own: one that fails costs only itself.
 */
public final class SupervisorParsers {
    private SupervisorParsers() {
    }

    public static void read(Capture capture, ProcessPatterns patterns, Sink sink) {
        String pod = ContainerParser.podOfLog(capture.target().getOrDefault("log", ""));
        for (ProbeOutput p : capture.probes().values()) {
            java.util.function.Consumer<ProbeOutput> parser = route(p.name(), patterns, sink, pod);
            if (parser != null) {
                FactBuilder.guarded(p, sink, parser);
            }
        }
    }

    /** True when a probe of this name is read here (by name; other names are read by content). */
    public static boolean reads(String name) {
        return route(name, null, null, "") != null;
    }

    private static java.util.function.Consumer<ProbeOutput> route(String name, ProcessPatterns patterns, Sink sink,
                                                                  String pod) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.startsWith("systemctl_status") || n.equals("systemd_status")) {
            return o -> SystemdParser.status(o, sink);
        } else if (n.startsWith("journal") && !FactBuilder.isKernelJournal(n)) {
            return o -> SystemdParser.journal(o, sink);
        } else if (n.equals("cgroup")) {
            return o -> cgroup(o, sink);
        } else if (n.startsWith("container_inspect")) {
            return o -> ContainerParser.inspectAny(o, patterns, sink);
        } else if (n.equals("docker_inspect") || n.startsWith("docker_inspect_")) {
            return o -> ContainerParser.inspect(o, "docker", patterns, sink);
        } else if (n.startsWith("podman_inspect")) {
            return o -> ContainerParser.inspect(o, "podman", patterns, sink);
        } else if (n.startsWith("crictl_inspect")) {
            return o -> ContainerParser.crictlInspect(o, sink);
        } else if (n.startsWith("crictl_ps")) {
            return o -> ContainerParser.crictlPs(o, sink, pod);
        } else if (n.startsWith("kubectl_get")) {
            return o -> KubernetesParser.get(o, sink);
        } else if (n.startsWith("kubectl_describe")) {
            return o -> KubernetesParser.describe(o, sink);
        } else if (n.startsWith("kubectl_events") || n.startsWith("kubectl_logs") || n.startsWith("crictl_logs")) {
            return o -> SystemdParser.events(o, "kubernetes", sink);
        } else if (n.startsWith("sacct")) {
            return o -> SlurmParser.sacct(o, sink);
        } else if (n.startsWith("squeue")) {
            return o -> SystemdParser.events(o, "slurm", sink);
        } else if (n.startsWith("scontrol") || n.equals("slurm_job")) {
            return o -> SlurmParser.scontrol(o, sink);
        } else if (n.startsWith("docker_run") || n.startsWith("docker_logs") || n.startsWith("docker_compose")) {
            return o -> SystemdParser.events(o, "docker", sink);
        } else if (n.startsWith("podman_run") || n.startsWith("podman_logs")) {
            return o -> SystemdParser.events(o, "podman", sink);
        } else if (n.startsWith("slurm")) {
            return o -> SystemdParser.events(o, "slurm", sink);
        } else if (n.equals("log_tail") || n.equals("nohup")) {
            // a job's output is the server's log: slurmstepd and the runtime write their verdict into it
            return o -> SystemdParser.events(o, "", sink);
        }
        return null;
    }

    /**
     * {@code /proc/PID/cgroup} of the server's process: who owns it — a systemd unit, a Docker, podman or
     * containerd container, a Kubernetes pod, a Slurm job — said in a note, so the coverage tells whose record
     * the supervisor probes read.
     */
    static void cgroup(ProbeOutput p, Sink sink) {
        String owner = owner(p.outOrEmpty());
        if (!owner.isEmpty()) {
            sink.note("the server's process runs under " + owner + " (its cgroup)");
        }
    }

    /** What a cgroup file says owns the process, or "" (a login session or the root cgroup is no supervisor). */
    static String owner(String cgroup) {
        String text = cgroup.length() > 8192 ? cgroup.substring(0, 8192) : cgroup;
        for (String line : Text.lines(text)) {
            String path = line.substring(line.lastIndexOf(':') + 1);
            if (path.contains("kubepods")) {
                // kubepods-burstable-pod<uid>.slice (systemd driver) or kubepods/burstable/pod<uid> (cgroupfs)
                int pod = -1;
                for (int at = path.indexOf("pod"); at >= 0; at = path.indexOf("pod", at + 3)) {
                    char before = at == 0 ? '/' : path.charAt(at - 1);
                    if ((before == '-' || before == '/') && at + 3 < path.length()
                            && Character.digit(path.charAt(at + 3), 16) >= 0) {
                        pod = at;
                    }
                }
                String uid = pod < 0 ? "" : SupervisorText.upTo(SupervisorText.upTo(path.substring(pod + 3), '/'), '.');
                return "a Kubernetes pod" + (uid.isEmpty() ? "" : " (uid " + Text.excerpt(uid.replace('_', '-')) + ")");
            }
            int job = path.indexOf("/job_");
            if (job >= 0) {
                return "Slurm job " + Text.excerpt(SupervisorText.upTo(path.substring(job + 5), '/'));
            }
            for (String rt : new String[] {"docker", "libpod", "cri-containerd", "crio"}) {
                int at = path.indexOf(rt + "-");
                if (at < 0) {
                    at = path.indexOf("/" + rt + "/");
                }
                if (at >= 0) {
                    String id = path.substring(at).replaceAll("[^0-9a-f]", " ").strip();
                    String longest = "";
                    for (String w : id.split(" +")) {
                        longest = w.length() > longest.length() ? w : longest;
                    }
                    String name = switch (rt) {
                        case "libpod" -> "podman";
                        case "cri-containerd" -> "containerd";
                        default -> rt;
                    };
                    return "a " + name + " container" + (longest.length() >= 12 ? " " + longest.substring(0, 12) : "");
                }
            }
            int svc = path.lastIndexOf(".service");
            if (svc > 0 && !path.contains("user@")) {
                String unit = path.substring(path.lastIndexOf('/', svc) + 1, svc + 8);
                return "the systemd unit " + Text.excerpt(unit);
            }
        }
        return "";
    }
}
