package io.triage.parse;

import io.triage.capture.ProbeOutput;
import io.triage.facts.Proc;
import io.triage.knowledge.ProcessPatterns;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code pgrep -fa} ({@code PID ARGS}) and {@code ps} output with a header line (any column order
 * among PID, PPID, STAT/S, ELAPSED/ETIMES/ETIME, RSS, and the command last). The probe's own command
 * lines ({@code timeout 10 bash -c pgrep …}, {@code grep}) are never taken for the server; a known client's
 * (a benchmark, a curl loop, triage itself) comes back with role {@code client}, which the fact builder
 * records as {@code other} with a note: the rules never see it as a server process.
 */
final class ProcessParser {
    private static final Pattern PGREP_LINE = Pattern.compile("^\\s*(\\d+)\\s+(.+)$");
    private static final Pattern ETIME = Pattern.compile("^(?:(\\d+)-)?(?:(\\d+):)?(\\d+):(\\d+)$");

    private ProcessParser() {
    }

    /**
     * Passes over a process line: splitting, the argument list, and the process patterns (most are
     * anchored or start with a literal, so each reads little of the line: a quarter pass each).
     */
    private static int passes(ProcessPatterns patterns) {
        return patterns.size() / 4 + 4;
    }

    static void pgrep(ProbeOutput p, ProcessPatterns patterns, Map<Integer, Proc> procs, Sink sink) {
        List<String> lines = sink.lines(p, passes(patterns));
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            Matcher m = PGREP_LINE.matcher(line);
            if (!m.matches()) {
                sink.unparseable(p.name(), "not a 'PID command' line", i + 1, Text.excerpt(line));
                continue;
            }
            int pid = Text.parseInt(m.group(1), -1);
            String args = m.group(2).strip();
            ProcessPatterns.Role role = patterns.classify(args);
            if (role == ProcessPatterns.Role.PROBE || procs.containsKey(pid)) {
                continue;
            }
            procs.put(pid, new Proc(pid, -1, "", -1, -1, args, role.role(), role.server(), p.name(), i + 1,
                    Text.excerpt(line)));
        }
    }

    static void ps(ProbeOutput p, ProcessPatterns patterns, Map<Integer, Proc> procs, Sink sink) {
        List<String> lines = sink.lines(p, passes(patterns));
        List<String> header = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            String[] tok = line.strip().split("\\s+");
            if (tok[0].equals("$") || tok[0].equals("#")
                    || header == null && io.triage.capture.PasteRecognizer.promptCommand(line) != null) {
                continue; // the prompt line of a paste ("$ ps …", "dev@host:~$ ps …"): the command that printed what follows
            }
            boolean headerLine = isHeader(tok);
            if (header != null && headerLine) {
                header = null; // a second table's header (top's, then a "ps -o …" pasted after it): its own columns
            }
            if (header == null) {
                if (headerLine) {
                    header = new ArrayList<>();
                    for (String t : tok) {
                        header.add(t.toUpperCase(Locale.ROOT));
                    }
                    continue;
                }
                header = headerless(tok);
            }
            int cols = header.size();
            if (tok.length < cols) {
                sink.unparseable(p.name(), "fewer columns than the header (" + cols + ")", i + 1, Text.excerpt(line));
                continue;
            }
            int pid = Text.parseInt(tok[col(header, "PID")], -1);
            if (pid < 0) {
                if (!line.contains("PID")) {
                    sink.unparseable(p.name(), "no PID in this ps row", i + 1, Text.excerpt(line));
                }
                continue;
            }
            String args = rest(line, cols - 1);
            ProcessPatterns.Role role = patterns.classify(args);
            if (role == ProcessPatterns.Role.PROBE) {
                continue;
            }
            int ppidCol = col(header, "PPID");
            int statCol = firstCol(header, "STAT", "S", "STATE");
            int etCol = firstCol(header, "ELAPSED", "ETIMES", "ETIME");
            int rssCol = firstCol(header, "RSS", "RSZ");
            String stat = statCol >= 0 ? tok[statCol] : "";
            procs.put(pid, new Proc(pid, ppidCol >= 0 ? Text.parseInt(tok[ppidCol], -1) : -1,
                    stat.isEmpty() ? "" : stat.substring(0, 1), etCol >= 0 ? elapsed(tok[etCol]) : -1,
                    rssCol >= 0 ? Text.parseLong(tok[rssCol], -1) : -1, args, role.role(), role.server(),
                    p.name(), i + 1, Text.excerpt(line)));
        }
    }

    /** A table's header: it names the PID column and, unlike any row, holds no number. */
    private static boolean isHeader(String[] tok) {
        if (tok.length < 2 || indexOf(List.of(tok), "PID") < 0) {
            return false;
        }
        for (String t : tok) {
            if (Text.parseLong(t, -1) >= 0) {
                return false;
            }
        }
        return true;
    }

    /** {@code ps -ef}'s columns. */
    private static final List<String> FULL = List.of("UID", "PID", "PPID", "C", "STIME", "TTY", "TIME", "CMD");
    /** {@code ps aux}'s columns. */
    private static final List<String> BSD = List.of("USER", "PID", "%CPU", "%MEM", "VSZ", "RSS", "TTY", "STAT", "START",
            "TIME", "COMMAND");
    /** The standard probe's columns: {@code ps -eo pid,ppid,stat,etimes,rss,args}. */
    private static final List<String> PROBE = List.of("PID", "PPID", "STAT", "ELAPSED", "RSS", "COMMAND");
    private static final com.google.re2j.Pattern CPU_TIME = com.google.re2j.Pattern.compile("(?:\\d{1,6}-)?\\d{1,6}:\\d\\d(?::\\d\\d)?");
    private static final com.google.re2j.Pattern DECIMAL = com.google.re2j.Pattern.compile("\\d{1,12}(?:\\.\\d{1,6})?");

    /**
     * The columns of rows shown without their header, by the first row's shape: what people paste after
     * {@code | grep} is {@code ps -ef} (user, PID, PPID, C, start, TTY, CPU time) or {@code ps aux} (user, PID, %CPU,
     * %MEM, VSZ, RSS, TTY, STAT, start, CPU time); anything else is taken for the standard probe's columns.
     */
    static List<String> headerless(String[] t) {
        boolean user = t.length > 0 && Text.parseLong(t[0], -1) < 0;
        if (user && t.length >= FULL.size() && Text.parseLong(t[1], -1) >= 0 && Text.parseLong(t[2], -1) >= 0
                && Text.parseLong(t[3], -1) >= 0 && CPU_TIME.matcher(t[6]).matches()) {
            return FULL;
        }
        if (user && t.length >= BSD.size() && Text.parseLong(t[1], -1) >= 0 && DECIMAL.matcher(t[2]).matches()
                && DECIMAL.matcher(t[3]).matches() && Text.parseLong(t[5], -1) >= 0 && CPU_TIME.matcher(t[9]).matches()) {
            return BSD;
        }
        return PROBE;
    }

    /** Everything after the first {@code skip} whitespace-separated fields. */
    private static String rest(String line, int skip) {
        int i = 0;
        int n = line.length();
        for (int f = 0; f < skip; f++) {
            while (i < n && Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            while (i < n && !Character.isWhitespace(line.charAt(i))) {
                i++;
            }
        }
        return line.substring(Math.min(i, n)).strip();
    }

    /** Seconds from {@code etimes} (plain seconds) or {@code etime} ({@code [[dd-]hh:]mm:ss}). */
    static long elapsed(String s) {
        long plain = Text.parseLong(s, -1);
        if (plain >= 0) {
            return plain;
        }
        Matcher m = ETIME.matcher(s);
        if (!m.matches()) {
            return -1;
        }
        long days = m.group(1) == null ? 0 : Long.parseLong(m.group(1));
        long hours = m.group(2) == null ? 0 : Long.parseLong(m.group(2));
        return ((days * 24 + hours) * 60 + Long.parseLong(m.group(3))) * 60 + Long.parseLong(m.group(4));
    }

    private static int col(List<String> header, String name) {
        return indexOf(header, name);
    }

    private static int firstCol(List<String> header, String... names) {
        for (String n : names) {
            int i = indexOf(header, n);
            if (i >= 0) {
                return i;
            }
        }
        return -1;
    }

    private static int indexOf(List<String> header, String name) {
        for (int i = 0; i < header.size(); i++) {
            if (header.get(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }
}
