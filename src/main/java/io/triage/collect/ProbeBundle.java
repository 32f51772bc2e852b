package io.triage.collect;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The fixed, read-only probes, sent to a host as one shell script in one exec. Values the user gave
 * (port, log path) never become part of a command: they are validated, then assigned once to shell
 * variables in single quotes, and the fixed probe commands read those variables. Each probe runs under
 * its own timeout; its stdout and stderr come back base64-encoded behind a header line that carries a
 * random nonce, so no output can forge a frame.
 *
 * <p>The script writes nothing but a private temporary directory (for the probe outputs), removed on
 * exit.
 */
public final class ProbeBundle {
    /**
     * Largest stdout kept per probe, bytes (the end of a log is what matters: probes tail it). Small enough
     * that the whole answer of a host stays within {@link SshCollector#MAX_ANSWER}, which bounds a look's memory.
     */
    public static final int MAX_OUT = 256 << 10;
    public static final int MAX_ERR = 16 << 10;
    private static final Pattern LOG_PATH = Pattern.compile("^/[A-Za-z0-9._/+@:=,~ -]{0,4095}$");
    private static final List<String> SERVERS = List.of("sglang", "vllm", "tgi");

    /** One probe: its name, the fixed command (reading {@code $T_PORT}, {@code $T_LOG}) and its timeout. */
    public record Probe(String name, String command, int timeoutSeconds) {
        /** The command as a person would read it, with the target's values in place (for {@code .cmd}). */
        public String display(int port, String log) {
            return command.replace("\"$T_PORT\"", port > 0 ? String.valueOf(port) : "$T_PORT")
                    .replace("$T_PORT", port > 0 ? String.valueOf(port) : "$T_PORT")
                    .replace("\"$T_LOG\"", log == null || log.isEmpty() ? "$T_LOG" : log);
        }
    }

    /** Marker words the log grep looks for (a superset of the capture format's standard grep). */
    static final String LOG_GREP = "server_args|non-default args|Args \\{|Shutting down|launch_server|fired up|"
            + "Application startup complete|Started server process|Traceback|Error|error:|Killed|address already|"
            + "EngineCore|EngineDead|Received sig|Finished server process";

    /** The standard probes of the capture format, in the order they run. */
    public static final List<Probe> STANDARD = List.of(
            new Probe("date", "date -Is; uptime", 5),
            new Probe("health", "curl -sS -o /dev/null -w '%{http_code} %{time_total}\\n' --max-time 5 "
                    + "\"http://127.0.0.1:$T_PORT/health\"", 10),
            new Probe("gpus", "nvidia-smi --query-gpu=index,name,memory.used,memory.total,utilization.gpu,"
                    + "power.draw,temperature.gpu,pstate --format=csv,noheader", 10),
            new Probe("gpu_apps", "nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv,noheader", 10),
            new Probe("pgrep", "pgrep -fa 'sglang|vllm|launch_server|python'", 5),
            new Probe("ps", "ps -eo pid,ppid,stat,etimes,rss,args | grep -iE 'PID|sglang|vllm|launch_server|"
                    + "text-generation|tritonserver|python|--port' | grep -v grep", 5),
            new Probe("log_tail", "tail -n 60 -- \"$T_LOG\"", 5),
            new Probe("log_markers", "grep -n -E '" + LOG_GREP + "' -- \"$T_LOG\" | tail -30", 10),
            new Probe("listen", "ss -ltnp 2>/dev/null || netstat -ltnp", 5),
            new Probe("dmesg", "dmesg -T 2>&1 | tail -200", 5),
            new Probe("nvidia_smi_full", "nvidia-smi", 10));

    /** Largest stdout kept from a supervisor probe, bytes: a unit's status or one container's inspect fits. */
    public static final int SUPERVISOR_MAX_OUT = 64 << 10;
    /** Names a unit, container or job of an inference server carries, for the look after its process is gone. */
    static final String SERVER_WORDS = "vllm|sglang|text-generation|tgi|triton|trtllm|lmdeploy|ollama|llama-server|llama[.]cpp";

