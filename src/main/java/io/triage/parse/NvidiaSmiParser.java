package io.triage.parse;

import io.triage.capture.ProbeOutput;
import io.triage.facts.Gpu;
import io.triage.facts.GpuApp;
import io.triage.facts.MigMode;
import io.triage.facts.SmiFailure;

import java.util.List;
import java.util.Locale;
import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import io.triage.knowledge.LinePattern;

/**
 * Reads {@code nvidia-smi}: the CSV GPU query, the compute-apps query, the human table, and the texts
 * it prints when it cannot work (driver/library mismatch, no driver, lost GPU…). The table's patterns
 * are {@link LinePattern}s: a row of a thousand spaces or digits costs its length, not its length squared.
 */
final class NvidiaSmiParser {
    // LinePatterns: the JDK engine on a leash of reads per character, RE2J past it (linear either way, and
    // several times faster than RE2J alone on a table's short rows)
    private static final LinePattern TABLE_GPU_ROW = LinePattern.compile(
            "^\\|\\s+(?<index>\\d+)\\s+(?<name>.+?)\\s+(?:On|Off)\\s+\\|", List.of("index", "name"));
    private static final LinePattern TABLE_MEM = LinePattern.compile(
            "(?<used>\\d+)MiB\\s*/\\s*(?<total>\\d+)MiB", List.of("used", "total"));
    private static final LinePattern TABLE_POWER = LinePattern.compile(
            "(?<draw>\\d+|ERR!|N/A)W?\\s*/\\s*(?<cap>\\d+|ERR!|N/A)W", List.of("draw", "cap"));
    private static final LinePattern TABLE_TEMP = LinePattern.compile(
            "^\\|\\s*\\S+\\s+(?<temp>\\d+)C\\s+(?<perf>P\\d+|ERR!)?", List.of("temp", "perf"));
    private static final LinePattern TABLE_UTIL = LinePattern.compile(
            "\\|\\s*(?<util>\\d+|ERR!|N/A)%?\\s+(?:Default|E\\. Process|"
            + "Exclusive_Process|Exclusive_Thread|Prohibited|N/A)\\s*\\|", List.of("util"));
    private static final LinePattern TABLE_PROC = LinePattern.compile(
            "^\\|\\s+(?<gpu>\\d+|N/A)\\s+(?:\\S+\\s+\\S+\\s+)?(?<pid>\\d+)\\s+(?<type>[CGM+]+)\\s+(?<name>.+?)\\s+"
            + "(?<mem>\\d+|N/A)(?:MiB)?\\s*\\|\\s*$", List.of("gpu", "pid", "type", "name", "mem"));
    private static final LinePattern NUMBER = LinePattern.compile("(?<n>-?\\d+(?:\\.\\d+)?)", List.of("n"));
    /** The row under a GPU's memory row: empty cells, then the MIG M. column reading Enabled. */
    private static final Pattern MIG_ENABLED = Pattern.compile("^\\|\\s*\\|\\s*\\|\\s*Enabled\\s*\\|\\s*$");

    private NvidiaSmiParser() {
    }

    /** Failure texts of nvidia-smi and NVML, lower case, with the kind each means. */
    private static final String[][] FAILURES = {
        {"driver/library version mismatch", "driver-mismatch"},
        {"nvml library version", "driver-mismatch"},
        {"couldn't communicate with the nvidia driver", "no-driver"},
        {"nvidia driver is not loaded", "no-driver"},
        {"unable to determine the device handle", "device-handle"},
        {"gpu is lost", "gpu-lost"},
        {"reboot the system to recover this gpu", "gpu-lost"},
        {"no devices were found", "no-devices"},
        {"failed to initialize nvml: unknown error", "nvml-unknown"},
        {"unable to determine the number of gpus", "no-devices"},
    };

