package io.triage.lab;

import io.triage.probe.ProbeFrames;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A probe-bundle script as {@code ProbeBundle.script()} writes it, read back by the lab: the run's
 * nonce, the target values it was given, and the probes it asks for, in order (its invocation lines, read by
 * {@link ProbeFrames#invoked}, the same class that writes them). The lab never runs the
 * script; it answers from the recording.
 *
 * @param nonce the {@code N=} value that tags every frame
 * @param port the {@code T_PORT} value ("" when the script is to discover it)
 * @param log the {@code T_LOG} value ("" when the script is to discover it)
 * @param server the {@code T_SERVER} value ("" when not given)
 * @param probes the probe names, in the order the script runs them
 * @param ends true when the script prints the end frame
 * @param assumedPorts the port the script assumes for each server kind when it finds none (its {@code case} arms, made
 *                     from the knowledge base's {@code serves:}), and for any other kind under {@code *}
 */
public record BundleScript(String nonce, String port, String log, String server, List<String> probes, boolean ends,
                           java.util.Map<String, String> assumedPorts) {
    private static final Pattern ASSUMED = Pattern.compile("^\\s*case \"\\$T_SERVER\" in (.{0,4000}) esac$");
    private static final Pattern ARM = Pattern.compile("([a-z0-9*][a-z0-9._-]{0,31})\\) T_PORT=([0-9]{1,5});;");
    private static final Pattern NONCE = Pattern.compile("(?m)^N=([0-9A-Fa-f]{4,128})\\r?$");
    private static final Pattern ASSIGN = Pattern.compile("^(T_PORT|T_LOG|T_SERVER)=(.*)$");
    private static final Pattern STDIN_SHELL = Pattern.compile("^(?:/usr)?(?:/bin/)?(?:ba)?sh$");

    public BundleScript {
        probes = List.copyOf(probes);
        assumedPorts = java.util.Map.copyOf(assumedPorts);
    }

    /** The port the script would assume for a server of this kind (empty when the script says none). */
    public String assumedPort(String kind) {
        return assumedPorts.getOrDefault(kind, assumedPorts.getOrDefault("*", ""));
    }

    /** The script, when {@code text} is one (a nonce and at least one probe or the end frame); else empty. */
    public static Optional<BundleScript> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher n = NONCE.matcher(text);
        if (!n.find()) {
            return Optional.empty();
        }
        String port = "";
        String log = "";
        String server = "";
        List<String> probes = new ArrayList<>();
        boolean ends = false;
        java.util.Map<String, String> assumed = new java.util.LinkedHashMap<>();
        for (String raw : text.split("\n")) {
            String line = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
            Optional<ProbeFrames.Invocation> p = ProbeFrames.invoked(line);
            if (p.isPresent()) {
                probes.add(p.get().probe());
                continue;
            }
            if (line.equals(ProbeFrames.END)) {
                ends = true;
                continue;
            }
            Matcher c = ASSUMED.matcher(line);
            if (c.matches()) {
                Matcher arm = ARM.matcher(c.group(1));
                while (arm.find()) {
                    assumed.putIfAbsent(arm.group(1), arm.group(2));
                }
                continue;
            }
            Matcher a = ASSIGN.matcher(line);
            if (a.matches()) {
                List<String> words = words(a.group(2));
                String v = words != null && words.size() == 1 ? words.get(0) : "";
                switch (a.group(1)) {
                    case "T_PORT" -> port = v;
                    case "T_LOG" -> log = v;
                    default -> server = v;
                }
            }
        }
        if (probes.isEmpty() && !ends) {
            return Optional.empty();
        }
        return Optional.of(new BundleScript(n.group(1), port, log, server, probes, ends, assumed));
    }

    /**
     * What an exec's command string asks for: {@code bash -s} (the script follows on stdin), {@code bash -c
     * SCRIPT} (the script is the argument), or a command that is itself the script.
     */
    static Exec classify(String command) {
        if (command == null) {
            return new Exec(Exec.Kind.OTHER, "");
        }
        String trimmed = command.strip();
        if (trimmed.indexOf('\n') < 0) {
            List<String> w = words(trimmed);
            if (w != null && w.size() >= 2 && STDIN_SHELL.matcher(w.get(0)).matches()) {
                if (w.get(1).equals("-s") && (w.size() == 2 || w.get(2).equals("--"))) {
                    return new Exec(Exec.Kind.STDIN, "");
                }
            }
        }
        if (trimmed.startsWith("bash -c ") || trimmed.startsWith("sh -c ") || trimmed.startsWith("/bin/bash -c ")
                || trimmed.startsWith("/bin/sh -c ")) {
            List<String> w = words(trimmed);
            if (w != null && w.size() >= 3 && w.get(1).equals("-c")) {
                return new Exec(Exec.Kind.SCRIPT, w.get(2));
            }
        }
        return new Exec(Exec.Kind.OTHER, command);
    }

    /** How an exec request reads. */
    record Exec(Kind kind, String text) {
        enum Kind { STDIN, SCRIPT, OTHER }
    }

    /**
     * Splits a command line into words as a POSIX shell would for quoting (single quotes, double quotes
     * with their four escapes, backslash outside quotes). No expansion of any kind. Null when the quotes
     * are unbalanced.
     */
    static List<String> words(String s) {
        List<String> out = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean inWord = false;
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '\'') {
                int end = s.indexOf('\'', i + 1);
                if (end < 0) {
                    return null;
                }
                w.append(s, i + 1, end);
                inWord = true;
                i = end + 1;
            } else if (c == '"') {
                i++;
                boolean closed = false;
                while (i < s.length()) {
                    char d = s.charAt(i);
                    if (d == '"') {
                        closed = true;
                        i++;
                        break;
                    }
                    if (d == '\\' && i + 1 < s.length() && "$`\"\\\n".indexOf(s.charAt(i + 1)) >= 0) {
                        if (s.charAt(i + 1) != '\n') {
                            w.append(s.charAt(i + 1));
                        }
                        i += 2;
                        continue;
                    }
                    w.append(d);
                    i++;
                }
                if (!closed) {
                    return null;
                }
                inWord = true;
            } else if (c == '\\') {
                if (i + 1 < s.length()) {
                    if (s.charAt(i + 1) != '\n') {
                        w.append(s.charAt(i + 1));
                        inWord = true;
                    }
                    i += 2;
                } else {
                    i++;
                }
            } else if (c == ' ' || c == '\t' || c == '\n') {
                if (inWord) {
                    out.add(w.toString());
                    w.setLength(0);
                    inWord = false;
                }
                i++;
            } else {
                w.append(c);
                inWord = true;
                i++;
            }
        }
        if (inWord) {
            out.add(w.toString());
        }
        return out;
    }
}