    /**
     * Who runs the server: its process's cgroup, then the record of the systemd unit, container (Docker, podman,
     * or containerd/CRI-O through {@code crictl}) or Slurm job that owns it; with no server process left, the
     * newest unit, container or job whose name says it ran one. Read-only; each under its own timeout and capped
     * at {@link #SUPERVISOR_MAX_OUT}; a tool the host lacks answers rc 127 (absent, not a failure).
     */
    public static final List<Probe> SUPERVISOR = List.of(
            new Probe("cgroup", "[ -n \"$T_PID\" ] || exit 0; head -c 4096 \"/proc/$T_PID/cgroup\"", 5),
            new Probe("systemctl_status", "command -v systemctl >/dev/null 2>&1 || exit 127\n"
                    + "if [ -n \"$T_PID\" ]; then systemctl status \"$T_PID\" --no-pager -l -n 20\n"
                    + "else systemctl list-units --all --type=service --no-pager --plain --no-legend 2>/dev/null"
                    + " | awk '$3 != \"active\" {print $1}' | grep -iE '" + SERVER_WORDS + "' | head -3"
                    + " | xargs -r systemctl status --no-pager -l -n 20; fi | head -c " + SUPERVISOR_MAX_OUT, 10),
            new Probe("container_inspect", "command -v docker >/dev/null 2>&1 || command -v podman >/dev/null 2>&1"
                    + " || command -v crictl >/dev/null 2>&1 || exit 127\n"
                    + "cg=; [ -n \"$T_PID\" ] && cg=$(head -c 4096 \"/proc/$T_PID/cgroup\" 2>/dev/null)\n"
                    + "id=$(printf '%s\\n' \"$cg\" | grep -oE '[0-9a-f]{64}' | tail -1); rt=\n"
                    + "case \"$cg\" in *kubepods*) rt=crictl;; *libpod*) rt=podman;; *docker*) rt=docker;; esac\n"
                    + "if [ -z \"$T_PID\" ]; then\n"
                    + "  for r in docker podman; do command -v $r >/dev/null 2>&1 || continue\n"
                    + "    id=$($r ps -a --no-trunc --format '{{.ID}} {{.Image}} {{.Command}}' 2>/dev/null"
                    + " | grep -iE '" + SERVER_WORDS + "' | head -1 | cut -d' ' -f1)\n"
                    + "    [ -n \"$id\" ] && { rt=$r; break; }; done\n"
                    + "  if [ -z \"$rt\" ] && command -v crictl >/dev/null 2>&1; then\n"
                    + "    id=$(crictl ps -a 2>/dev/null | grep -iE '" + SERVER_WORDS + "' | head -1 | awk '{print $1}')\n"
                    + "    [ -n \"$id\" ] && rt=crictl; fi\n"
                    + "fi\n"
                    + "[ -n \"$rt\" ] && [ -n \"$id\" ] || exit 0\n"
                    + "command -v \"$rt\" >/dev/null 2>&1 || exit 127\n"
                    + "echo \"# $rt\"; \"$rt\" inspect \"$id\" | head -c " + SUPERVISOR_MAX_OUT, 10),
            new Probe("sacct", "command -v sacct >/dev/null 2>&1 || exit 127\n"
                    + "F=JobID,JobName,User,State,ExitCode,Start,End,Elapsed,Timelimit,NodeList\n"
                    + "j=; [ -n \"$T_PID\" ] && j=$(grep -oE 'job_[0-9]+' \"/proc/$T_PID/cgroup\" 2>/dev/null | head -1 | cut -d_ -f2)\n"
                    + "if [ -n \"$j\" ]; then sacct -j \"$j\" -P --format=$F\n"
                    + "elif [ -z \"$T_PID\" ]; then sacct -X -a -P -S now-24hours -N \"$(hostname -s)\" --format=$F 2>/dev/null"
                    + " | awk -F'|' 'NR == 1 || tolower($2) ~ /" + SERVER_WORDS.replace("[.]", "\\.") + "/'"
                    + " | { IFS= read -r h && printf '%s\\n' \"$h\"; tail -n 1; }\n"
                    + "fi | head -c " + SUPERVISOR_MAX_OUT, 15));