    /** Scans out and err for failure texts; returns true when one was found. */
    static boolean failures(ProbeOutput p, Sink sink) {
        boolean found = false;
        for (String stream : new String[] {p.outOrEmpty(), p.errOrEmpty()}) {
            List<String> lines = sink.budget().lines(p.name(), stream, FAILURES.length + 1, sink);
            for (int i = 0; i < lines.size(); i++) {
                String low = lines.get(i).toLowerCase(Locale.ROOT);
                for (String[] f : FAILURES) {
                    if (low.contains(f[0])) {
                        sink.add(new SmiFailure(f[1], p.name(), i + 1, Text.excerpt(lines.get(i))));
                        found = true;
                        break;
                    }
                }
            }
        }
        if (p.rc() != null && p.rc() == 124) {
            sink.add(new SmiFailure("timeout", p.name(), 0, "nvidia-smi did not answer within the probe's timeout"));
            found = true;
        }
        return found;
    }

    /** The columns of the standard GPU query, used when the command that ran is not recorded. */
    private static final List<String> STANDARD_COLUMNS = List.of("index", "name", "memory.used", "memory.total",
            "utilization.gpu", "power.draw", "temperature.gpu", "pstate");
    private static final Pattern QUERY = Pattern.compile("--query-gpu=([A-Za-z0-9_.,]+)");

