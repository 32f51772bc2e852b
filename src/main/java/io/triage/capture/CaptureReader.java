package io.triage.capture;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads a capture directory as {@code CAPTURE-FORMAT.md} describes it. Never trusts the files: bad
 * bytes are replaced, huge files are read from their end only (the tail is what matters for a log and
 * a probe's last lines), odd {@code _probes.txt} lines are noted and skipped.
 *
 * <p>A capture is data, not a view of this machine's file system: only the directory's own regular files
 * are read. A symbolic link (to a file or a directory, inside the capture or out of it) is not followed, and
 * a pipe, device or socket is not opened (a pipe would block the reader for ever); each is named in a note by
 * its own file name only, never by its target or content. The whole capture is read within a byte budget and
 * a number of probes, so a directory of huge or countless files cannot exhaust memory.
 *
 * <p>What remains: a file that is replaced by a pipe between the check and the open would block that read;
 * that needs someone writing into the capture directory while it is replayed.
 */
public final class CaptureReader {
    /** Largest part of one file that is kept, bytes: the end of the file. */
    public static final int MAX_FILE_BYTES = 2 * 1024 * 1024;
    /** Most bytes read from one whole capture; files beyond it are skipped with a note. */
    public static final long MAX_CAPTURE_BYTES = 64L * 1024 * 1024;
    /** Most probes read from one capture. */
    public static final int MAX_PROBES = 256;

    private static final Pattern PROBE_LINE =
            Pattern.compile("^\\s*([A-Za-z0-9_.-]+)((?:\\s+[a-z]+=\\S*)*)\\s*$");
    private static final Pattern KV = Pattern.compile("([a-z]+)=(\\S*)");
    private static final java.util.Set<String> META_FILES =
            java.util.Set.of("_probes", "target", "intent", "expected", "TRUTH");

    private final int maxFileBytes;

    public CaptureReader() {
        this(MAX_FILE_BYTES);
    }

    public CaptureReader(int maxFileBytes) {
        this.maxFileBytes = maxFileBytes;
    }

    public Capture read(Path dir) throws CaptureException {
        if (!Files.exists(dir)) {
            throw new CaptureException("capture directory does not exist: " + dir);
        }
        if (!Files.isDirectory(dir)) {
            throw new CaptureException("not a capture directory (a capture is a directory of probe files): " + dir);
        }
        Reading r = new Reading();
        List<String> notes = r.notes;
        Map<String, Integer> rcs = new LinkedHashMap<>();
        Map<String, Double> secs = new LinkedHashMap<>();
        Path probesFile = dir.resolve("_probes.txt");
        if (r.regular(probesFile)) {
            readProbesTable(r.text(probesFile), rcs, secs, notes);
        }
        TreeSet<String> names = new TreeSet<>(rcs.keySet());
        Map<String, String> pasted = new java.util.TreeMap<>(); // probe name -> file: text saved under another name
        try (Stream<Path> files = Files.list(dir)) {
            files.sorted().forEach(p -> {
                String f = p.getFileName().toString();
                int dot = f.lastIndexOf('.');
                String base = dot <= 0 ? f : f.substring(0, dot);
                String ext = dot <= 0 ? "" : f.substring(dot + 1);
                boolean probeFile = (ext.equals("out") || ext.equals("err") || ext.equals("cmd")) && !META_FILES.contains(base);
                boolean other = !probeFile && !f.startsWith(".") && !META_FILES.contains(base) && !f.equals("notes.txt");
                if (probeFile || other) {
                    boolean regular = r.regular(p); // notes a link or a pipe even when it is not a probe's file
                    if (probeFile && regular) {
                        names.add(base);
                    } else if (other && regular) {
                        pasted.put(pastedName(base, ext), f);
                    }
                }
            });
        } catch (IOException e) {
            throw new CaptureException("cannot list capture directory " + dir + ": " + e.getMessage(), e);
        }
        Map<String, ProbeOutput> probes = new LinkedHashMap<>();
        if (names.size() > MAX_PROBES) {
            notes.add("the capture has " + names.size() + " probes; only the first " + MAX_PROBES + " by name were read");
        }
        for (String name : names) {
            if (probes.size() >= MAX_PROBES) {
                break;
            }
            boolean[] truncated = new boolean[1];
            String cmd = optional(r, dir.resolve(name + ".cmd"), truncated);
            String out = optional(r, dir.resolve(name + ".out"), truncated);
            String err = optional(r, dir.resolve(name + ".err"), truncated);
            probes.put(name, new ProbeOutput(name, cmd == null ? null : cmd.strip(), out, err,
                    rcs.get(name), secs.get(name), truncated[0]));
        }
        // any other file of the capture is text someone saved (a paste, a log, an API error body): its output,
        // without an exit code, under a probe name of its own, so that what it holds is read by its content
        for (Map.Entry<String, String> e : pasted.entrySet()) {
            String name = e.getKey();
            if (probes.size() >= MAX_PROBES) {
                break;
            }
            if (probes.containsKey(name)) {
                name = name + "_" + printableName(e.getValue()).replaceAll("[^A-Za-z0-9_-]", "_");
                if (probes.containsKey(name)) {
                    continue;
                }
            }
            boolean[] truncated = new boolean[1];
            String out = optional(r, dir.resolve(e.getValue()), truncated);
            if (out != null) {
                probes.put(name, new ProbeOutput(name, null, out, null, null, null, truncated[0]));
                notes.add(printableName(e.getValue()) + " read as output saved without its exit code (" + name + ")");
            }
        }
        Path savedNotes = dir.resolve("notes.txt");
        if (r.regular(savedNotes)) {
            for (String line : r.text(savedNotes).split("\n")) {
                if (!line.isBlank()) {
                    notes.add(line.strip());
                }
            }
        }
        Map<String, String> target = keyValues(r, dir.resolve("target.txt"));
        Map<String, String> intent = keyValues(r, dir.resolve("intent.txt"));
        if (probes.isEmpty() && target.isEmpty() && intent.isEmpty()) {
            throw new CaptureException("no probe output in " + dir
                    + " (expected files such as health.out, gpus.out, log_tail.out, _probes.txt)");
        }
        return new Capture(dir.toString(), probes, target, intent, notes);
    }

    /**
     * The probe name of a file saved under another name than {@code <probe>.out}: base name and extension
     * joined ({@code ps.txt} becomes {@code ps_txt}, {@code vllm.log} {@code vllm_log}), characters other than
     * letters, digits, '_' and '-' made '_'. Such a file is read by its content, whatever its name says.
     */
    static String pastedName(String base, String ext) {
        String name = ext.isEmpty() ? base : base + "_" + ext;
        String clean = name.replaceAll("[^A-Za-z0-9_-]", "_");
        return clean.length() > 64 ? clean.substring(0, 64) : clean.isEmpty() ? "pasted" : clean;
    }

    private void readProbesTable(String text, Map<String, Integer> rcs, Map<String, Double> secs,
                                 List<String> notes) {
        int n = 0;
        for (String line : text.split("\n", -1)) {
            n++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = PROBE_LINE.matcher(line);
            if (!m.matches()) {
                notes.add("_probes.txt line " + n + " not understood, skipped");
                continue;
            }
            String name = m.group(1);
            Matcher kv = KV.matcher(m.group(2));
            rcs.put(name, null);
            while (kv.find()) {
                try {
                    if (kv.group(1).equals("rc")) {
                        rcs.put(name, Integer.valueOf(kv.group(2)));
                    } else if (kv.group(1).equals("seconds")) {
                        secs.put(name, Double.valueOf(kv.group(2)));
                    } else {
                        notes.add("_probes.txt line " + n + ": unknown key '" + kv.group(1) + "' ignored");
                    }
                } catch (NumberFormatException e) {
                    notes.add("_probes.txt line " + n + ": bad " + kv.group(1) + " value, ignored");
                }
            }
        }
    }

    private Map<String, String> keyValues(Reading r, Path file) {
        List<String> notes = r.notes;
        Map<String, String> map = new LinkedHashMap<>();
        if (!r.regular(file)) {
            return map;
        }
        for (String line : r.text(file).split("\n")) {
            String s = line.strip();
            if (s.isEmpty() || s.startsWith("#")) {
                continue;
            }
            int eq = s.indexOf('=');
            if (eq <= 0) {
                notes.add(file.getFileName() + ": line without key=value skipped: " + abbreviate(s, 60));
                continue;
            }
            // several pairs on one line (server=vllm port=8000 log=/var/log/vllm.log), as the format's own summary
            // writes them: a blank followed by a name and '=' starts the next pair, any other blank is the value's
            for (String pair : pairs(s)) {
                int e = pair.indexOf('=');
                if (e <= 0) {
                    notes.add(file.getFileName() + ": words without key=value skipped: " + abbreviate(pair.strip(), 60));
                    continue;
                }
                map.put(pair.substring(0, e).strip(), pair.substring(e + 1).strip());
            }
        }
        return map;
    }

    /** {@code line} cut before each blank-led {@code name=} (a name: a letter or '_', then letters, digits, '_', '.', '-'). */
    static List<String> pairs(String line) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 1; i < line.length(); i++) {
            char c = line.charAt(i);
            if (!Character.isWhitespace(line.charAt(i - 1)) || !(Character.isLetter(c) || c == '_') || c > 127) {
                continue;
            }
            int k = i;
            while (k < line.length() && k - i < 64 && (Character.isLetterOrDigit(line.charAt(k)) || "_.-".indexOf(line.charAt(k)) >= 0)
                    && line.charAt(k) < 128) {
                k++;
            }
            if (k < line.length() && line.charAt(k) == '=' && k > i) {
                out.add(line.substring(start, i));
                start = i;
                i = k;
            }
        }
        out.add(line.substring(start));
        return out;
    }

    private String optional(Reading r, Path file, boolean[] truncated) {
        if (!r.regular(file)) {
            return null;
        }
        String text = r.text(file);
        if (r.lastTruncated) {
            truncated[0] = true;
        }
        return text;
    }

    /** One read of one capture: its notes, what was refused, and the bytes read so far. */
    private final class Reading {
        final List<String> notes = new ArrayList<>();
        private final Set<String> refused = new HashSet<>();
        private long bytesRead;
        boolean lastTruncated;

        /**
         * Whether {@code file} is a regular file of the capture itself, looked at without following a link; a
         * link, pipe, device or socket is noted once, by its own name only.
         */
        boolean regular(Path file) {
            BasicFileAttributes a;
            try {
                a = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException e) {
                return false; // absent: unknown, not an error
            }
            String name = file.getFileName().toString();
            if (a.isRegularFile()) {
                return true;
            }
            if (a.isSymbolicLink()) {
                if (refused.add(name)) {
                    notes.add(printableName(name) + " is a symbolic link: not followed (a capture is read only from its own files)");
                }
            } else if (a.isOther()) {
                if (refused.add(name)) {
                    notes.add(printableName(name) + " is not a regular file (a pipe, device or socket): not read");
                }
            }
            return false;
        }

        /**
         * Reads at most the last {@code maxFileBytes} of a file as UTF-8, replacing malformed bytes; the open
         * itself refuses a symbolic link that replaced the file after {@link #regular} looked at it.
         */
        String text(Path file) {
            lastTruncated = false;
            String name = printableName(file.getFileName().toString());
            try (SeekableByteChannel ch = Files.newByteChannel(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
                long size = ch.size();
                if (bytesRead >= MAX_CAPTURE_BYTES) {
                    notes.add(name + " not read: the capture is larger than the " + (MAX_CAPTURE_BYTES >> 20)
                            + " MiB read from one capture");
                    return "";
                }
                long keep = Math.min(Math.min(size, maxFileBytes), MAX_CAPTURE_BYTES - bytesRead);
                if (keep < size) {
                    lastTruncated = true;
                    notes.add(name + " is " + size + " bytes; only its last " + keep + " bytes were read");
                }
                long start = size - keep;
                ByteBuffer buf = ByteBuffer.allocate((int) keep);
                ch.position(start);
                while (buf.hasRemaining() && ch.read(buf) > 0) {
                    // read until full or end of file (a file may shrink while read)
                }
                bytesRead += buf.position();
                byte[] bytes = buf.array();
                int len = buf.position();
                int from = 0;
                if (start > 0) {
                    // skip the partial first line so that a cut never yields half a line
                    while (from < len && bytes[from] != '\n') {
                        from++;
                    }
                    from = Math.min(len, from + 1);
                }
                return decode(bytes, from, len, name, notes);
            } catch (AccessDeniedException e) {
                notes.add(name + " unreadable: permission denied");
            } catch (NoSuchFileException e) {
                notes.add(name + " disappeared while the capture was read");
            } catch (IOException e) {
                // the message may name another path (a link's target): say only what kind of failure it was
                notes.add(name + " unreadable (" + (e.getClass() == IOException.class ? "I/O error" : e.getClass().getSimpleName()) + ")");
            }
            return "";
        }
    }

    /** A file name as it may appear in a note: control characters shown as '?', long names cut. */
    static String printableName(String name) {
        StringBuilder b = new StringBuilder();
        name.codePoints().limit(120).forEach(c -> b.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        return b.toString();
    }

    private static String decode(byte[] bytes, int from, int len, String file, List<String> notes) {
        CharsetDecoder strict = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer buf = ByteBuffer.wrap(bytes, from, len - from);
        String s;
        try {
            s = strict.decode(buf).toString();
        } catch (CharacterCodingException e) {
            notes.add(file + " is not valid UTF-8; bad bytes shown as \uFFFD");
            s = new String(bytes, from, len - from, StandardCharsets.UTF_8);
        }
        if (s.indexOf('\0') >= 0) {
            notes.add(file + " contains NUL bytes (binary data?); they were dropped");
            s = s.replace("\0", "");
        }
        return s.replace("\r\n", "\n");
    }

    static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + "…";
    }
}