    /** Every probe a look runs: the standard ones, then who runs the server. */
    public static final List<Probe> ALL = java.util.stream.Stream.concat(STANDARD.stream(), SUPERVISOR.stream()).toList();

    private final String server;
    private final int port;
    private final String log;
    private final List<Probe> probes;
    private final String nonce;

    private ProbeBundle(String server, int port, String log, List<Probe> probes, String nonce) {
        this.server = server;
        this.port = port;
        this.log = log;
        this.probes = probes;
        this.nonce = nonce;
    }

    /**
     * A bundle for a target. Unknown values are discovered by the script itself on the host (the port
     * a server process listens on, the file behind its stdout).
     *
     * @throws IllegalArgumentException with a message for the user when a value is not acceptable
     */
    public static ProbeBundle forTarget(String server, Integer port, String log) {
        String s = server == null ? "" : server.toLowerCase(Locale.ROOT);
        if (!s.isEmpty() && !SERVERS.contains(s)) {
            throw new IllegalArgumentException("unknown server kind '" + printable(server) + "' (one of " + SERVERS + ")");
        }
        int p = port == null ? -1 : port;
        if (port != null && (port < 1 || port > 65535)) {
            throw new IllegalArgumentException("port must be 1-65535, not " + port);
        }
        String l = log == null ? "" : log;
        if (!l.isEmpty() && (!LOG_PATH.matcher(l).matches() || l.contains("/../") || l.endsWith("/.."))) {
            throw new IllegalArgumentException("log path must be absolute and made of ordinary path characters: '"
                    + printable(l) + "'");
        }
        byte[] r = new byte[8];
        new SecureRandom().nextBytes(r);
        return new ProbeBundle(s, p, l, ALL, HexFormat.of().formatHex(r));
    }

    /** Parses a port typed by a user: digits only, 1-65535. */
    public static int parsePort(String text) {
        if (text == null || !text.matches("[0-9]{1,5}")) {
            throw new IllegalArgumentException("port must be a number 1-65535, not '" + printable(String.valueOf(text)) + "'");
        }
        int p = Integer.parseInt(text);
        if (p < 1 || p > 65535) {
            throw new IllegalArgumentException("port must be 1-65535, not " + p);
        }
        return p;
    }

