package io.triage.parse;

import io.triage.capture.ProbeOutput;
import io.triage.facts.Gpu;
import io.triage.facts.GpuActivity;
import io.triage.facts.GpuProfile;
import io.triage.facts.SecondLook;
import io.triage.facts.ServerLoad;
import io.triage.knowledge.Cadence;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The signals that tell busy from hung: the server's Prometheus {@code /metrics}, the two samples of a
 * second look, and what the GPUs do together. Total: bad input gives an {@code Unparseable}, never an
 * exception.
 */
final class LoadParser {
    /** A Prometheus sample line: name, optional labels, value (timestamps ignored). Labels may hold anything but a newline. */
    /** RE2J: labels are host text with a lazy wildcard a backtracking matcher could try at every length. */
    private static final com.google.re2j.Pattern SAMPLE = com.google.re2j.Pattern.compile(
            "^([a-zA-Z_:][a-zA-Z0-9_:]{0,199})(\\{[^\\n]*\\})?[ \\t]+([-+]?(?:[0-9]{1,30}(?:\\.[0-9]{0,30})?(?:[eE][-+]?[0-9]{1,3})?|NaN|[-+]?Inf))(?:[ \\t]+-?[0-9]{1,20})?[ \\t]*$");
    private static final Pattern KEY = Pattern.compile("^([a-z_]{1,32}) ?(.*)$");
    private static final Pattern PROC = Pattern.compile("^([0-9]{1,9}) ([A-Za-z]) ([0-9]{1,18})$");
    private static final Pattern GPU = Pattern.compile("^([0-9]{1,3}), *([0-9]{1,3}|\\[N/A\\]|\\[Not Supported\\]), *([0-9]{1,9}|\\[N/A\\])$");

    private final Cadence cadence;

    LoadParser(Cadence cadence) {
        this.cadence = cadence;
    }

    /** What a scrape of {@code /metrics} says, summed per series; null when no known series was found. */
    private Scrape scrape(List<String> lines, String probe, Sink sink, boolean prefixed) {
        return scrape(lines, 0, probe, sink, prefixed);
    }

