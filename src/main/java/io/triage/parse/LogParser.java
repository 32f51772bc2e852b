package io.triage.parse;

import io.triage.capture.ProbeOutput;
import io.triage.facts.LogMarker;
import io.triage.facts.LogState;
import io.triage.facts.ServerArg;
import io.triage.knowledge.Marker;

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.triage.knowledge.LinePattern;
import java.util.regex.Pattern;

/**
 * Reads the server's log from the tail probe and the numbered marker grep, puts them back in order,
 * classifies each line with the knowledge base's markers, cuts the log into runs (a new run starts at
 * an argument dump, or at a run start after the previous run ended), and reports the newest run's
 * argument dump as {@link ServerArg}s.
 */
final class LogParser {
    private static final Pattern NUMBERED = Pattern.compile("^(\\d+)[:-](.*)$");
    /** When several markers match one line, the kind that best describes it (first wins). */
    private static final List<String> KIND_ORDER = List.of("address-in-use", "error", "engine-dead", "killed",
            "health-check-failed", "traceback", "exception", "port-owner", "signal", "shutdown", "server-args",
            "run-start", "ready", "nccl-init", "host", "loading", "progress", "access", "access-noise");
    private static final java.util.Set<String> TERMINAL =
            java.util.Set.of("shutdown", "error", "killed", "traceback", "address-in-use", "signal");

    /**
     * One line of the log, cleaned ({@link #clean}); {@code barFromItsStart}: the raw line joined a progress bar's
     * updates with carriage returns from the bar's first one on (what the cleaned text, its newest update, no longer shows).
     */
    private record Entry(String text, int absLine, String probe, int probeLine, boolean barFromItsStart, long stamped) {
        Entry(String raw, int absLine, String probe, int probeLine) {
            this(clean(raw), absLine, probe, probeLine, raw.indexOf('\r') > 0 && raw.length() <= 1 << 16
                    && barBegunHere(raw.substring(0, raw.indexOf('\r'))), stampOf(raw));
        }

        Entry(String text, int absLine, String probe, int probeLine, boolean barFromItsStart) {
            this(text, absLine, probe, probeLine, barFromItsStart, -1);
        }
    }

    /**
     * The time Docker's json-file record says the line was written ({@code "time":"2025-03-11T14:02:04.1Z"}), epoch
     * seconds, or -1 when the line is no such record: a zone-less time inside the line (vLLM's "INFO 03-11 14:02:04")
     * is the container's clock, often UTC on a host that runs another zone, and the record's time says which.
     */
    /**
     * Where a Docker json-file record ({@code {"log":"…}) opens in the line, looked for in its head only (most lines
     * hold no brace, and a record sits at the start or behind a short prefix such as compose's), or -1.
     */
    static int jsonRecordAt(String line) {
        for (int i = 0, n = Math.min(line.length(), 64); i < n; i++) {
            if (line.charAt(i) == '{') {
                return line.startsWith("{\"log\":\"", i) ? i : -1;
            }
        }
        return -1;
    }

    /** The time a container runtime's record gives its line (Docker's json-file, the kubelet's CRI file), or -1. */
    static long stampOf(String raw) {
        long t = dockerJsonTime(raw);
        return t >= 0 ? t : criTime(raw);
    }

