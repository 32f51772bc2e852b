package io.triage.parse;

import io.triage.capture.ProbeOutput;
import io.triage.facts.GpuThrottle;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import com.google.re2j.Matcher;
import com.google.re2j.Pattern;

/**
 * Reads why GPUs run below their clocks ({@code gpu_throttle}): the CSV of {@code nvidia-smi
 * --query-gpu=index,clocks_throttle_reasons.active,…} (columns from its header, else from the recorded command; the
 * fields are spelled {@code clocks_event_reasons.*} by drivers from 535 on, {@code clocks_throttle_reasons.*} before,
 * and either spelling is read), or the "Clocks Event Reasons" / "Clocks Throttle Reasons" section of {@code nvidia-smi
 * -q -d PERFORMANCE} (with {@code -d POWER,CLOCK,TEMPERATURE} its limits, clocks and temperature too). The reasons
 * counters of {@code -q} (time spent in each reason since the driver loaded) are history, not the present, and are not
 * read. What cannot be read becomes an {@link io.triage.facts.Unparseable}. Host text: the patterns are RE2 (linear).
 */
final class GpuThrottleParser {
    /** The reasons that slow a GPU down, with their bits in {@code clocks_event_reasons.active} (NVML's values). */
    private static final Map<String, Long> BITS = new LinkedHashMap<>();

    static {
        BITS.put("sw_power_cap", 0x4L);
        BITS.put("hw_slowdown", 0x8L);
        BITS.put("sw_thermal_slowdown", 0x20L);
        BITS.put("hw_thermal_slowdown", 0x40L);
        BITS.put("hw_power_brake_slowdown", 0x80L);
    }

    /** The names {@code nvidia-smi -q} prints for the same reasons. */
    private static final Map<String, String> Q_NAMES = Map.of(
            "sw power cap", "sw_power_cap", "hw slowdown", "hw_slowdown", "sw thermal slowdown", "sw_thermal_slowdown",
            "hw thermal slowdown", "hw_thermal_slowdown", "hw power brake slowdown", "hw_power_brake_slowdown");

    /** The columns of the shipped probe, used when neither a header nor the command that ran is recorded. */
    static final List<String> PROBE_COLUMNS = List.of("index", "clocks_event_reasons.active",
            "clocks_event_reasons.sw_power_cap", "clocks_event_reasons.hw_slowdown",
            "clocks_event_reasons.hw_thermal_slowdown", "clocks_event_reasons.hw_power_brake_slowdown",
            "clocks_event_reasons.sw_thermal_slowdown", "temperature.gpu", "power.limit", "power.default_limit",
            "clocks.current.sm", "clocks.max.sm");

    private static final Pattern QUERY = Pattern.compile("--query-gpu[= ]([A-Za-z0-9_.,]+)");
    private static final Pattern MASK = Pattern.compile("^0x([0-9A-Fa-f]{1,16})(?:LL)?$");
    private static final Pattern NUMBER = Pattern.compile("-?\\d{1,9}(?:\\.\\d{1,6})?");
    private static final Pattern Q_GPU = Pattern.compile("^GPU [0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\\.[0-9A-Fa-f]\\s*$");
    private static final Pattern Q_FIELD = Pattern.compile("^( *)([A-Za-z][A-Za-z0-9 ./()-]{0,60}?)\\s*:\\s*(.{0,200})$");
    private static final Pattern Q_SECTION = Pattern.compile("^( *)([A-Za-z][A-Za-z0-9 ./()-]{0,60}?)\\s*$");

    private GpuThrottleParser() {
    }

    /**
     * A whole {@code nvidia-smi -q} report (a paste filed as {@code nvidia_smi_q}): the clock event reasons of the GPUs
     * whose sections hold them; a report of other sections ({@code -d MEMORY}) says nothing about them, and nothing is
     * reported missing.
     */
    static void report(ProbeOutput p, Sink sink) {
        List<String> lines = sink.lines(p, 2);
        if (lines.stream().anyMatch(l -> l.contains("Clocks Event Reasons") || l.contains("Clocks Throttle Reasons"))) {
            detailed(p, lines, sink, false);
        }
        memoryErrors(p, lines, sink);
    }

