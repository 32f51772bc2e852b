package io.triage.probe;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Every probe a look can run, defined once: its name (which is also its capture file, {@code NAME.out}, and the
 * {@code probe-NAME} question of {@code texts.yaml} that asks for it), the shell it runs, its timeout, the look it
 * belongs to and the condition it runs under, and whether the capture format counts it among the standard probes.
 * The probe script ({@code ProbeBundle}), the collector's reader, the lab, the parsers' list of standard probes and
 * the rules' check of probe names all read this list; a new probe is one entry here.
 *
 * <p>Why Java and not a file of {@code knowledge-base/}: these commands run on every host a look reaches, so they are
 * part of the product, reviewed and shipped with it, never something a site overlay or a hot reload can change; and
 * they are templates, filled with the knowledge base's filters and the product's own limits ({@code @…@} stand-ins
 * that the script fills with shell-quoted, generated values). What the commands select (process names, log markers,
 * server words, metric series) stays knowledge, in {@code knowledge-base/}.
 *
 * <p>Commands read the target from shell variables only ({@code $T_PORT}, {@code $T_LOG}, {@code $T_PID},
 * {@code $T_OWNER}), which the script validates and assigns once; nothing a user types becomes part of a command.
 */
public final class ProbeCatalogue {
    /** Which look a probe belongs to. */
    public enum Look {
        /** The first look: the standard probes of the capture format and the server's own counters. */
        FIRST,
        /** The second look: the two samples of what moves, taken only when health is slow or failing. */
        SECOND,
        /** Who runs the server: its cgroup and the record of its unit, container or job. */
        SUPERVISOR
    }

    /** The condition the script runs a probe under. */
    public enum When {
        /** Always. */
        ALWAYS,
        /** When a log path is known and is a regular file or does not exist (never a device or a pipe). */
        LOG_FILE,
        /** When the second look is on, a server process lives and health failed or was slow. */
        SECOND_LOOK
    }

    /**
     * One probe.
     *
     * @param name its name: lower-case letters, digits and {@code _}; its capture file is {@code name.out}
     * @param look the look it belongs to
     * @param when the condition it runs under
     * @param command its shell, with {@code @…@} stand-ins for generated filters (see the constants of this class)
     * @param timeoutSeconds its timeout on the host, 1-60 s
     * @param standard whether the capture format counts it among the standard probes (a capture without it reports it
     *                 absent, unknown)
     */
    public record Entry(String name, Look look, When when, String command, int timeoutSeconds, boolean standard) {
        public Entry {
            if (!ProbeFrames.isName(name)) {
                throw new IllegalArgumentException("not a probe name: '" + name + "' (lower-case letters, digits, _)");
            }
            if (timeoutSeconds < 1 || timeoutSeconds > 60) {
                throw new IllegalArgumentException("probe " + name + ": timeout must be 1-60 s, not " + timeoutSeconds);
            }
            if (command == null || command.isBlank() || look == null || when == null) {
                throw new IllegalArgumentException("probe " + name + ": needs a command, a look and a condition");
            }
        }

        /** The file a capture keeps its standard output in. */
        public String file() {
            return name + ".out";
        }

        /** The question ({@code texts.yaml}) that asks for this probe when it is missing. */
        public String questionId() {
            return "probe-" + name;
        }
    }