    static long dockerJsonTime(String raw) {
        if (jsonRecordAt(raw) < 0) {
            return -1;
        }
        int t = raw.lastIndexOf("\"time\":\"");
        if (t < 0) {
            return -1;
        }
        int from = t + 8;
        int to = raw.indexOf('"', from);
        if (to < 0 || to - from > 40) {
            return -1;
        }
        java.time.OffsetDateTime odt = Timestamps.isoInstant(raw.substring(from, to));
        return odt == null ? -1 : odt.toEpochSecond();
    }

    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;?]*[ -/]*[@-~]");

    /**
     * The line without the prefix {@code docker compose logs} puts before each of a service's lines ("inference-1  | ",
     * "vllm_1  | "): a name, its replica number, spaces and a bar. The line behind it keeps its own shape (a journal
     * line, a record with its time) and is read as it.
     */
    /**
     * The length of the prefix the kubelet's CRI runtime puts before each line of a container's log file
     * ({@code /var/log/pods/…/0.log}: {@code 2026-10-06T14:05:22.004194289Z stderr F }), or 0 when the line has none.
     */
    static int criPrefix(String line) {
        int n = line.length();
        if (n < 32 || line.charAt(4) != '-' || line.charAt(10) != 'T' || !Character.isDigit(line.charAt(0))) {
            return 0;
        }
        int sp = line.indexOf(' ');
        if (sp < 20 || sp > 40) {
            return 0;
        }
        int stream = sp + 1;
        String rest = line.substring(stream, Math.min(n, stream + 9));
        int after;
        if (rest.startsWith("stdout ") || rest.startsWith("stderr ")) {
            after = stream + 7;
        } else {
            return 0;
        }
        if (after + 1 < n && (line.charAt(after) == 'F' || line.charAt(after) == 'P') && line.charAt(after + 1) == ' ') {
            return after + 2;
        }
        return 0;
    }

    /** The time a CRI log line's prefix gives, epoch seconds, or -1. */
    static long criTime(String raw) {
        int p = criPrefix(raw);
        if (p == 0) {
            return -1;
        }
        java.time.OffsetDateTime odt = Timestamps.isoInstant(raw.substring(0, raw.indexOf(' ')));
        return odt == null ? -1 : odt.toEpochSecond();
    }

    static String withoutComposePrefix(String line) {
        int n = Math.min(line.length(), 96);
        int i = 0;
        while (i < n && (Character.isLetterOrDigit(line.charAt(i)) || ".-_".indexOf(line.charAt(i)) >= 0)) {
            i++;
        }
        int nameEnd = i;
        int digits = nameEnd;
        while (digits > 0 && Character.isDigit(line.charAt(digits - 1))) {
            digits--;
        }
        if (digits == nameEnd || digits < 2 || (line.charAt(digits - 1) != '-' && line.charAt(digits - 1) != '_')
                || !Character.isLetter(line.charAt(0))) {
            return line;
        }
        while (i < n && line.charAt(i) == ' ') {
            i++;
        }
        if (i == nameEnd || i >= n || line.charAt(i) != '|') {
            return line;
        }
        return i + 1 < line.length() && line.charAt(i + 1) == ' ' ? line.substring(i + 2) : line.substring(i + 1);
    }

    /**
     * A log line as a terminal would have left it: colour codes removed, and of a line that carriage
     * returns overwrote (progress bars), the last non-empty segment.
     */
    static String clean(String line) {
        int json = jsonRecordAt(line);
        if (json >= 0) {
            // a record read from the file, or shown behind a prefix (compose's "service  | ")
            String inner = dockerJsonLog(json == 0 ? line : line.substring(json));
            line = inner == null ? line : line.substring(0, json) + inner;
        }
        int cri = criPrefix(line);
        if (cri > 0) {
            line = line.substring(cri);
        }
        String s = withoutComposePrefix(line.indexOf('\u001B') >= 0 ? ANSI.matcher(line).replaceAll("") : line);
        // srun --label puts the task's number before each of its lines ("1: "): the line behind it is the server's
        int label = io.triage.capture.PasteRecognizer.srunLabel(s);
        if (label > 0) {
            s = s.substring(label);
        }
        // from the end, without copying: a line of ten thousand blank overwrites stays linear
        int end = s.length();
        int cr = s.lastIndexOf('\r', end - 1);
        while (cr >= 0) {
            if (!blank(s, cr + 1, end)) {
                return s.substring(cr + 1, end);
            }
            end = cr;
            cr = end == 0 ? -1 : s.lastIndexOf('\r', end - 1);
        }
        return end == s.length() ? s : s.substring(0, end);
    }

    /**
     * The line a container wrote, out of Docker's json-file log ({@code /var/lib/docker/containers/ID/ID-json.log}:
     * {@code {"log":"2026-08-04T15:46:01Z  INFO …\n","stream":"stderr","time":"…"}}), its JSON escapes undone and its
     * newline dropped; null when the line is not such a record.
     */
    static String dockerJsonLog(String line) {
        int i = 8; // after {"log":"
        StringBuilder b = new StringBuilder(Math.min(line.length(), 8192));
        while (i < line.length()) {
            char c = line.charAt(i++);
            if (c == '"') {
                int n = b.length();
                while (n > 0 && (b.charAt(n - 1) == '\n' || b.charAt(n - 1) == '\r')) {
                    n--;
                }
                b.setLength(n);
                return line.startsWith(",\"", i) || line.startsWith("}", i) ? b.toString() : null;
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            if (i >= line.length()) {
                return null;
            }
            char e = line.charAt(i++);
            switch (e) {
                case 'n' -> b.append('\n');
                case 't' -> b.append('\t');
                case 'r' -> b.append('\r');
                case 'b', 'f' -> { }
                case 'u' -> {
                    if (i + 4 > line.length()) {
                        return null;
                    }
                    try {
                        b.append((char) Integer.parseInt(line, i, i + 4, 16));
                    } catch (NumberFormatException x) {
                        return null;
                    }
                    i += 4;
                }
                default -> b.append(e); // \" \\ \/
            }
        }
        return null;
    }

    private static boolean blank(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (!Character.isWhitespace(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private LogParser() {
    }

    private static final com.google.re2j.Pattern SUPERVISOR_LINE = com.google.re2j.Pattern.compile("\\bsystemd\\[\\d+\\]: ");
    private static final com.google.re2j.Pattern UNIT_STARTED = com.google.re2j.Pattern.compile("\\bsystemd\\[\\d+\\]: Started \\S");
    private static final com.google.re2j.Pattern SETUP_FAILED = com.google.re2j.Pattern.compile("\\bstatus=2[0-4][0-9]/");
    private static final com.google.re2j.Pattern MAIN_EXITED = com.google.re2j.Pattern.compile("\\bsystemd\\[\\d+\\]: \\S+: Main process exited, ");

    /** Whether no line of a log (its first lines looked at) carries a time. */
    private static boolean untimed(String text, ZoneOffset zone, int year) {
        List<String> lines = Text.lines(text.length() > 1 << 16 ? text.substring(0, 1 << 16) : text);
        int looked = 0;
        for (String l : lines) {
            if (l.isBlank()) {
                continue;
            }
            if (Timestamps.log(l.length() > 256 ? l.substring(0, 256) : l, zone, year) >= 0) {
                return false;
            }
            if (++looked >= 400) {
                break;
            }
        }
        return looked > 0;
    }

    /**
     * Whether a journal holds only systemd's own lines (the server's output went to its file) and its newest start
     * ran the main process (a "Main process exited" follows the last "Started"): the server's output of that launch
     * is then in its file, not after it.
     */
    static boolean retellsLaunchesThatRan(List<String> lines) {
        if (lines.size() > 4000) {
            return false;
        }
        boolean any = false;
        boolean ranSinceStart = false;
        boolean started = false;
        for (String l : lines) {
            String t = l.strip();
            if (t.isEmpty() || t.startsWith("-- ") || t.startsWith("$ ") || t.startsWith("# ")) {
                continue;
            }
            if (!SUPERVISOR_LINE.matcher(t).find()) {
                return false;
            }
            any = true;
            if (UNIT_STARTED.matcher(t).find()) {
                started = true;
                ranSinceStart = false;
            } else if (MAIN_EXITED.matcher(t).find()) {
                // systemd's own exit statuses 200-243 (203/EXEC, 217/USER, 226/NAMESPACE…) say the server never ran
                ranSinceStart = !SETUP_FAILED.matcher(t).find();
            }
        }
        return any && started && ranSinceStart;
    }

    static void parse(ProbeOutput tail, ProbeOutput grep, List<ProbeOutput> others, List<Marker> markers,
                      io.triage.knowledge.LiteralIndex index, ZoneOffset zone, int year, long clock, Sink sink) {
        parse(tail, grep, others, markers, index, zone, year, clock, sink, null);
    }

    /** As above; {@code work}, when given, measures the newest run's lines of work against the server's cadence. */
    static void parse(ProbeOutput tail, ProbeOutput grep, List<ProbeOutput> others, List<Marker> markers,
                      io.triage.knowledge.LiteralIndex index, ZoneOffset zone, int year, long clock, Sink sink,
                      WorkLog work) {
        ReadBudget budget = sink.budget();
        // another grep -n of the same log (the last statistics lines, a search of one's own) is aligned by its line
        // numbers with the markers' grep and the tail, not appended after them as if it were newer
        List<ProbeOutput> greps = new ArrayList<>();
        if (grep != null) {
            greps.add(grep);
        }
        List<ProbeOutput> plain = new ArrayList<>();
        for (ProbeOutput o : others) {
            (numbered(o) ? greps : plain).add(o);
        }
        others = plain;
        List<Entry> entries = merge(tail, greps, sink);
        // a supervisor's own journal retelling launches whose output the untimed tail holds goes before the tail: its
        // times cannot place the tail's lines, and its "Started" would otherwise open a run newer than the tail's last
        List<Entry> before = new ArrayList<>();
        Boolean untimedTail = null; // looked at only when such a journal is there
        for (ProbeOutput o : others) {
            List<String> lines = Text.lines(o.outOrEmpty());
            List<Entry> into = entries;
            if (tail != null && retellsLaunchesThatRan(lines)) {
                if (untimedTail == null) {
                    untimedTail = untimed(tail.outOrEmpty(), zone, year);
                }
                into = untimedTail ? before : entries;
            }
            for (int i = 0; i < lines.size(); i++) {
                into.add(new Entry(budget.cut(o.name(), i + 1, lines.get(i)), -1, o.name(), i + 1));
            }
        }
        if (!before.isEmpty()) {
            before.addAll(entries);
            entries = before;
        }
        String probe = tail != null ? tail.name() : grep != null ? grep.name() : others.isEmpty() ? "log"
                : others.get(0).name();
        if (entries.isEmpty()) {
            sink.add(new LogState(false, 0, 0, -1, -1, -1, "", probe, 0, "(empty log)", -1));
            return;
        }
        int total = entries.size();
        long[] allEpochs = new long[total];
        List<Marker>[] allMatched = newArray(total);
        List<LinePattern.Match>[] allMatchers = newArray(total);
        // newest line first: when the budget runs out, what goes unread is the oldest part of the log
        int firstRead = 0;
        for (int i = total - 1; i >= 0; i--) {
            String text = entries.get(i).text();
            // the literal scan and the timestamp's head now, each regex tried below
            if (!budget.charge(text.length() + 1L + Math.min(text.length(), 64))) {
                firstRead = i + 1;
                break;
            }
            long stamped = entries.get(i).stamped();
            allEpochs[i] = stamped >= 0 ? stamped : Timestamps.log(text, zone, year);
            List<Marker> ms = null;
            List<LinePattern.Match> mm = null;
            java.util.BitSet candidates = index.candidates(text);
            LinePattern.Shape shape = LinePattern.shape(text);
            for (int c = candidates.nextSetBit(0); c >= 0; c = candidates.nextSetBit(c + 1)) {
                Marker m = markers.get(c);
                if (ms != null && ms.get(ms.size() - 1).id().equals(m.id())) {
                    continue; // another branch of a marker that already matched this line
                }
                budget.spend(m.pattern().cost(text.length(), shape));
                LinePattern.Match matcher = m.pattern().find(text, shape);
                if (matcher != null) {
                    if (ms == null) {
                        ms = new ArrayList<>(2);
                        mm = new ArrayList<>(2);
                    }
                    ms.add(m);
                    mm.add(matcher);
                }
            }
            allMatched[i] = ms;
            allMatchers[i] = mm;
        }
        if (firstRead > 0) {
            unread(entries.subList(0, firstRead), budget, sink);
            if (firstRead == total) {
                sink.add(new LogState(false, 0, 0, -1, -1, -1, "", probe, 0, "(not read: parsing budget spent)", -1));
                return;
            }
        }
        entries = entries.subList(firstRead, total);
        int n = entries.size();
        long[] epochs = java.util.Arrays.copyOfRange(allEpochs, firstRead, total);
        List<Entry> read = entries;
        progressBarTimes(i -> read.get(i).text(), i -> read.get(i).barFromItsStart(), epochs);
        List<List<Marker>> matched = java.util.Arrays.asList(java.util.Arrays.copyOfRange(allMatched, firstRead, total));
        List<List<LinePattern.Match>> matchers = java.util.Arrays.asList(java.util.Arrays.copyOfRange(allMatchers, firstRead, total));
        int[] runOf = new int[n];
        boolean[] warning = new boolean[n];
        for (int i = 0; i < n; i++) {
            warning[i] = matched.get(i) != null && warningLevel(read.get(i).text());
        }
        int run = cutRuns(matched, runOf, epochs, warning);
        int current = run;
        boolean[] keep = routineKept(matched, matchers, runOf, epochs);
        List<WorkLog.Line> workLines = new ArrayList<>();
        int lastWork = -1;
        String lastKind = "";
        long lastEpoch = -1;
        int newestArgs = -1;
        int lastWorkSeq = -1;
        for (int i = 0; i < n; i++) {
            if (epochs[i] >= 0) {
                lastEpoch = epochs[i];
            }
            List<Marker> ms = matched.get(i);
            if (ms == null) {
                continue;
            }
            Entry e = entries.get(i);
            boolean cur = runOf[i] == current;
            int line = e.absLine() > 0 ? e.absLine() : e.probeLine();
            String excerpt = Text.excerpt(e.text());
            for (int k = 0; k < ms.size(); k++) {
                Marker m = ms.get(k);
                LinePattern.Match mt = matchers.get(i).get(k);
                String kind = m.kind().equals("access") && !servedWork(m, mt) ? Marker.ACCESS_NOISE : m.kind();
                if (cur && work != null && lastWork != i && (kind.equals("progress") || kind.equals("access")
                        || kind.equals("health-check-failed"))) {
                    workLines.add(new WorkLog.Line(kind, m.id(), epochs[i], e.text(), e.probe(), line));
                    lastWork = i;
                }
                if (ROUTINE.contains(m.kind()) && !keep[i]) {
                    continue;
                }
                sink.add(new LogMarker(kind, m.id(), m.subtype(), m.priority(), i, runOf[i], cur, epochs[i],
                        detail(m, mt), e.probe(), line, excerpt));
                if (cur && (kind.equals("progress") || kind.equals("access") || kind.equals("ready"))) {
                    lastWorkSeq = i;
                }
                if (m.kind().equals("server-args")) {
                    newestArgs = i;
                }
            }
            if (cur) {
                lastKind = best(ms);
            }
        }
        if (newestArgs >= 0) {
            // every dump of the newest dump's run: the launch's arguments, whichever process printed them
            java.util.Set<String> named = new java.util.HashSet<>();
            for (int d = 0; d <= newestArgs; d++) {
                if (runOf[d] != runOf[newestArgs] || matched.get(d) == null || !has(matched.get(d), "server-args")) {
                    continue;
                }
                Entry e = entries.get(d);
                int line = e.absLine() > 0 ? e.absLine() : e.probeLine();
                for (Map.Entry<String, String> a : ArgsDump.parse(unwrapped(entries, matched, epochs, d))) {
                    if (named.add(a.getKey())) {
                        sink.add(new ServerArg(a.getKey(), a.getValue(), "server-args", true, -1, epochs[d],
                                e.probe(), line, Text.excerpt(a.getKey() + "=" + a.getValue())));
                    }
                }
            }
        }
        if (work != null) {
            work.read(workLines, clock, lastEpoch, probe, sink);
        }
        Entry last = entries.get(n - 1);
        loop(entries, matched, sink);
        long age = clock >= 0 && lastEpoch >= 0 ? clock - lastEpoch : -1;
        sink.add(new LogState(true, n, current, n - 1, lastEpoch, age, lastKind, last.probe(),
                last.absLine() > 0 ? last.absLine() : last.probeLine(), Text.excerpt(last.text()), lastWorkSeq));
    }

    /**
     * A dump's line with the lines a paste wrapped it into joined back: the lines after it in the same probe with no
     * time and no marker of their own, until the dump closes (bounded in lines and characters).
     */
    private static String unwrapped(List<Entry> entries, List<List<Marker>> matched, long[] epochs, int d) {
        String text = entries.get(d).text();
        if (!ArgsDump.open(text)) {
            return text;
        }
        String probe = entries.get(d).probe();
        // a dump printed one field per line (TGI's pretty "Args {" with some sixty fields) runs longer than a wrap
        int limit = text.stripTrailing().endsWith("{") || text.stripTrailing().endsWith("(") ? ArgsDump.PRETTY_LINES
                : ArgsDump.WRAP_LINES;
        for (int j = d + 1; j < entries.size() && j <= d + limit && text.length() < ArgsDump.WRAP_CHARS; j++) {
            Entry next = entries.get(j);
            String piece = next.text().stripTrailing();
            if (!next.probe().equals(probe) || epochs[j] >= 0 || matched.get(j) != null || piece.isBlank()) {
                break;
            }
            text = ArgsDump.join(text, piece);
            if (!ArgsDump.open(text)) {
                break;
            }
        }
        return text;
    }

    /** Kinds of marker whose line is no work done: complaints, deaths, the server's own health failures. */
    private static final java.util.Set<String> NOT_WORK = java.util.Set.of("error", "engine-dead", "health-check-failed",
            "traceback", "exception", "killed", "signal", "shutdown", "address-in-use");

    /** What a failed answer's body can say of the server: its errors and its engine's death, not its progress. */
    private static final java.util.Set<String> ANSWER_KINDS = java.util.Set.of("error", "engine-dead");

    /**
     * The markers of an error answer's body (a 5xx a real request got): errors and an engine's death, as markers of
     * the newest run read apart from the log (they open no run and end none), at the probe's line.
     */
    static void answer(String probe, String body, int line, List<Marker> markers, io.triage.knowledge.LiteralIndex index,
                       Sink sink) {
        if (markers == null || index == null || body == null || body.isEmpty() || body.length() > ReadBudget.LINE_CAP) {
            return;
        }
        String text = clean(body);
        java.util.BitSet candidates = index.candidates(text);
        LinePattern.Shape shape = LinePattern.shape(text);
        String last = null;
        for (int c = candidates.nextSetBit(0); c >= 0; c = candidates.nextSetBit(c + 1)) {
            Marker m = markers.get(c);
            if (!ANSWER_KINDS.contains(m.kind()) || m.id().equals(last)) {
                continue;
            }
            LinePattern.Match mt = m.pattern().find(text, shape);
            if (mt != null) {
                last = m.id();
                sink.add(new LogMarker(m.kind(), m.id(), m.subtype(), m.priority(), Integer.MAX_VALUE / 2, 0, true, -1,
                        detail(m, mt), probe, line, Text.excerpt(text)));
            }
        }
    }

    /** Whether a log line holds a marker of a kind that is no work done ({@link #NOT_WORK}). */
    static boolean notWork(String line, List<Marker> markers, io.triage.knowledge.LiteralIndex index) {
        if (markers == null || index == null || line.length() > ReadBudget.LINE_CAP) {
            return false;
        }
        String text = clean(line);
        java.util.BitSet candidates = index.candidates(text);
        LinePattern.Shape shape = LinePattern.shape(text);
        for (int c = candidates.nextSetBit(0); c >= 0; c = candidates.nextSetBit(c + 1)) {
            Marker m = markers.get(c);
            if (NOT_WORK.contains(m.kind()) && m.pattern().find(text, shape) != null) {
                return true;
            }
        }
        return false;
    }

    /** Trailing lines of one message, times and counters aside, that make the log's end a loop, not work. */
    static final int LOOP_LINES = 20;

    /**
     * The log ends in one message repeated (a retry loop: "Prefix 0 - Suffix 13715" forty times a second), its
     * numbers aside: a {@link io.triage.facts.LogLoop} with how many of the last lines it is.
     */
    private static void loop(List<Entry> entries, List<List<Marker>> matched, Sink sink) {
        // the tail's own end: the lines of other logs (the second look's, a journal) read after it are not its end
        int end = entries.size();
        while (end > 0 && !entries.get(end - 1).probe().equals("log_tail")) {
            end--;
        }
        if (end < LOOP_LINES) {
            return;
        }
        String shape = numbersAside(entries.get(end - 1).text());
        // a line of work, loading or readiness repeated is that work itself, not a loop
        List<Marker> kinds = matched.get(end - 1);
        if (shape.isBlank() || kinds != null && kinds.stream().anyMatch(m -> List.of("progress", "access", "ready",
                "loading").contains(m.kind()))) {
            return;
        }
        int same = 1;
        while (same < end && numbersAside(entries.get(end - 1 - same).text()).equals(shape)) {
            same++;
        }
        if (same >= LOOP_LINES) {
            Entry last = entries.get(end - 1);
            sink.add(new io.triage.facts.LogLoop(same, end, last.probe(), last.absLine() > 0 ? last.absLine()
                    : last.probeLine(), Text.excerpt(last.text())));
        }
    }

    /** A line with every run of digits as one '#': the same message at another time or count. */
    static String numbersAside(String line) {
        StringBuilder b = new StringBuilder(Math.min(line.length(), 512));
        boolean digit = false;
        for (int i = 0; i < line.length() && b.length() < 512; i++) {
            char c = line.charAt(i);
            if (Character.isDigit(c)) {
                if (!digit) {
                    b.append('#');
                }
                digit = true;
            } else {
                b.append(c);
                digit = false;
            }
        }
        return b.toString().strip();
    }

    @SuppressWarnings("unchecked")
    private static <T> List<T>[] newArray(int n) {
        return (List<T>[]) new List<?>[n];
    }

    /** Says, per probe, which of its lines the budget left unread (the oldest ones). */
    private static void unread(List<Entry> dropped, ReadBudget budget, Sink sink) {
        Map<String, int[]> range = new java.util.LinkedHashMap<>();
        for (Entry e : dropped) {
            int[] r = range.computeIfAbsent(e.probe(), k -> new int[] {Integer.MAX_VALUE, 0, 0});
            r[0] = Math.min(r[0], e.probeLine());
            r[1] = Math.max(r[1], e.probeLine());
            r[2]++;
        }
        range.forEach((probe, r) -> sink.unparseable(probe, r[2] + " lines (" + r[0] + "–" + r[1]
                + ") not read: the capture's parsing budget (" + budget.limit()
                + " characters examined) was spent on newer lines", r[0], ""));
    }

    /** How much older than the newest line read a start may be and still start a run (clocks of two sources differ). */
    private static final long STALE_START_SECONDS = 60;
    /** Work logged this long after a run's terminal line belongs to a later run, seconds. */
    private static final long WORK_AFTER_END_SECONDS = 600;

    /**
     * Cuts the log into runs and writes each line's run into {@code runOf}; returns the newest run.
     * A run starts at an argument dump; a run-start line opens one only where the log has no argument
     * dumps at all (or before the first), and only after the previous run ended or became ready.
     */
    private static int cutRuns(List<List<Marker>> matched, int[] runOf, long[] epochs, boolean[] warning) {
        boolean anyArgs = false;
        long newest = -1; // the newest timestamp read so far: a start older than it is another source's past
        for (List<Marker> ms : matched) {
            anyArgs |= ms != null && has(ms, "server-args");
        }
        int run = 0;
        boolean runTerminal = false;
        long terminalEpoch = -1; // when the run's latest terminal line was logged, if it had a time
        boolean runWork = false; // the run logged work (a batch, a served request)
        boolean runEnded = false; // a terminal line of the run other than an error logged as a warning
        boolean runReady = false;
        java.util.Set<String> runArgs = new java.util.HashSet<>(); // the argument dumps the current run printed
        for (int i = 0; i < matched.size(); i++) {
            List<Marker> ms = matched.get(i);
            // a start stamped well before a line already read is out of order: another log appended after this one
            // (a unit's journal after the server's file) retelling its past, not a new launch
            boolean stale = epochs[i] >= 0 && newest >= 0 && epochs[i] < newest - STALE_START_SECONDS;
            if (epochs[i] > newest) {
                newest = epochs[i];
            }
            if (ms != null && !stale) {
                boolean args = has(ms, "server-args");
                boolean start = has(ms, "run-start");
                // one launch may print more than one dump (vLLM: the API server's non-default args, then the engine's
                // config, with warnings and errors of its start-up between them): a dump starts a run when the run has
                // one of its kind already, or was ready, or ended before any dump of its own
                boolean newArgs = args && (run == 0 || runReady || argsSeen(ms, runArgs) || runTerminal && runArgs.isEmpty());
                // work logged long after the run's end (a start that failed, then a later start whose first lines were
                // not read): a run that ended serves nothing, so this is a later one
                boolean workAfterEnd = runTerminal && terminalEpoch >= 0 && epochs[i] - terminalEpoch > WORK_AFTER_END_SECONDS
                        && (has(ms, "progress") || has(ms, "access") || has(ms, "ready"));
                if (newArgs || workAfterEnd || (start && (!anyArgs || run == 0) && (run == 0 || runTerminal || runReady))) {
                    if (run == 0 && !runEnded && !runReady && !runWork && importTime(epochs, i)) {
                        // a few lines just before the first start, with no end, no work and no start of their own, are
                        // that launch's import-time output (a failed import's warning), not an earlier run
                        for (int k = 0; k < i; k++) {
                            runOf[k] = 1;
                        }
                    }
                    run++;
                    runWork = false;
                    runEnded = false;
                    runTerminal = false;
                    terminalEpoch = -1;
                    runReady = false;
                    runArgs.clear();
                }
                for (Marker m : ms) {
                    if (m.kind().equals("server-args")) {
                        runArgs.add(m.id());
                    }
                }
                for (Marker m : ms) {
                    if (TERMINAL.contains(m.kind())) {
                        runTerminal = true;
                        // a failed import the server only warns of (vLLM's "Failed to import from vllm._C") ends nothing
                        runEnded |= !(m.kind().equals("error") && warning[i]);
                        if (epochs[i] >= 0) {
                            terminalEpoch = epochs[i];
                        }
                    }
                    runReady |= m.kind().equals("ready");
                    runWork |= m.kind().equals("progress") || m.kind().equals("access");
                }
            }
            runOf[i] = run;
        }
        return run;
    }

    /**
     * Whether the {@code n} lines before a run's first start are few and close to it: at most {@link #IMPORT_LINES},
     * the first of them stamped at most {@link #IMPORT_SECONDS} before the start (or, untimed, at most five lines).
     */
    private static boolean importTime(long[] epochs, int n) {
        if (n == 0 || n > IMPORT_LINES) {
            return false;
        }
        long first = -1;
        for (int k = 0; k < n && first < 0; k++) {
            first = epochs[k];
        }
        if (first < 0 || epochs[n] < 0) {
            return n <= 5;
        }
        return epochs[n] >= first && epochs[n] - first <= IMPORT_SECONDS;
    }

    /** Whether a line is logged at WARNING level (its level word within its first 48 characters). */
    private static boolean warningLevel(String text) {
        String head = text.length() > 48 ? text.substring(0, 48) : text;
        return head.contains("WARNING") || head.contains(" WARN ") || head.startsWith("WARN ") || head.contains("[W ");
    }

    private static final int IMPORT_LINES = 20;
    private static final long IMPORT_SECONDS = 120;

    /** Whether a dump of the same kind as one on this line ({@code ms}) was printed in the run already. */
    private static boolean argsSeen(List<Marker> ms, java.util.Set<String> runArgs) {
        for (Marker m : ms) {
            if (m.kind().equals("server-args") && runArgs.contains(m.id())) {
                return true;
            }
        }
        return false;
    }

    /** Kinds that repeat by the hundred in a serving log: requests, batches, polls. */
    private static final java.util.Set<String> ROUTINE = java.util.Set.copyOf(Marker.ROUTINE_KINDS);

    /**
     * Of the routine lines of one run, only the first, the last and the last timestamped are facts:
     * rules ask whether such a line exists before or after another, and how recent the newest is,
     * never how many there are. A log of a thousand requests stays a handful of facts.
     */
    private static boolean[] routineKept(List<List<Marker>> matched, List<List<LinePattern.Match>> matchers, int[] runOf,
                                         long[] epochs) {
        boolean[] keep = new boolean[matched.size()];
        Map<String, Integer> first = new HashMap<>();
        Map<String, Integer> last = new HashMap<>();
        Map<String, Integer> lastTimed = new HashMap<>();
        for (int i = 0; i < matched.size(); i++) {
            List<Marker> ms = matched.get(i);
            if (ms == null) {
                continue;
            }
            for (int k = 0; k < ms.size(); k++) {
                Marker m = ms.get(k);
                if (ROUTINE.contains(m.kind())) {
                    String kind = m.kind().equals("access") && !servedWork(m, matchers.get(i).get(k))
                            ? Marker.ACCESS_NOISE : m.kind();
                    String key = runOf[i] + "/" + kind;
                    first.putIfAbsent(key, i);
                    last.put(key, i);
                    if (epochs[i] >= 0) {
                        lastTimed.put(key, i);
                    }
                }
            }
        }
        for (Map<String, Integer> m : List.of(first, last, lastTimed)) {
            for (int i : m.values()) {
                keep[i] = true;
            }
        }
        return keep;
    }

    /** Puts the numbered grep lines before or around the tail, dropping the ones the tail repeats. */
    /**
     * Whether the output is grep -n's: every non-blank line of the first 200 is {@code N:text} (or a context line's
     * {@code N-text}), at least one with the colon, the numbers strictly increasing. A log whose lines start with a
     * date ({@code 2026-03-19…}) or a time ({@code 12:34:56 …}) repeats or lacks them.
     */
    private static boolean numbered(ProbeOutput o) {
        List<String> lines = Text.lines(o.outOrEmpty().length() > 65_536 ? o.outOrEmpty().substring(0, 65_536) : o.outOrEmpty());
        int n = 0;
        boolean colon = false;
        long previous = -1;
        for (int i = 0; i < lines.size() && i < 200; i++) {
            String l = lines.get(i);
            if (l.isBlank()) {
                continue;
            }
            int d = 0;
            while (d < l.length() && d < 10 && Character.isDigit(l.charAt(d))) {
                d++;
            }
            if (d == 0 || d == 10 || d >= l.length() || l.charAt(d) != ':' && l.charAt(d) != '-') {
                return false;
            }
            long number = Long.parseLong(l.substring(0, d));
            if (number <= previous) {
                return false;
            }
            previous = number;
            colon |= l.charAt(d) == ':';
            n++;
        }
        return n > 0 && colon;
    }

    private static List<Entry> merge(ProbeOutput tail, List<ProbeOutput> greps, Sink sink) {
        List<Entry> tailEntries = new ArrayList<>();
        ReadBudget budget = sink.budget();
        if (tail != null) {
            List<String> lines = Text.lines(tail.outOrEmpty());
            for (int i = 0; i < lines.size(); i++) {
                tailEntries.add(new Entry(budget.cut(tail.name(), i + 1, lines.get(i)), -1, tail.name(), i + 1));
            }
        }
        List<Entry> numbered = new ArrayList<>();
        for (ProbeOutput grep : greps) {
            List<String> lines = Text.lines(grep.outOrEmpty());
            for (int i = 0; i < lines.size(); i++) {
                String line = budget.cut(grep.name(), i + 1, lines.get(i));
                java.util.regex.Matcher m = NUMBERED.matcher(line);
                if (m.matches()) {
                    numbered.add(new Entry(m.group(2), Text.parseInt(m.group(1), -1), grep.name(), i + 1));
                } else if (!line.isBlank()) {
                    sink.unparseable(grep.name(), "marker line without the 'N:' line number of grep -n", i + 1,
                            Text.excerpt(line));
                }
            }
        }
        if (greps.size() > 1) {
            // several greps of one log: in the log's order, each of its lines once
            numbered.sort(java.util.Comparator.comparingInt(Entry::absLine));
            List<Entry> once = new ArrayList<>(numbered.size());
            int last = Integer.MIN_VALUE;
            for (Entry e : numbered) {
                if (e.absLine() < 0 || e.absLine() != last) {
                    once.add(e);
                }
                last = e.absLine();
            }
            numbered = once;
        }
        if (numbered.isEmpty()) {
            return tailEntries;
        }
        if (tailEntries.isEmpty()) {
            return numbered;
        }
        // align: the last numbered line whose text the tail also holds fixes the tail's first line number
        Map<String, Integer> tailIndex = new HashMap<>();
        for (int i = 0; i < tailEntries.size(); i++) {
            tailIndex.put(tailEntries.get(i).text(), i);
        }
        int tailStart = -1;
        for (int k = numbered.size() - 1; k >= 0; k--) {
            Integer at = tailIndex.get(numbered.get(k).text());
            if (at != null) {
                tailStart = numbered.get(k).absLine() - at;
                break;
            }
        }
        List<Entry> out = new ArrayList<>();
        if (tailStart < 1) {
            // no shared line: every numbered line comes before the tail (the tail would repeat it otherwise)
            out.addAll(numbered);
            out.addAll(tailEntries);
            return out;
        }
        for (Entry e : numbered) {
            if (e.absLine() < tailStart) {
                out.add(e);
            }
        }
        for (int i = 0; i < tailEntries.size(); i++) {
            Entry t = tailEntries.get(i);
            out.add(new Entry(t.text(), tailStart + i, t.probe(), t.probeLine(), t.barFromItsStart(), t.stamped()));
        }
        // a grep taken after the tail holds lines past its end: they come after it
        int tailEnd = tailStart + tailEntries.size();
        for (Entry e : numbered) {
            if (e.absLine() >= tailEnd) {
                out.add(e);
            }
        }
        return out;
    }

    private static final Pattern POLL_PATH = Pattern.compile("^/(?:health|healthz|health_generate|ping|metrics|ready|live|v1/models|get_model_info|server_info)(?:[/?].*)?$");

    /**
     * An access line is served work unless it reads state (a GET or HEAD: health and metrics polls, model lists), is
     * a poll by its path, or was answered with a 5xx:
     * a load balancer's 503s must never pass for progress.
     */
    private static boolean servedWork(Marker m, LinePattern.Match mt) {
        String status = group(m, mt, "status");
        String path = group(m, mt, "path");
        String method = group(m, mt, "method");
        if (status != null && status.startsWith("5")) {
            return false;
        }
        if (method != null && (method.equals("GET") || method.equals("HEAD") || method.equals("OPTIONS"))) {
            return false; // inference is posted; a GET reads state (a health or model-list poll, Ollama's GET /)
        }
        return path == null || !POLL_PATH.matcher(path).matches();
    }

    private static String group(Marker m, LinePattern.Match mt, String name) {
        return m.groups().contains(name) ? mt.group(name) : null;
    }

    private static boolean has(List<Marker> ms, String kind) {
        for (Marker m : ms) {
            if (m.kind().equals(kind)) {
                return true;
            }
        }
        return false;
    }

    private static String best(List<Marker> ms) {
        String best = ms.get(0).kind();
        int bestAt = KIND_ORDER.indexOf(best);
        for (Marker m : ms) {
            int at = KIND_ORDER.indexOf(m.kind());
            if (at >= 0 && (bestAt < 0 || at < bestAt)) {
                best = m.kind();
                bestAt = at;
            }
        }
        return best;
    }

    private static String detail(Marker m, LinePattern.Match matcher) {
        if (m.groups().isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        for (String g : m.groups()) {
            String v = matcher.group(g);
            if (v != null && !v.isBlank()) {
                if (b.length() > 0) {
                    b.append(' ');
                }
                b.append(g).append('=').append(Text.excerpt(v));
            }
        }
        // a check's start and the last heartbeat before it, both times of day of the same clock: how long nothing came back
        String tic = m.groups().contains("tic") ? matcher.group("tic") : null;
        String beat = m.groups().contains("heartbeat") ? matcher.group("heartbeat") : null;
        if (tic != null && beat != null) {
            int age = Math.floorMod(secondOfDay(tic) - secondOfDay(beat), 86_400);
            b.append(" heartbeatAge=").append(age);
        }
        return b.toString();
    }

    /** {@code HH:MM:SS} as seconds since midnight. */
    private static int secondOfDay(String hms) {
        return Text.parseInt(hms.substring(0, 2), 0) * 3600 + Text.parseInt(hms.substring(3, 5), 0) * 60
                + Text.parseInt(hms.substring(6, 8), 0);
    }

    /**
     * Gives a progress bar's lines without a timestamp of their own (tqdm: {@code Loading safetensors checkpoint
     * shards:  38% Completed | 41/109 [21:50<36:13, 31.97s/it]}) the earliest time they can have been written: a
     * bar prints its first line when it starts, after every line before it in the log, so a line of the bar was
     * written no earlier than the newest timestamp before the bar's first line seen, plus the time the bar counted
     * since then. A weights load that moves on for half an hour under one timestamped line is then recent, not
     * silent. A bar whose count goes back is a new bar.
     */
    static void progressBarTimes(java.util.function.IntFunction<String> line, long[] epochs) {
        progressBarTimes(line, i -> barBegunHere(line.apply(i)), epochs);
    }

    /** @param begun whether line i holds (or held, before cleaning) its bar's first update */
    static void progressBarTimes(java.util.function.IntFunction<String> line, java.util.function.IntPredicate begun,
                                 long[] epochs) {
        Map<String, long[]> bars = new HashMap<>(); // label -> {earliest start, last elapsed}
        long prevTs = -1; // the newest timestamp a line carried itself (an estimate below is never one)
        for (int i = 0; i < epochs.length; i++) {
            if (epochs[i] >= 0) {
                prevTs = epochs[i];
                continue;
            }
            String text = line.apply(i);
            if (text.length() > 4096 || text.indexOf('%') < 0 || text.indexOf('[') < 0) {
                continue;
            }
            long elapsed = barElapsed(text);
            String label = elapsed < 0 ? null : barLabel(text);
            if (label == null) {
                continue;
            }
            long[] bar = bars.get(label);
            if (bar == null || elapsed < bar[1]) {
                if (prevTs < 0) {
                    bars.remove(label);
                    continue;
                }
                // a line that holds the bar's own first update (0/N at 00:00, carriage returns joining the rest) shows
                // a bar begun after the line stamped before it: its newest update is at least that much later; else
                // the bar may have begun before (its first lines cut from the tail), and the stamp is all we know
                bar = new long[] {begun.test(i) ? prevTs : prevTs - elapsed, elapsed};
                bars.put(label, bar);
            }
            bar[1] = elapsed;
            epochs[i] = bar[0] + elapsed; // lines before i are behind the loop: this estimate feeds no later one
        }
    }

    /** Whether a tqdm line holds the bar's first update: {@code  0/37 [00:00<?, ?it/s]}. */
    static boolean barBegunHere(String s) {
        int at = s.indexOf(" [00:00<");
        while (at > 0) {
            int slash = s.lastIndexOf('/', at);
            int space = slash < 0 ? -1 : s.lastIndexOf(' ', slash);
            if (slash > 0 && space >= 0 && slash - space == 2 && s.charAt(slash - 1) == '0') {
                return true;
            }
            at = s.indexOf(" [00:00<", at + 1);
        }
        return false;
    }

    /** The seconds a tqdm bar counted, its {@code [MM:SS<} or {@code [H:MM:SS,} field (the last such), or -1. */
    static long barElapsed(String s) {
        for (int at = s.lastIndexOf('['); at >= 0; at = at == 0 ? -1 : s.lastIndexOf('[', at - 1)) {
            long v = 0;
            int fields = 0;
            int k = at + 1;
            while (fields < 3) {
                int d = k;
                while (k < s.length() && k - d < 4 && s.charAt(k) >= '0' && s.charAt(k) <= '9') {
                    k++;
                }
                if (k == d || (fields > 0 && k - d != 2)) {
                    break;
                }
                v = v * 60 + Long.parseLong(s, d, k, 10);
                fields++;
                if (k < s.length() && s.charAt(k) == ':') {
                    k++;
                } else {
                    break;
                }
            }
            if (fields >= 2 && k < s.length() && (s.charAt(k) == '<' || s.charAt(k) == ',' || s.charAt(k) == ']')) {
                return v;
            }
        }
        return -1;
    }

    /** What names a bar: the text before its percentage, without a leading process tag ({@code (Worker pid=1)}), or null. */
    static String barLabel(String s) {
        int pct = s.indexOf('%');
        int d = pct;
        while (d > 0 && s.charAt(d - 1) >= '0' && s.charAt(d - 1) <= '9') {
            d--;
        }
        if (d == pct) {
            return null;
        }
        String label = s.substring(0, d).strip();
        if (label.startsWith("(")) {
            int close = label.indexOf(')');
            label = close < 0 ? label : label.substring(close + 1).strip();
        }
        return label.isEmpty() ? null : label;
    }
}
