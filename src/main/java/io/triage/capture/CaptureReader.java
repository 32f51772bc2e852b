package io.triage.capture;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads a capture directory as {@code CAPTURE-FORMAT.md} describes it. Never trusts the files: bad
 * bytes are replaced, huge files are read from their end only (the tail is what matters for a log and
 * a probe's last lines), odd {@code _probes.txt} lines are noted and skipped.
 */
public final class CaptureReader {
    /** Largest part of one file that is kept, bytes: the end of the file. */
    public static final int MAX_FILE_BYTES = 2 * 1024 * 1024;

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
        List<String> notes = new ArrayList<>();
        Map<String, Integer> rcs = new LinkedHashMap<>();
        Map<String, Double> secs = new LinkedHashMap<>();
        Path probesFile = dir.resolve("_probes.txt");
        if (Files.isRegularFile(probesFile)) {
            readProbesTable(text(probesFile, notes), rcs, secs, notes);
        }
        TreeSet<String> names = new TreeSet<>(rcs.keySet());
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(Files::isRegularFile).forEach(p -> {
                String f = p.getFileName().toString();
                int dot = f.lastIndexOf('.');
                if (dot <= 0) {
                    return;
                }
                String base = f.substring(0, dot);
                String ext = f.substring(dot + 1);
                if ((ext.equals("out") || ext.equals("err") || ext.equals("cmd")) && !META_FILES.contains(base)) {
                    names.add(base);
                }
            });
        } catch (IOException e) {
            throw new CaptureException("cannot list capture directory " + dir + ": " + e.getMessage(), e);
        }
        Map<String, ProbeOutput> probes = new LinkedHashMap<>();
        for (String name : names) {
            boolean[] truncated = new boolean[1];
            String cmd = optional(dir.resolve(name + ".cmd"), notes, truncated);
            String out = optional(dir.resolve(name + ".out"), notes, truncated);
            String err = optional(dir.resolve(name + ".err"), notes, truncated);
            probes.put(name, new ProbeOutput(name, cmd == null ? null : cmd.strip(), out, err,
                    rcs.get(name), secs.get(name), truncated[0]));
        }
        Path savedNotes = dir.resolve("notes.txt");
        if (Files.isRegularFile(savedNotes)) {
            for (String line : text(savedNotes, notes).split("\n")) {
                if (!line.isBlank()) {
                    notes.add(line.strip());
                }
            }
        }
        Map<String, String> target = keyValues(dir.resolve("target.txt"), notes);
        Map<String, String> intent = keyValues(dir.resolve("intent.txt"), notes);
        if (probes.isEmpty() && target.isEmpty() && intent.isEmpty()) {
            throw new CaptureException("no probe output in " + dir
                    + " (expected files such as health.out, gpus.out, log_tail.out, _probes.txt)");
        }
        return new Capture(dir.toString(), probes, target, intent, notes);
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

    private Map<String, String> keyValues(Path file, List<String> notes) {
        Map<String, String> map = new LinkedHashMap<>();
        if (!Files.isRegularFile(file)) {
            return map;
        }
        for (String line : text(file, notes).split("\n")) {
            String s = line.strip();
            if (s.isEmpty() || s.startsWith("#")) {
                continue;
            }
            int eq = s.indexOf('=');
            if (eq <= 0) {
                notes.add(file.getFileName() + ": line without key=value skipped: " + abbreviate(s, 60));
                continue;
            }
            map.put(s.substring(0, eq).strip(), s.substring(eq + 1).strip());
        }
        return map;
    }

    private String optional(Path file, List<String> notes, boolean[] truncated) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            long size = Files.size(file);
            if (size > maxFileBytes) {
                truncated[0] = true;
                notes.add(file.getFileName() + " is " + size + " bytes; only its last " + maxFileBytes
                        + " bytes were read");
            }
        } catch (IOException e) {
            // size unknown: read what can be read below
        }
        return text(file, notes);
    }

    /** Reads at most the last {@code maxFileBytes} of a file as UTF-8, replacing malformed bytes. */
    private String text(Path file, List<String> notes) {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            long size = raf.length();
            long start = Math.max(0, size - maxFileBytes);
            byte[] bytes = new byte[(int) (size - start)];
            raf.seek(start);
            raf.readFully(bytes);
            int from = 0;
            if (start > 0) {
                // skip the partial first line so that a cut never yields half a line
                while (from < bytes.length && bytes[from] != '\n') {
                    from++;
                }
                from = Math.min(bytes.length, from + 1);
            }
            return decode(bytes, from, file, notes);
        } catch (IOException e) {
            notes.add(file.getFileName() + " unreadable: " + e.getMessage());
            return "";
        }
    }

    private static String decode(byte[] bytes, int from, Path file, List<String> notes) {
        CharsetDecoder strict = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer buf = ByteBuffer.wrap(bytes, from, bytes.length - from);
        String s;
        try {
            s = strict.decode(buf).toString();
        } catch (CharacterCodingException e) {
            notes.add(file.getFileName() + " is not valid UTF-8; bad bytes shown as \uFFFD");
            s = new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8);
        }
        if (s.indexOf('\0') >= 0) {
            notes.add(file.getFileName() + " contains NUL bytes (binary data?); they were dropped");
            s = s.replace("\0", "");
        }
        return s.replace("\r\n", "\n");
    }

    static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + "…";
    }
}