    /**
     * The memory-error sections of an {@code nvidia-smi -q} report, per GPU: uncorrectable ECC errors in its
     * "Volatile" counts (since the driver loaded; "Aggregate" is the card's lifetime, history), a "Remapped Rows" or
     * "Retired Pages" repair pending, a remap failure. One {@link GpuMemoryErrors} per GPU that has any.
     */
    static void memoryErrors(ProbeOutput p, List<String> lines, Sink sink) {
        String gpu = "";
        long unc = 0;
        boolean pending = false;
        boolean failed = false;
        int at = 0;
        String excerpt = "";
        List<int[]> indents = new ArrayList<>(); // indent of each open section
        List<String> names = new ArrayList<>();
        for (int i = 0; i <= lines.size(); i++) {
            String raw = i < lines.size() ? lines.get(i) : null;
            String t = raw == null ? "" : raw.strip();
            boolean header = raw != null && Q_GPU.matcher(t).matches();
            if (raw == null || header) {
                if (unc > 0 || pending || failed) {
                    sink.add(new io.triage.facts.GpuMemoryErrors(gpu, unc, pending, failed, p.name(), at, excerpt));
                }
                if (raw == null) {
                    break;
                }
                gpu = t.substring(4).strip();
                unc = 0;
                pending = false;
                failed = false;
                at = 0;
                indents.clear();
                names.clear();
                continue;
            }
            if (t.isEmpty()) {
                continue;
            }
            int indent = 0;
            while (indent < raw.length() && raw.charAt(indent) == ' ') {
                indent++;
            }
            while (!indents.isEmpty() && indents.get(indents.size() - 1)[0] >= indent) {
                indents.remove(indents.size() - 1);
                names.remove(names.size() - 1);
            }
            int colon = t.indexOf(':');
            if (colon < 0) {
                indents.add(new int[] {indent});
                names.add(t);
                continue;
            }
            String key = t.substring(0, colon).strip();
            String value = t.substring(colon + 1).strip();
            boolean yes = value.equalsIgnoreCase("Yes");
            boolean inEcc = names.contains("ECC Errors") && names.contains("Volatile");
            if (inEcc && (key.contains("Uncorrectable") || names.contains("Double Bit") && key.equals("Total"))) {
                long n = Text.parseLong(value, -1);
                if (n > 0) {
                    unc += n;
                    at = at == 0 ? i + 1 : at;
                    excerpt = excerpt.isEmpty() ? Text.excerpt("Volatile " + key + ": " + n) : excerpt;
                }
            } else if ((names.contains("Remapped Rows") || names.contains("Retired Pages")) && yes
                    && (key.equals("Pending") || key.startsWith("Pending Page"))) {
                pending = true;
                at = i + 1;
                excerpt = Text.excerpt((names.contains("Remapped Rows") ? "Remapped Rows " : "Retired Pages ") + key + ": Yes");
            } else if (names.contains("Remapped Rows") && key.startsWith("Remapping Failure") && yes) {
                failed = true;
                at = i + 1;
                excerpt = Text.excerpt("Remapped Rows " + key + ": Yes");
            }
        }
    }