    /** The whole script, for {@code bash -s} or an exec of {@code bash -c}. */
    public String script() {
        StringBuilder b = new StringBuilder(4096);
        b.append("set +e\nexport LC_ALL=C\n");
        b.append("T_PORT=").append(quote(port > 0 ? String.valueOf(port) : "")).append('\n');
        b.append("T_LOG=").append(quote(log)).append('\n');
        b.append("T_SERVER=").append(quote(server)).append('\n');
        b.append("N=").append(nonce).append('\n');
        // discovery: the port a server process listens on, and the file behind its stdout
        b.append("""
                T_PID=$( (ss -ltnpH 2>/dev/null || true) | grep -E '"(vllm|sglang[^"]*|text-generation[^"]*|tritonserver|VLLM[^"]*)"' | grep -oE 'pid=[0-9]+' | head -1 | cut -d= -f2)
                [ -z "$T_PID" ] && T_PID=$(pgrep -o -f 'sglang[.]launch_server|sglang serve|vllm serve|vllm[.]entrypoints|text-generation-launcher|tritonserver|trtllm-serve|python[0-9.]* .*launch_server' 2>/dev/null)
                [ -z "$T_PID" ] && T_PID=$( (ss -ltnpH 2>/dev/null || true) | grep -E '"python[0-9.]*"' | grep -oE 'pid=[0-9]+' | head -1 | cut -d= -f2)
                if [ -z "$T_PORT" ] && [ -n "$T_PID" ]; then
                  T_PORT=$( (ss -ltnpH 2>/dev/null || true) | grep "pid=$T_PID," | awk '{print $4}' | sed 's/.*://' | head -1)
                  [ -n "$T_PORT" ] && echo "@@$N discovered port=$T_PORT pid=$T_PID"
                fi
                if [ -z "$T_PORT" ] && [ -n "$T_PID" ]; then
                  T_PORT=$(tr '\\0' ' ' < "/proc/$T_PID/cmdline" 2>/dev/null | grep -oE -- '--port[= ][0-9]+' | grep -oE '[0-9]+$' | head -1)
                  [ -n "$T_PORT" ] && echo "@@$N discovered port=$T_PORT pid=$T_PID from its command line"
                fi
                if [ -z "$T_PORT" ]; then
                  case "$T_SERVER" in vllm|tgi) T_PORT=8000;; *) T_PORT=30000;; esac
                  echo "@@$N assumed port=$T_PORT"
                fi
                if [ -z "$T_LOG" ] && [ -n "$T_PID" ]; then
                  T_LOG=$(readlink "/proc/$T_PID/fd/1" 2>/dev/null)
                  T_LOG=${T_LOG% (deleted)}
                  # only a regular file: a terminal or a pipe behind stdout must never be read
                  if [ -f "$T_LOG" ]; then echo "@@$N discovered log=$T_LOG pid=$T_PID"; else T_LOG=; fi
                fi
                export T_PORT T_LOG T_PID
                d=$(mktemp -d 2>/dev/null) || { d=/tmp/triage.$$.$N; (umask 077; mkdir "$d") || exit 1; }
                trap 'rm -rf "$d"' EXIT
                p() {
                  s=$(date +%s%N)
                  timeout -k 2 "$2" bash -c "$3" >"$d/o" 2>"$d/e" </dev/null
                  rc=$?
                  e=$(date +%s%N)
                  echo "@@$N probe $1 rc=$rc ms=$(( (e - s) / 1000000 ))"
                """);
        b.append("  head -c ").append(MAX_OUT).append(" \"$d/o\" | base64 -w0; echo\n");
        b.append("  head -c ").append(MAX_ERR).append(" \"$d/e\" | base64 -w0; echo\n");
        b.append("}\n");
        for (Probe p : probes) {
            if (p.name().startsWith("log_")) {
                // a regular file, or one that does not exist (its absence is evidence); never a device or a pipe
                b.append("if [ -n \"$T_LOG\" ] && { [ -f \"$T_LOG\" ] || [ ! -e \"$T_LOG\" ]; }; then ");
            }
            b.append("p ").append(p.name()).append(' ').append(p.timeoutSeconds()).append(' ').append(quote(p.command()));
            b.append(p.name().startsWith("log_") ? "; fi\n" : "\n");
        }
        b.append("echo \"@@$N end\"\n");
        return b.toString();
    }

    /** Single-quotes a value for a POSIX shell: the only character that needs care is the quote itself. */
    public static String quote(String s) {
        return "'" + s.replace("'", "'\"'\"'") + "'";
    }

    static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            b.append(Character.isISOControl(c) ? String.format("\\x%02x", (int) c) : c);
        }
        return b.length() > 80 ? b.substring(0, 80) + "…" : b.toString();
    }

    public String nonce() {
        return nonce;
    }

    public List<Probe> probes() {
        return probes;
    }

    public String server() {
        return server;
    }

    public int port() {
        return port;
    }

    public String log() {
        return log;
    }

    /** Target facts for the capture: what was given. */
    public Map<String, String> target() {
        Map<String, String> t = new LinkedHashMap<>();
        if (!server.isEmpty()) {
            t.put("server", server);
        }
        if (port > 0) {
            t.put("port", String.valueOf(port));
        }
        if (!log.isEmpty()) {
            t.put("log", log);
        }
        return t;
    }
}
