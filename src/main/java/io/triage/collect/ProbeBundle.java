package io.triage.collect;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import io.triage.probe.ProbeCatalogue;
import io.triage.probe.ProbeFrames;
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

    /**
     * One probe as a bundle runs it: its name, the fixed command (reading {@code $T_PORT}, {@code $T_LOG}), its
     * timeout and the condition it runs under ({@link ProbeCatalogue.Entry}, with the generated filters in place).
     */
    public record Probe(String name, String command, int timeoutSeconds, ProbeCatalogue.When when) {
        public Probe(String name, String command, int timeoutSeconds) {
            this(name, command, timeoutSeconds, ProbeCatalogue.When.ALWAYS);
        }

        /** The command as a person would read it, with the target's values in place (for {@code .cmd}). */
        public String display(int port, String log) {
            return command.replace("\"$T_PORT\"", port > 0 ? String.valueOf(port) : "$T_PORT")
                    .replace("$T_PORT", port > 0 ? String.valueOf(port) : "$T_PORT")
                    .replace("\"$T_LOG\"", log == null || log.isEmpty() ? "$T_LOG" : log);
        }
    }

    /** Stand-ins of the catalogue's commands, filled here with the knowledge base's generated filters. */
    static final String SERVER_PROCESSES = ProbeCatalogue.SERVER_PROCESSES;
    static final String LISTED_PROCESSES = ProbeCatalogue.LISTED_PROCESSES;
    static final String HEALTH_PATH = ProbeCatalogue.HEALTH_PATH;
    static final String LOG_SELECTION = ProbeCatalogue.LOG_SELECTION;
    static final String SERIES_SELECT = ProbeCatalogue.SERIES_SELECT;
    static final String SERVER_WORDS_GREP = ProbeCatalogue.SERVER_WORDS_GREP;
    static final String SERVER_JOBS = ProbeCatalogue.SERVER_JOBS;
    static final String METRIC_SERIES = ProbeCatalogue.METRIC_SERIES;
    /** Newest lines of rare markers (arguments, starts, errors, ends) the log probe returns. */
    static final int RARE_LINES = 50;
    /** Newest lines of routine markers (requests, throughput) the log probe returns: the rules read the newest few. */
    static final int ROUTINE_LINES = 10;

    /**
     * Default time between the two samples of the moving signals, milliseconds. The probes between them
     * (GPUs, processes, log, kernel log) run inside this interval, so a look waits only what they leave.
     */
    public static final int SECOND_LOOK_MS = 5000;
    /** A 2xx health answer slower than this (seconds) also triggers the second look (the rules' "slow" is 2.0 s). */
    static final String SECOND_LOOK_SLOW = "1.0";

    /** Largest stdout kept from a supervisor probe, bytes ({@link ProbeCatalogue#SUPERVISOR_MAX_OUT}). */
    public static final int SUPERVISOR_MAX_OUT = ProbeCatalogue.SUPERVISOR_MAX_OUT;

    /** The first look's probes of the shipped catalogue (the capture format's standard ones and the server's counters). */
    public static final List<Probe> STANDARD = probes(ProbeCatalogue.SHIPPED.look(ProbeCatalogue.Look.FIRST));
    /** The first sample of the second look, taken right after the health probe when the second look is on. */
    public static final Probe FIRST_LOOK = probes(ProbeCatalogue.SHIPPED.look(ProbeCatalogue.Look.SECOND)).get(0);
    /** The second sample: waits until the interval since the first has passed, then samples again. */
    public static final Probe SECOND_LOOK = probes(ProbeCatalogue.SHIPPED.look(ProbeCatalogue.Look.SECOND)).get(1);
    /** The probes that run only when the first health answer and the discovered server process call for them. */
    public static final List<Probe> SECOND_LOOK_PROBES = List.of(FIRST_LOOK, SECOND_LOOK);
    /** Who runs the server ({@link ProbeCatalogue.Look#SUPERVISOR}). */
    public static final List<Probe> SUPERVISOR = probes(ProbeCatalogue.SHIPPED.look(ProbeCatalogue.Look.SUPERVISOR));
    /** Every probe a look runs when the second look is off: the standard ones, then who runs the server. */
    public static final List<Probe> ALL = java.util.stream.Stream.concat(STANDARD.stream(), SUPERVISOR.stream()).toList();

    private static List<Probe> probes(List<ProbeCatalogue.Entry> entries) {
        return entries.stream().map(e -> new Probe(e.name(), e.command(), e.timeoutSeconds(), e.when())).toList();
    }

    private final String server;
    private final int port;
    private final String log;
    private final List<Probe> probes;
    private final String nonce;
    private final HostFilters filters;
    private final int secondLookMs;
    private final ProbeCatalogue catalogue;
    /** The script's text around its nonce line, shared by every bundle {@link #renewed} from this one. */
    private final ScriptText text;

    /**
     * The script without its nonce line, made once and shared by renewed bundles: a sweep makes one bundle per
     * host, and quoting the generated filters into the script cost more CPU than the host's SSH handshake.
     */
    private static final class ScriptText {
        private volatile String[] parts; // before the nonce line, after it
        private volatile byte[][] bytes; // the same parts as UTF-8
    }

    private ProbeBundle(String server, int port, String log, String nonce, HostFilters filters, int secondLookMs,
                        ProbeCatalogue catalogue) {
        this.server = server;
        this.port = port;
        this.log = log;
        this.nonce = nonce;
        this.secondLookMs = secondLookMs;
        this.filters = filters;
        this.catalogue = catalogue;
        List<Probe> run = ordered(catalogue, secondLookMs > 0);
        this.probes = filters == null ? run : resolve(run, filters, server);
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
        this.catalogue = same.catalogue;
        this.probes = same.probes;
        this.text = same.text;
    }

    /**
     * The same bundle running another catalogue's probes (a site's build, or a test of a probe added to the
     * catalogue): its script, its reader and the lab all follow.
     */
    public ProbeBundle withCatalogue(ProbeCatalogue other) {
        return new ProbeBundle(server, port, log, newNonce(), filters, secondLookMs, other);
    }

    /** The catalogue the bundle's probes come from. */
    public ProbeCatalogue catalogue() {
        return catalogue;
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
        return new ProbeBundle(server, port, log, nonce, filters, ms, catalogue);
    }

    /** The same settings with a new nonce: one bundle per look. */
    public ProbeBundle renewed() {
        return new ProbeBundle(this, newNonce());
    }

    /** The second look's interval, milliseconds; 0 when it is off. */
    public int secondLookMs() {
        return secondLookMs;
    }

    /** The catalogue's probes in the order they run; the second look's two samples only when it is on. */
    static List<Probe> ordered(ProbeCatalogue catalogue, boolean secondLook) {
        return probes(catalogue.entries().stream().filter(e -> secondLook || e.when() != ProbeCatalogue.When.SECOND_LOOK).toList());
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
        return new ProbeBundle(s, p, l, newNonce(), null, SECOND_LOOK_MS, ProbeCatalogue.SHIPPED);
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
        return new ProbeBundle(server, port, log, newNonce(), filters, secondLookMs, catalogue);
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
                    .replace(HEALTH_PATH, ShellQuote.quote(f.healthPath(server)))
                    .replace(SERVER_WORDS_GREP, wordsGrep(f.serverWords()))
                    .replace(SERVER_JOBS, jobsFilter(f.serverWords()))
                    .replace(METRIC_SERIES, quote(String.join(" ", f.metricSeries())));
            out.add(new Probe(p.name(), c, p.timeoutSeconds(), p.when()));
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

    /** Lines holding any of the words, caselessly, each word a fixed string; with no word, no line. */
    static String wordsGrep(List<String> words) {
        if (words.isEmpty()) {
            return "head -c 0";
        }
        StringBuilder b = new StringBuilder("grep -i -F");
        for (String w : words) {
            b.append(" -e ").append(quote(w));
        }
        return b.toString();
    }

    /**
     * Of {@code sacct -P} lines ({@code |}-separated, the job name second), the header and the jobs whose name holds a
     * word, caselessly; the words reach awk through the environment ({@code -v} would read escapes in them) and are
     * compared with {@code index}, never as a pattern.
     */
    static String jobsFilter(List<String> words) {
        return "W=" + quote(String.join("|", words)) + " awk -F'|' 'BEGIN { n = split(ENVIRON[\"W\"], w, \"|\") }"
                + " NR == 1 { print; next } { s = tolower($2); for (i = 1; i <= n; i++) if (index(s, w[i])) { print; next } }'";
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

    /**
     * {@link #script()} as UTF-8, what is sent to a host: the text around the nonce line is encoded once and shared
     * by renewed bundles, so a sweep copies bytes per host instead of building and encoding the whole text again.
     */
    public byte[] scriptBytes() {
        byte[][] parts = text.bytes;
        if (parts == null) {
            script(); // makes the text's parts when this is the first script of its template
            String[] p = text.parts;
            parts = new byte[][] {p[0].getBytes(StandardCharsets.UTF_8), p[1].getBytes(StandardCharsets.UTF_8)};
            text.bytes = parts;
        }
        byte[] line = ("N=" + nonce + "\n").getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[parts[0].length + line.length + parts[1].length];
        System.arraycopy(parts[0], 0, all, 0, parts[0].length);
        System.arraycopy(line, 0, all, parts[0].length, line.length);
        System.arraycopy(parts[1], 0, all, parts[0].length + line.length, parts[1].length);
        return all;
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
        // the frames: one home for their format (the collector reads them, the lab writes them, with the same class)
        b.append(ProbeFrames.shellFunctions(MAX_OUT, MAX_ERR, "[ \"$1\" = health ] && T_HEALTH=$(head -c 64 \"$d/o\")"));
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
                  [ -n "$T_PID" ] && say "discovered pid=$T_PID listening on port=$T_PORT"
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
                  [ -n "$T_PORT" ] && say "discovered port=$T_PORT pid=$T_PID"
                fi
                if [ -z "$T_PORT" ] && [ -n "$T_PID" ]; then
                  T_PORT=$(tr '\\0' ' ' < "/proc/$T_PID/cmdline" 2>/dev/null | grep -oE -- '--port[= ][0-9]+' | grep -oE '[0-9]+$' | head -1)
                  [ -n "$T_PORT" ] && say "discovered port=$T_PORT pid=$T_PID from its command line"
                fi
                if [ -z "$T_PORT" ]; then
                  case "$T_SERVER" in @DEFAULT_PORTS@ *) T_PORT=30000;; esac
                  say "assumed port=$T_PORT"
                fi
                if [ -z "$T_LOG" ] && [ -n "$T_PID" ]; then
                  T_LOG=$(readlink "/proc/$T_PID/fd/1" 2>/dev/null)
                  T_LOG=${T_LOG% (deleted)}
                  # only a regular file: a terminal or a pipe behind stdout must never be read
                  if [ -f "$T_LOG" ]; then say "discovered log=$T_LOG pid=$T_PID"; else T_LOG=; fi
                fi
                export T_PORT T_LOG T_PID
                d=$(mktemp -d 2>/dev/null) || { d=/tmp/triage.$$.$N; (umask 077; mkdir "$d") || exit 1; }
                trap 'rm -rf "$d"' EXIT
                """.replace("@DEFAULT_PORTS@", defaultPorts()));
        b.append("T_LOOK_MS=").append(secondLookMs).append('\n');
        boolean sampled = false;
        for (Probe p : probes) {
            boolean second = p.when() == ProbeCatalogue.When.SECOND_LOOK;
            if (second && !sampled) {
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
                b.append("[ -n \"$T_SECOND\" ] || say \"skipped second_look (health answered in time, or no server process)\"\n");
            }
            String invocation = ProbeFrames.invocation(p.name(), p.timeoutSeconds(), quote(p.command()));
            switch (p.when()) {
                case SECOND_LOOK -> b.append("if [ -n \"$T_SECOND\" ]; then ").append(invocation).append("; fi\n");
                // a regular file, or one that does not exist (its absence is evidence); never a device or a pipe
                case LOG_FILE -> b.append("if [ -n \"$T_LOG\" ] && { [ -f \"$T_LOG\" ] || [ ! -e \"$T_LOG\" ]; }; then ")
                        .append(invocation).append("; fi\n");
                case ALWAYS -> b.append(invocation).append('\n');
            }
            if (second && !sampled) {
                // the interval runs from the end of the first sample: the samples are at least that far apart
                b.append("T_LOOK_T0=$(( $(date +%s%N) / 1000000 )); export T_LOOK_T0\n");
                sampled = true;
            }
        }
        b.append(ProbeFrames.END).append('\n');
        return b.toString();
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
