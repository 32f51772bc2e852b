package io.triage.capture;

import io.triage.knowledge.KnowledgeBase;
import io.triage.knowledge.LiteralIndex;
import io.triage.knowledge.Marker;
import io.triage.knowledge.ProcessPatterns;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads what a person pasted from a terminal — several commands' outputs, with or without the shell
 * prompts between them, cut at either end, with CRLF line ends, colour codes or a chat client's indent —
 * and files each recognised part under the probe name the parsers read, so that the same rules diagnose
 * it as a capture directory.
 *
 * <p>Segmentation: first by shell prompts ({@code $ cmd}, {@code user@host:~$ cmd}, {@code root@node:/# cmd},
 * {@code [user@host dir]$ cmd}, {@code (venv) …}); a prompt naming a known command decides what its output
 * is. Output without a prompt (or of a compound or unknown command) is cut by shape: a table border, a CSV
 * or {@code ps} header, kernel timestamps, syslog or ISO timestamps, traceback frames, the knowledge
 * base's log markers.
 *
 * <p>Limits, so that any input gives an answer: the last {@value #MAX_CHARS} characters and the last
 * {@value #MAX_LINES} lines are read (the end of a paste is where a log's news is); each line is cut to
 * {@value #MAX_LINE} characters before anything looks at it; what was cut is said in the notes. The
 * checks are plain per-line character tests, and the only regular expressions run are the knowledge
 * base's markers, on lines already cut. Never throws on text; a null paste is an empty one.
 */
public final class PasteRecognizer {
    /** Characters of a paste that are read: its last 4 Mi. */
    public static final int MAX_CHARS = 4 * 1024 * 1024;
    /** Lines of a paste that are read: its last 20,000. */
    public static final int MAX_LINES = 20_000;
    /** Characters of one line that are kept: 8 Ki. */
    public static final int MAX_LINE = 8 * 1024;

    /** What a part of a paste is, and the probe it is filed under. */
    public enum Kind {
        NVIDIA_SMI_TABLE("nvidia-smi table", "nvidia_smi_full"),
        GPU_CSV("nvidia-smi GPU query (CSV)", "gpus"),
        GPU_APPS_CSV("nvidia-smi compute-apps query (CSV)", "gpu_apps"),
        GPU_THROTTLE_CSV("nvidia-smi clock event reasons (CSV)", "gpu_throttle"),
        NVIDIA_SMI_QUERY("nvidia-smi -q report", "nvidia_smi_q"),
        PS("process list (ps)", "ps"),
        PGREP("process lines (pgrep -a)", "pgrep"),
        SERVER_LOG("server log", "log_tail"),
        TRACEBACK("Python traceback", "log_tail"),
        LOG_GREP("numbered log lines (grep -n)", "log_markers"),
        KERNEL_LOG("kernel log", "dmesg"),
        LISTENERS("listening sockets (ss/netstat)", "listen"),
        DOCKER_PS("docker ps", "docker_ps"),
        DOCKER_INSPECT("docker inspect", "docker_inspect"),
        DOCKER_LOGS("docker logs", "docker_logs"),
        HEALTH("health answer (curl)", "health"),
        /** A real request's answer (curl to a completion, chat or generate endpoint): whether the engine answers. */
        GENERATION("a real request's answer (curl)", "generate"),
        /** The server's model list ({@code /v1/models}, Ollama's {@code /api/tags}): the front end answered a request. */
        MODELS("model list (/v1/models)", "models"),
        SYSTEMCTL_STATUS("systemctl status", "systemctl_status"),
        JOURNAL("journal lines (journalctl)", "journal"),
        KUBECTL_DESCRIBE("kubectl describe", "kubectl_describe_pod"),
        KUBECTL_GET("kubectl get", "kubectl_get"),
        KUBECTL_LOGS("kubectl logs", "kubectl_logs"),
        // --- supervisors: the records the supervisor parsers read (rules/25-supervisors.drl)
        DOCKER_RUN("container launch errors (docker/podman run)", "docker_run"),
        CRICTL_PS("crictl ps", "crictl_ps"),
        CRICTL_INSPECT("crictl inspect", "crictl_inspect"),
        SACCT("Slurm accounting (sacct)", "sacct"),
        SCONTROL("Slurm job (scontrol show job)", "scontrol"),
        /** A client's error (an HTTP SDK's traceback or retries): what the caller saw, not the server's own log. */
        CLIENT_OUTPUT("a client's error output (not the server's log)", "client_output"),
        DATE("date / uptime", "date"),
        /** {@code /proc/PID/status} lines: a process's state and the signals waiting for it. */
        PROC_STATUS("process status (/proc/PID/status)", "proc_status"),
        /** The output of a command that nothing here reads; filed under the command's name. */
        COMMAND_OUTPUT("output of another command", "");

        private final String label;
        private final String probe;

        Kind(String label, String probe) {
            this.label = label;
            this.probe = probe;
        }

        public String label() {
            return label;
        }

        /** The probe name the parsers read it under ("" for {@link #COMMAND_OUTPUT}: named after the command). */
        public String probe() {
            return probe;
        }
    }

    /** How a segment was recognised. */
    public enum How { PROMPT, SHAPE }

    /** Where the journal lines inside a {@code systemctl status} go: a name the log parser reads. */
    static final String STATUS_JOURNAL_PROBE = "journal_status";

    private static final String MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";
    private static final Set<String> KNOWN_COMMANDS = Set.of("nvidia-smi", "ps", "pgrep", "dmesg", "journalctl",
            "ss", "netstat", "docker", "podman", "kubectl", "oc", "curl", "wget", "systemctl", "tail", "cat", "head",
            "less", "more", "grep", "egrep", "rg", "date", "uptime", "sudo", "watch", "free", "df", "top", "lsof",
            "python", "python3", "vllm", "sglang", "text-generation-launcher", "zcat", "tac", "ls", "uname", "env",
            "crictl", "sacct", "scontrol");

    private final ProcessPatterns processes;
    private final List<Marker> markers;
    /** Built when a text is first recognised (most captures have none to recognise): {@link #markerIndex()}. */
    private volatile LiteralIndex markerIndex;
    private final Set<String> reserved;

    /** Builds a recognizer from the knowledge base: its log markers and server process names. */
    public PasteRecognizer(KnowledgeBase kb) {
        this.processes = kb.processes();
        this.markers = kb.markers();
        java.util.HashSet<String> names = new java.util.HashSet<>(io.triage.parse.FactBuilder.STANDARD_PROBES);
        for (Kind k : Kind.values()) {
            names.add(k.probe());
        }
        names.add(STATUS_JOURNAL_PROBE);
        this.reserved = Set.copyOf(names);
    }

    /** The literal index of every marker, built once on first use (two threads at once may both build it: same index). */
    private LiteralIndex markerIndex() {
        LiteralIndex i = markerIndex;
        if (i == null) {
            i = new LiteralIndex(markers);
            markerIndex = i;
        }
        return i;
    }

    /** Whether this recognizer files what it recognises under the probe name {@code probe} (a name parsers read). */
    public boolean files(String probe) {
        return reserved.contains(probe);
    }

    // ------------------------------------------------------------------ the paste as lines

    /** One kept line: its text (colour codes and a final CR removed), and the text shapes are judged on. */
    private record Line(String text, String view, boolean cut) {
    }

    /** Everything learnt while reading one paste. */
    private static final class Work {
        final List<Line> lines = new ArrayList<>();
        int lineOffset;
        int totalLines;
        final List<String> notes = new ArrayList<>();
        Kind[] kinds;
        boolean[] prompt;
        final List<PasteSegment> segments = new ArrayList<>();
        final Map<PasteSegment, int[]> bodies = new HashMap<>();
        final Map<PasteSegment, String> commands = new HashMap<>();
        final Map<String, String> target = new LinkedHashMap<>();
        /** A command's exit status a later {@code echo $?} printed, by the line of the command's prompt. */
        final Map<Integer, Integer> exitStatus = new HashMap<>();
    }

    private static final com.google.re2j.Pattern PROC_STATUS_PATH = com.google.re2j.Pattern.compile("/proc/\\d{1,9}/status\\b");
    /** {@code echo $?}, {@code echo "rc=$?"}, {@code echo exit: $?}. */
    private static final com.google.re2j.Pattern ECHO_STATUS =
            com.google.re2j.Pattern.compile("echo\\s+[\"']?(?:[A-Za-z_]{1,12}\\s*[=:]\\s*)?\\$\\?[\"']?");
    private static final com.google.re2j.Pattern ECHOED_STATUS =
            com.google.re2j.Pattern.compile("(?:[A-Za-z_]{1,12}\\s*[=:]\\s*)?(\\d{1,3})");

    /** Recognises a paste; never throws on any text. */
    public Recognition recognise(String pastedText) {
        Work w = new Work();
        read(pastedText == null ? "" : pastedText, w);
        int n = w.lines.size();
        w.kinds = new Kind[n];
        w.prompt = new boolean[n];
        List<int[]> blocks = new ArrayList<>(); // {promptLine or -1, from, to}
        String[] commands = new String[n];
        int start = 0;
        int promptAt = -1;
        for (int i = 0; i < n; i++) {
            String cmd = promptCommand(w.lines.get(i).view());
            if (cmd != null) {
                w.prompt[i] = true;
                blocks.add(new int[] {promptAt, start, i - 1});
                promptAt = i;
                // a command continued on the next lines (a final backslash; the shell's "> " before each) is still
                // the command, not its output
                for (int more = 0; cmd.endsWith("\\") && i + 1 < n && more < MAX_CONTINUED && cmd.length() < MAX_COMMAND;
                        more++) {
                    i++;
                    w.prompt[i] = true;
                    String next = w.lines.get(i).view().strip();
                    if (next.startsWith("> ")) {
                        next = next.substring(2).strip();
                    }
                    cmd = cmd.substring(0, cmd.length() - 1).strip() + " " + next;
                }
                // a long command a chat client wrapped: the next line holds only more of its arguments (options,
                // a URL), not output
                if (i + 1 < n && wrappedArguments(w.lines.get(i + 1).view())
                        && w.lines.get(i).view().length() + 1 + firstWord(w.lines.get(i + 1).view()).length() > WRAP_WIDTH_MIN) {
                    i++;
                    w.prompt[i] = true;
                    cmd = cmd + " " + w.lines.get(i).view().strip();
                }
                commands[promptAt] = cmd;
                start = i + 1;
            }
        }
        blocks.add(new int[] {promptAt, start, n - 1});
        for (int b = 0; b < blocks.size(); b++) {
            int[] blk = blocks.get(b);
            boolean last = b == blocks.size() - 1;
            int status = b > 0 && blocks.get(b - 1)[0] >= 0 && blk[0] >= 0 ? echoedStatus(w, commands[blk[0]], blk[1], blk[2]) : -1;
            if (status >= 0) {
                // "echo $?" after a command: its one line is that command's exit status, read with it
                w.exitStatus.put(blocks.get(b - 1)[0], status);
                for (int i = blk[1]; i <= blk[2]; i++) {
                    w.prompt[i] = true;
                }
                continue;
            }
            block(w, blk[0], blk[0] < 0 ? null : commands[blk[0]], blk[1], blk[2], last);
        }
        w.segments.sort((a, c) -> Integer.compare(a.fromLine(), c.fromLine()));
        List<Recognition.LineRange> unread = unread(w);
        Capture capture = capture(w, unread);
        return new Recognition(capture, w.segments, unread, w.totalLines, w.notes);
    }

    /**
     * The exit status an {@code echo $?} (or {@code echo rc=$?}) printed on its one line of output, or -1 when the
     * command is not such an echo or its output is not one number.
     */
    private static int echoedStatus(Work w, String command, int from, int to) {
        if (command == null || !ECHO_STATUS.matcher(command.strip()).matches()) {
            return -1;
        }
        int status = -1;
        for (int i = from; i <= to; i++) {
            String v = w.lines.get(i).view().strip();
            if (v.isEmpty()) {
                continue;
            }
            com.google.re2j.Matcher m = ECHOED_STATUS.matcher(v);
            if (status >= 0 || !m.matches()) {
                return -1;
            }
            status = Integer.parseInt(m.group(1));
        }
        return status > 255 ? -1 : status;
    }

    private void read(String text, Work w) {
        int offset = 0;
        if (text.length() > MAX_CHARS) {
            int cut = text.length() - MAX_CHARS;
            int nl = text.indexOf('\n', cut);
            int from = nl < 0 ? cut : nl + 1;
            offset = count(text, '\n', 0, from);
            w.notes.add("the paste is " + text.length() + " characters; only its last " + (text.length() - from)
                    + " were read (from line " + (offset + 1) + ")");
            text = text.substring(from);
        }
        List<String> raw = new ArrayList<>();
        int s = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                raw.add(text.substring(s, i));
                s = i + 1;
            }
        }
        if (s < text.length()) {
            raw.add(text.substring(s));
        }
        w.totalLines = offset + raw.size();
        if (raw.size() > MAX_LINES) {
            int drop = raw.size() - MAX_LINES;
            w.notes.add("the paste has " + w.totalLines + " lines; only its last " + MAX_LINES
                    + " were read (from line " + (offset + drop + 1) + ")");
            raw = raw.subList(drop, raw.size());
            offset += drop;
        }
        w.lineOffset = offset;
        int cutLines = 0;
        boolean nul = false;
        List<String> clean = new ArrayList<>(raw.size());
        for (String r : raw) {
            String t = r;
            if (t.length() > MAX_LINE) {
                t = t.substring(0, MAX_LINE);
                cutLines++;
            }
            if (t.indexOf('\0') >= 0) {
                t = t.replace("\0", "");
                nul = true;
            }
            clean.add(stripAnsi(t));
        }
        if (cutLines > 0) {
            w.notes.add(cutLines + " pasted line(s) longer than " + MAX_LINE + " characters were cut to that length");
        }
        if (nul) {
            w.notes.add("the paste contains NUL characters (binary data?); they were dropped");
        }
        int indent = commonIndent(clean);
        if (indent > 0) {
            w.notes.add("a common indent of " + indent + " space(s) (a chat client's?) was removed from every line");
        }
        for (int i = 0; i < clean.size(); i++) {
            String t = clean.get(i);
            t = indent > 0 && t.length() >= indent ? t.substring(indent) : indent > 0 ? t.strip() : t;
            while (t.endsWith("\r")) {
                t = t.substring(0, t.length() - 1);
            }
            // a chat's code fence (```, ```bash) wraps a paste; it is neither output nor unread text
            String view = t.stripLeading().startsWith("```") ? "" : overwritten(t);
            w.lines.add(new Line(view.isEmpty() ? "" : t, view, raw.get(i).length() > MAX_LINE));
        }
    }

    private static int count(String s, char c, int from, int to) {
        int k = 0;
        for (int i = from; i < to; i++) {
            if (s.charAt(i) == c) {
                k++;
            }
        }
        return k;
    }

    /** Removes terminal escape sequences (CSI {@code ESC [ … final}, OSC {@code ESC ] … BEL}, two-byte ones). */
    static String stripAnsi(String s) {
        if (s.indexOf('\u001B') < 0 && s.indexOf('\u009B') < 0) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.length());
        int n = s.length();
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (c == '\u001B' && i + 1 < n && s.charAt(i + 1) == '[' || c == '\u009B') {
                i += c == '\u009B' ? 1 : 2;
                while (i < n && s.charAt(i) >= 0x20 && s.charAt(i) <= 0x3F) {
                    i++;
                }
                if (i < n && s.charAt(i) >= 0x40 && s.charAt(i) <= 0x7E) {
                    i++;
                }
            } else if (c == '\u001B' && i + 1 < n && s.charAt(i + 1) == ']') {
                i += 2;
                while (i < n && s.charAt(i) != '\u0007' && !(s.charAt(i) == '\u001B' && i + 1 < n
                        && s.charAt(i + 1) == '\\')) {
                    i++;
                }
                i += i < n && s.charAt(i) == '\u0007' ? 1 : 2;
            } else if (c == '\u001B') {
                i += 2;
            } else {
                b.append(c);
                i++;
            }
        }
        return b.toString();
    }

    /** Of a line that carriage returns overwrote (progress bars), the last non-blank part. */
    private static String overwritten(String t) {
        int cr = t.lastIndexOf('\r');
        String s = t;
        while (cr >= 0) {
            String tail = s.substring(cr + 1);
            if (!tail.isBlank()) {
                return tail;
            }
            s = s.substring(0, cr);
            cr = s.lastIndexOf('\r');
        }
        return s;
    }

    /** The number of leading spaces every non-blank line shares (a chat client's indent). */
    private static int commonIndent(List<String> lines) {
        int min = Integer.MAX_VALUE;
        for (String l : lines) {
            if (l.isBlank()) {
                continue;
            }
            int k = 0;
            while (k < l.length() && l.charAt(k) == ' ') {
                k++;
            }
            min = Math.min(min, k);
            if (min == 0) {
                return 0;
            }
        }
        return min == Integer.MAX_VALUE ? 0 : min;
    }

    // ------------------------------------------------------------------ prompts and commands

    /**
     * URL paths of requests the engine must work for (OpenAI's completions, chat, responses and embeddings, TGI's and
     * SGLang's generate, Triton's generate and infer, Ollama's generate, chat and embed, llama.cpp's completion), lower case.
     */
    /** A list object whose entries are models: {@code {"object": "list", "data": [{"id": …, "object": "model", …}]}}. */
    private static final com.google.re2j.Pattern MODEL_LIST = com.google.re2j.Pattern.compile(
            "\"object\"\\s*:\\s*\"list\".*\"object\"\\s*:\\s*\"model\"");

    private static final com.google.re2j.Pattern MODELS_PATH = com.google.re2j.Pattern.compile(
            "/v1/models/?(?:$|[?\\s])|/api/tags\\b");

    /**
     * The narrowest width a chat client wraps at (most wrap at 80 columns, some sooner): a line and the next line's
     * first word that would together pass it were one line cut in two.
     */
    private static final int WRAP_WIDTH_MIN = 72;

    /**
     * Whether a line is only arguments cut from the command line above it: every word an option ({@code --format=csv})
     * or the URL curl was to fetch ({@code localhost:8080/health}); output never looks like that.
     */
    static boolean wrappedArguments(String line) {
        String[] t = tokens(line.strip(), 16);
        if (t.length == 0 || line.startsWith(" ") || line.startsWith("\t")) {
            return false;
        }
        for (String a : t) {
            boolean option = a.startsWith("-") && a.length() > 1 && !Character.isDigit(a.charAt(1));
            boolean url = a.contains("://") || a.matches("(?:localhost|127\\.0\\.0\\.1|\\[::1\\]|[a-z0-9.-]+):\\d{2,5}(?:/\\S*)?");
            if (!option && !url) {
                return false;
            }
        }
        return true;
    }

    /** Characters of a command joined from continued lines, at most. */
    private static final int MAX_COMMAND = 8192;

    /** Lines one command may be continued over (a final backslash each). */
    private static final int MAX_CONTINUED = 32;

    private static final com.google.re2j.Pattern INFERENCE_PATH = com.google.re2j.Pattern.compile(
            "/v1/(?:chat/)?completions\\b|/v1/responses\\b|/v1/embeddings\\b|/generate(?:_stream)?\\b"
            + "|/v2/models/[^/\\s'\"]+(?:/versions/\\d+)?/(?:generate(?:_stream)?|infer)\\b|/api/(?:generate|chat|embed)\\b"
            + "|/completions?\\b|/infer\\b");

    /** The command a shell prompt line shows ("" for a bare prompt), or null when the line is not a prompt. */
    public static String promptCommand(String view) {
        String s = view.strip();
        if (s.isEmpty() || s.length() > 4096) {
            return null;
        }
        if (s.startsWith("(")) {
            int close = s.indexOf(") ");
            if (close > 0 && close < 64 && s.indexOf(' ') > close) {
                String rest = promptCommand(s.substring(close + 2));
                if (rest != null) {
                    return rest;
                }
            }
        }
        if (s.startsWith("\u279C")) { // oh-my-zsh: "➜  dir git:(main) cmd"
            String[] t = tokens(s.substring(1), 4);
            int c = t.length > 1 && t[1].startsWith("git:(") ? 2 : 1;
            if (t.length > c) {
                String cmd = s.substring(s.indexOf(t[c], s.indexOf(t[c - 1]) + t[c - 1].length()));
                return KNOWN_COMMANDS.contains(baseName(firstWord(cmd))) ? cmd.strip() : null;
            }
            return null;
        }
        int depth = 0;
        int limit = Math.min(s.length(), 200);
        for (int i = 0; i < limit; i++) {
            char c = s.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
            } else if (c == ' ' && depth <= 0) {
                if (i == 0) {
                    return null;
                }
                // "$ cmd" and "# cmd": the sign, then a space
                char p = s.charAt(i - 1);
                if (i == 1 && (p == '$' || p == '#' || p == '%' || p == '\u276F')) {
                    String cmd = s.substring(2).strip();
                    if (p == '$' && !cmd.isEmpty() && !Character.isDigit(cmd.charAt(0))) {
                        return cmd;
                    }
                    return KNOWN_COMMANDS.contains(baseName(firstWord(cmd))) ? cmd : null;
                }
                return promptAfter(s, i);
            }
        }
        if (s.indexOf(' ') < 0) {
            return promptAfter(s, s.length());
        }
        return null;
    }

    /** {@code s[0, end)} ends with a prompt sign; the prefix before it must look like user@host or a shell. */
    private static String promptAfter(String s, int end) {
        if (end < 2) {
            return null;
        }
        char sign = s.charAt(end - 1);
        if (sign != '$' && sign != '#' && sign != '%') {
            return null;
        }
        String prefix = s.substring(0, end - 1);
        boolean bracketed = prefix.startsWith("[") && prefix.endsWith("]") && prefix.indexOf('@') > 0;
        boolean userHost = prefix.indexOf('@') > 0 && prefix.indexOf(' ') < 0 && plainPrefix(prefix);
        boolean shell = (prefix.startsWith("bash-") || prefix.startsWith("sh-")) && prefix.indexOf(' ') < 0;
        if (!bracketed && !userHost && !shell) {
            return null;
        }
        return end >= s.length() ? "" : s.substring(end).strip();
    }

    private static boolean plainPrefix(String p) {
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (!(Character.isLetterOrDigit(c) || "@:~/._-+".indexOf(c) >= 0)) {
                return false;
            }
        }
        return true;
    }

    /** What a command's output is, or null for a compound command (its output is cut by shape). */
    Kind commandKind(String command) {
        List<String> parts = splitTop(command, ';', '&');
        // a loop over one command ("for i in 1 2 3; do curl …; done", "while true; do nvidia-smi; sleep 1; done"):
        // its output is that command's, once per round
        if (parts.size() >= 3 && parts.get(parts.size() - 1).strip().equals("done")) {
            String head = firstWord(parts.get(0));
            if (head.equals("for") || head.equals("while") || head.equals("until")) {
                List<String> body = new ArrayList<>();
                for (String p : parts.subList(1, parts.size() - 1)) {
                    String b = p.strip();
                    b = b.startsWith("do ") ? b.substring(3).strip() : b;
                    if (!firstWord(b).equals("sleep") && !firstWord(b).equals("echo") && !b.isEmpty()) {
                        body.add(b);
                    }
                }
                if (body.size() == 1) {
                    return commandKind(body.get(0));
                }
                return null;
            }
        }
        if (parts.size() > 1) {
            for (String p : parts) {
                String w = baseName(firstWord(unwrap(tokens(p, 64))));
                if (!w.equals("date") && !w.equals("uptime")) {
                    return null;
                }
            }
            return Kind.DATE;
        }
        String first = splitTop(command, '|', '|').get(0);
        String[] t = unwrap(tokens(first, 64));
        if (t.length == 0) {
            return Kind.COMMAND_OUTPUT;
        }
        String w = baseName(t[0]);
        String args = String.join(" ", t);
        if ((w.equals("cat") || w.equals("grep") || w.equals("egrep") || w.equals("head") || w.equals("tail"))
                && PROC_STATUS_PATH.matcher(args).find()) {
            return Kind.PROC_STATUS;
        }
        switch (w) {
            case "nvidia-smi":
                if (args.contains("--query-gpu") && (args.contains("clocks_throttle_reasons.")
                        || args.contains("clocks_event_reasons."))) {
                    return Kind.GPU_THROTTLE_CSV;
                }
                if (args.contains("--query-gpu")) {
                    return Kind.GPU_CSV;
                }
                if (args.contains("--query-compute-apps")) {
                    return Kind.GPU_APPS_CSV;
                }
                if (has(t, "-q") || has(t, "--query")) {
                    return Kind.NVIDIA_SMI_QUERY;
                }
                return t.length > 1 && !t[1].startsWith("-") ? Kind.COMMAND_OUTPUT : Kind.NVIDIA_SMI_TABLE;
            case "ps":
                return Kind.PS;
            case "pgrep":
                return Kind.PGREP;
            case "dmesg":
                return Kind.KERNEL_LOG;
            case "journalctl":
                return has(t, "-k") || has(t, "--dmesg") ? Kind.KERNEL_LOG : Kind.JOURNAL;
            case "ss":
            case "netstat":
                return Kind.LISTENERS;
            case "docker":
            case "podman":
            case "nerdctl": {
                String sub = sub(t);
                return switch (sub) {
                    case "ps" -> Kind.DOCKER_PS;
                    case "inspect" -> Kind.DOCKER_INSPECT;
                    case "logs" -> Kind.DOCKER_LOGS;
                    case "run", "start", "create", "compose" -> Kind.DOCKER_RUN;
                    default -> Kind.COMMAND_OUTPUT;
                };
            }
            case "crictl": {
                String sub = sub(t);
                return switch (sub) {
                    case "ps" -> Kind.CRICTL_PS;
                    case "inspect" -> Kind.CRICTL_INSPECT;
                    case "logs" -> Kind.KUBECTL_LOGS;
                    default -> Kind.COMMAND_OUTPUT;
                };
            }
            case "sacct":
                return Kind.SACCT;
            case "scontrol":
                return sub(t).equals("show") ? Kind.SCONTROL : Kind.COMMAND_OUTPUT;
            case "kubectl":
            case "oc": {
                String sub = sub(t);
                return switch (sub) {
                    case "describe" -> Kind.KUBECTL_DESCRIBE;
                    case "logs" -> Kind.KUBECTL_LOGS;
                    case "get" -> Kind.KUBECTL_GET;
                    default -> Kind.COMMAND_OUTPUT;
                };
            }
            case "curl":
            case "wget": {
                String lower = args.toLowerCase(Locale.ROOT);
                for (String u : tokens(lower.replace('\'', ' ').replace('"', ' '), 64)) {
                    // the URL's path, not an output file's name (-o completions.json)
                    if ((u.contains("://") || u.startsWith("localhost:") || u.startsWith("127.0.0.1:"))
                            && INFERENCE_PATH.matcher(u).find()) {
                        return Kind.GENERATION; // a request for work: what it got says whether the engine works
                    }
                }
                for (String u : tokens(lower.replace('\'', ' ').replace('"', ' '), 64)) {
                    if (u.contains("://") && MODELS_PATH.matcher(u).find()) {
                        return Kind.MODELS;
                    }
                }
                return lower.contains("health") ? Kind.HEALTH : Kind.COMMAND_OUTPUT;
            }
            case "systemctl":
                return sub(t).equals("status") ? Kind.SYSTEMCTL_STATUS : Kind.COMMAND_OUTPUT;
            case "date":
            case "uptime":
                return Kind.DATE;
            case "tail":
            case "cat":
            case "head":
            case "less":
            case "more":
            case "zcat":
            case "tac":
            case "grep":
            case "egrep":
            case "rg": {
                String low = args.toLowerCase(Locale.ROOT);
                if (low.contains("kern.log") || low.contains("dmesg")) {
                    return Kind.KERNEL_LOG;
                }
                if (!w.endsWith("grep") && !w.equals("rg") && SCRIPT_FILE.matcher(low).find()) {
                    return Kind.COMMAND_OUTPUT; // a job script, a unit file, a config: what was launched, not its log
                }
                if (w.endsWith("grep") || w.equals("rg")) {
                    for (String a : t) {
                        if (a.startsWith("-") && !a.startsWith("--") && a.indexOf('n') > 0) {
                            return Kind.LOG_GREP;
                        }
                    }
                }
                return Kind.SERVER_LOG;
            }
            default:
                return processes.classify(args).role().equals("frontend") ? Kind.SERVER_LOG : Kind.COMMAND_OUTPUT;
        }
    }

    private static boolean has(String[] t, String flag) {
        for (String a : t) {
            if (a.equals(flag)) {
                return true;
            }
        }
        return false;
    }

    /** The first argument after the tool's name that is not an option. */
    private static String sub(String[] t) {
        for (int i = 1; i < t.length; i++) {
            if (!t[i].startsWith("-")) {
                return t[i];
            }
        }
        return "";
    }

    /** Drops the wrappers before the real command: sudo, env, timeout N, time, nohup, watch, exec into a container. */
    private static String[] unwrap(String[] t) {
        int i = 0;
        while (i < t.length) {
            String w = baseName(t[i]);
            if (w.equals("sudo") || w.equals("time") || w.equals("nohup") || w.equals("env") || w.equals("watch")
                    || w.equals("stdbuf")) {
                i++;
                while (i < t.length && (t[i].startsWith("-") || t[i].indexOf('=') > 0
                        || (i > 0 && (t[i - 1].equals("-n") || t[i - 1].equals("-u")) && !KNOWN_COMMANDS.contains(t[i])))) {
                    i++;
                }
            } else if (w.equals("timeout")) {
                i++;
                while (i < t.length && t[i].startsWith("-")) {
                    i++;
                }
                i++; // the duration
            } else if ((w.equals("docker") || w.equals("podman") || w.equals("kubectl")) && i + 1 < t.length
                    && t[i + 1].equals("exec")) {
                int dash = -1;
                for (int k = i + 2; k < t.length; k++) {
                    if (t[k].equals("--")) {
                        dash = k;
                        break;
                    }
                }
                if (dash > 0) {
                    i = dash + 1;
                } else {
                    int k = i + 2;
                    while (k < t.length && t[k].startsWith("-")) {
                        k++;
                    }
                    i = k + 1; // the container's name, then its command
                }
            } else {
                break;
            }
        }
        if (i >= t.length) {
            return new String[0];
        }
        return java.util.Arrays.copyOfRange(t, i, t.length);
    }

    /** Splits at a separator that is not inside quotes ({@code ;} and {@code &&}, or {@code |} but not {@code ||}). */
    private static List<String> splitTop(String s, char sep, char sep2) {
        List<String> out = new ArrayList<>();
        char quote = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (sep == '|' && c == '|') {
                if (i + 1 < s.length() && s.charAt(i + 1) == '|') {
                    i++;
                    continue;
                }
                out.add(s.substring(start, i));
                start = i + 1;
            } else if (sep != '|' && (c == sep || (c == sep2 && i + 1 < s.length() && s.charAt(i + 1) == sep2))) {
                out.add(s.substring(start, i));
                start = c == sep ? i + 1 : i + 2;
                if (c != sep) {
                    i++;
                }
            }
        }
        out.add(s.substring(start));
        out.removeIf(String::isBlank);
        if (out.isEmpty()) {
            out.add("");
        }
        return out;
    }

    private static String firstWord(String s) {
        String[] t = tokens(s, 1);
        return t.length == 0 ? "" : t[0];
    }

    private static String firstWord(String[] t) {
        return t.length == 0 ? "" : t[0];
    }

    private static String baseName(String w) {
        int slash = w.lastIndexOf('/');
        return slash >= 0 ? w.substring(slash + 1) : w;
    }

    /** Up to {@code max} whitespace-separated tokens. */
    public static String[] tokens(String s, int max) {
        List<String> out = new ArrayList<>();
        int i = 0;
        int n = s.length();
        while (i < n && out.size() < max) {
            while (i < n && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            int st = i;
            while (i < n && !Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            if (i > st) {
                out.add(s.substring(st, i));
            }
        }
        return out.toArray(new String[0]);
    }

    // ------------------------------------------------------------------ blocks

    /** A prompt's output (or the text before the first prompt): one segment by the command, else by shape. */
    private void block(Work w, int promptLine, String command, int from, int to, boolean last) {
        int lastText = to;
        while (lastText >= from && w.lines.get(lastText).view().isBlank()) {
            lastText--;
        }
        Kind byCommand = command == null || command.isEmpty() ? null : commandKind(command);
        if (promptLine >= 0 && command != null && !command.isEmpty() && lastText < from) {
            if (last) {
                w.notes.add("the paste ends with the command '" + abbreviate(command) + "' and no output after it;"
                        + " it is not read as an empty output");
                return;
            }
            if (byCommand != null && byCommand != Kind.COMMAND_OUTPUT) {
                add(w, byCommand, How.PROMPT, command, promptLine, promptLine, from, from - 1);
            }
            return;
        }
        if (lastText < from) {
            return;
        }
        if (byCommand == Kind.GENERATION) {
            // what the request got is the generation's answer; its body is also read for what it says (an error body
            // names the failure the client saw), but its status line is not a health probe's
            int before = w.segments.size();
            shapes(w, from, lastText);
            List<PasteSegment> found = w.segments.subList(before, w.segments.size());
            for (PasteSegment seg : found) {
                if (seg.kind() == Kind.HEALTH) {
                    int[] b = w.bodies.remove(seg);
                    w.commands.remove(seg);
                    for (int i = b[0]; i <= b[1]; i++) {
                        w.kinds[i] = Kind.GENERATION;
                    }
                }
            }
            found.removeIf(seg -> seg.kind() == Kind.HEALTH);
            add(w, Kind.GENERATION, How.PROMPT, command, promptLine, lastText, from, lastText);
            for (int i = from; i <= lastText; i++) {
                if (w.kinds[i] == null) {
                    w.kinds[i] = Kind.GENERATION;
                }
            }
            return;
        }
        if (byCommand == Kind.NVIDIA_SMI_TABLE) {
            // the command as the paste kept it may have lost its query options (wrapped, cut): CSV output is a query's
            int first = from;
            while (first <= lastText && w.lines.get(first).view().isBlank()) {
                first++;
            }
            Kind csv = first <= lastText ? csvRow(w.lines.get(first).view().strip()) : null;
            if (csv != null) {
                byCommand = csv;
            }
        }
        if (byCommand != null && byCommand != Kind.COMMAND_OUTPUT) {
            add(w, byCommand, How.PROMPT, command, promptLine, lastText, from, lastText);
            for (int i = from; i <= lastText; i++) {
                w.kinds[i] = byCommand;
            }
            return;
        }
        int before = w.segments.size();
        shapes(w, from, lastText);
        if (w.segments.size() == before && byCommand == Kind.COMMAND_OUTPUT) {
            add(w, Kind.COMMAND_OUTPUT, How.PROMPT, command, promptLine, lastText, from, lastText);
            for (int i = from; i <= lastText; i++) {
                w.kinds[i] = Kind.COMMAND_OUTPUT;
            }
        }
    }

    private void add(Work w, Kind kind, How how, String command, int fromLine, int toLine, int bodyFrom, int bodyTo) {
        if ((kind == Kind.SERVER_LOG || kind == Kind.TRACEBACK) && clientOutput(w, bodyFrom, bodyTo)) {
            kind = Kind.CLIENT_OUTPUT;
            for (int i = bodyFrom; i <= bodyTo; i++) {
                w.kinds[i] = kind;
            }
        }
        String label = kind.label();
        if (kind == Kind.SERVER_LOG || kind == Kind.DOCKER_LOGS || kind == Kind.KUBECTL_LOGS || kind == Kind.JOURNAL) {
            String server = serverOf(w, bodyFrom, bodyTo);
            if (!server.isEmpty()) {
                label = label + " (" + server + ")";
            }
        }
        if (kind == Kind.COMMAND_OUTPUT && command != null) {
            label = "output of '" + abbreviate(command) + "'";
        }
        PasteSegment s = new PasteSegment(kind, label, fromLine + 1 + w.lineOffset, toLine + 1 + w.lineOffset, how,
                command == null ? null : abbreviate(command), probeName(kind, command));
        w.segments.add(s);
        w.bodies.put(s, new int[] {bodyFrom, bodyTo});
        if (command != null) {
            w.commands.put(s, command);
        }
    }

    private String probeName(Kind kind, String command) {
        if (kind != Kind.COMMAND_OUTPUT) {
            return kind.probe();
        }
        String word = command == null ? "" : baseName(firstWord(unwrap(tokens(command, 64))));
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < word.length() && b.length() < 32; i++) {
            char c = Character.toLowerCase(word.charAt(i));
            b.append(c < 128 && Character.isLetterOrDigit(c) ? c : '_');
        }
        String name = b.length() == 0 ? "command" : b.toString();
        return reserved.contains(name) || name.startsWith("log") || name.startsWith("journal") || name.endsWith("logs")
                || name.endsWith("_log") ? "cmd_" + name : name;
    }

    /**
     * Whether lines {@code from..to} are a client's output rather than a server's log: a traceback that ends in the
     * OpenAI Python library's timeout or connection error ({@code openai.APITimeoutError},
     * {@code openai.APIConnectionError}: what chat front ends and eval scripts call servers with), or Triton's client
     * library's deadline or no-connection status ({@code tritonclient.utils.InferenceServerException:
     * [StatusCode.DEADLINE_EXCEEDED]}, {@code [StatusCode.UNAVAILABLE] failed to connect…}), with no line of
     * a server's markers and no error a marker names. Those two errors say only that no answer came, or no
     * connection; the server's own log never raises them. An error status from the server
     * ({@code openai.InternalServerError: Error code: 500 - {…}}) carries the server's message and stays evidence.
     */
    /** Words a count is followed by in command output (ping, wc, ls, du): a number before them is no PID. */
    private static final java.util.Set<String> COUNTED = java.util.Set.of("bytes", "byte", "packets", "packet", "files",
            "file", "lines", "line", "errors", "error", "items", "entries", "rows", "processes", "requests", "tokens",
            "kb", "kib", "mb", "mib", "gb", "gib", "tb", "tib", "of", "%", "seconds", "secs", "ms", "minutes", "hours");

    private boolean clientOutput(Work w, int from, int to) {
        boolean sdk = false;
        for (int i = from; i <= to && i - from < 4000; i++) {
            String v = w.lines.get(i).view().strip();
            if (v.startsWith("openai.APITimeoutError:") || v.startsWith("openai.APIConnectionError:")
                    || v.startsWith("tritonclient.utils.InferenceServerException:") && tritonNoAnswer(v)) {
                sdk = true;
                break;
            }
        }
        if (!sdk || !serverOf(w, from, to).isEmpty()) {
            return false;
        }
        for (int i = from; i <= to && i - from < 4000; i++) {
            String text = w.lines.get(i).view();
            BitSet c = markerIndex().candidates(text);
            for (int m = c.nextSetBit(0); m >= 0; m = c.nextSetBit(m + 1)) {
                Marker mk = markers.get(m);
                if (mk.kind().equals("error") && mk.pattern().matcher(text).find()) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Whether Triton's client error says only that no answer came: the deadline passed, or no connection
     * ({@code [StatusCode.UNAVAILABLE] failed to connect…}). Triton's own messages also come as UNAVAILABLE
     * ("Request for unknown model", "Exceeds maximum queue size"): those are the server's evidence.
     */
    private static boolean tritonNoAnswer(String v) {
        if (v.contains("[StatusCode.DEADLINE_EXCEEDED]")) {
            return true;
        }
        String lower = v.toLowerCase(Locale.ROOT);
        return v.contains("[StatusCode.UNAVAILABLE]") && (lower.contains("failed to connect")
                || lower.contains("connection refused") || lower.contains("socket closed")
                || lower.contains("connect failed"));
    }

    /** The server kind whose own markers match most lines of a range, or "". */
    private String serverOf(Work w, int from, int to) {
        Map<String, Integer> votes = new HashMap<>();
        for (int i = from; i <= to && i - from < 2000; i++) {
            String text = w.lines.get(i).view();
            BitSet c = markerIndex().candidates(text);
            for (int m = c.nextSetBit(0); m >= 0; m = c.nextSetBit(m + 1)) {
                Marker mk = markers.get(m);
                if (!mk.server().equals("common") && mk.pattern().matcher(text).find()) {
                    votes.merge(mk.server(), 1, Integer::sum);
                    break;
                }
            }
        }
        return votes.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse("");
    }

    // ------------------------------------------------------------------ shapes

    /** Cuts lines {@code from..to} by shape into segments; lines of no known shape stay unread. */
    private void shapes(Work w, int from, int to) {
        Kind[] k = w.kinds;
        int i = from;
        Kind prev = null;
        int psPidCol = -1;
        int csvFields = -1;
        while (i <= to) {
            String v = w.lines.get(i).view();
            if (v.isBlank()) {
                i++;
                continue;
            }
            int end = multiLine(w, i, to);
            if (end >= i) {
                prev = k[i];
                i = end + 1;
                psPidCol = -1;
                csvFields = -1;
                continue;
            }
            String s = v.strip();
            Kind kind = null;
            String[] tok = tokens(s, 16);
            if (psPidCol >= 0 && prev == Kind.PS && tok.length > psPidCol && digits(tok[psPidCol])) {
                kind = Kind.PS;
            } else if (csvFields > 0 && (prev == Kind.GPU_CSV || prev == Kind.GPU_APPS_CSV)
                    && fields(s) == csvFields && !s.startsWith("[")) {
                kind = prev;
            } else if (psHeader(tok)) {
                kind = Kind.PS;
                psPidCol = indexOf(tok, "PID");
            } else if (gpuCsvHeader(s)) {
                kind = s.toLowerCase(Locale.ROOT).startsWith("pid") || s.contains("used_gpu_memory")
                        || s.contains("process_name") ? Kind.GPU_APPS_CSV : Kind.GPU_CSV;
                csvFields = fields(s);
            } else if (prev == Kind.TRACEBACK && v.length() > 0 && Character.isWhitespace(v.charAt(0))) {
                kind = Kind.TRACEBACK; // the source line under a frame
            } else {
                kind = lineKind(s, tok, prev);
                if (kind == Kind.GPU_CSV || kind == Kind.GPU_APPS_CSV) {
                    csvFields = fields(s);
                }
            }
            k[i] = kind;
            if (kind != null) {
                prev = kind;
            }
            i++;
        }
        // a date line right above an nvidia-smi table is the table's first line
        for (int j = from; j <= to; j++) {
            if (k[j] == null && plainDate(w.lines.get(j).view().strip())) {
                int nx = nextText(w, j + 1, to);
                if (nx >= 0 && k[nx] == Kind.NVIDIA_SMI_TABLE) {
                    k[j] = Kind.NVIDIA_SMI_TABLE;
                }
            }
        }
        absorb(w, from, to);
        group(w, from, to);
    }

    /** Constructs that span lines of many shapes; returns the last line taken, or -1. */
    private int multiLine(Work w, int i, int to) {
        String s = w.lines.get(i).view().strip();
        Kind[] k = w.kinds;
        if (s.startsWith("Name:")) {
            boolean ns = false;
            for (int j = i + 1, seen = 0; j <= to && seen < 4; j++) {
                String t = w.lines.get(j).view().strip();
                if (t.isEmpty()) {
                    continue;
                }
                seen++;
                ns |= t.startsWith("Namespace:");
            }
            if (ns) {
                return fill(k, i, describeEnd(w, i, to), Kind.KUBECTL_DESCRIBE);
            }
        }
        if (statusStart(s)) {
            return fill(k, i, statusEnd(w, i, to), Kind.SYSTEMCTL_STATUS);
        }
        if (s.equals("{")) {
            // crictl inspect: one object whose first member is the CRI "status"
            int nx = nextText(w, i + 1, to);
            if (nx >= 0 && w.lines.get(nx).view().strip().startsWith("\"status\": {")) {
                int j = nx;
                while (j <= to && !w.lines.get(j).view().equals("}")) {
                    j++;
                }
                return fill(k, i, Math.min(j, to), Kind.CRICTL_INSPECT);
            }
        }
        if (s.equals("[")) {
            int nx = nextText(w, i + 1, to);
            if (nx >= 0 && w.lines.get(nx).view().strip().equals("{")) {
                int j = nx;
                while (j <= to && !w.lines.get(j).view().strip().equals("]")) {
                    j++;
                }
                return fill(k, i, Math.min(j, to), Kind.DOCKER_INSPECT);
            }
        }
        if (s.startsWith("HTTP/") && s.length() >= 10) {
            String[] t = tokens(s, 3);
            if (t.length >= 2 && t[1].length() == 3 && digits(t[1])) {
                int j = i + 1;
                while (j <= to && headerLine(w.lines.get(j).view())) {
                    j++;
                }
                int end = j - 1;
                if (j <= to && w.lines.get(j).view().isBlank()) {
                    int body = j + 1;
                    if (body <= to && !w.lines.get(body).view().isBlank() && promptCommand(w.lines.get(body).view()) == null
                            && lineKind(w.lines.get(body).view().strip(), tokens(w.lines.get(body).view(), 16), null) == null
                            && w.lines.get(body).view().length() < 512) {
                        end = body;
                    }
                }
                return fill(k, i, end, Kind.HEALTH);
            }
        }
        if (s.startsWith("NAME ") && (s.contains(" READY") || s.contains(" STATUS"))
                || s.startsWith("LAST SEEN ") && s.contains(" REASON")) {
            int j = i + 1;
            while (j <= to && !w.lines.get(j).view().isBlank() && tokens(w.lines.get(j).view(), 3).length >= 3
                    && lineKind(w.lines.get(j).view().strip(), tokens(w.lines.get(j).view(), 16), null) == null) {
                j++;
            }
            return fill(k, i, j - 1, Kind.KUBECTL_GET);
        }
        return -1;
    }

    private static int fill(Kind[] k, int from, int to, Kind kind) {
        for (int j = from; j <= to; j++) {
            k[j] = kind;
        }
        return to;
    }

    private static boolean headerLine(String v) {
        int colon = v.indexOf(": ");
        if (colon <= 0 || colon > 64) {
            return false;
        }
        for (int i = 0; i < colon; i++) {
            char c = v.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '-' || c == '_')) {
                return false;
            }
        }
        return true;
    }

    /** kubectl describe: key lines at the margin, indented lines and blanks, until a line of another shape. */
    private int describeEnd(Work w, int i, int to) {
        int last = i;
        for (int j = i + 1; j <= to; j++) {
            String v = w.lines.get(j).view();
            if (v.isBlank()) {
                continue;
            }
            if (Character.isWhitespace(v.charAt(0)) || keyLine(v)) {
                last = j;
            } else {
                break;
            }
        }
        return last;
    }

    private static boolean keyLine(String v) {
        int colon = v.indexOf(':');
        if (colon <= 0 || colon > 48) {
            return false;
        }
        for (int i = 0; i < colon; i++) {
            char c = v.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == ' ' || c == '-' || c == '.' || c == '_' || c == '/')) {
                return false;
            }
        }
        return colon + 1 == v.length() || v.charAt(colon + 1) == ' ';
    }

    private static boolean statusStart(String s) {
        if (s.length() > 2 && "\u25CF\u25CB\u00D7\u21BB*".indexOf(s.charAt(0)) >= 0 && s.charAt(1) == ' ') {
            String[] t = tokens(s.substring(2), 2);
            return t.length > 0 && (t[0].endsWith(".service") || t[0].endsWith(".scope"));
        }
        return s.startsWith("Loaded: loaded (") || s.startsWith("Loaded: not-found");
    }

    /** systemctl status: indented key and tree lines, then its journal excerpt. */
    private int statusEnd(Work w, int i, int to) {
        int last = i;
        boolean journal = false;
        for (int j = i + 1; j <= to; j++) {
            String v = w.lines.get(j).view();
            if (v.isBlank()) {
                continue;
            }
            String s = v.strip();
            if (!journal && (Character.isWhitespace(v.charAt(0)) || s.startsWith("\u2514") || s.startsWith("\u251C")
                    || s.startsWith("\u2502") || keyLine(s))) {
                last = j;
            } else if (journalProgram(tokens(s, 6)) != null && !"kernel:".equals(journalProgram(tokens(s, 6)))) {
                journal = true;
                last = j;
            } else {
                break;
            }
        }
        return last;
    }

    /** Unknown lines inside a log (between two log lines, or indented right after one) belong to it. */
    private void absorb(Work w, int from, int to) {
        Kind[] k = w.kinds;
        int i = from;
        while (i <= to) {
            if (k[i] != null || w.lines.get(i).view().isBlank()) {
                i++;
                continue;
            }
            int a = i;
            int b = i;
            while (b + 1 <= to && (k[b + 1] == null)) {
                b++;
            }
            while (b > a && w.lines.get(b).view().isBlank()) {
                b--;
            }
            Kind before = a > from ? kindBefore(w, a - 1, from) : null;
            Kind after = b < to ? kindAfter(w, b + 1, to) : null;
            Kind fill = null;
            if (logLike(before) && logLike(after)) {
                fill = before == Kind.JOURNAL && after == Kind.JOURNAL ? Kind.JOURNAL : Kind.SERVER_LOG;
            } else if (before == Kind.SERVER_LOG || before == Kind.TRACEBACK) {
                boolean indented = true;
                for (int j = a; j <= b; j++) {
                    String v = w.lines.get(j).view();
                    indented &= v.isBlank() || Character.isWhitespace(v.charAt(0)) || closing(v.strip());
                }
                fill = indented ? before : null;
            }
            if (fill != null) {
                for (int j = a; j <= b; j++) {
                    if (!w.lines.get(j).view().isBlank()) {
                        k[j] = fill;
                    }
                }
            }
            i = b + 1;
        }
    }

    /** The end of a multi-line structure a log line opened: {@code }}, {@code )}, {@code ]}, {@code }),}. */
    private static boolean closing(String s) {
        if (s.isEmpty() || s.length() > 4) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if ("})],;".indexOf(s.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean logLike(Kind k) {
        return k == Kind.SERVER_LOG || k == Kind.TRACEBACK || k == Kind.JOURNAL;
    }

    private static Kind kindBefore(Work w, int j, int from) {
        for (; j >= from; j--) {
            if (!w.lines.get(j).view().isBlank()) {
                return w.kinds[j];
            }
        }
        return null;
    }

    private static Kind kindAfter(Work w, int j, int to) {
        for (; j <= to; j++) {
            if (!w.lines.get(j).view().isBlank()) {
                return w.kinds[j];
            }
        }
        return null;
    }

    private static int nextText(Work w, int j, int to) {
        for (; j <= to; j++) {
            if (!w.lines.get(j).view().isBlank()) {
                return j;
            }
        }
        return -1;
    }

    /** Runs of one kind (blank lines inside kept; a traceback inside a log is the log's) become segments. */
    private void group(Work w, int from, int to) {
        Kind[] k = w.kinds;
        int i = from;
        while (i <= to) {
            if (k[i] == null) {
                i++;
                continue;
            }
            Kind kind = k[i];
            int a = i;
            int b = i;
            boolean log = false;
            for (int j = i + 1; j <= to; j++) {
                if (w.lines.get(j).view().isBlank()) {
                    continue;
                }
                if (k[j] == kind || (bothLog(kind, k[j]))) {
                    b = j;
                    log |= k[j] == Kind.SERVER_LOG;
                } else {
                    break;
                }
            }
            if (kind == Kind.TRACEBACK && log) {
                kind = Kind.SERVER_LOG;
            }
            for (int j = a; j <= b; j++) {
                if (k[j] != null) {
                    k[j] = kind;
                }
            }
            add(w, kind, How.SHAPE, null, a, b, a, b);
            i = b + 1;
        }
    }

    private static boolean bothLog(Kind a, Kind b) {
        return (a == Kind.SERVER_LOG || a == Kind.TRACEBACK) && (b == Kind.SERVER_LOG || b == Kind.TRACEBACK);
    }

    /** The kind one line's shape says, or null. */
    private Kind lineKind(String s, String[] tok, Kind prev) {
        if (s.isEmpty()) {
            return null;
        }
        Kind supervisor = supervisorLine(s, tok, prev);
        if (supervisor != null) {
            return supervisor;
        }
        if (dmesgLine(s) || s.startsWith("dmesg: ")) {
            return Kind.KERNEL_LOG;
        }
        String prog = journalProgram(tok);
        if (prog != null) {
            return prog.equals("kernel:") ? Kind.KERNEL_LOG : Kind.JOURNAL;
        }
        if (tableLine(s)) {
            return Kind.NVIDIA_SMI_TABLE;
        }
        String low = s.toLowerCase(Locale.ROOT);
        if (low.startsWith("nvidia-smi has failed") || low.startsWith("failed to initialize nvml")
                || low.startsWith("no devices were found") || low.contains("unable to determine the device handle")) {
            return Kind.NVIDIA_SMI_TABLE;
        }
        Kind csv = csvRow(s);
        if (csv != null) {
            return csv;
        }
        if (s.startsWith("CONTAINER ID") || (tok.length >= 3 && tok[0].length() == 12 && hex(tok[0]) && s.contains("  "))) {
            return Kind.DOCKER_PS;
        }
        if ((s.startsWith("State") || s.startsWith("Netid") || s.startsWith("Proto")) && s.contains("Recv-Q")
                || s.startsWith("Active Internet connections")) {
            return Kind.LISTENERS;
        }
        if (tok.length >= 4 && (tok[0].equals("LISTEN") || tok[0].equals("tcp") || tok[0].equals("tcp6")
                || tok[0].equals("udp") || tok[0].equals("UNCONN")) && s.indexOf(':') > 0) {
            return Kind.LISTENERS;
        }
        if (tok.length >= 2 && digits(tok[0])) {
            if (psAuxRow(tok) || (tok.length >= 5 && digits(tok[1]) && !digits(tok[2]))) {
                return Kind.PS;
            }
            if (tok.length == 2 && tok[1].contains(".") && decimal(tok[1]) && tok[0].length() == 3) {
                return Kind.HEALTH; // curl -w '%{http_code} %{time_total}'
            }
            // bash's history prints "  514  vllm serve …", its number and two spaces: a command once typed, not a process;
            // a count of things ("3 packets transmitted, 0 received", "64 bytes from …", "12 files") is no process either
            if (!digits(tok[1]) && tok[1].indexOf(',') < 0 && !s.startsWith(tok[0] + "  ")
                    && !COUNTED.contains(tok[1].toLowerCase(java.util.Locale.ROOT))
                    && (tok[0].length() >= 2 || tok[1].startsWith("/"))) {
                return Kind.PGREP;
            }
        }
        if (tok.length >= 11 && digits(tok[1]) && psAuxRow(java.util.Arrays.copyOfRange(tok, 1, tok.length))) {
            return Kind.PS;
        }
        if (psAuxRowWithUser(tok)) {
            return Kind.PS;
        }
        if (s.startsWith("curl: (")) {
            return Kind.HEALTH;
        }
        if (s.startsWith("{") && MODEL_LIST.matcher(s).find()) {
            return Kind.MODELS; // an OpenAI-compatible server's model list, printed on one line, spaced or not
        }
        if (isoInstantLine(s) || (s.contains(" up ") && s.contains("load average"))) {
            return Kind.DATE;
        }
        if (plainDate(s) && tokens(s, 7).length == 6) {
            return Kind.DATE; // date's own format, with its zone (nvidia-smi's header line has none)
        }
        if (tracebackLine(s)) {
            return Kind.TRACEBACK;
        }
        if (numberedLine(s) || (prev == Kind.LOG_GREP && numbered(s) > 0)) {
            return Kind.LOG_GREP;
        }
        if (logLine(s)) {
            return Kind.SERVER_LOG;
        }
        return null;
    }

    /**
     * A line of a supervisor's record: {@code sacct}'s header and rows, {@code scontrol show job}'s
     * {@code key=value} lines, {@code crictl ps}'s header and rows (13-hex ids), a container runtime's refusal,
     * {@code slurmstepd}'s lines in a job's output (the server's log).
     */
    private static Kind supervisorLine(String s, String[] tok, Kind prev) {
        if (s.startsWith("JobID") && (s.contains("State") || s.indexOf('|') > 0)) {
            return Kind.SACCT;
        }
        if (prev == Kind.SACCT && (s.startsWith("---") || !s.isEmpty() && Character.isDigit(s.charAt(0)))) {
            return Kind.SACCT;
        }
        if (s.startsWith("JobId=") || prev == Kind.SCONTROL && tok.length > 0 && tok[0].indexOf('=') > 0) {
            return Kind.SCONTROL;
        }
        if (s.startsWith("CONTAINER ") && s.contains(" ATTEMPT")
                || tok.length >= 5 && tok[0].length() == 13 && hex(tok[0]) && s.contains("  ")) {
            return Kind.CRICTL_PS;
        }
        if (s.startsWith("docker: Error response from daemon:") || s.startsWith("Error response from daemon:")
                || s.startsWith("nvidia-container-cli: ") || s.startsWith("Error: crun: ")
                || s.startsWith("Error: OCI runtime error:")) {
            return Kind.DOCKER_RUN;
        }
        if (s.startsWith("slurmstepd: ") || s.startsWith("srun: error: ") || s.startsWith("srun: Job step aborted")) {
            return Kind.SERVER_LOG;
        }
        return null;
    }

    /** {@code [  123.456789] …} (dmesg) or {@code [Mon Nov 30 00:30:28 2026] …} (dmesg -T). */
    static boolean dmesgLine(String s) {
        if (s.length() < 4 || s.charAt(0) != '[') {
            return false;
        }
        int close = s.indexOf(']');
        if (close < 0 || close > 40) {
            return false;
        }
        String in = s.substring(1, close).strip();
        int dot = in.indexOf('.');
        if (dot > 0 && digits(in.substring(0, dot)) && digits(in.substring(dot + 1))) {
            return true;
        }
        String[] t = tokens(in, 6);
        return (t.length == 5 && digits(t[4]) && t[4].length() == 4 || t.length == 4) && month(t[1]) && digits(t[2])
                && clock(t[3]);
    }

    /**
     * The program field of a journal line ({@code Nov 30 10:00:01 host prog[pid]: …} or
     * {@code 2026-11-30T10:00:01+0000 host prog[pid]: …}), or null when the line is not one.
     */
    static String journalProgram(String[] t) {
        if (t.length >= 5 && month(t[0]) && t[1].length() <= 2 && digits(t[1]) && clock(t[2]) && t[4].endsWith(":")) {
            return t[4];
        }
        if (t.length >= 3 && t[0].length() >= 19 && isoAt(t[0], 0) && t[0].charAt(10) == 'T' && t[2].endsWith(":")
                && (t[2].equals("kernel:") || t[2].endsWith("]:"))) {
            return t[2];
        }
        return null;
    }

    private static boolean tableLine(String s) {
        String r = s.stripTrailing();
        if (r.length() < 3) {
            return false;
        }
        char a = r.charAt(0);
        char z = r.charAt(r.length() - 1);
        boolean edges = (a == '|' || a == '+') && (z == '|' || z == '+');
        return (a == '|' && z == '|') || (edges && (r.charAt(1) == '-' || r.charAt(1) == '='))
                || (a == '|' && (r.charAt(1) == '=' || r.startsWith("| NVIDIA-SMI")));
    }

    private static boolean gpuCsvHeader(String s) {
        String low = s.toLowerCase(Locale.ROOT);
        if (low.indexOf(',') < 0) {
            return false;
        }
        return low.startsWith("index,") || low.startsWith("index ,") || low.contains("memory.used")
                || low.contains("utilization.gpu") || low.contains("memory.total")
                || (low.startsWith("pid,") && (low.contains("process_name") || low.contains("used_gpu_memory")));
    }

    /** A --query-gpu or --query-compute-apps CSV row: an integer first, then a name, then numbers with units. */
    private static Kind csvRow(String s) {
        if (s.indexOf(',') < 0) {
            return null;
        }
        String[] f = s.split(",", 64);
        if (f.length < 3 || !digits(f[0].strip()) || f[1].isBlank() || numberish(f[1].strip())) {
            return null;
        }
        int numbers = 0;
        for (int i = 2; i < f.length; i++) {
            if (numberish(f[i].strip())) {
                numbers++;
            }
        }
        if (f.length == 3 && numbers == 1) {
            return Kind.GPU_APPS_CSV;
        }
        return f.length >= 4 && numbers * 2 >= f.length - 2 ? Kind.GPU_CSV : null;
    }

    private static int fields(String s) {
        return s.split(",", 64).length;
    }

    /** "2 MiB", "0 %", "31.20 W", "30", "P0", "[N/A]", "ERR!", "N/A". */
    private static boolean numberish(String v) {
        if (v.equals("[N/A]") || v.equals("N/A") || v.equals("ERR!") || v.startsWith("[") || v.equals("Enabled")
                || v.equals("Disabled") || v.equals("Default")) {
            return true;
        }
        if (v.length() >= 2 && v.charAt(0) == 'P' && digits(v.substring(1))) {
            return true;
        }
        String[] t = tokens(v, 3);
        return t.length >= 1 && t.length <= 2 && decimal(t[0]);
    }

    private static boolean psHeader(String[] tok) {
        return tok.length >= 2 && indexOf(tok, "PID") >= 0 && (indexOf(tok, "COMMAND") >= 0 || indexOf(tok, "CMD") >= 0
                || indexOf(tok, "ARGS") >= 0 || indexOf(tok, "STAT") >= 0 || indexOf(tok, "ELAPSED") >= 0);
    }

    /** {@code ps aux} without the user: pid %cpu %mem vsz rss tty stat start time command. */
    private static boolean psAuxRow(String[] t) {
        return t.length >= 10 && digits(t[0]) && decimal(t[1]) && t[1].contains(".") && decimal(t[2]) && digits(t[3])
                && digits(t[4]);
    }

    private static boolean psAuxRowWithUser(String[] t) {
        return t.length >= 11 && !digits(t[0]) && digits(t[1])
                && psAuxRow(java.util.Arrays.copyOfRange(t, 1, t.length));
    }

    private static boolean isoInstantLine(String s) {
        return s.length() >= 19 && s.length() <= 40 && s.indexOf(' ') < 0 && isoAt(s, 0) && s.charAt(10) == 'T';
    }

    /** {@code Mon Nov 30 21:42:27 2026}, as nvidia-smi's table starts. */
    private static boolean plainDate(String s) {
        String[] t = tokens(s, 7);
        return (t.length == 5 || t.length == 6) && t[0].length() == 3 && month(t[1]) && digits(t[2]) && clock(t[3])
                && digits(t[t.length - 1]) && t[t.length - 1].length() == 4;
    }

    static boolean tracebackLine(String s) {
        String t = stripRank(s);
        if (t.startsWith("Traceback (most recent call last)") || t.startsWith("During handling of the above exception")
                || t.startsWith("The above exception was the direct cause")) {
            return true;
        }
        if (t.startsWith("File \"") && t.contains("\", line ")) {
            return true;
        }
        return exceptionLine(t);
    }

    /** {@code torch.OutOfMemoryError: CUDA out of memory…}, {@code KeyboardInterrupt}. */
    private static boolean exceptionLine(String t) {
        int end = 0;
        while (end < t.length() && end < 200 && (Character.isLetterOrDigit(t.charAt(end)) || t.charAt(end) == '.'
                || t.charAt(end) == '_')) {
            end++;
        }
        if (end == 0 || (end < t.length() && t.charAt(end) != ':')) {
            return false;
        }
        String name = t.substring(0, end);
        return name.endsWith("Error") || name.endsWith("Exception") || name.endsWith("Interrupt")
                || name.endsWith("Exit") || name.endsWith("Failure");
    }

    /** A file a person shows to say what was launched: a script, a unit, a configuration. */
    private static final com.google.re2j.Pattern SCRIPT_FILE = com.google.re2j.Pattern.compile(
            "\\.(?:sh|bash|sbatch|slurm|py|ya?ml|json|toml|service|conf|cfg|env)(?:\\s|$)");

    private static String stripRank(String s) {
        int label = srunLabel(s);
        if (label > 0) {
            s = s.substring(label);
        }
        if (s.startsWith("[rank") || s.startsWith("(")) {
            int close = s.indexOf(s.charAt(0) == '[' ? "]:" : ") ");
            if (close > 0 && close < 64) {
                return s.substring(close + 2).strip();
            }
        }
        return s;
    }

    /** Where the line starts behind srun's {@code --label} ({@code "1: "}, the task number), or 0. */
    public static int srunLabel(String s) {
        int i = 0;
        while (i < s.length() && i < 4 && s.charAt(i) == ' ') {
            i++; // srun pads the task number to the widest one: " 0: " beside "12: "
        }
        int d = i;
        while (i < s.length() && i - d < 5 && Character.isDigit(s.charAt(i))) {
            i++;
        }
        return i > d && i + 1 < s.length() && s.charAt(i) == ':' && s.charAt(i + 1) == ' ' ? i + 2 : 0;
    }

    /** {@code 85:Killed} or {@code 12-[2026-…] …}: grep -n output of a log. */
    private boolean numberedLine(String s) {
        int i = numbered(s);
        if (i <= 0) {
            return false;
        }
        String rest = s.substring(i);
        return logLine(rest) || tracebackLine(rest);
    }

    /** Where the text after a {@code grep -n} line number starts, or -1 when there is none. */
    private static int numbered(String s) {
        if (isoAt(s, 0)) {
            return -1; // a date, not a line number
        }
        int i = 0;
        while (i < s.length() && i < 10 && Character.isDigit(s.charAt(i))) {
            i++;
        }
        if (i == 0 || i >= s.length() - 1 || (s.charAt(i) != ':' && s.charAt(i) != '-')) {
            return -1;
        }
        return i + 1;
    }

    /** A server log line: a leading timestamp in one of the usual forms, a level prefix, or a known marker. */
    private boolean logLine(String s) {
        String t = stripRank(s);
        if (t.startsWith("[") && t.length() > 11 && isoAt(t, 1)) {
            return true;
        }
        if (isoAt(t, 0)) {
            return true;
        }
        for (String level : new String[] {"INFO", "WARNING", "WARN", "ERROR", "DEBUG", "CRITICAL"}) {
            if (t.startsWith(level) && t.length() > level.length()) {
                char c = t.charAt(level.length());
                if (c == ':') {
                    return true; // uvicorn's "INFO:     …", Python logging's "ERROR:root:…"
                }
                if (c == ' ') {
                    String[] tk = tokens(t, 3);
                    if (tk.length >= 3 && tk[1].length() == 5 && tk[1].charAt(2) == '-' && clock(tk[2])) {
                        return true; // vLLM's "INFO 12-03 14:08:52 [file.py:12] …"
                    }
                }
            }
        }
        if (!t.equals(s) && (s.startsWith("[rank") || s.indexOf(" pid=") > 0 && s.indexOf(" pid=") < s.indexOf(')'))) {
            return true; // torch's "[rank0]: …" and vLLM's "(EngineCore_DP0 pid=123) …" prefixes
        }
        if (t.length() > 6 && t.charAt(0) == '[' && "IWEF".indexOf(t.charAt(1)) >= 0 && digits(t.substring(2, 5))) {
            return true; // glog / torch "[W1130 10:00:01.123 …]"
        }
        if (pythonWarning(t)) {
            return true;
        }
        if (t.contains("%|") && (t.contains("it/s") || t.contains("s/it"))) {
            return true; // tqdm progress
        }
        BitSet c = markerIndex().candidates(t);
        for (int m = c.nextSetBit(0); m >= 0; m = c.nextSetBit(m + 1)) {
            if (markers.get(m).pattern().matcher(t).find()) {
                return true;
            }
        }
        return false;
    }

    /** Python's warnings: {@code /path/module.py:279: UserWarning: …}. */
    private static boolean pythonWarning(String t) {
        int py = t.indexOf(".py:");
        if (py < 0 || py > 512) {
            return false;
        }
        int i = py + 4;
        int d = i;
        while (i < t.length() && Character.isDigit(t.charAt(i))) {
            i++;
        }
        if (i == d || !t.startsWith(": ", i)) {
            return false;
        }
        int colon = t.indexOf(':', i + 2);
        return colon > 0 && colon - i < 64 && t.substring(i + 2, colon).endsWith("Warning");
    }

    /** {@code YYYY-MM-DD[ T]HH:MM} at position {@code at}. */
    private static boolean isoAt(String s, int at) {
        if (s.length() < at + 16) {
            return false;
        }
        for (int i = 0; i < 16; i++) {
            char c = s.charAt(at + i);
            boolean ok = switch (i) {
                case 4, 7 -> c == '-';
                case 10 -> c == ' ' || c == 'T';
                case 13 -> c == ':';
                default -> Character.isDigit(c) && c < 128;
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static boolean month(String s) {
        return s.length() == 3 && MONTHS.contains(s) && MONTHS.indexOf(s) % 3 == 0;
    }

    private static boolean clock(String s) {
        return s.length() == 8 && s.charAt(2) == ':' && s.charAt(5) == ':' && digits(s.substring(0, 2))
                && digits(s.substring(3, 5)) && digits(s.substring(6));
    }

    static boolean digits(String s) {
        if (s.isEmpty() || s.length() > 18) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static boolean decimal(String s) {
        int dot = s.indexOf('.');
        return dot < 0 ? digits(s) : dot > 0 && digits(s.substring(0, dot)) && digits(s.substring(dot + 1));
    }

    private static boolean hex(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.digit(s.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }

    private static int indexOf(String[] t, String name) {
        for (int i = 0; i < t.length; i++) {
            if (t[i].equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    private static String abbreviate(String s) {
        String t = s.strip();
        return t.length() <= 120 ? t : t.substring(0, 120) + "…";
    }

    // ------------------------------------------------------------------ the capture

    private List<Recognition.LineRange> unread(Work w) {
        List<Recognition.LineRange> out = new ArrayList<>();
        boolean[] covered = new boolean[w.lines.size()];
        for (PasteSegment s : w.segments) {
            for (int i = s.fromLine() - 1 - w.lineOffset; i <= s.toLine() - 1 - w.lineOffset; i++) {
                covered[i] = true;
            }
        }
        int a = -1;
        int b = -1;
        for (int i = 0; i < w.lines.size(); i++) {
            boolean text = !w.lines.get(i).view().isBlank() && !w.prompt[i] && !covered[i];
            if (text) {
                if (a < 0) {
                    a = i;
                }
                b = i;
            } else if (a >= 0 && (covered[i] || w.prompt[i])) {
                out.add(new Recognition.LineRange(a + 1 + w.lineOffset, b + 1 + w.lineOffset));
                a = -1;
            }
        }
        if (a >= 0) {
            out.add(new Recognition.LineRange(a + 1 + w.lineOffset, b + 1 + w.lineOffset));
        }
        return out;
    }

    private Capture capture(Work w, List<Recognition.LineRange> unread) {
        Map<String, StringBuilder> outs = new LinkedHashMap<>();
        Map<String, StringBuilder> errs = new LinkedHashMap<>();
        Map<String, String> cmds = new LinkedHashMap<>();
        Map<String, Boolean> cut = new HashMap<>();
        Map<String, Integer> rcs = new HashMap<>();
        List<String> notes = new ArrayList<>(w.notes);
        for (PasteSegment s : w.segments) {
            int[] body = w.bodies.get(s);
            List<String> out = new ArrayList<>();
            List<String> err = new ArrayList<>();
            boolean anyCut = body[0] == 0 && w.lineOffset > 0;
            String cmd = w.commands.get(s);
            String errPrefix = cmd == null ? "" : baseName(firstWord(unwrap(tokens(cmd, 64)))) + ": ";
            for (int i = body[0]; i <= body[1]; i++) {
                Line l = w.lines.get(i);
                anyCut |= l.cut();
                String v = l.view().strip();
                if (stderrLine(v, errPrefix, s.kind())) {
                    err.add(v);
                } else {
                    out.add(s.kind() == Kind.SERVER_LOG || s.kind() == Kind.TRACEBACK ? l.text() : l.view());
                }
            }
            String probe = s.probe();
            switch (s.kind()) {
                case GPU_CSV -> cmd = gpuCsv(out, cmd, notes, s);
                case PS -> psHeader(out, cmd, notes, s);
                case HEALTH, GENERATION -> httpStatus(out);
                default -> { }
            }
            if ((s.kind() == Kind.HEALTH || s.kind() == Kind.GENERATION) && cmd != null) {
                String port = urlPort(cmd);
                if (port != null && !w.target.containsKey("port")) {
                    w.target.put("port", port);
                    notes.add("port " + port + " taken from the pasted " + (s.kind() == Kind.HEALTH ? "health" : "request")
                            + " command");
                }
            }
            if (s.kind() == Kind.SERVER_LOG && cmd != null && !w.target.containsKey("log")) {
                String path = logPath(cmd);
                if (path != null) {
                    w.target.put("log", path);
                }
            }
            if (outs.containsKey(probe) && cmds.get(probe) != null && cmd != null && !cmds.get(probe).equals(cmd)
                    && s.kind() == Kind.GPU_CSV) {
                probe = probe + "_2";
                notes.add("a second GPU query with other columns (" + s.describe() + ") is kept as " + probe
                        + " and not read");
            }
            // the exit status an "echo $?" printed after this command is the probe's, when the probe is this one
            // command's output alone (two commands under one name have no one status)
            Integer status = w.exitStatus.get(s.fromLine() - 1 - w.lineOffset);
            if (outs.containsKey(probe) || status == null) {
                rcs.put(probe, null);
            } else {
                rcs.put(probe, status);
            }
            append(outs, probe, out);
            if (!err.isEmpty()) {
                append(errs, probe, err);
            }
            cmds.putIfAbsent(probe, cmd);
            cut.merge(probe, anyCut, Boolean::logicalOr);
            if (s.kind() == Kind.SYSTEMCTL_STATUS) {
                List<String> journal = new ArrayList<>();
                for (String line : out) {
                    String p = journalProgram(tokens(line.strip(), 6));
                    if (p != null && !p.equals("kernel:")) {
                        journal.add(line.strip());
                    }
                }
                if (!journal.isEmpty()) {
                    append(outs, STATUS_JOURNAL_PROBE, journal);
                    cmds.putIfAbsent(STATUS_JOURNAL_PROBE, null);
                }
            }
        }
        Map<String, ProbeOutput> probes = new LinkedHashMap<>();
        for (Map.Entry<String, StringBuilder> e : outs.entrySet()) {
            String name = e.getKey();
            StringBuilder err = errs.get(name);
            probes.put(name, new ProbeOutput(name, cmds.get(name), e.getValue().toString(),
                    err == null ? null : err.toString(), rcs.get(name), null, cut.getOrDefault(name, false)));
        }
        List<String> seen = new ArrayList<>();
        for (PasteSegment s : w.segments) {
            seen.add(s.label() + " " + s.describe().substring(s.label().length() + 1));
        }
        if (!seen.isEmpty()) {
            notes.add("pasted text: recognised " + String.join("; ", seen));
        }
        for (Recognition.LineRange r : unread) {
            notes.add("pasted text: " + r.describe() + " not recognised, not read");
        }
        return new Capture("paste", probes, w.target, Map.of(), notes);
    }

    private static void append(Map<String, StringBuilder> map, String probe, List<String> lines) {
        StringBuilder b = map.computeIfAbsent(probe, p -> new StringBuilder());
        for (String l : lines) {
            b.append(l).append('\n');
        }
    }

    /** What a tool printed to standard error: {@code curl: (7) …}, {@code bash: ss: command not found}. */
    private static boolean stderrLine(String v, String errPrefix, Kind kind) {
        if (v.startsWith("curl: (")) {
            return kind == Kind.HEALTH || kind == Kind.GENERATION;
        }
        if (v.endsWith(": command not found") && (v.startsWith("bash: ") || v.startsWith("-bash: ")
                || v.startsWith("sh: ") || v.startsWith("zsh: "))) {
            return true;
        }
        // "tail: cannot open …", "dmesg: read kernel buffer failed …": the tool's own complaint, not its
        // output (a server launched from the prompt may print lines that start with its own name: those stay)
        return !errPrefix.isEmpty() && v.startsWith(errPrefix)
                && KNOWN_COMMANDS.contains(errPrefix.substring(0, errPrefix.length() - 2));
    }

    /**
     * The parser reads a GPU CSV's columns from the command: a header in the paste names them, else the
     * prompt's command does, else the standard query's are assumed. A header that does not start with
     * {@code index} (which the parser skips) is blanked so it is not read as a row.
     */
    private static String gpuCsv(List<String> out, String cmd, List<String> notes, PasteSegment s) {
        for (int i = 0; i < out.size(); i++) {
            String line = out.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            if (!gpuCsvHeader(line)) {
                break;
            }
            List<String> cols = new ArrayList<>();
            for (String f : line.split(",", 64)) {
                String c = f.strip();
                int unit = c.indexOf(" [");
                cols.add((unit > 0 ? c.substring(0, unit) : c).strip());
            }
            if (!line.toLowerCase(Locale.ROOT).startsWith("index")) {
                out.set(i, "");
            }
            notes.add("the columns of the GPU query (" + s.describe() + ") were read from its header");
            return "nvidia-smi --query-gpu=" + String.join(",", cols) + " --format=csv";
        }
        if (cmd == null) {
            notes.add("the GPU query (" + s.describe() + ") has no header or command: the standard columns are assumed");
        }
        return cmd;
    }

    /**
     * The ps parser learns the columns from a header; {@code ps aux | grep …} leaves none, so one is
     * supplied from the command's {@code -o} list or the rows' shape.
     */
    private static void psHeader(List<String> out, String cmd, List<String> notes, PasteSegment s) {
        String first = null;
        for (String l : out) {
            if (!l.isBlank()) {
                first = l;
                break;
            }
        }
        if (first == null || psHeader(tokens(first, 32))) {
            return;
        }
        String header = null;
        String[] ct = cmd == null ? new String[0] : tokens(cmd, 64);
        for (int i = 0; i < ct.length; i++) {
            String o = null;
            if ((ct[i].equals("-o") || ct[i].equals("-eo") || ct[i].equals("-axo") || ct[i].equals("-ao")
                    || ct[i].equals("o")) && i + 1 < ct.length) {
                o = ct[i + 1];
            } else if (ct[i].startsWith("-o") && ct[i].length() > 2 && ct[i].indexOf(',') > 0) {
                o = ct[i].substring(2);
            }
            if (o != null) {
                List<String> cols = new ArrayList<>();
                for (String c : o.split(",", 32)) {
                    String u = c.strip().toUpperCase(Locale.ROOT);
                    int eq = u.indexOf('=');
                    cols.add(eq >= 0 ? u.substring(0, eq) : u);
                }
                header = String.join(" ", cols);
                break;
            }
        }
        String[] t = tokens(first, 16);
        if (header == null && psAuxRowWithUser(t)) {
            header = "USER PID %CPU %MEM VSZ RSS TTY STAT START TIME COMMAND";
        } else if (header == null && t.length >= 8 && !digits(t[0]) && digits(t[1]) && digits(t[2])) {
            header = "UID PID PPID C STIME TTY TIME CMD";
        }
        if (header != null) {
            out.add(0, header);
            notes.add("the process list (" + s.describe() + ") has no header; columns " + header + " assumed");
        }
    }

    /** {@code HTTP/1.1 503 Service Unavailable} becomes the status code the health parser reads. */
    private static void httpStatus(List<String> out) {
        for (int i = 0; i < out.size(); i++) {
            String l = out.get(i).strip();
            if (l.startsWith("HTTP/")) {
                String[] t = tokens(l, 3);
                if (t.length >= 2 && t[1].length() == 3 && digits(t[1])) {
                    out.set(i, t[1]);
                }
            }
        }
    }

    private static String urlPort(String cmd) {
        int scheme = cmd.indexOf("://");
        if (scheme < 0) {
            return null;
        }
        int i = scheme + 3;
        int end = i;
        while (end < cmd.length() && cmd.charAt(end) != '/' && !Character.isWhitespace(cmd.charAt(end))
                && cmd.charAt(end) != '\'' && cmd.charAt(end) != '"') {
            end++;
        }
        String hostPort = cmd.substring(i, end);
        int colon = hostPort.lastIndexOf(':');
        if (colon < 0 || hostPort.endsWith("]")) {
            return null;
        }
        String p = hostPort.substring(colon + 1);
        return digits(p) && p.length() <= 5 ? p : null;
    }

    private static String logPath(String cmd) {
        String first = splitTop(cmd, '|', '|').get(0);
        String[] t = unwrap(tokens(first, 64));
        for (int i = t.length - 1; i >= 1; i--) {
            if (!t[i].startsWith("-") && (t[i].indexOf('/') >= 0 || t[i].endsWith(".log"))) {
                return t[i].replace("'", "").replace("\"", "");
            }
        }
        return null;
    }
}
