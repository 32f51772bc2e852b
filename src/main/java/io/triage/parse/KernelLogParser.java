package io.triage.parse;

import io.triage.capture.ProbeOutput;
import io.triage.facts.KernelEvent;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code dmesg} (or {@code journalctl -k}) lines: the OOM killer in its several kernel formats,
 * NVIDIA Xid events, GPUs fallen off the bus, hung tasks and segfaults.
 */
final class KernelLogParser {
    private static final Pattern OOM_KILLED = Pattern.compile(
            "(?:Out of memory|Memory cgroup out of memory)?:?\\s*Kill(?:ed)? process (\\d+) \\(([^)]*)\\)");
    private static final Pattern OOM_KILL_SUMMARY = Pattern.compile("oom-kill:.*?task=([^,]+),pid=(\\d+)");
    private static final Pattern OOM_REAPER = Pattern.compile("oom_reaper: reaped process (\\d+) \\(([^)]*)\\)");
    private static final Pattern XID = Pattern.compile(
            "NVRM: Xid \\(([^)]*)\\): (\\d+)(?:, pid=(\\d+|'?<unknown>'?))?(?:, name=([^,]*))?");
    private static final Pattern FALLEN = Pattern.compile("(?i)fallen off the bus");
    private static final Pattern HUNG = Pattern.compile("task (\\S+):(\\d+) blocked for more than \\d+ seconds");
    private static final Pattern SEGV = Pattern.compile("(\\S+)\\[(\\d+)\\]: segfault at");

    private KernelLogParser() {
    }

    static void parse(ProbeOutput p, Sink sink, long year) {
        List<String> lines = Text.lines(p.outOrEmpty());
        Set<Integer> oomPids = new HashSet<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            long epoch = Timestamps.dmesg(line);
            Matcher m;
            if ((m = OOM_KILL_SUMMARY.matcher(line)).find()) {
                int pid = Text.parseInt(m.group(2), -1);
                if (oomPids.add(pid)) {
                    sink.add(new KernelEvent("oom-kill", pid, m.group(1).strip(), -1, epoch, p.name(), i + 1,
                            Text.excerpt(line)));
                }
            } else if ((m = OOM_KILLED.matcher(line)).find() && !line.contains("oom_reaper")) {
                int pid = Text.parseInt(m.group(1), -1);
                if (oomPids.add(pid)) {
                    sink.add(new KernelEvent("oom-kill", pid, m.group(2), -1, epoch, p.name(), i + 1,
                            Text.excerpt(line)));
                }
            } else if ((m = OOM_REAPER.matcher(line)).find()) {
                int pid = Text.parseInt(m.group(1), -1);
                if (oomPids.add(pid)) {
                    sink.add(new KernelEvent("oom-kill", pid, m.group(2), -1, epoch, p.name(), i + 1,
                            Text.excerpt(line)));
                }
            } else if ((m = XID.matcher(line)).find()) {
                int pid = m.group(3) == null ? -1 : Text.parseInt(m.group(3), -1);
                sink.add(new KernelEvent("xid", pid, m.group(4) == null ? "" : m.group(4).strip(),
                        Text.parseInt(m.group(2), -1), epoch, p.name(), i + 1, Text.excerpt(line)));
                if (FALLEN.matcher(line).find()) {
                    sink.add(new KernelEvent("fallen-off-bus", -1, "", 79, epoch, p.name(), i + 1, Text.excerpt(line)));
                }
            } else if (FALLEN.matcher(line).find()) {
                sink.add(new KernelEvent("fallen-off-bus", -1, "", -1, epoch, p.name(), i + 1, Text.excerpt(line)));
            } else if ((m = HUNG.matcher(line)).find()) {
                sink.add(new KernelEvent("hung-task", Text.parseInt(m.group(2), -1), m.group(1), -1, epoch,
                        p.name(), i + 1, Text.excerpt(line)));
            } else if ((m = SEGV.matcher(line)).find()) {
                sink.add(new KernelEvent("segfault", Text.parseInt(m.group(2), -1), m.group(1), -1, epoch,
                        p.name(), i + 1, Text.excerpt(line)));
            }
        }
    }
}
