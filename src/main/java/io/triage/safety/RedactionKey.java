package io.triage.safety;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The key of the digest in a redaction placeholder. Equal secrets give equal placeholders only under
 * one key, so the choice decides what can be compared:
 * <ul>
 *   <li>{@link #installation()}: one key per user and machine, kept in the user's configuration
 *       directory ({@code $XDG_CONFIG_HOME/triage/redaction.key}, else {@code ~/.config/triage/redaction.key},
 *       mode 0600, created on first use). A capture saved here and replayed here later with the same
 *       {@code --intent} gets the same placeholders as the live look did, hence the same verdict.
 *       The command line uses it.</li>
 *   <li>{@link #perProcess()}: a random key that lives as long as the process: enough to compare the
 *       intent with the capture of the same run, never written anywhere. The default of a library user
 *       that does not choose.</li>
 * </ul>
 * The file is only read or created when a secret is actually found. When it cannot be created (a
 * read-only home) the key falls back to a per-process one: the redaction itself never fails.
 */
public final class RedactionKey {
    private static final int BYTES = 32;

    private final Path file;
    private byte[] key;

    private RedactionKey(Path file, byte[] key) {
        this.file = file;
        this.key = key;
    }

    /** A fresh random key for this process only. */
    public static RedactionKey perProcess() {
        return new RedactionKey(null, random());
    }

    /** A given key (tests, or a service that keeps its own). */
    public static RedactionKey of(byte[] key) {
        if (key == null || key.length < 16) {
            throw new IllegalArgumentException("a redaction key needs at least 16 bytes");
        }
        return new RedactionKey(null, key.clone());
    }

    /** The key kept in {@code file}, created there (0600) on first use. */
    public static RedactionKey stored(Path file) {
        return new RedactionKey(file, null);
    }

    /** The user's key on this machine, in the user's configuration directory. */
    public static RedactionKey installation() {
        String xdg = System.getenv("XDG_CONFIG_HOME");
        Path dir = xdg != null && !xdg.isBlank() ? Path.of(xdg)
                : Path.of(System.getProperty("user.home"), ".config");
        return stored(dir.resolve("triage").resolve("redaction.key"));
    }

    /** The key bytes, reading or creating the key file the first time. */
    synchronized byte[] bytes() {
        if (key == null) {
            key = loadOrCreate(file);
        }
        return key;
    }

    private static byte[] loadOrCreate(Path file) {
        try {
            if (Files.isRegularFile(file)) {
                return decode(Files.readString(file));
            }
            Path dir = file.getParent();
            if (dir != null) {
                Files.createDirectories(dir);
            }
            byte[] fresh = random();
            Path tmp = Files.createTempFile(dir, ".redaction", ".tmp");
            try {
                try {
                    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
                } catch (UnsupportedOperationException e) {
                    // not a POSIX file system: the directory's own protection is all there is
                }
                Files.writeString(tmp, HexFormat.of().formatHex(fresh) + "\n");
                try {
                    Files.createLink(file, tmp);
                } catch (FileAlreadyExistsException e) {
                    // another process made it first: use theirs, so that both agree
                    return decode(Files.readString(file));
                } catch (UnsupportedOperationException e) {
                    Files.move(tmp, file);
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
            return fresh;
        } catch (IOException | RuntimeException e) {
            return random();
        }
    }

    private static byte[] decode(String text) {
        byte[] k = HexFormat.of().parseHex(text.strip());
        if (k.length < 16) {
            throw new IllegalArgumentException("redaction key too short");
        }
        return k;
    }

    private static byte[] random() {
        byte[] k = new byte[BYTES];
        new SecureRandom().nextBytes(k);
        return k;
    }

    @Override
    public String toString() {
        return file == null ? "RedactionKey[in memory]" : "RedactionKey[" + file + "]";
    }
}
