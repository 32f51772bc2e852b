package io.triage.parse;

import io.triage.capture.ProbeOutput;
import io.triage.facts.KernelEvent;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import com.google.re2j.Matcher;
import com.google.re2j.Pattern;

/**
 * Reads {@code dmesg} (or {@code journalctl -k}) lines: the OOM killer in its several kernel formats,
 * NVIDIA Xid events, GPUs fallen off the bus, hung tasks and segfaults. The patterns run under RE2J
 * (linear in the line, whatever the line): the kernel log holds text that processes chose (their names,
 * their messages through /dev/kmsg). Each is tried only on lines holding its literal.
 */
final class KernelLogParser {
    /** "Out of memory: Killed process …", "Memory cgroup out of memory: Kill process …": the prefix varies. */
    private static final Pattern OOM_KILLED = Pattern.compile("Kill(?:ed)? process (\\d+) \\(([^)]*)\\)");
    private static final Pattern OOM_KILL_SUMMARY = Pattern.compile("oom-kill:.*?task=([^,]+),pid=(\\d+)");
    private static final Pattern OOM_REAPER = Pattern.compile("oom_reaper: reaped process (\\d+) \\(([^)]*)\\)");
    private static final Pattern XID = Pattern.compile(
            "NVRM: Xid \\(([^)]*)\\): (\\d+)(?:, pid=(\\d+|'?<unknown>'?))?(?:, name=([^,]*))?");
    private static final Pattern FALLEN = Pattern.compile("(?i)fallen off the bus");
    private static final Pattern HUNG = Pattern.compile("task (\\S+):(\\d+) blocked for more than \\d+ seconds");
    /** The NFS client's "nfs: server NAS not responding, still trying" (or "timed out"), and its "nfs: server NAS OK". */
    private static final Pattern NFS_SILENT = Pattern.compile("\\bnfs: server (\\S+) not responding, (?:still trying|timed out)");
    private static final Pattern NFS_OK = Pattern.compile("\\bnfs: server (\\S+) OK\\b");
    /** The SMB client's "CIFS: VFS: \\\\server has not responded in 180 seconds. Reconnecting...". */
    private static final Pattern CIFS_SILENT = Pattern.compile("\\bCIFS: (?:VFS: )?\\\\\\\\(\\S+) has not responded in \\d+ seconds");
    private static final Pattern SEGV = Pattern.compile("(\\S+)\\[(\\d+)\\]: segfault at");
    /** The NVIDIA module refusing a client of another driver version: {@code NVRM: API mismatch: the client has the version X, but}. */
    private static final com.google.re2j.Pattern API_MISMATCH = com.google.re2j.Pattern.compile("NVRM: API mismatch: the client has the version (\\S+?),? but");

    private KernelLogParser() {
    }

    /** What any match of {@link #FALLEN} contains, in ASCII letters no case folding of RE2 maps elsewhere. */
    private static final String FALLEN_FIXED = "fallen off the bu";

    /**
     * Whether the line may say a GPU fell off the bus: it holds {@link #FALLEN_FIXED} in any case (a check
     * the pattern's every match passes), so the pattern itself runs on the rare lines that do.
     */
    static boolean mayHaveFallen(String line) {
        int k = FALLEN_FIXED.length();
        for (int i = 0, last = line.length() - k; i <= last; i++) {
            char c = line.charAt(i);
            if ((c == 'f' || c == 'F') && line.regionMatches(true, i, FALLEN_FIXED, 0, k)) {
                return true;
            }
        }
        return false;
    }

    /** Passes over a line: the timestamp, the literal checks and the patterns they let through. */
    static final int PASSES = 10;

    static void parse(ProbeOutput p, Sink sink, long year) {
        parse(p, sink, year, java.time.ZoneOffset.UTC);
    }

