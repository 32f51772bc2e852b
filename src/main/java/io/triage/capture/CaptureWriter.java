package io.triage.capture;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Writes a capture in the capture directory format, so that a live look can be replayed later.
 *
 * <p>A saved look is a record of one host at one moment, and it may hold what the host printed (log lines,
 * command lines): so it is written only into a directory of its own and only for its owner. The directory
 * must not exist yet (it is created, mode 0700) or be an empty directory; a symbolic link is never
 * followed, neither for the directory nor for a file in it (every file is created new, mode 0600, and the
 * write fails rather than open a file that appeared meanwhile). A saved look is never merged with old
 * files: that would replay to another verdict than the one seen live.
 */
public final class CaptureWriter {
    /** The save directory cannot be used; the message says why and what to do, in one line. */
    public static final class SaveRefused extends IOException {
        public SaveRefused(String message) {
            super(message);
        }
    }

    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    private static final Set<PosixFilePermission> DIR_MODE = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");
    private static final Set<OpenOption> CREATE_ONLY = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
            LinkOption.NOFOLLOW_LINKS);
    /** What a probe name must look like to become a file name: no separator, no dot first. */
    private static final Pattern SAFE_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}");

    private CaptureWriter() {
    }

    /**
     * Makes {@code dir} ready to receive a capture: creates it (mode 0700, missing parents too), or accepts an
     * existing empty directory that is not a symbolic link. Called before a look, so that a directory that
     * cannot be used is refused before anything is asked of a host.
     *
     * @throws SaveRefused when {@code dir} is a symbolic link, not a directory, or not empty
     */
    public static void prepare(Path dir) throws IOException {
        Path parent = dir.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            if (POSIX) {
                Files.createDirectories(parent, PosixFilePermissions.asFileAttribute(DIR_MODE));
            } else {
                Files.createDirectories(parent);
            }
        }
        try {
            if (POSIX) {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(DIR_MODE));
            } else {
                Files.createDirectory(dir);
            }
            return;
        } catch (FileAlreadyExistsException e) {
            // an existing directory is usable only when it is a real, empty one: checked below
        }
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(dir, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            throw new SaveRefused(dir + " disappeared while being created; try again");
        }
        if (a.isSymbolicLink()) {
            throw new SaveRefused(dir + " is a symbolic link; a capture is saved only into a real directory "
                    + "(give a new directory name)");
        }
        if (!a.isDirectory()) {
            throw new SaveRefused(dir + " exists and is not a directory (give a new directory name)");
        }
        try (Stream<Path> entries = Files.list(dir)) {
            if (entries.findAny().isPresent()) {
                throw new SaveRefused(dir + " already exists and is not empty; a saved look is never mixed with "
                        + "other files (give a new directory name)");
            }
        }
    }

    /** Writes {@code c} into {@code dir}, which {@link #prepare} accepts (a new or empty directory). */
    public static void write(Capture c, Path dir) throws IOException {
        prepare(dir);
        for (Map.Entry<String, String> f : files(c).entrySet()) {
            create(dir, f.getKey(), f.getValue());
        }
    }

    /**
     * The files of the capture directory {@code c} is saved as, by name, in the capture format: a probe's
     * {@code .cmd}, {@code .out} and {@code .err}, {@code _probes.txt}, {@code target.txt}, {@code intent.txt}
     * and {@code notes.txt}. Reading them back with {@link CaptureReader} gives {@code c} again.
     */
    public static Map<String, String> files(Capture c) {
        Map<String, String> files = new LinkedHashMap<>();
        StringBuilder table = new StringBuilder();
        StringBuilder skipped = new StringBuilder();
        for (ProbeOutput p : c.probes().values()) {
            if (!SAFE_NAME.matcher(p.name()).matches()) {
                skipped.append("a probe whose name cannot be a file name was not saved\n");
                continue;
            }
            if (p.cmd() != null) {
                files.put(p.name() + ".cmd", p.cmd() + "\n");
            }
            if (p.out() != null) {
                files.put(p.name() + ".out", p.out());
            }
            if (p.err() != null) {
                files.put(p.name() + ".err", p.err());
            }
            if (p.rc() != null) {
                table.append(p.name()).append(" rc=").append(p.rc());
                if (p.seconds() != null) {
                    table.append(" seconds=").append(String.format(Locale.ROOT, "%.3f", p.seconds()));
                }
                table.append('\n');
            }
        }
        files.put("_probes.txt", table.toString());
        files.put("target.txt", keyValues(c.target()));
        if (!c.intent().isEmpty()) {
            files.put("intent.txt", keyValues(c.intent()));
        }
        if (!c.notes().isEmpty() || skipped.length() > 0) {
            files.put("notes.txt", (c.notes().isEmpty() ? "" : String.join("\n", c.notes()) + "\n") + skipped);
        }
        return files;
    }

    /** Creates one new file, mode 0600 from its creation, never through a symbolic link. */
    private static void create(Path dir, String name, String text) throws IOException {
        Path file = dir.resolve(name);
        FileAttribute<?>[] attrs = POSIX ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE_MODE)}
                : new FileAttribute<?>[0];
        try (SeekableByteChannel ch = Files.newByteChannel(file, CREATE_ONLY, attrs)) {
            ByteBuffer buf = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
        } catch (FileAlreadyExistsException e) {
            throw new SaveRefused(dir + " changed while the capture was being saved (" + name
                    + " appeared); the capture was not saved completely");
        }
    }

    private static String keyValues(Map<String, String> kv) {
        StringBuilder b = new StringBuilder();
        kv.forEach((k, v) -> b.append(k.replace('\n', ' ').replace('=', '_')).append('=')
                .append(v.replace('\n', ' ').replace('\r', ' ')).append('\n'));
        return b.toString();
    }
}