    /** The same, of lines that start at line {@code offset + 1} of the probe's output. */
    private Scrape scrape(List<String> lines, int offset, String probe, Sink sink, boolean prefixed) {
        Scrape s = new Scrape();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (prefixed) {
                if (!line.startsWith("metric ")) {
                    continue;
                }
                line = line.substring(7);
            }
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            com.google.re2j.Matcher m = SAMPLE.matcher(line);
            if (!m.matches()) {
                if (!prefixed && s.unreadable++ < 3) {
                    sink.unparseable(probe, "not a Prometheus sample line", offset + i + 1, Text.excerpt(line));
                }
                continue;
            }
            Optional<Map.Entry<String, String>> role = cadence.metricRole(m.group(1), m.group(2) == null ? "" : m.group(2));
            if (role.isEmpty()) {
                continue;
            }
            double v;
            try {
                v = Double.parseDouble(m.group(3));
            } catch (NumberFormatException e) {
                continue;
            }
            if (!Double.isFinite(v) || v < 0) {
                continue;
            }
            s.server = role.get().getKey();
            s.sums.merge(role.get().getValue(), v, Double::sum);
            if (s.line == 0) {
                s.line = offset + i + 1;
                s.excerpt = Text.excerpt(line);
            }
        }
        return s.sums.isEmpty() ? null : s;
    }

    private static final class Scrape {
        String server = "";
        final Map<String, Double> sums = new LinkedHashMap<>();
        int line;
        String excerpt = "";
        int unreadable;

        long count(String role) {
            Double v = sums.get(role);
            return v == null ? -1 : Math.round(Math.min(v, 1e15));
        }

        double value(String role) {
            Double v = sums.get(role);
            return v == null ? -1 : v;
        }
    }

    /**
     * The {@code metrics} probe: one {@link ServerLoad} when the scrape holds a known series. A paste that holds
     * the same scrape taken twice or more (a series seen again: {@code curl …/metrics; sleep 45; curl …/metrics})
     * is read as what moved between its first and its last scrape, like {@link #metricsTwice}, and the load is the
     * last scrape's, never their sum.
     */
    void metrics(ProbeOutput p, Sink sink) {
        List<String> lines = sink.lines(p, 2);
        List<Integer> starts = scrapeStarts(lines);
        if (starts.size() >= 2) {
            int lastFrom = starts.get(starts.size() - 1);
            int firstTo = starts.get(1);
            Scrape a = scrape(lines.subList(0, firstTo), 0, p.name(), sink, false);
            Scrape b = scrape(lines.subList(lastFrom, lines.size()), lastFrom, p.name(), sink, false);
            long interval = a != null && b != null ? intervalBetween(lines, firstTo, lastFrom) : -1;
            // the same server scraped again some seconds later: a known interval, no counter gone down (two replicas
            // scraped one after the other, or a restart between, are not one server's two moments)
            if (interval >= MIN_SCRAPE_INTERVAL_MS && !wentDown(a, b)) {
                twice(a, b, interval, p.name(), sink);
                return;
            }
            if (b != null) {
                sink.add(new ServerLoad(b.server, p.name(), b.count("running"), b.count("waiting"), b.value("generated"),
                        p.name(), b.line, b.excerpt));
                return; // the last scrape's load, never the scrapes summed
            }
        }
        Scrape s = scrape(lines, p.name(), sink, false);
        if (s == null) {
            return;
        }
        sink.add(new ServerLoad(s.server, p.name(), s.count("running"), s.count("waiting"), s.value("generated"),
                p.name(), s.line, s.excerpt));
    }

    /** Scrapes of one paste closer than this are not read as two moments (nothing says when they were taken). */
    private static final long MIN_SCRAPE_INTERVAL_MS = 2_000;

    /** Whether a counter of work is lower in the later scrape: another server's, or one restarted between them. */
    private static boolean wentDown(Scrape a, Scrape b) {
        for (String role : List.of("generated", "steps")) {
            if (a.value(role) >= 0 && b.value(role) >= 0 && b.value(role) < a.value(role)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Where each scrape of a paste begins: line 0, then every line at which a sample (its name and labels) already
     * seen in the current scrape appears again. Bounded by the lines read.
     */
    private static List<Integer> scrapeStarts(List<String> lines) {
        List<Integer> starts = new ArrayList<>(List.of(0));
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank() || line.startsWith("#") || line.length() > 4096 || !SAMPLE.matcher(line).matches()) {
                continue; // a prompt, a date, a comment: only a sample seen again starts a scrape
            }
            int end = line.lastIndexOf('}');
            int sp = end > 0 ? end + 1 : line.indexOf(' ');
            if (sp <= 0) {
                continue;
            }
            String key = line.substring(0, sp);
            if (!seen.add(key)) {
                starts.add(i);
                seen.clear();
                seen.add(key);
            }
        }
        return starts;
    }

    private static final com.google.re2j.Pattern DATE_LINE = com.google.re2j.Pattern.compile("^[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9:]{8} (?:UTC|GMT) [0-9]{4}$");

    /** {@code date -Is}, {@code date -Ins} (a comma before the nanoseconds), {@code date --rfc-3339=ns}, {@code date -u +%FT%TZ}. */
    private static final com.google.re2j.Pattern ISO_DATE_LINE = com.google.re2j.Pattern.compile(
            "^([0-9]{4}-[0-9]{2}-[0-9]{2})[T ]([0-9]{2}:[0-9]{2}:[0-9]{2})(?:[.,]([0-9]{1,9}))?(Z|[+-][0-9]{2}:?[0-9]{2})?$");

    /** The moment a scrape's date line names, in epoch milliseconds; -1 when it is not a date line. */
    static long dateLineMillis(String l) {
        if (l.length() > 40) {
            return -1;
        }
        if (DATE_LINE.matcher(l).matches()) {
            java.time.OffsetDateTime t = Timestamps.plainDate(l);
            return t == null ? -1 : t.toInstant().toEpochMilli();
        }
        com.google.re2j.Matcher m = ISO_DATE_LINE.matcher(l);
        if (!m.matches()) {
            return -1;
        }
        String fraction = m.group(3) == null ? "0" : (m.group(3) + "000000000").substring(0, 9);
        String zone = m.group(4) == null ? "Z" : m.group(4);
        if (zone.length() == 5) {
            zone = zone.substring(0, 3) + ":" + zone.substring(3); // +0000
        }
        try {
            return java.time.OffsetDateTime.parse(m.group(1) + "T" + m.group(2) + "." + fraction + zone)
                    .toInstant().toEpochMilli();
        } catch (java.time.format.DateTimeParseException e) {
            return -1; // a month 13, a second 61: not a moment
        }
    }

    /**
     * Milliseconds between two scrapes of one paste: from the {@code date} each was preceded by, else a
     * {@code sleep N} between them; -1 when neither is there.
     */
    private static long intervalBetween(List<String> lines, int firstTo, int lastFrom) {
        // the first date the paste shows is the first scrape's; the last one before the last scrape's first sample
        // is that scrape's
        long a = -1;
        long b = -1;
        for (int i = 0; i < lines.size() && i < lastFrom; i++) {
            String l = lines.get(i).strip();
            long t = dateLineMillis(l);
            if (t >= 0) {
                if (a < 0) {
                    a = t;
                } else {
                    b = t;
                }
            }
        }
        if (a >= 0 && b > a) {
            return b - a;
        }
        for (int i = Math.max(0, firstTo - 4); i < lastFrom && i < lines.size(); i++) {
            Matcher sl = SLEEP.matcher(lines.get(i));
            if (sl.find()) {
                return Long.parseLong(sl.group(1)) * 1000;
            }
        }
        return -1;
    }

    /**
     * What moved between two scrapes: the counter of work done ({@code generated}: tokens, or requests completed)
     * and the engine's iterations ({@code steps}); {tokens, steps}, each -1 when not read in both.
     */
    private static double[] work(Scrape a, Scrape b) {
        double tokens = a != null && b != null && a.value("generated") >= 0 && b.value("generated") >= 0
                ? Math.max(0, b.value("generated") - a.value("generated")) : -1;
        double steps = a != null && b != null && a.value("steps") >= 0 && b.value("steps") >= 0
                ? Math.max(0, b.value("steps") - a.value("steps")) : -1;
        return new double[] {tokens, steps};
    }

    /**
     * Whether the engine worked between two scrapes ({@link #work}'s {tokens, steps}). Its own iteration counter,
     * when read in both, decides: requests completed can come from elsewhere (an ensemble's Python pre-processing
     * model counts its successes beside the engine's), but an engine that took no step did no work.
     */
    private static boolean worked(double[] w) {
        return w[1] >= 0 ? w[1] > 0 : w[0] > 0;
    }

    /** A second look made of two scrapes alone, and the load of the later one. */
    private void twice(Scrape a, Scrape b, long interval, String probe, Sink sink) {
        double[] w = work(a, b);
        if (w[0] < 0 && w[1] < 0) {
            sink.add(new ServerLoad(b.server, probe, b.count("running"), b.count("waiting"), b.value("generated"),
                    probe, b.line, b.excerpt));
            return;
        }
        boolean moved = worked(w);
        String excerpt = "/metrics twice" + (interval > 0 ? ", " + interval / 1000 + " s apart" : "") + ":"
                + (w[0] >= 0 ? " +" + (long) w[0] + " " + ("triton".equals(b.server) ? "requests completed" : "tokens") + "," : "")
                + (w[1] >= 0 ? " +" + (long) w[1] + " engine iterations," : "")
                + (b.count("running") >= 0 ? " " + b.count("running") + " running," : "")
                + (b.count("waiting") >= 0 ? " " + b.count("waiting") + " waiting," : "");
        excerpt = excerpt.substring(0, excerpt.length() - 1);
        sink.add(new SecondLook(interval, -1, false, -1, -1, "", -1, -1, w[0], -1, b.count("running"), b.count("waiting"),
                moved ? "tokens" : "", moved ? "" : "tokens", probe, b.line, excerpt));
        sink.add(new ServerLoad(b.server, probe, b.count("running"), b.count("waiting"), b.value("generated"),
                probe, b.line, b.excerpt));
    }

    private static final Pattern SECONDS_IN_NAME = Pattern.compile("(?:^|_)([0-9]{1,4})s(?:_|$)");

    /**
     * The same {@code /metrics} scraped twice (the {@code metrics} probe and a later one, such as
     * {@code metrics_30s_later} after {@code sleep 30}): the token counter's growth, as a second look whose
     * only signal is the tokens. Nothing when either scrape holds no counter of generated tokens.
     */
    void metricsTwice(ProbeOutput first, ProbeOutput later, Sink sink) {
        Scrape a = scrape(sink.lines(first, 2), first.name(), sink, false);
        Scrape b = scrape(sink.lines(later, 2), later.name(), sink, false);
        double[] w = work(a, b);
        if (w[0] < 0 && w[1] < 0) {
            return;
        }
        Matcher sl = SLEEP.matcher(later.cmd() == null ? "" : later.cmd());
        Matcher named = SECONDS_IN_NAME.matcher(later.name());
        long interval = sl.find() ? Long.parseLong(sl.group(1)) * 1000 : named.find() ? Long.parseLong(named.group(1)) * 1000 : -1;
        twice(a, b, interval, later.name(), sink);
    }

    /** One sample of the second look, read into its fields. */
    private static final class Sample {
        long tMs = -1;
        long clkTck = -1;
        long logSize = -1;
        String logLast;
        final Map<Integer, long[]> procs = new LinkedHashMap<>(); // pid -> {state char, ticks}
        final List<Integer> gpuUtil = new ArrayList<>();
        long downloadBytes = -1;
        Scrape scrape;
    }

    private Sample sample(ProbeOutput p, Sink sink) {
        Sample s = new Sample();
        List<String> lines = sink.lines(p, 2);
        for (int i = 0; i < lines.size(); i++) {
            Matcher k = KEY.matcher(lines.get(i));
            if (!k.matches()) {
                continue;
            }
            String v = k.group(2).strip();
            switch (k.group(1)) {
                case "t_ms" -> s.tMs = Text.parseLong(v, -1);
                case "clk_tck" -> s.clkTck = Text.parseLong(v, -1);
                case "log_size" -> s.logSize = Text.parseLong(v, -1);
                case "log_last" -> s.logLast = k.group(2);
                case "proc" -> {
                    Matcher m = PROC.matcher(v);
                    if (m.matches() && s.procs.size() < 64) {
                        s.procs.put(Text.parseInt(m.group(1), -1), new long[] {m.group(2).charAt(0), Text.parseLong(m.group(3), -1)});
                    }
                }
                case "gpu" -> {
                    Matcher m = GPU.matcher(v);
                    if (m.matches() && s.gpuUtil.size() < 64) {
                        s.gpuUtil.add(Text.parseInt(m.group(2), -1));
                    }
                }
                case "hf_incomplete" -> s.downloadBytes = Text.parseLong(v.split(" ", 2)[0], -1);
                default -> { }
            }
        }
        s.scrape = scrape(lines, p.name(), sink, true);
        return s;
    }

    /** Both samples of a second look: one {@link SecondLook} saying what moved; nothing when either is unusable. */
    void secondLook(ProbeOutput first, ProbeOutput second, Sink sink) {
        if (first.rc() != null && first.rc() != 0 || second.rc() != null && second.rc() != 0) {
            sink.unparseable(second.name(), "a sample of the second look failed (rc " + first.rc() + ", " + second.rc()
                    + "): nothing compared", 0, "");
            return;
        }
        Sample a = sample(first, sink);
        Sample b = sample(second, sink);
        if (a.tMs < 0 || b.tMs < 0 || b.tMs < a.tMs) {
            sink.unparseable(second.name(), "the second look's samples carry no usable time (t_ms)", 0, "");
            return;
        }
        long interval = b.tMs - a.tMs;
        List<String> moved = new ArrayList<>();
        List<String> still = new ArrayList<>();
        long growth = -1;
        boolean lastChanged = false;
        if (a.logSize >= 0 && b.logSize >= 0) {
            // a rotated or truncated log shrank: something wrote it
            growth = b.logSize >= a.logSize ? b.logSize - a.logSize : b.logSize;
            lastChanged = a.logLast != null && b.logLast != null && !a.logLast.equals(b.logLast);
            (growth > 0 || lastChanged ? moved : still).add("log");
        }
        double cpu = -1;
        double cpuPct = -1;
        long ticks = 0;
        boolean anyCommon = false;
        for (Map.Entry<Integer, long[]> e : b.procs.entrySet()) {
            long[] before = a.procs.get(e.getKey());
            if (before != null && before[1] >= 0 && e.getValue()[1] >= before[1]) {
                ticks += e.getValue()[1] - before[1];
                anyCommon = true;
            }
        }
        long tck = b.clkTck > 0 ? b.clkTck : a.clkTck;
        if (anyCommon && tck > 0) {
            cpu = (double) ticks / tck;
            cpuPct = interval > 0 ? Math.round(cpu * 100_000.0 / interval) / 1.0 : -1;
            (cpuPct >= cadence.cpuMovedPercent() ? moved : still).add("cpu");
        }
        StringBuilder states = new StringBuilder();
        for (long[] p : b.procs.values()) {
            if (states.length() > 0) {
                states.append(',');
            }
            states.append((char) p[0]);
        }
        double tokens = -1;
        long running = -1;
        long waiting = -1;
        if (b.scrape != null) {
            running = b.scrape.count("running");
            waiting = b.scrape.count("waiting");
        }
        double[] w = work(a.scrape, b.scrape);
        tokens = w[0];
        if (w[0] >= 0 || w[1] >= 0) {
            (worked(w) ? moved : still).add("tokens");
        }
        long download = -1;
        if (a.downloadBytes >= 0 && b.downloadBytes >= 0) {
            download = b.downloadBytes - a.downloadBytes;
            (download > 0 ? moved : still).add("download");
        }
        int utilA = a.gpuUtil.stream().mapToInt(Integer::intValue).max().orElse(-1);
        int utilB = b.gpuUtil.stream().mapToInt(Integer::intValue).max().orElse(-1);
        String excerpt = "after " + interval + " ms: moved [" + String.join(", ", moved) + "], still ["
                + String.join(", ", still) + "]" + (cpuPct >= 0 ? ", CPU " + cpuPct + " % of a core" : "")
                + (growth >= 0 ? ", log +" + growth + " bytes" : "") + (tokens >= 0 ? ", +" + (long) tokens + " tokens" : "")
                + (utilB >= 0 ? ", GPU max " + utilA + " → " + utilB + " %" : "");
        sink.add(new SecondLook(interval, growth, lastChanged, cpu, cpuPct, states.toString(), utilA, utilB, tokens,
                download, running, waiting, String.join(",", moved), String.join(",", still), second.name(), 0, excerpt));
        if (b.scrape != null) {
            sink.add(new ServerLoad(b.scrape.server, second.name(), running, waiting, b.scrape.value("generated"),
                    second.name(), 0, b.scrape.excerpt));
        }
    }

    /** The suffix a tool gives the same probe taken again seconds later ({@code date_2}, {@code gpus_2}, {@code metrics_2}). */
    static final String AGAIN = "_2";

    /** The probe names a capture holds twice, by the first's name: {@code X} and {@code X_2}. */
    static List<String> takenTwice(Map<String, ProbeOutput> probes) {
        List<String> out = new ArrayList<>();
        for (String n : probes.keySet()) {
            if (n.endsWith(AGAIN) && n.length() > AGAIN.length()) {
                String first = n.substring(0, n.length() - AGAIN.length());
                if (probes.containsKey(first)) {
                    out.add(first);
                }
            }
        }
        return out;
    }

    /** A health poll in a log line: a request for a health, readiness or listing path, which is no work done. */
    private static final com.google.re2j.Pattern POLL = com.google.re2j.Pattern.compile(
            "\\b(?:GET|HEAD)\\s+\"?/(?:health|healthz|health_generate|ping|metrics|ready|live|v1/models|v2/health/\\w+)\\b");

    /** A directory a compiler caches its output in: torch.compile / Inductor, Triton, DeepGEMM and FlashInfer's JIT. */
    private static final com.google.re2j.Pattern COMPILE_CACHE = com.google.re2j.Pattern.compile(
            "(?i)(?:torch_compile_cache|inductor|/\\.triton/|triton_cache|deep_gemm|flashinfer|/jit[_/]|cuda_graph)");

    /** A log line at a level above INFO (plain, JSON or logfmt): a complaint, not work done. */
    private static final com.google.re2j.Pattern LEVEL_NOT_WORK = com.google.re2j.Pattern.compile(
            "(?:\\b(?:ERROR|WARNING|WARN|CRITICAL|FATAL)\\b|\"level\"\\s*:\\s*\"(?i:error|warn|warning|critical|fatal)\"|\\blevel=(?i:error|warn|warning|fatal)\\b)");

    /**
     * A second look taken by a tool of its own: probes taken again seconds later under the first's name with
     * {@code _2} ({@code date_2}, a log's tail, {@code ps} with a TIME column, {@code gpus}, {@code metrics}, a
     * {@code du}). What moved between the two takes, read as one {@link SecondLook}: the log (lines added after the
     * first take's last line, health polls, complaints and {@code notWork}'s lines aside), the processes' CPU time (ps's {@code TIME}/{@code CPUTIME}, or
     * {@code times}, per PID), the GPUs' utilisation, the metrics' work counters, a directory's size. Nothing when
     * no signal was read in both takes.
     *
     * @param logs the names of the probes that are the server's log, first taken
     */
    void pairedLook(Map<String, ProbeOutput> probes, List<String> logs, java.util.function.Predicate<String> notWork,
                    Sink sink) {
        List<String> twice = takenTwice(probes);
        if (twice.isEmpty()) {
            return;
        }
        long interval = -1;
        if (twice.contains("date")) {
            long a = dateSeconds(probes.get("date"));
            long b = dateSeconds(probes.get("date" + AGAIN));
            interval = a >= 0 && b >= a ? (b - a) * 1000 : -1;
        }
        List<String> moved = new ArrayList<>();
        List<String> still = new ArrayList<>();
        List<String> said = new ArrayList<>();
        String probe = twice.contains("date") ? "date" + AGAIN : twice.get(0) + AGAIN;
        long growth = -1;
        boolean lastChanged = false;
        for (String log : logs) {
            if (!twice.contains(log)) {
                continue;
            }
            List<String> a = nonBlank(sink.lines(probes.get(log), 2));
            List<String> b = nonBlank(sink.lines(probes.get(log + AGAIN), 2));
            if (a.isEmpty() && b.isEmpty()) {
                continue;
            }
            String lastA = a.isEmpty() ? null : a.get(a.size() - 1);
            // where the first take ends in the second: its last lines as a block (a line alone repeats: "all slots are
            // idle", a request's line); not found, the first take's end scrolled out and all is new; found more than
            // once, what was added cannot be told, and the log says nothing
            int from = endOfBlock(a, b);
            if (from == AMBIGUOUS) {
                said.add(log + " (what was added cannot be told: its last lines repeat)");
                continue;
            }
            growth = 0;
            int work = 0;
            for (String l : b.subList(Math.min(from, b.size()), b.size())) {
                growth += l.length() + 1;
                if (!POLL.matcher(l).find() && !LEVEL_NOT_WORK.matcher(l).find() && !notWork.test(l)) {
                    work++;
                }
            }
            lastChanged = !b.isEmpty() && !b.get(b.size() - 1).equals(lastA);
            (work > 0 ? moved : still).add("log");
            said.add(log + " +" + (b.size() - Math.min(from, b.size())) + " lines" + (work == 0 && growth > 0 ? " (no work: health polls, complaints)" : ""));
            probe = log + AGAIN;
            break;
        }
        double cpu = -1;
        double cpuPct = -1;
        String states = "";
        for (String ps : List.of("ps_cpu", "ps", "ps_time", "ps_stat", "proc", "proc_stat")) {
            if (!twice.contains(ps) || cpu >= 0) {
                continue;
            }
            Map<String, long[]> a = cpuTimes(sink.lines(probes.get(ps), 2));
            Map<String, long[]> b = cpuTimes(sink.lines(probes.get(ps + AGAIN), 2));
            long total = 0;
            boolean common = false;
            StringBuilder st = new StringBuilder();
            for (Map.Entry<String, long[]> e : b.entrySet()) {
                if (e.getValue()[1] != 0) {
                    st.append(st.length() > 0 ? "," : "").append((char) e.getValue()[1]);
                }
                long[] before = a.get(e.getKey());
                if (before != null && before[0] >= 0 && e.getValue()[0] >= before[0]) {
                    total += e.getValue()[0] - before[0];
                    common = true;
                }
            }
            states = st.toString();
            if (common && interval > 0) {
                cpu = total;
                cpuPct = Math.round(total * 100_000.0 / interval) / 1.0;
                (cpuPct >= cadence.cpuMovedPercent() ? moved : still).add("cpu");
                said.add(ps + " CPU +" + total + " s");
            }
        }
        if (cpu < 0 && twice.contains("proc_status")) {
            // /proc/PID/status twice: a main thread that was not switched in or out once in between did not run at
            // all; one that was may only have polled, so that moves nothing the rules count as work
            long[] a = ProcStatusParser.switches(sink.lines(probes.get("proc_status"), 2));
            long[] b = ProcStatusParser.switches(sink.lines(probes.get("proc_status" + AGAIN), 2));
            boolean same = a[0] == b[0] && Objects.equals(probes.get("proc_status").cmd(), probes.get("proc_status" + AGAIN).cmd());
            if (same && a[1] >= 0 && b[1] >= a[1]) {
                if (b[1] == a[1]) {
                    still.add("switches"); // switched in or out, it may only have polled: no movement either way
                }
                said.add("proc_status context switches +" + (b[1] - a[1]));
                if (states.isEmpty() && b[2] != 0) {
                    states = String.valueOf((char) b[2]);
                }
            }
        }
        if (growth < 0) {
            for (String stat : twice) {
                if (!stat.equals("log_stat") && !stat.endsWith("_log_stat") && !stat.equals("log_size")) {
                    continue;
                }
                // stat -c '%s %y' (or wc -c) of the log: its size alone; growth may be polls, so only a log that did
                // not grow says something
                long a = leadingNumber(sink.lines(probes.get(stat), 1));
                long b = leadingNumber(sink.lines(probes.get(stat + AGAIN), 1));
                if (a >= 0 && b >= 0) {
                    (b == a ? still : moved).add(b == a ? "log" : "log-size");
                    said.add(stat + " " + (b >= a ? "+" : "") + (b - a) + " bytes");
                }
                break;
            }
        }
        int utilA = -1;
        int utilB = -1;
        if (twice.contains("gpus")) {
            List<String> ga = sink.lines(probes.get("gpus"), 2);
            List<String> gb = sink.lines(probes.get("gpus" + AGAIN), 2);
            utilA = maxUtil(ga);
            utilB = maxUtil(gb);
            // memory.used per GPU: a process that allocates or frees between the takes runs (an autotuner, a
            // warm-up); memory the same to the MiB on every GPU moves nothing
            List<Long> ma = memoryUsed(ga);
            List<Long> mb = memoryUsed(gb);
            if (!ma.isEmpty() && ma.size() == mb.size()) {
                long most = 0;
                for (int i = 0; i < ma.size(); i++) {
                    most = Math.max(most, Math.abs(mb.get(i) - ma.get(i)));
                }
                if (most >= GPU_MEMORY_MOVED_MIB) {
                    moved.add("gpu-memory");
                    said.add("GPU memory changed by up to " + most + " MiB");
                } else if (most == 0 && !(moved.isEmpty() && still.isEmpty())) {
                    // unchanged memory is normal while serving (the KV cache is allocated up front): a still signal
                    // beside others compared, never the only one
                    still.add("gpu-memory");
                }
            }
        }
        double tokens = -1;
        long running = -1;
        long waiting = -1;
        if (twice.contains("metrics")) {
            Scrape a = scrape(sink.lines(probes.get("metrics"), 2), "metrics", sink, false);
            Scrape b = scrape(sink.lines(probes.get("metrics" + AGAIN), 2), "metrics" + AGAIN, sink, false);
            double[] w = work(a, b);
            // a counter that went down is another process's (a restart between the takes, another replica): no
            // comparison; nor takes closer than a scrape's own resolution
            boolean comparable = a != null && b != null && !wentDown(a, b)
                    && (interval < 0 || interval >= MIN_SCRAPE_INTERVAL_MS);
            if (comparable && (w[0] >= 0 || w[1] >= 0)) {
                tokens = w[0];
                (worked(w) ? moved : still).add("tokens");
                String done = b != null && "triton".equals(b.server) ? " requests completed" : " tokens";
                said.add("metrics" + (w[0] >= 0 ? " +" + (long) w[0] + done : "") + (w[1] >= 0 ? " +" + (long) w[1] + " on its work counter" : ""));
            }
            if (b != null) {
                running = b.count("running");
                waiting = b.count("waiting");
                sink.add(new ServerLoad(b.server, "metrics" + AGAIN, running, waiting, b.value("generated"),
                        "metrics" + AGAIN, b.line, b.excerpt));
            }
        }
        long download = -1;
        for (String du : twice) {
            if (!du.equals("du") && !du.endsWith("_du") && !du.startsWith("du_")) {
                continue;
            }
            List<String> first = sink.lines(probes.get(du), 1);
            long a = duTotal(first);
            long b = duTotal(sink.lines(probes.get(du + AGAIN), 1));
            if (a >= 0 && b >= 0) {
                // a compiler's cache (torch.compile, Triton, DeepGEMM's JIT) growing is start-up work, not weights
                boolean compiler = COMPILE_CACHE.matcher(String.join("\n", first)).find();
                long grew = b - a;
                if (!compiler) {
                    download = grew;
                }
                (grew > 0 ? moved : still).add(compiler ? "compile" : "download");
                said.add(du + " " + (grew >= 0 ? "+" : "") + grew + " bytes" + (compiler ? " (a compiler's cache)" : ""));
            }
            break;
        }
        if (moved.isEmpty() && still.isEmpty()) {
            return;
        }
        String excerpt = "taken twice" + (interval >= 0 ? ", " + interval / 1000 + " s apart" : "") + ": moved ["
                + String.join(", ", moved) + "], still [" + String.join(", ", still) + "]"
                + (said.isEmpty() ? "" : "; " + String.join("; ", said))
                + (utilB >= 0 ? "; GPU max " + utilA + " → " + utilB + " %" : "");
        sink.add(new SecondLook(interval, growth, lastChanged, cpu, cpuPct, states, utilA, utilB, tokens, download,
                running, waiting, String.join(",", moved), String.join(",", still), probe, 0, Text.excerpt(excerpt)));
    }

    /** The number a probe's first line starts with ({@code stat -c '%s %y'}, {@code wc -c}), or -1. */
    private static long leadingNumber(List<String> lines) {
        for (String l : lines) {
            String t = l.strip();
            if (t.isEmpty()) {
                continue;
            }
            int end = 0;
            while (end < t.length() && end < 18 && Character.isDigit(t.charAt(end))) {
                end++;
            }
            return end == 0 || (end < t.length() && !Character.isWhitespace(t.charAt(end))) ? -1 : Long.parseLong(t.substring(0, end));
        }
        return -1;
    }

    private static final int AMBIGUOUS = -2;
    /** Fields of a listing's line read at most: a process's arguments or a file name come last. */
    private static final int FIELDS_MAX = 256;

    /**
     * The index in {@code b} just after the block of {@code a}'s last lines (up to three), found nearest the end; 0
     * when the block is not in {@code b} (or {@code a} is empty); {@link #AMBIGUOUS} when it is there more than once.
     */
    static int endOfBlock(List<String> a, List<String> b) {
        int k = Math.min(3, a.size());
        if (k == 0) {
            return 0;
        }
        List<String> block = a.subList(a.size() - k, a.size());
        int found = -1;
        for (int j = b.size() - k; j >= 0; j--) {
            if (b.subList(j, j + k).equals(block)) {
                if (found >= 0) {
                    return AMBIGUOUS;
                }
                found = j + k;
            }
        }
        return found < 0 ? 0 : found;
    }

    private static List<String> nonBlank(List<String> lines) {
        List<String> out = new ArrayList<>(lines.size());
        for (String l : lines) {
            if (!l.isBlank()) {
                out.add(l.stripTrailing());
            }
        }
        return out;
    }

    /** The time a {@code date} probe printed, epoch seconds, or -1. */
    private static long dateSeconds(ProbeOutput p) {
        for (String l : Text.lines(p.outOrEmpty())) {
            if (l.isBlank() || l.startsWith("$ ")) {
                continue;
            }
            java.time.OffsetDateTime t = Timestamps.isoInstant(l.strip());
            if (t == null) {
                t = Timestamps.plainDate(l.strip());
            }
            return t == null ? -1 : t.toEpochSecond();
        }
        return -1;
    }

    /**
     * Each process's CPU time, seconds, and state letter (0 when not shown), by PID, from a {@code ps} listing whose
     * header names a {@code TIME}/{@code CPUTIME} ({@code [[dd-]hh:]mm:ss}) or {@code TIMES}/{@code CPUTIMES}
     * (seconds) column; empty when it has none.
     */
    private static Map<String, long[]> cpuTimes(List<String> lines) {
        Map<String, long[]> out = new LinkedHashMap<>();
        int pid = -1;
        int time = -1;
        int stat = -1;
        int width = 0;
        for (String raw : lines) {
            String l = raw.strip();
            if (l.isEmpty()) {
                continue;
            }
            String[] f = io.triage.capture.PasteRecognizer.tokens(l, FIELDS_MAX);
            if (time < 0 && out.size() < 256) {
                // a line of /proc/PID/stat ("pid (comm) state ppid … utime stime …", fields 14 and 15 in clock
                // ticks), or one a script cut from it with its fields named (utime=… stime=…)
                long[] st = statLine(l);
                if (st != null) {
                    out.put(String.valueOf(st[0]), new long[] {st[1], st[2]});
                    continue;
                }
            }
            if (time < 0) {
                for (int i = 0; i < f.length; i++) {
                    switch (f[i].toUpperCase(java.util.Locale.ROOT)) {
                        case "PID" -> pid = i;
                        case "TIME", "CPUTIME", "TIMES", "CPUTIMES" -> time = i;
                        case "STAT", "S" -> stat = i;
                        default -> { }
                    }
                }
                if (pid < 0 || time < 0) {
                    pid = -1;
                    time = -1;
                    stat = -1;
                }
                width = f.length;
                continue;
            }
            if (f.length < Math.min(width, Math.max(pid, Math.max(time, stat)) + 1) || out.size() >= 256) {
                continue;
            }
            long secs = ProcessParser.elapsed(f[time]);
            if (Text.parseLong(f[pid], -1) < 0 || secs < 0) {
                continue;
            }
            out.put(f[pid], new long[] {secs, stat >= 0 && !f[stat].isEmpty() ? f[stat].charAt(0) : 0});
        }
        return out;
    }

    private static final com.google.re2j.Pattern STAT_LINE = com.google.re2j.Pattern.compile("^(\\d{1,9}) \\((.{0,64})\\) ([A-Za-z]) (.*)$");
    private static final com.google.re2j.Pattern NAMED_TIME = com.google.re2j.Pattern.compile("\\b([us])time=(\\d{1,15})\\b");
    /** Clock ticks per second of /proc's times: USER_HZ, 100 on every Linux the servers run on. */
    private static final int USER_HZ = 100;

    /** {pid, CPU seconds (user + system), state letter} of a /proc/PID/stat line, or null when it is not one. */
    static long[] statLine(String l) {
        if (l.length() > 4096) {
            return null; // a stat line is some 300 characters
        }
        com.google.re2j.Matcher m = STAT_LINE.matcher(l);
        if (!m.matches()) {
            return null;
        }
        String rest = m.group(4);
        long ticks = -1;
        com.google.re2j.Matcher named = NAMED_TIME.matcher(rest);
        long u = -1;
        long sys = -1;
        while (named.find()) {
            long v = Long.parseLong(named.group(2));
            if (named.group(1).equals("u")) {
                u = v;
            } else {
                sys = v;
            }
        }
        if (u >= 0 && sys >= 0) {
            ticks = u + sys;
        } else {
            String[] f = rest.split(" ");
            // fields 4 on: ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
            if (f.length >= 12 && digitRun(f[10]) && digitRun(f[11])) {
                ticks = Long.parseLong(f[10]) + Long.parseLong(f[11]);
            }
        }
        return ticks < 0 ? null : new long[] {Long.parseLong(m.group(1)), ticks / USER_HZ, m.group(3).charAt(0)};
    }

    /** A change of one GPU's memory.used between two takes that is an allocation, not the driver's own noise. */
    private static final long GPU_MEMORY_MOVED_MIB = 64;

    /** memory.used per row of an {@code nvidia-smi --query-gpu} CSV (its first "N MiB" field), MiB; empty when a row has none. */
    private static List<Long> memoryUsed(List<String> lines) {
        List<Long> out = new ArrayList<>();
        for (String l : lines) {
            if (l.isBlank()) {
                continue;
            }
            long v = -1;
            for (String field : l.split(",")) {
                String t = field.strip();
                if (t.endsWith("MiB")) {
                    v = Text.parseLong(t.substring(0, t.length() - 3).strip(), -1);
                    break;
                }
            }
            if (v < 0 || out.size() >= 64) {
                return List.of();
            }
            out.add(v);
        }
        return out;
    }

    /** The highest utilisation.gpu of an {@code nvidia-smi --query-gpu} CSV (its first "N %" field per row), or -1. */
    private static int maxUtil(List<String> lines) {
        int max = -1;
        for (String l : lines) {
            for (String field : l.split(",")) {
                String t = field.strip();
                if (t.endsWith("%")) {
                    int v = Text.parseInt(t.substring(0, t.length() - 1).strip(), -1);
                    if (v >= 0 && v <= 100) {
                        max = Math.max(max, v);
                    }
                    break;
                }
            }
        }
        return max;
    }

    /** The sizes a {@code du} listing sums to, bytes (KiB when bare), or -1 when it lists none. */
    private static long duTotal(List<String> lines) {
        long total = -1;
        for (String l : lines) {
            Matcher m = DU_LINE.matcher(l.strip());
            if (!m.matches()) {
                continue;
            }
            long b = bytes(m.group(1).replace(',', '.'), m.group(2), false);
            if (b >= 0) {
                total = (total < 0 ? 0 : total) + b;
            }
        }
        return total;
    }

    private static final Pattern DU_LINE = Pattern.compile("^([0-9]{1,15}(?:[.,][0-9]{1,3})?)([KMGTP]?)i?B?\\s+(\\S.{0,4095})$");
    private static final Pattern SLEEP = Pattern.compile("\\bsleep ([0-9]{1,4})\\b");

    /**
     * A {@code du} of one directory taken twice (for example {@code du -sh DIR; sleep 30; du -sh DIR}, the way
     * people watch a weights download): the growth between the first and the last size, as a second look
     * whose only signal is the download. Nothing when the same path is not listed twice.
     */
    void du(ProbeOutput p, Sink sink) {
        List<String> lines = sink.lines(p, 1);
        Map<String, long[]> sizes = new LinkedHashMap<>(); // path -> {first, last, count, first line}
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = DU_LINE.matcher(lines.get(i).strip());
            if (!m.matches()) {
                continue;
            }
            long bytes = bytes(m.group(1).replace(',', '.'), m.group(2), p.cmd() != null && p.cmd().matches("(?s).*\\bdu\\s+-\\w*b.*"));
            if (bytes < 0) {
                continue;
            }
            long[] s = sizes.computeIfAbsent(m.group(3), k -> new long[] {-1, -1, 0, 0});
            if (s[2] == 0) {
                s[0] = bytes;
                s[3] = i + 1;
            }
            s[1] = bytes;
            s[2]++;
        }
        for (Map.Entry<String, long[]> e : sizes.entrySet()) {
            long[] s = e.getValue();
            if (s[2] < 2) {
                continue;
            }
            Matcher sl = SLEEP.matcher(p.cmd() == null ? "" : p.cmd());
            long interval = sl.find() ? Long.parseLong(sl.group(1)) * 1000 : -1;
            long growth = s[1] - s[0];
            String moved = growth > 0 ? "download" : "";
            String excerpt = Text.excerpt(e.getKey() + ": " + s[0] + " → " + s[1] + " bytes"
                    + (interval > 0 ? " in " + interval / 1000 + " s" : ""));
            sink.add(new SecondLook(interval, -1, false, -1, -1, "", -1, -1, -1, growth, -1, -1, moved,
                    growth > 0 ? "" : "download", p.name(), (int) s[3], excerpt));
            return;
        }
    }

    /** {@code du} sizes: bare numbers are KiB (bytes with {@code -b}), suffixes powers of 1024. */
    private static long bytes(String number, String suffix, boolean bytesFlag) {
        double v;
        try {
            v = Double.parseDouble(number);
        } catch (NumberFormatException e) {
            return -1;
        }
        double mult = switch (suffix) {
            case "K" -> 1024d;
            case "M" -> 1024d * 1024;
            case "G" -> 1024d * 1024 * 1024;
            case "T" -> 1024d * 1024 * 1024 * 1024;
            case "P" -> 1024d * 1024 * 1024 * 1024 * 1024;
            default -> bytesFlag ? 1 : 1024;
        };
        double b = v * mult;
        return b > 9e18 ? -1 : (long) b;
    }

    /** What the GPUs holding memory do together, by their profiles. */
    static GpuActivity gpuActivity(List<Gpu> gpus, Map<Integer, GpuProfile> profiles) {
        int held = 0;
        int pinned = 0;
        int idle = 0;
        int read = 0;
        Gpu first = null;
        for (Gpu g : gpus) {
            GpuProfile p = profiles.get(g.index());
            if (p == null || g.memUsedMiB() <= p.memReleasedMiB()) {
                continue;
            }
            held++;
            if (g.utilPct() < 0) {
                continue;
            }
            read++;
            first = first == null ? g : first;
            if (g.utilPct() >= p.utilPinnedPct()) {
                pinned++;
            } else if (g.utilPct() <= p.utilIdlePct()) {
                idle++;
            }
        }
        String pattern;
        if (read == 0) {
            pattern = "none";
        } else if (pinned == read) {
            pattern = "all-pinned";
        } else if (idle == read) {
            pattern = "all-idle";
        } else if (pinned > 0 && idle > 0) {
            pattern = "mixed";
        } else {
            pattern = "working";
        }
        return new GpuActivity(pattern, held, pinned, idle, first == null ? "gpus" : first.probe(),
                first == null ? 0 : first.line(), held + " GPU(s) hold memory: " + pinned + " pinned, " + idle + " idle");
    }

    /**
     * A weights cache's listing ({@code ls -l}, any time style) with unfinished downloads ({@link #partial}): the
     * newest partial file, dated against the capture's clock in the host's
     * zone (a listing without a date is of the look's day). Nothing when the capture has no clock.
     */
    void partialDownloads(ProbeOutput p, long clock, java.time.ZoneOffset zone, Sink sink) {
        if (clock < 0) {
            return;
        }
        java.time.LocalDate today = java.time.Instant.ofEpochSecond(clock).atOffset(zone).toLocalDate();
        List<String> lines = sink.lines(p, 1);
        long newest = Long.MIN_VALUE;
        long size = -1;
        int at = -1;
        String name = "";
        for (int i = 0; i < lines.size() && i < 5000; i++) {
            String l = lines.get(i).strip();
            if (!partial(l) || l.length() > 1024) {
                continue;
            }
            String[] t = l.split("\\s+");
            int time = -1;
            for (int k = t.length - 2; k >= 4 && time < 0; k--) {
                if (Timestamps.timeOfDay(t[k]) >= 0) {
                    time = k;
                }
            }
            if (time < 0) {
                continue;
            }
            java.time.LocalDate day = today;
            int sizeAt = time - 1;
            if (sizeAt >= 0 && Timestamps.isoInstant(t[sizeAt] + "T00:00:00Z") != null) {
                day = java.time.LocalDate.parse(t[sizeAt]); // long-iso: 2026-08-14 13:31
                sizeAt--;
            } else if (sizeAt >= 1 && Timestamps.month(t[sizeAt - 1]) > 0 && t[sizeAt].length() <= 2) {
                try { // ls's own style: Aug 14 13:31
                    day = java.time.LocalDate.of(today.getYear(), Timestamps.month(t[sizeAt - 1]), Integer.parseInt(t[sizeAt]));
                } catch (RuntimeException e) {
                    continue;
                }
                sizeAt -= 2;
            }
            if (sizeAt < 0 || !digitRun(t[sizeAt])) {
                continue;
            }
            long mtime = day.atStartOfDay().toEpochSecond(zone) + Timestamps.timeOfDay(t[time]);
            if (mtime > newest) {
                newest = mtime;
                size = Long.parseLong(t[sizeAt]);
                at = i + 1;
                name = t[t.length - 1];
            }
        }
        if (at > 0) {
            sink.add(new io.triage.facts.WeightDownload(Text.excerpt(name), size, clock - newest, p.name(), at,
                    Text.excerpt(lines.get(at - 1))));
        }
        listedTwice(p, lines, sink);
    }

    /**
     * The same unfinished downloads listed twice in one probe ({@code ls -l …; sleep 60; ls -l …}, the way people
     * watch a download): how much they grew between the first and the last listing, as a second look whose only
     * signal is the download. Nothing when no partial file is listed twice.
     */
    private static void listedTwice(ProbeOutput p, List<String> lines, Sink sink) {
        Map<String, long[]> sizes = new LinkedHashMap<>(); // name -> {first, last, times listed, first line}
        long interval = -1;
        for (int i = 0; i < lines.size() && i < 5000; i++) {
            String l = lines.get(i).strip();
            Matcher sl = SLEEP.matcher(l);
            if (interval < 0 && sl.find()) {
                interval = Long.parseLong(sl.group(1)) * 1000;
            }
            if (!partial(l) || l.length() > 1024) {
                continue;
            }
            String[] t = io.triage.capture.PasteRecognizer.tokens(l, FIELDS_MAX);
            long bytes = -1;
            for (int k = t.length - 2; k >= 1 && bytes < 0; k--) {
                // the size stands before the date and time: the longest run of digits among the fields before the name
                if (digitRun(t[k]) && t[k].length() >= 4) {
                    bytes = Long.parseLong(t[k]);
                }
            }
            if (bytes < 0) {
                continue;
            }
            long[] v = sizes.computeIfAbsent(t[t.length - 1], k -> new long[] {-1, -1, 0, 0});
            if (v[2] == 0) {
                v[0] = bytes;
                v[3] = i + 1;
            }
            v[1] = bytes;
            v[2]++;
        }
        long growth = 0;
        int firstLine = 0;
        boolean twice = false;
        for (long[] v : sizes.values()) {
            if (v[2] >= 2) {
                twice = true;
                growth += Math.max(0, v[1] - v[0]);
                firstLine = firstLine == 0 ? (int) v[3] : firstLine;
            }
        }
        if (!twice) {
            return;
        }
        String excerpt = "unfinished downloads listed twice" + (interval > 0 ? ", " + interval / 1000 + " s apart" : "")
                + ": +" + growth + " bytes";
        sink.add(new SecondLook(interval, -1, false, -1, -1, "", -1, -1, -1, growth, -1, -1, growth > 0 ? "download" : "",
                growth > 0 ? "" : "download", p.name(), firstLine, excerpt));
    }

    /**
     * Whether a listing's line names an unfinished download: the Hugging Face hub's {@code *.incomplete}, llama.cpp's
     * {@code *.downloadInProgress} (common/download.cpp, for {@code -hf}), Ollama's {@code sha256-…-partial} blobs.
     */
    static boolean partial(String line) {
        return line.endsWith(".incomplete") || line.endsWith(".downloadInProgress") || line.endsWith("-partial");
    }

    /** Whether {@code s} is a run of 1 to 15 ASCII digits (a file size, a count of clock ticks). */
    private static boolean digitRun(String s) {
        if (s.isEmpty() || s.length() > 15) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }
}
