package io.triage.collect;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import io.triage.safety.ShellQuote;

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
    private static final Pattern SERVER_KIND = Pattern.compile("^[a-z0-9][a-z0-9._-]{0,31}$");

    /** One probe: its name, the fixed command (reading {@code $T_PORT}, {@code $T_LOG}) and its timeout. */
    public record Probe(String name, String command, int timeoutSeconds) {
        /** The command as a person would read it, with the target's values in place (for {@code .cmd}). */
        public String display(int port, String log) {
            return command.replace("\"$T_PORT\"", port > 0 ? String.valueOf(port) : "$T_PORT")
                    .replace("$T_PORT", port > 0 ? String.valueOf(port) : "$T_PORT")
                    .replace("\"$T_LOG\"", log == null || log.isEmpty() ? "$T_LOG" : log);
        }
    }

    /** Stands, in a probe's command, for the generated ERE of server command lines ({@link HostFilters#serverEre}). */
    static final String SERVER_PROCESSES = "@SERVER_PROCESSES@";
    /** Stands for the generated ERE of server and client command lines ({@link HostFilters#listingEre}). */
    static final String LISTED_PROCESSES = "@LISTED_PROCESSES@";
    /** Stands for the health path of the target's server kind, quoted ({@link HostFilters#healthPath}). */
    static final String HEALTH_PATH = "@HEALTH_PATH@";
    /** Stands for the generated selection of marker lines ({@link HostFilters#log}). */
    static final String LOG_SELECTION = "@LOG_SELECTION@";
    /** Newest lines of rare markers (arguments, starts, errors, ends) the log probe returns. */
    static final int RARE_LINES = 50;
    /** Newest lines of routine markers (requests, throughput) the log probe returns: the rules read the newest few. */
    static final int ROUTINE_LINES = 10;

    /**
     * The kernel log: plain {@code dmesg -T}; when that is refused (kernel.dmesg_restrict), {@code sudo -n} (which
     * fails at once rather than prompt, and stdin is /dev/null) and then the journal, plain and with sudo -n; the
     * first line then names what answered ({@link io.triage.parse.KernelLogSource}). Nothing is written.
     */
    static final String DMESG = "o=$(dmesg -T 2>&1); rc=$?; case \"${o%%$'\\n'*}\" in *'Operation not permitted'*|"
            + "*'read kernel buffer failed'*) rc=1;; esac; "
            + "if [ $rc -ne 0 ] && command -v sudo >/dev/null 2>&1 && s=$(sudo -n dmesg -T 2>/dev/null) && [ -n \"$s\" ]; then "
            + "echo '" + io.triage.parse.KernelLogSource.SUDO_DMESG.header() + "'; printf '%s\\n' \"$s\" | tail -200; exit 0; fi; "
            + "if [ $rc -ne 0 ] && s=$(journalctl -k -n 200 --no-pager 2>/dev/null) && [ -n \"$s\" ] "
            + "&& [ \"${s#-- No entries --}\" = \"$s\" ]; then "
            + "echo '" + io.triage.parse.KernelLogSource.JOURNAL.header() + "'; printf '%s\\n' \"$s\"; exit 0; fi; "
            + "if [ $rc -ne 0 ] && command -v sudo >/dev/null 2>&1 "
            + "&& s=$(sudo -n journalctl -k -n 200 --no-pager 2>/dev/null) && [ -n \"$s\" ]; then "
            + "echo '" + io.triage.parse.KernelLogSource.SUDO_JOURNAL.header() + "'; printf '%s\\n' \"$s\"; exit 0; fi; "
            + "printf '%s\\n' \"$o\" | tail -200";

    /** The standard probes of the capture format, in the order they run. */
    public static final List<Probe> STANDARD = List.of(
            new Probe("date", "date -Is; uptime", 5),
            new Probe("health", "curl -sS -o /dev/null -w '%{http_code} %{time_total}\\n' --max-time 5 "
                    + "\"http://127.0.0.1:$T_PORT\"" + HEALTH_PATH, 10),
            new Probe("gpus", "nvidia-smi --query-gpu=index,name,memory.used,memory.total,utilization.gpu,"
                    + "power.draw,temperature.gpu,pstate --format=csv,noheader", 10),
            new Probe("gpu_apps", "nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv,noheader", 10),
            new Probe("pgrep", "pgrep -fa " + SERVER_PROCESSES, 5),
            new Probe("ps", "ps -eo pid,ppid,stat,etimes,rss,args | grep -E -e '^ *PID ' -e \"^ *${T_OWNER:--} \" -e "
                    + LISTED_PROCESSES, 5),
            new Probe("log_tail", "tail -n 60 -- \"$T_LOG\"", 5),
            new Probe("log_markers", LOG_SELECTION, 10),
            new Probe("listen", "ss -ltnp 2>/dev/null || netstat -ltnp", 5),
            new Probe("dmesg", DMESG, 10),
            new Probe("nvidia_smi_full", "nvidia-smi", 10),
            // busy-hung: the server's own request counters; histogram buckets dropped, size capped
            new Probe("metrics", "curl -sS --max-time 3 \"http://127.0.0.1:$T_PORT/metrics\" | grep -v -E '_bucket[{ ]' "
                    + "| head -c " + (128 << 10), 6));

    // ------------------------------------------------------------------ busy-hung: the second look
    /**
     * Default time between the two samples of the moving signals, milliseconds. The probes between them
     * (GPUs, processes, log, kernel log) run inside this interval, so a look waits only what they leave.
     */
    public static final int SECOND_LOOK_MS = 5000;
    /** A 2xx health answer slower than this (seconds) also triggers the second look (the rules' "slow" is 2.0 s). */
    static final String SECOND_LOOK_SLOW = "1.0";

    /**
     * One sample of what moves while a server works: its processes' states and CPU ticks
     * ({@code /proc/PID/stat} of the server and two generations of children), the log's size and last
     * line, GPU utilisation, the server's request gauges and token counters from {@code /metrics}, and the
     * bytes of unfinished weight downloads in the server's Hugging Face cache. Prints {@code key value}
     * lines; reads nothing but {@code /proc}, the log, nvidia-smi, the local {@code /metrics} and file sizes.
     */
    static final String SAMPLE = String.join("\n",
            "echo \"t_ms $(( $(date +%s%N) / 1000000 ))\"",
            "echo \"interval_target_ms ${T_LOOK_MS:-0}\"",
            "echo \"pid $T_PID\"",
            "echo \"clk_tck $(getconf CLK_TCK 2>/dev/null)\"",
            "k=$(pgrep -P \"$T_PID\" 2>/dev/null | head -16)",
            "g=$(for c in $k; do pgrep -P \"$c\" 2>/dev/null; done | head -16)",
            "for q in $T_PID $k $g; do",
            "  s=$(cat \"/proc/$q/stat\" 2>/dev/null) || continue",
            "  s=${s##*) }; set -- $s",
            "  echo \"proc $q $1 $(( ${12:-0} + ${13:-0} ))\"",
            "done",
            "if [ -n \"$T_LOG\" ] && [ -f \"$T_LOG\" ]; then",
            "  echo \"log_size $(stat -c %s -- \"$T_LOG\" 2>/dev/null)\"",
            "  echo \"log_last $(tail -n 1 -- \"$T_LOG\" 2>/dev/null | head -c 512 | tr -d '\\000-\\010\\013-\\037')\"",
            "fi",
            "timeout 4 nvidia-smi --query-gpu=index,utilization.gpu,memory.used --format=csv,noheader,nounits 2>/dev/null"
                    + " | head -16 | sed 's/^/gpu /'",
            "curl -sS --max-time 1 \"http://127.0.0.1:$T_PORT/metrics\" 2>/dev/null | head -c 1048576"
                    + " | grep -E '^(vllm:|sglang:|tgi_)' | grep -v -E '_(bucket|created)[{ ]' | head -64"
                    + " | sed 's/^/metric /'",
            "env=$(tr '\\0' '\\n' < \"/proc/$T_PID/environ\" 2>/dev/null"
                    + " | grep -E '^(HF_HUB_CACHE|HUGGINGFACE_HUB_CACHE|HF_HOME)=/' | head -3)",
            "hub=$(printf '%s\\n' \"$env\" | sed -n 's/^HF_HUB_CACHE=//p; s/^HUGGINGFACE_HUB_CACHE=//p' | head -1)",
            "[ -z \"$hub\" ] && h=$(printf '%s\\n' \"$env\" | sed -n 's/^HF_HOME=//p' | head -1) && [ -n \"$h\" ] && hub=\"$h/hub\"",
            "[ -z \"$hub\" ] && h=$(getent passwd \"$(stat -c %u \"/proc/$T_PID\" 2>/dev/null)\" 2>/dev/null | cut -d: -f6)"
                    + " && [ -n \"$h\" ] && hub=\"$h/.cache/huggingface/hub\"",
            "if [ -n \"$hub\" ] && [ -d \"$hub\" ]; then",
            "  find \"$hub\" -maxdepth 4 -name '*.incomplete' -printf '%s\\n' 2>/dev/null | head -4096"
                    + " | awk '{ s += $1; n++ } END { print \"hf_incomplete \" s + 0 \" \" n + 0 }'",
            "fi");

    /** The first sample, taken right after the health probe when the second look is on. */
    public static final Probe FIRST_LOOK = new Probe("first_look", SAMPLE, 10);
    /** The second sample: waits until the interval since the first has passed, then samples again. */
    public static final Probe SECOND_LOOK = new Probe("second_look", String.join("\n",
            "w=$(( ${T_LOOK_MS:-0} - ( $(date +%s%N) / 1000000 - ${T_LOOK_T0:-0} ) ))",
            "[ \"$w\" -gt 0 ] && [ \"$w\" -le 30000 ] && sleep \"$(( w / 1000 )).$(printf '%03d' $(( w % 1000 )))\"",
            SAMPLE), 45);
    /** The probes that run only when the first health answer and the discovered server process call for them. */
    public static final List<Probe> SECOND_LOOK_PROBES = List.of(FIRST_LOOK, SECOND_LOOK);

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
    private final HostFilters filters;
    private final int secondLookMs;
    /** The script's text around its nonce line, shared by every bundle {@link #renewed} from this one. */
    private final ScriptText text;

    /**
     * The script without its nonce line, made once and shared by renewed bundles: a sweep makes one bundle per
     * host, and quoting the generated filters into the script cost more CPU than the host's SSH handshake.
     */
    private static final class ScriptText {
        private volatile String[] parts; // before the nonce line, after it
    }

    private ProbeBundle(String server, int port, String log, String nonce, HostFilters filters, int secondLookMs) {
        this.server = server;
        this.port = port;
        this.log = log;
        this.nonce = nonce;
        this.secondLookMs = secondLookMs;
        this.filters = filters;
        this.probes = filters == null ? ordered(secondLookMs > 0) : resolve(ordered(secondLookMs > 0), filters, server);
        this.text = new ScriptText();
    }

    /** {@code same} with another nonce: its probes and script text are reused, not made again. */
    private ProbeBundle(ProbeBundle same, String nonce) {
        this.server = same.server;
        this.port = same.port;
        this.log = same.log;
        this.nonce = nonce;
        this.secondLookMs = same.secondLookMs;
        this.filters = same.filters;
        this.probes = same.probes;
        this.text = same.text;
    }

    /**
     * The same bundle with the second look at another interval, or off ({@code 0}): when health fails or
     * is slow while a server process lives, the moving signals are sampled twice, {@code ms} apart.
     *
     * @throws IllegalArgumentException when {@code ms} is negative or longer than 30 s
     */
    public ProbeBundle withSecondLook(int ms) {
        if (ms < 0 || ms > 30_000) {
            throw new IllegalArgumentException("second-look interval must be 0 (off) to 30000 ms, not " + ms);
        }
        return new ProbeBundle(server, port, log, nonce, filters, ms);
    }

    /** The same settings with a new nonce: one bundle per look. */
    public ProbeBundle renewed() {
        return new ProbeBundle(this, newNonce());
    }

    /** The second look's interval, milliseconds; 0 when it is off. */
    public int secondLookMs() {
        return secondLookMs;
    }

    /** The standard and supervisor probes, with the second look's two samples around them when it is on. */
    static List<Probe> ordered(boolean secondLook) {
        if (!secondLook) {
            return ALL;
        }
        List<Probe> out = new ArrayList<>();
        for (Probe p : ALL) {
            out.add(p);
            if (p.name().equals("health")) {
                out.add(FIRST_LOOK);
            }
        }
        out.add(SECOND_LOOK);
        return List.copyOf(out);
    }

    /**
     * The target's values, checked: a template that {@link #with} turns into a bundle. Unknown values are
     * discovered by the script itself on the host (the port the server process listens on, the file behind its
     * stdout).
     *
     * @throws IllegalArgumentException with a message for the user when a value is not acceptable
     */
    public static ProbeBundle forTarget(String server, Integer port, String log) {
        String s = server == null ? "" : server.toLowerCase(Locale.ROOT);
        if (!s.isEmpty() && !SERVER_KIND.matcher(s).matches()) {
            throw new IllegalArgumentException("not a server kind: '" + printable(server) + "'");
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
        return new ProbeBundle(s, p, l, newNonce(), null, SECOND_LOOK_MS);
    }

    /**
     * A bundle for this target with the knowledge base's filters (a fresh nonce: one bundle per look).
     *
     * @throws IllegalArgumentException when the server kind is not one the knowledge base knows
     */
    public ProbeBundle with(HostFilters filters) {
        if (!server.isEmpty() && !filters.servers().contains(server)) {
            throw new IllegalArgumentException("unknown server kind '" + printable(server) + "' (one of "
                    + filters.servers() + ")");
        }
        if (filters == this.filters) {
            return renewed();
        }
        return new ProbeBundle(server, port, log, newNonce(), filters, secondLookMs);
    }

    /** True when the bundle carries its filters and can write its script. */
    public boolean ready() {
        return filters != null;
    }

    /** The filters the script runs, or null for a template. */
    public HostFilters filters() {
        return filters;
    }

    private static String newNonce() {
        byte[] r = new byte[8];
        new SecureRandom().nextBytes(r);
        return HexFormat.of().formatHex(r);
    }

    /** The probes with the generated filters in place of their stand-ins. */
    private static List<Probe> resolve(List<Probe> probes, HostFilters f, String server) {
        List<Probe> out = new ArrayList<>(probes.size());
        for (Probe p : probes) {
            String c = p.command()
                    .replace(SERVER_PROCESSES, ShellQuote.quote(f.serverEre()))
                    .replace(LISTED_PROCESSES, ShellQuote.quote(f.listingEre()))
                    .replace(LOG_SELECTION, logSelection(f.log()))
                    .replace(HEALTH_PATH, ShellQuote.quote(f.healthPath(server)));
            out.add(new Probe(p.name(), c, p.timeoutSeconds()));
        }
        return List.copyOf(out);
    }

    /**
     * The marker lines of the log: the newest {@link #RARE_LINES} holding a literal of a rare marker and the newest
     * {@link #ROUTINE_LINES} holding one of a routine marker, numbered ({@code grep -n}) and in file order, each line
     * once. Literals are compared without regard to case, as the client's own prefilter does.
     */
    static String logSelection(io.triage.knowledge.LogFilter f) {
        StringBuilder b = new StringBuilder("{ ");
        if (!f.rare().isEmpty()) {
            b.append(grepF(f.rare())).append(" -- \"$T_LOG\" | tail -").append(RARE_LINES).append("; ");
        }
        if (!f.routine().isEmpty()) {
            b.append(grepF(f.routine())).append(" -- \"$T_LOG\" | tail -").append(ROUTINE_LINES).append("; ");
        }
        b.append("true; } | sort -t: -k1,1n -u");
        return b.toString();
    }

    private static String grepF(List<String> literals) {
        StringBuilder b = new StringBuilder("grep -n -i -F");
        for (String l : literals) {
            b.append(" -e ").append(ShellQuote.quote(l));
        }
        return b.toString();
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
        String[] parts = text.parts;
        if (parts == null) {
            String whole = scriptText();
            String line = "\nN=" + nonce + "\n";
            int at = whole.indexOf(line);
            parts = new String[] {whole.substring(0, at + 1), whole.substring(at + line.length())};
            text.parts = parts;
            return whole;
        }
        return parts[0] + "N=" + nonce + "\n" + parts[1];
    }

    private String scriptText() {
        StringBuilder b = new StringBuilder(4096);
        b.append("set +e\nexport LC_ALL=C\n");
        b.append("T_PORT=").append(quote(port > 0 ? String.valueOf(port) : "")).append('\n');
        b.append("T_LOG=").append(quote(log)).append('\n');
        b.append("T_SERVER=").append(quote(server)).append('\n');
        b.append("N=").append(nonce).append('\n');
        if (filters == null) {
            throw new IllegalStateException("a bundle template has no script: make the bundle with(HostFilters)");
        }
        // generated from processes.yaml: what a server's and a client's command line and a server's process name are
        b.append("T_SERVERS=").append(quote(filters.serverEre())).append('\n');
        b.append("T_FRONTENDS=").append(quote(filters.frontendEre())).append('\n');
        b.append("T_CLIENTS=").append(quote(filters.clientEre())).append('\n');
        b.append("T_COMM=").append(quote(filters.commEre())).append('\n');
        b.append("T_IGNORE=").append(quote(filters.ignoreEre())).append('\n');
        b.append("T_KIND=").append(quote(filters.kindEre().getOrDefault(server, ""))).append('\n');
        b.append("""
                # srv PID ERE: a server process whose command line matches ERE (or, for any server, whose process name is
                # a server's); never this script, the probe's own tools or a known client
                srv() {
                  [ -n "$2" ] || return 1
                  [ "$1" = "$$" ] && return 1
                  _c=$(tr '\\0' ' ' < "/proc/$1/cmdline" 2>/dev/null)
                  [ -n "$_c" ] || return 1
                  if [ -n "$T_IGNORE" ] && printf '%s\\n' "$_c" | grep -qE -- "$T_IGNORE"; then return 1; fi
                  if [ -n "$T_CLIENTS" ] && printf '%s\\n' "$_c" | grep -qE -- "$T_CLIENTS"; then return 1; fi
                  printf '%s\\n' "$_c" | grep -qE -- "$2" && return 0
                  [ "$2" = "$T_SERVERS" ] || return 1
                  _n=$(cat "/proc/$1/comm" 2>/dev/null)
                  printf '%s\\n' "$_n" | grep -qE -- "$T_COMM"
                }
                # pick PID...: the first server of the target's kind among the candidates, else the first server
                pick() {
                  for q in "$@"; do srv "$q" "$T_KIND" && { echo "$q"; return; }; done
                  for q in "$@"; do srv "$q" "$T_SERVERS" && { echo "$q"; return; }; done
                }
                T_PID=
                T_OWNER=
                if [ -n "$T_PORT" ]; then
                  # the server is the process that owns the target port's listener
                  T_OWNER=$( (ss -ltnpH 2>/dev/null || true) | awk -v p="$T_PORT" '{ n = split($4, a, ":"); if (a[n] == p) print }' | grep -oE 'pid=[0-9]+' | head -1 | cut -d= -f2)
                  [ -n "$T_OWNER" ] && T_PID=$(pick "$T_OWNER")
                  [ -n "$T_PID" ] && echo "@@$N discovered pid=$T_PID listening on port=$T_PORT"
                  # else a front end that does not listen yet (loading)
                  [ -z "$T_PID" ] && T_PID=$(pick $(pgrep -f -- "$T_FRONTENDS" 2>/dev/null))
                else
                  # listeners first, then front ends that do not listen yet
                  T_PID=$(pick $( (ss -ltnpH 2>/dev/null || true) | grep -oE 'pid=[0-9]+' | cut -d= -f2 | sort -un) \\
                    $(pgrep -f -- "$T_FRONTENDS" 2>/dev/null))
                fi
                export T_OWNER
                """);
        b.append("""
                if [ -z "$T_PORT" ] && [ -n "$T_PID" ]; then
                  T_PORT=$( (ss -ltnpH 2>/dev/null || true) | grep "pid=$T_PID," | awk '{print $4}' | sed 's/.*://' | head -1)
                  [ -n "$T_PORT" ] && echo "@@$N discovered port=$T_PORT pid=$T_PID"
                fi
                if [ -z "$T_PORT" ] && [ -n "$T_PID" ]; then
                  T_PORT=$(tr '\\0' ' ' < "/proc/$T_PID/cmdline" 2>/dev/null | grep -oE -- '--port[= ][0-9]+' | grep -oE '[0-9]+$' | head -1)
                  [ -n "$T_PORT" ] && echo "@@$N discovered port=$T_PORT pid=$T_PID from its command line"
                fi
                if [ -z "$T_PORT" ]; then
                  case "$T_SERVER" in @DEFAULT_PORTS@ *) T_PORT=30000;; esac
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
                  [ "$1" = health ] && T_HEALTH=$(head -c 64 "$d/o")
                """.replace("@DEFAULT_PORTS@", defaultPorts()));
        b.append("  head -c ").append(MAX_OUT).append(" \"$d/o\" | base64 -w0; echo\n");
        b.append("  head -c ").append(MAX_ERR).append(" \"$d/e\" | base64 -w0; echo\n");
        b.append("}\n");
        b.append("T_LOOK_MS=").append(secondLookMs).append('\n');
        for (Probe p : probes) {
            if (isFirstLook(p)) {
                // the second look: only when a server process lives and health failed or was slow
                b.append("T_SECOND=\n");
                b.append("if [ \"$T_LOOK_MS\" -gt 0 ] && [ -n \"$T_PID\" ] && [ -d \"/proc/$T_PID\" ]; then\n");
                b.append("  case \"$T_HEALTH\" in\n");
                b.append("    2[0-9][0-9]\\ *) awk -v t=\"${T_HEALTH#* }\" 'BEGIN { exit !(t + 0 > ")
                        .append(SECOND_LOOK_SLOW).append(") }' && T_SECOND=1 ;;\n");
                b.append("    *) T_SECOND=1 ;;\n");
                b.append("  esac\n");
                b.append("fi\n");
                b.append("export T_PID T_LOOK_MS\n");
                b.append("[ -n \"$T_SECOND\" ] || echo \"@@$N skipped second_look (health answered in time, or no server process)\"\n");
            }
            if (isFirstLook(p) || isSecondLook(p)) {
                b.append("if [ -n \"$T_SECOND\" ]; then ");
            } else if (p.name().startsWith("log_")) {
                // a regular file, or one that does not exist (its absence is evidence); never a device or a pipe
                b.append("if [ -n \"$T_LOG\" ] && { [ -f \"$T_LOG\" ] || [ ! -e \"$T_LOG\" ]; }; then ");
            }
            b.append("p ").append(p.name()).append(' ').append(p.timeoutSeconds()).append(' ').append(quote(p.command()));
            b.append(p.name().startsWith("log_") || isFirstLook(p) || isSecondLook(p) ? "; fi\n" : "\n");
            if (isFirstLook(p)) {
                // the interval runs from the end of the first sample: the samples are at least that far apart
                b.append("T_LOOK_T0=$(( $(date +%s%N) / 1000000 )); export T_LOOK_T0\n");
            }
        }
        b.append("echo \"@@$N end\"\n");
        return b.toString();
    }

    private static boolean isFirstLook(Probe p) {
        return p.name().equals(FIRST_LOOK.name());
    }

    private static boolean isSecondLook(Probe p) {
        return p.name().equals(SECOND_LOOK.name());
    }

    /** The case arms that assume each known server kind's default port ({@code serves:} of its markers file). */
    private String defaultPorts() {
        StringBuilder b = new StringBuilder();
        filters.defaultPorts().forEach((kind, p) -> {
            if (SERVER_KIND.matcher(kind).matches() && p > 0 && p < 65536) {
                b.append(kind).append(") T_PORT=").append(p).append(";; ");
            }
        });
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