    // ------------------------------------------------------------------ stand-ins filled by the script generator
    /** Stands, in a probe's command, for the generated ERE of server command lines ({@link io.triage.collect.HostFilters#serverEre}). */
    public static final String SERVER_PROCESSES = "@SERVER_PROCESSES@";
    /** Stands for the generated ERE of server and client command lines ({@link io.triage.collect.HostFilters#listingEre}). */
    public static final String LISTED_PROCESSES = "@LISTED_PROCESSES@";
    /** Stands for the health path of the target's server kind, quoted ({@link io.triage.collect.HostFilters#healthPath}). */
    public static final String HEALTH_PATH = "@HEALTH_PATH@";
    /** Stands for the generated selection of marker lines ({@link io.triage.collect.HostFilters#log}). */
    public static final String LOG_SELECTION = "@LOG_SELECTION@";
    /**
     * Stands for a filter of lines that hold a word naming a server ({@link io.triage.collect.HostFilters#serverWords}): {@code grep -i -F}
     * with each word as a fixed string, so no word is ever read as a pattern.
     */
    public static final String SERVER_WORDS_GREP = "@SERVER_WORDS_GREP@";
    /** Stands for a filter of {@code sacct -P} lines: the header, and the jobs whose name holds a server word. */
    public static final String SERVER_JOBS = "@SERVER_JOBS@";
    /** Stands for the second look's series ({@link io.triage.collect.HostFilters#metricSeries}) as one quoted, space-separated word. */
    public static final String METRIC_SERIES = "@METRIC_SERIES@";
    /**
     * Keeps the Prometheus sample lines whose series is one of {@code $M} by exact name (the name is the first
     * field up to its labels); no name is read as a pattern.
     */
    public static final String SERIES_SELECT = "'BEGIN { n = split(ENVIRON[\"M\"], a, \" \"); for (i = 1; i <= n; i++) want[a[i]] = 1 }"
            + " { s = $1; sub(/[{].*/, \"\", s); if (s in want) print }'";

    // ------------------------------------------------------------------ limits
    /** Largest stdout kept from a supervisor probe, bytes: a unit's status or one container's inspect fits. */
    public static final int SUPERVISOR_MAX_OUT = 64 << 10;
    /** Largest scrape of {@code /metrics} the {@code metrics} probe keeps, bytes. */
    public static final int METRICS_MAX_OUT = 128 << 10;

    // ------------------------------------------------------------------ commands too long for one line
    /**
     * The kernel log: plain {@code dmesg -T}; when that is refused (kernel.dmesg_restrict), {@code sudo -n} (which
     * fails at once rather than prompt, and stdin is /dev/null) and then the journal, plain and with sudo -n; the
     * first line then names what answered ({@link io.triage.parse.KernelLogSource}). Nothing is written.
     */
    public static final String DMESG = "o=$(dmesg -T 2>&1); rc=$?; case \"${o%%$'\\n'*}\" in *'Operation not permitted'*|"
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