    /**
     * A {@code --query-gpu} CSV, its columns read from the recorded command (people query other
     * columns in other orders), else the standard query's. A row with fewer fields than columns was
     * cut off and is reported, not guessed at.
     */
    static void gpuCsv(ProbeOutput p, Sink sink) {
        if (failures(p, sink)) {
            return;
        }
        List<String> cols = STANDARD_COLUMNS;
        Matcher q = p.cmd() == null ? null : QUERY.matcher(p.cmd());
        if (q != null && q.find()) {
            cols = List.of(q.group(1).split(","));
        }
        int idx = cols.indexOf("index");
        List<String> lines = sink.lines(p, 8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank() || line.startsWith("index")) {
                continue;
            }
            String[] f = line.split(",", -1);
            if (f.length < cols.size() || (idx >= 0 && Text.parseInt(f[idx], -1) < 0)) {
                sink.unparseable(p.name(), f.length < cols.size() ? "GPU row cut off (" + f.length + " of "
                        + cols.size() + " columns)" : "not a GPU CSV row (" + String.join(",", cols) + ")", i + 1,
                        Text.excerpt(line));
                continue;
            }
            boolean err = line.contains("ERR!");
            int index = idx >= 0 ? Text.parseInt(f[idx], -1) : i;
            Gpu gpu = new Gpu(index, col(f, cols, "name"), (long) num(f, cols, "memory.used"),
                    (long) num(f, cols, "memory.total"), (int) num(f, cols, "utilization.gpu"),
                    num(f, cols, "power.draw"), (int) num(f, cols, "temperature.gpu"), col(f, cols, "pstate"), err,
                    p.name(), i + 1, Text.excerpt(line));
            sink.add(gpu);
            if (err) {
                sink.add(new SmiFailure("err-field", p.name(), i + 1, Text.excerpt(line)));
            }
        }
    }

    /** {@code pid,process_name,used_memory}. */
    static void appsCsv(ProbeOutput p, Sink sink) {
        if (failures(p, sink)) {
            return;
        }
        List<String> lines = sink.lines(p, 8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank() || line.startsWith("pid")) {
                continue;
            }
            if (line.toLowerCase(Locale.ROOT).contains("no running processes")) {
                continue;
            }
            String[] f = line.split(",", -1);
            int pid = f.length >= 1 ? Text.parseInt(f[0], -1) : -1;
            if (f.length < 2 || pid < 0) {
                sink.unparseable(p.name(), "not a compute-app CSV row (pid,process_name,used_memory)", i + 1,
                        Text.excerpt(line));
                continue;
            }
            sink.add(new GpuApp(pid, f[1].strip(), number(f, 2), "", p.name(), i + 1, Text.excerpt(line)));
        }
    }

    /** The human table: one GPU per two rows, then the processes box. */
    static void table(ProbeOutput p, Sink sink) {
        if (failures(p, sink)) {
            return;
        }
        List<String> lines = sink.lines(p, 8);
        boolean inProcesses = false;
        int gpus = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.contains("Processes:")) {
                inProcesses = true;
                continue;
            }
            if (inProcesses) {
                if (!line.startsWith("|")) {
                    continue; // a process row is a table row: the pattern below is not run on borders and text
                }
                LinePattern.Match pm = TABLE_PROC.find(line);
                // a graphics-only client (type G: Xorg, a desktop shell) holds display memory, not a compute context:
                // the compute-apps query never lists it, and it is no worker left behind
                if (pm != null && !pm.group("type").equals("G")) {
                    long mem = pm.group("mem").equals("N/A") ? -1 : Text.parseLong(pm.group("mem"), -1);
                    sink.add(new GpuApp(Text.parseInt(pm.group("pid"), -1), pm.group("name").strip(), mem, "", p.name(),
                            i + 1, Text.excerpt(line)));
                }
                continue;
            }
            // the row pattern needs a leading '|' and "On" or "Off": most lines of the table are settled by
            // these checks alone, without running a pattern
            if (!line.startsWith("|") || !(line.contains("On") || line.contains("Off"))) {
                continue;
            }
            LinePattern.Match row = TABLE_GPU_ROW.find(line);
            if (row == null || i + 1 >= lines.size()) {
                continue;
            }
            String second = lines.get(i + 1);
            LinePattern.Shape shape = LinePattern.shape(second);
            LinePattern.Match mem = TABLE_MEM.find(second, shape);
            if (mem == null) {
                sink.unparseable(p.name(), "GPU row without a memory column (cut-off table?)", i + 2,
                        Text.excerpt(second));
                continue;
            }
            LinePattern.Match pow = TABLE_POWER.find(second, shape);
            LinePattern.Match temp = TABLE_TEMP.find(second, shape);
            LinePattern.Match util = TABLE_UTIL.find(second, shape);
            boolean err = line.contains("ERR!") || second.contains("ERR!");
            boolean hasTemp = temp != null;
            Gpu gpu = new Gpu(Text.parseInt(row.group("index"), -1), row.group("name").strip(),
                    Text.parseLong(mem.group("used"), -1), Text.parseLong(mem.group("total"), -1),
                    util != null ? Text.parseInt(util.group("util"), -1) : -1,
                    pow != null ? Text.parseDouble(pow.group("draw"), -1) : -1,
                    hasTemp ? Text.parseInt(temp.group("temp"), -1) : -1,
                    hasTemp && temp.group("perf") != null ? temp.group("perf") : "", err, p.name(), i + 2,
                    Text.excerpt(second));
            sink.add(gpu);
            gpus++;
            if (err) {
                sink.add(new SmiFailure("err-field", p.name(), i + 2, Text.excerpt(second)));
            }
            // the third row of a GPU (newer drivers) ends in its "MIG M." column: Enabled, Disabled or N/A
            if (i + 2 < lines.size() && MIG_ENABLED.matcher(lines.get(i + 2)).matches()) {
                sink.add(new MigMode(gpu.index(), p.name(), i + 3, Text.excerpt(lines.get(i + 2))));
            }
            i++;
        }
        if (gpus == 0 && !p.outOrEmpty().isBlank() && p.outOrEmpty().contains("NVIDIA-SMI")) {
            sink.unparseable(p.name(), "nvidia-smi table without a readable GPU row (cut off?)", 1,
                    Text.excerpt(Text.lines(p.outOrEmpty()).get(0)));
        }
    }

    private static String col(String[] f, List<String> cols, String name) {
        int i = cols.indexOf(name);
        return i < 0 ? "" : f[i].strip();
    }

    private static double num(String[] f, List<String> cols, String name) {
        int i = cols.indexOf(name);
        return i < 0 ? -1 : decimal(f[i]);
    }

    private static long number(String[] f, int i) {
        if (i >= f.length) {
            return -1;
        }
        LinePattern.Match m = NUMBER.find(f[i]);
        return m != null ? (long) Double.parseDouble(m.group("n")) : -1;
    }

    private static double decimal(String s) {
        LinePattern.Match m = NUMBER.find(s);
        return m != null ? Double.parseDouble(m.group("n")) : -1;
    }
}