    /**
     * As above; {@code zone} is the host's offset from the capture's {@code date}: dmesg -T prints local time, with no
     * zone, so its times are read in the host's (a container's log in UTC beside it would otherwise look hours apart).
     */
    static void parse(ProbeOutput p, Sink sink, long year, java.time.ZoneOffset zone) {
        List<String> lines = sink.lines(p, PASSES);
        Set<Integer> oomPids = new HashSet<>();
        int first = 0;
        if (!lines.isEmpty()) {
            java.util.Optional<KernelLogSource> source = KernelLogSource.of(lines.get(0));
            if (source.isPresent()) {
                sink.note(source.get().note());
                first = 1;
            }
        }
        // a network file server the kernel last said does not answer (its "OK" after clears it): {line, epoch, index}
        Map<String, Object[]> silentServers = new java.util.LinkedHashMap<>();
        for (int i = first; i < lines.size(); i++) {
            String line = lines.get(i);
            long epoch = Timestamps.dmesg(line, zone);
            Matcher m;
            if (line.contains("nfs: server ") || line.contains("has not responded in")) {
                Matcher silent = NFS_SILENT.matcher(line);
                Matcher cifs = CIFS_SILENT.matcher(line);
                Matcher ok = NFS_OK.matcher(line);
                if (silent.find()) {
                    silentServers.putIfAbsent(silent.group(1), new Object[] {line, epoch, i});
                } else if (cifs.find()) {
                    silentServers.putIfAbsent(cifs.group(1), new Object[] {line, epoch, i});
                } else if (ok.find()) {
                    silentServers.remove(ok.group(1));
                }
                continue;
            }
            if (line.contains("oom-kill:") && (m = OOM_KILL_SUMMARY.matcher(line)).find()) {
                int pid = Text.parseInt(m.group(2), -1);
                if (oomPids.add(pid)) {
                    sink.add(new KernelEvent("oom-kill", pid, m.group(1).strip(), -1, epoch, p.name(), i + 1,
                            Text.excerpt(line)));
                }
            } else if (line.contains(" process ") && !line.contains("oom_reaper")
                    && (m = OOM_KILLED.matcher(line)).find()) {
                int pid = Text.parseInt(m.group(1), -1);
                if (oomPids.add(pid)) {
                    sink.add(new KernelEvent("oom-kill", pid, m.group(2), -1, epoch, p.name(), i + 1,
                            Text.excerpt(line)));
                }
            } else if (line.contains("oom_reaper:") && (m = OOM_REAPER.matcher(line)).find()) {
                int pid = Text.parseInt(m.group(1), -1);
                if (oomPids.add(pid)) {
                    sink.add(new KernelEvent("oom-kill", pid, m.group(2), -1, epoch, p.name(), i + 1,
                            Text.excerpt(line)));
                }
            } else if (line.contains("NVRM: Xid") && (m = XID.matcher(line)).find()) {
                int pid = m.group(3) == null ? -1 : Text.parseInt(m.group(3), -1);
                sink.add(new KernelEvent("xid", pid, m.group(4) == null ? "" : m.group(4).strip(),
                        Text.parseInt(m.group(2), -1), epoch, p.name(), i + 1, Text.excerpt(line)));
                if (mayHaveFallen(line) && FALLEN.matcher(line).find()) {
                    sink.add(new KernelEvent("fallen-off-bus", -1, "", 79, epoch, p.name(), i + 1, Text.excerpt(line)));
                }
            } else if (mayHaveFallen(line) && FALLEN.matcher(line).find()) {
                sink.add(new KernelEvent("fallen-off-bus", -1, "", -1, epoch, p.name(), i + 1, Text.excerpt(line)));
            } else if (line.contains(" blocked for more than ") && (m = HUNG.matcher(line)).find()) {
                sink.add(new KernelEvent("hung-task", Text.parseInt(m.group(2), -1), m.group(1), -1, epoch,
                        p.name(), i + 1, Text.excerpt(line)));
            } else if (line.contains("NVRM: API mismatch") && API_MISMATCH.matcher(line).find()) {
                // the kernel module and the user-space driver differ (upgraded without a reboot): one line a client
                com.google.re2j.Matcher v = API_MISMATCH.matcher(line);
                String client = v.find() ? v.group(1) : "";
                sink.add(new KernelEvent("driver-mismatch", -1, client, -1, epoch, p.name(), i + 1, Text.excerpt(line)));
            } else if (line.contains("]: segfault at") && (m = SEGV.matcher(line)).find()) {
                sink.add(new KernelEvent("segfault", Text.parseInt(m.group(2), -1), m.group(1), -1, epoch,
                        p.name(), i + 1, Text.excerpt(line)));
            }
        }
        for (Map.Entry<String, Object[]> e : silentServers.entrySet()) {
            Object[] v = e.getValue();
            sink.add(new KernelEvent("storage-not-responding", -1, e.getKey(), -1, (Long) v[1], p.name(),
                    (Integer) v[2] + 1, Text.excerpt((String) v[0])));
        }
    }
}