    /**
     * One sample of what moves while a server works: its processes' states and CPU ticks
     * ({@code /proc/PID/stat} of the server and two generations of children), the log's size and last
     * line, GPU utilisation, the server's request gauges and token counters from {@code /metrics}, and the
     * bytes of unfinished weight downloads in the server's Hugging Face cache. Prints {@code key value}
     * lines; reads nothing but {@code /proc}, the log, nvidia-smi, the local {@code /metrics} and file sizes.
     */
    public static final String SAMPLE = String.join("\n",
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
                    + " | M=" + METRIC_SERIES + " awk " + SERIES_SELECT + " | head -64"
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

    /** The second sample: waits until the interval since the first ({@code $T_LOOK_T0}) has passed, then samples again. */
    public static final String WAIT_THEN_SAMPLE = String.join("\n",
            "w=$(( ${T_LOOK_MS:-0} - ( $(date +%s%N) / 1000000 - ${T_LOOK_T0:-0} ) ))",
            "[ \"$w\" -gt 0 ] && [ \"$w\" -le 30000 ] && sleep \"$(( w / 1000 )).$(printf '%03d' $(( w % 1000 )))\"",
            SAMPLE);

    // ------------------------------------------------------------------ the catalogue
    /** The probes of a look, in the order they run (the second look's two samples around the probes between them). */
    public static final ProbeCatalogue SHIPPED = new ProbeCatalogue(List.of(
            new Entry("date", Look.FIRST, When.ALWAYS, "date -Is; uptime", 5, true),
            new Entry("health", Look.FIRST, When.ALWAYS, "curl -sS -o /dev/null -w '%{http_code} %{time_total}\\n' --max-time 5 "
                    + "\"http://127.0.0.1:$T_PORT\"" + HEALTH_PATH, 10, true),
            // the first sample, right after the health answer that decides whether there is a second look
            new Entry("first_look", Look.SECOND, When.SECOND_LOOK, SAMPLE, 10, false),
            new Entry("gpus", Look.FIRST, When.ALWAYS, "nvidia-smi --query-gpu=index,name,memory.used,memory.total,utilization.gpu,"
                    + "power.draw,temperature.gpu,pstate --format=csv,noheader", 10, true),
            new Entry("gpu_apps", Look.FIRST, When.ALWAYS,
                    "nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv,noheader", 10, true),
            new Entry("pgrep", Look.FIRST, When.ALWAYS, "pgrep -fa " + SERVER_PROCESSES, 5, true),
            new Entry("ps", Look.FIRST, When.ALWAYS, "ps -eo pid,ppid,stat,etimes,rss,args | grep -E -e '^ *PID ' "
                    + "-e \"^ *${T_OWNER:--} \" -e " + LISTED_PROCESSES, 5, true),
            new Entry("log_tail", Look.FIRST, When.LOG_FILE, "tail -n 60 -- \"$T_LOG\"", 5, true),
            new Entry("log_markers", Look.FIRST, When.LOG_FILE, LOG_SELECTION, 10, true),
            new Entry("listen", Look.FIRST, When.ALWAYS, "ss -ltnp 2>/dev/null || netstat -ltnp", 5, true),
            new Entry("dmesg", Look.FIRST, When.ALWAYS, DMESG, 10, true),
            new Entry("nvidia_smi_full", Look.FIRST, When.ALWAYS, "nvidia-smi", 10, true),
            // why the clocks are down (thermal, power brake, a lowered power cap): rules/36-gpu-throttle.drl. Drivers from
            // 535 on print these fields as clocks_event_reasons.*; one that lacks a field gets the bitmask alone
            new Entry("gpu_throttle", Look.FIRST, When.ALWAYS, "nvidia-smi --query-gpu=index,clocks_throttle_reasons.active,"
                    + "clocks_throttle_reasons.sw_power_cap,clocks_throttle_reasons.hw_slowdown,"
                    + "clocks_throttle_reasons.hw_thermal_slowdown,clocks_throttle_reasons.hw_power_brake_slowdown,"
                    + "clocks_throttle_reasons.sw_thermal_slowdown,temperature.gpu,power.limit,power.default_limit,clocks.sm,"
                    + "clocks.max.sm --format=csv 2>/dev/null || nvidia-smi --query-gpu=index,clocks_throttle_reasons.active "
                    + "--format=csv", 10, true),
            // busy-hung: the server's own request counters; histogram buckets dropped, size capped
            new Entry("metrics", Look.FIRST, When.ALWAYS, "curl -sS --max-time 3 \"http://127.0.0.1:$T_PORT/metrics\" "
                    + "| grep -v -E '_bucket[{ ]' | head -c " + METRICS_MAX_OUT, 6, false),
            // who runs the server: read-only, each capped at SUPERVISOR_MAX_OUT; a tool the host lacks answers rc 127
            new Entry("cgroup", Look.SUPERVISOR, When.ALWAYS,
                    "[ -n \"$T_PID\" ] || exit 0; head -c 4096 \"/proc/$T_PID/cgroup\"", 5, false),
            new Entry("systemctl_status", Look.SUPERVISOR, When.ALWAYS, "command -v systemctl >/dev/null 2>&1 || exit 127\n"
                    + "if [ -n \"$T_PID\" ]; then systemctl status \"$T_PID\" --no-pager -l -n 20\n"
                    + "else systemctl list-units --all --type=service --no-pager --plain --no-legend 2>/dev/null"
                    + " | awk '$3 != \"active\" {print $1}' | " + SERVER_WORDS_GREP + " | head -3"
                    + " | xargs -r systemctl status --no-pager -l -n 20; fi | head -c " + SUPERVISOR_MAX_OUT, 10, false),
            new Entry("container_inspect", Look.SUPERVISOR, When.ALWAYS, "command -v docker >/dev/null 2>&1 || command -v podman >/dev/null 2>&1"
                    + " || command -v crictl >/dev/null 2>&1 || exit 127\n"
                    + "cg=; [ -n \"$T_PID\" ] && cg=$(head -c 4096 \"/proc/$T_PID/cgroup\" 2>/dev/null)\n"
                    + "id=$(printf '%s\\n' \"$cg\" | grep -oE '[0-9a-f]{64}' | tail -1); rt=\n"
                    + "case \"$cg\" in *kubepods*) rt=crictl;; *libpod*) rt=podman;; *docker*) rt=docker;; esac\n"
                    + "if [ -z \"$T_PID\" ]; then\n"
                    + "  for r in docker podman; do command -v $r >/dev/null 2>&1 || continue\n"
                    + "    id=$($r ps -a --no-trunc --format '{{.ID}} {{.Image}} {{.Command}}' 2>/dev/null"
                    + " | " + SERVER_WORDS_GREP + " | head -1 | cut -d' ' -f1)\n"
                    + "    [ -n \"$id\" ] && { rt=$r; break; }; done\n"
                    + "  if [ -z \"$rt\" ] && command -v crictl >/dev/null 2>&1; then\n"
                    + "    id=$(crictl ps -a 2>/dev/null | " + SERVER_WORDS_GREP + " | head -1 | awk '{print $1}')\n"
                    + "    [ -n \"$id\" ] && rt=crictl; fi\n"
                    + "fi\n"
                    + "[ -n \"$rt\" ] && [ -n \"$id\" ] || exit 0\n"
                    + "command -v \"$rt\" >/dev/null 2>&1 || exit 127\n"
                    + "echo \"# $rt\"; \"$rt\" inspect \"$id\" | head -c " + SUPERVISOR_MAX_OUT, 10, false),
            new Entry("sacct", Look.SUPERVISOR, When.ALWAYS, "command -v sacct >/dev/null 2>&1 || exit 127\n"
                    + "F=JobID,JobName,User,State,ExitCode,Start,End,Elapsed,Timelimit,NodeList\n"
                    + "j=; [ -n \"$T_PID\" ] && j=$(grep -oE 'job_[0-9]+' \"/proc/$T_PID/cgroup\" 2>/dev/null | head -1 | cut -d_ -f2)\n"
                    + "if [ -n \"$j\" ]; then sacct -j \"$j\" -P --format=$F\n"
                    + "elif [ -z \"$T_PID\" ]; then sacct -X -a -P -S now-24hours -N \"$(hostname -s)\" --format=$F 2>/dev/null"
                    + " | " + SERVER_JOBS
                    + " | { IFS= read -r h && printf '%s\\n' \"$h\"; tail -n 1; }\n"
                    + "fi | head -c " + SUPERVISOR_MAX_OUT, 15, false),
            // the second sample, last: the probes between the two run inside the interval
            new Entry("second_look", Look.SECOND, When.SECOND_LOOK, WAIT_THEN_SAMPLE, 45, false)));

    private final List<Entry> entries;

    /**
     * A catalogue of these probes, in the order they run.
     *
     * @throws IllegalArgumentException when two probes have one name
     */
    public ProbeCatalogue(List<Entry> entries) {
        Set<String> seen = new LinkedHashSet<>();
        for (Entry e : entries) {
            if (!seen.add(e.name())) {
                throw new IllegalArgumentException("two probes are named " + e.name());
            }
        }
        this.entries = List.copyOf(entries);
    }

    /** This catalogue with one more probe, run last of its look's neighbours (before the second sample). */
    public ProbeCatalogue plus(Entry e) {
        List<Entry> out = new ArrayList<>(entries);
        int at = out.size();
        if (!out.isEmpty() && out.get(at - 1).when() == When.SECOND_LOOK && e.when() != When.SECOND_LOOK) {
            at--;
        }
        out.add(at, e);
        return new ProbeCatalogue(out);
    }

    /** Every probe, in the order they run. */
    public List<Entry> entries() {
        return entries;
    }

    /** The probes of one look, in the order they run. */
    public List<Entry> look(Look look) {
        return entries.stream().filter(e -> e.look() == look).toList();
    }

    /** Every probe name. */
    public Set<String> names() {
        Set<String> n = new LinkedHashSet<>();
        entries.forEach(e -> n.add(e.name()));
        return n;
    }

    /** The names of the capture format's standard probes (one missing from a capture is reported absent). */
    public List<String> standardNames() {
        return entries.stream().filter(Entry::standard).map(Entry::name).toList();
    }

    /** The probe of this name. */
    public Optional<Entry> entry(String name) {
        return entries.stream().filter(e -> e.name().equals(name)).findFirst();
    }
}
