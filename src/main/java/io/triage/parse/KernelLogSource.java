package io.triage.parse;

import java.util.Optional;

/**
 * How the kernel log of a look was read when a plain {@code dmesg} was refused (kernel.dmesg_restrict): the
 * probe then tries {@code sudo -n} (never a prompt: without a rule allowing it, sudo fails at once) and the
 * journal, and says which answered in a first line of its own output. A plain read prints no such line.
 */
public enum KernelLogSource {
    SUDO_DMESG("sudo -n dmesg"),
    JOURNAL("journalctl -k"),
    SUDO_JOURNAL("sudo -n journalctl -k");

    private static final String PREFIX = "triage: kernel log read with ";
    private static final String SUFFIX = " (a plain dmesg was refused)";

    private final String command;

    KernelLogSource(String command) {
        this.command = command;
    }

    public String command() {
        return command;
    }

    /** The line the probe prints first when it used this source. */
    public String header() {
        return PREFIX + command + SUFFIX;
    }

    /** The source a probe output's first line names, when it is exactly one of the headers. */
    public static Optional<KernelLogSource> of(String firstLine) {
        for (KernelLogSource s : values()) {
            if (s.header().equals(firstLine)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /** What the coverage notes say about it. */
    public String note() {
        return "kernel log read with " + command + ": a plain dmesg was refused on the host (kernel.dmesg_restrict)";
    }
}