    static void parse(ProbeOutput p, Sink sink) {
        if (NvidiaSmiParser.failures(p, sink)) {
            return;
        }
        List<String> lines = new ArrayList<>(sink.lines(p, 4));
        int refused = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).toLowerCase(Locale.ROOT).contains("is not a valid field to query")) {
                if (refused++ == 0) {
                    sink.unparseable(p.name(), "this nvidia-smi does not know a field of the query (a driver older than "
                            + "the field); what follows it, if anything, is the bitmask alone", i + 1,
                            Text.excerpt(lines.get(i)));
                }
                lines.set(i, ""); // the line numbers of the rows after it stay those of the output
            }
        }
        boolean detailed = lines.stream().anyMatch(l -> Q_GPU.matcher(l).matches()
                || l.contains("Clocks Event Reasons") || l.contains("Clocks Throttle Reasons"));
        if (detailed) {
            detailed(p, lines, sink, true);
        } else {
            csv(p, lines, sink);
        }
    }

    // ------------------------------------------------------------------------------------------ CSV ----

    private static void csv(ProbeOutput p, List<String> lines, Sink sink) {
        List<String> cols = null;
        Matcher q = p.cmd() == null ? null : QUERY.matcher(p.cmd());
        if (q != null && q.find()) {
            cols = names(q.group(1).split(","));
        }
        int rows = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split(",", -1);
            if (f.length > 0 && (f[0].strip().equals("index") || f[0].strip().startsWith("clocks_"))) {
                cols = names(f); // a header names the columns, whatever the command said
                continue;
            }
            List<String> c = cols == null ? PROBE_COLUMNS : cols;
            if (f.length < c.size()) {
                sink.unparseable(p.name(), "row cut off (" + f.length + " of " + c.size() + " columns)", i + 1,
                        Text.excerpt(line));
                continue;
            }
            int ai = c.indexOf("clocks_event_reasons.active");
            long mask = 0;
            if (ai >= 0) {
                Matcher m = MASK.matcher(f[ai].strip());
                if (m.matches()) {
                    mask = Long.parseUnsignedLong(m.group(1), 16);
                } else if (!notReported(f[ai])) {
                    sink.unparseable(p.name(), "not a bitmask of clock event reasons: " + Text.excerpt(f[ai]), i + 1,
                            Text.excerpt(line));
                    continue;
                }
            }
            Set<String> active = new LinkedHashSet<>();
            for (Map.Entry<String, Long> b : BITS.entrySet()) {
                int ni = c.indexOf("clocks_event_reasons." + b.getKey());
                boolean named = ni >= 0 && f[ni].strip().equalsIgnoreCase("Active");
                if ((mask & b.getValue()) != 0 || named) {
                    active.add(b.getKey());
                }
            }
            if (ai < 0 && c.stream().noneMatch(n -> n.startsWith("clocks_event_reasons."))) {
                sink.unparseable(p.name(), "no clock event reason among the columns (" + String.join(",", c) + ")",
                        i + 1, Text.excerpt(line));
                return;
            }
            int ii = c.indexOf("index");
            int index = ii >= 0 ? Text.parseInt(f[ii], -1) : rows;
            if (index < 0) {
                sink.unparseable(p.name(), "not a GPU row (" + String.join(",", c) + ")", i + 1, Text.excerpt(line));
                continue;
            }
            sink.add(fact(index, active, (int) num(f, c, "temperature.gpu"), num(f, c, "power.limit"),
                    num(f, c, "power.default_limit"), (int) num(f, c, "clocks.current.sm"), (int) num(f, c, "clocks.max.sm"),
                    p.name(), i + 1, line));
            rows++;
        }
    }

    /** Column names as one spelling: units dropped, the pre-535 names and {@code clocks.sm} as their newer names. */
    private static List<String> names(String[] raw) {
        List<String> out = new ArrayList<>(raw.length);
        for (String r : raw) {
            String n = r.strip().toLowerCase(Locale.ROOT);
            int unit = n.indexOf(" [");
            if (unit >= 0) {
                n = n.substring(0, unit);
            }
            if (n.startsWith("clocks_throttle_reasons.")) {
                n = "clocks_event_reasons." + n.substring("clocks_throttle_reasons.".length());
            }
            n = switch (n) {
                case "clocks.sm" -> "clocks.current.sm";
                case "clocks.max.streaming_multiprocessor" -> "clocks.max.sm";
                case "power.limit.enforced", "enforced.power.limit" -> "power.limit";
                default -> n;
            };
            out.add(n);
        }
        return out;
    }

    private static boolean notReported(String v) {
        String s = v.strip();
        return s.isEmpty() || s.startsWith("[") || s.equals("N/A");
    }

    private static double num(String[] f, List<String> cols, String name) {
        int i = cols.indexOf(name);
        return i < 0 ? -1 : number(f[i]);
    }

    private static double number(String s) {
        Matcher m = NUMBER.matcher(s);
        return m.find() ? Double.parseDouble(m.group()) : -1;
    }

    // ------------------------------------------------------------------------- nvidia-smi -q ----

    /** One GPU's section of {@code nvidia-smi -q} as it is read. */
    private static final class Section {
        final int index;
        final int line;
        final String head;
        final Set<String> active = new LinkedHashSet<>();
        boolean sawReasons;
        int tempC = -1;
        double limit = -1;
        double defaultLimit = -1;
        int sm = -1;
        int maxSm = -1;

        Section(int index, int line, String head) {
            this.index = index;
            this.line = line;
            this.head = head;
        }
    }

    private static void detailed(ProbeOutput p, List<String> lines, Sink sink, boolean reasonsExpected) {
        List<Section> gpus = new ArrayList<>();
        Section cur = null;
        String section = "";
        int sectionIndent = -1;
        int attached = -1;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (Q_GPU.matcher(line).matches()) {
                cur = new Section(gpus.size(), i + 1, line);
                gpus.add(cur);
                section = "";
                sectionIndent = -1;
                continue;
            }
            if (line.isBlank()) {
                continue;
            }
            if (cur == null && line.startsWith("Attached GPUs")) {
                Matcher a = Q_FIELD.matcher(line);
                attached = a.matches() ? (int) number(a.group(3)) : -1;
                continue;
            }
            if (cur == null) {
                if (line.contains("Clocks Event Reasons") || line.contains("Clocks Throttle Reasons")) {
                    cur = new Section(0, i + 1, line); // a section pasted without its GPU line: one GPU
                    gpus.add(cur);
                } else {
                    continue;
                }
            }
            Matcher f = Q_FIELD.matcher(line);
            Matcher s = f.matches() ? null : Q_SECTION.matcher(line);
            int indent = f.matches() ? f.group(1).length() : s != null && s.matches() ? s.group(1).length() : -1;
            if (indent < 0) {
                continue;
            }
            if (sectionIndent >= 0 && indent <= sectionIndent) {
                section = ""; // left the section
                sectionIndent = -1;
            }
            if (s != null && s.matches()) {
                String name = s.group(2).strip().toLowerCase(Locale.ROOT);
                if (sectionIndent < 0 || indent <= sectionIndent) {
                    section = name;
                    sectionIndent = indent;
                }
                if (name.equals("clocks event reasons") || name.equals("clocks throttle reasons")) {
                    cur.sawReasons = true;
                }
                continue;
            }
            String key = f.group(2).strip().toLowerCase(Locale.ROOT);
            String value = f.group(3).strip();
            switch (section) {
                case "clocks event reasons", "clocks throttle reasons" -> {
                    String reason = Q_NAMES.get(key);
                    if (reason != null && value.equalsIgnoreCase("Active")) {
                        cur.active.add(reason);
                    }
                }
                case "temperature" -> {
                    if (key.equals("gpu current temp")) {
                        cur.tempC = (int) number(value);
                    }
                }
                case "gpu power readings", "power readings" -> {
                    if (key.equals("current power limit") || key.equals("power limit")
                            || key.equals("enforced power limit")) {
                        if (cur.limit < 0 || key.equals("current power limit")) {
                            cur.limit = number(value);
                        }
                    } else if (key.equals("default power limit")) {
                        cur.defaultLimit = number(value);
                    }
                }
                case "clocks" -> {
                    if (key.equals("sm")) {
                        cur.sm = (int) number(value);
                    }
                }
                case "max clocks" -> {
                    if (key.equals("sm")) {
                        cur.maxSm = (int) number(value);
                    }
                }
                default -> {
                }
            }
        }
        // -q names GPUs by bus id, in index order: the n-th section is GPU n only when the report covers every GPU
        // attached (not so with -i, or a section pasted alone), else which GPU it is stays unknown (-1)
        boolean indexed = attached > 0 && attached == gpus.size();
        for (Section g : gpus) {
            if (!g.sawReasons) {
                if (!reasonsExpected) {
                    continue;
                }
                sink.unparseable(p.name(), "a GPU without its clock event reasons (nvidia-smi -q -d PERFORMANCE)",
                        g.line, Text.excerpt(g.head));
                continue;
            }
            sink.add(fact(indexed ? g.index : -1, g.active, g.tempC, g.limit, g.defaultLimit, g.sm, g.maxSm, p.name(), g.line, g.head));
        }
    }

    private static GpuThrottle fact(int index, Set<String> active, int tempC, double limit, double defaultLimit, int sm,
                                    int maxSm, String probe, int line, String text) {
        boolean thermal = active.contains("sw_thermal_slowdown") || active.contains("hw_thermal_slowdown");
        boolean hardware = active.contains("hw_slowdown") || active.contains("hw_power_brake_slowdown");
        boolean cap = active.contains("sw_power_cap");
        boolean lowered = limit > 0 && defaultLimit > 0 && limit < defaultLimit - 1.0;
        return new GpuThrottle(index, thermal, hardware, cap, lowered, String.join(",", active), tempC, limit,
                defaultLimit, sm, maxSm, probe, line, Text.excerpt(text));
    }
}
