package io.triage.lab;

import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.apache.sshd.common.util.security.SecurityUtils;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.util.Iterator;

/**
 * Key pairs for the lab: its host key (generated per start, or kept in a file in OpenSSH format so the
 * {@code known_hosts} line stays valid across runs), and client keys for tests and the in-process
 * collector.
 */
public final class LabKeys {
    private LabKeys() {
    }

    /** A new ed25519 key pair (EC P-256 where no EdDSA provider is present). */
    public static KeyPair generate() {
        try {
            if (SecurityUtils.isEDDSACurveSupported()) {
                KeyPairGenerator g = SecurityUtils.getKeyPairGenerator(SecurityUtils.EDDSA);
                g.initialize(256);
                return g.generateKeyPair();
            }
            KeyPairGenerator g = SecurityUtils.getKeyPairGenerator(KeyUtils.EC_ALGORITHM);
            g.initialize(256);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot generate a key pair: " + e.getMessage(), e);
        }
    }

    /**
     * The key pair kept in {@code file} (OpenSSH private key format, unencrypted); when the file does not
     * exist, a new one is generated and saved there (owner-only permissions where the file system has
     * them). A file that exists but cannot be read as a key is an error, never silently replaced.
     */
    public static KeyPair loadOrCreate(Path file) throws IOException {
        if (Files.exists(file)) {
            return load(file);
        }
        KeyPair kp = generate();
        save(kp, file);
        // two labs starting at once: whichever file won is the key
        return load(file);
    }

    /** Reads an unencrypted OpenSSH (or PEM) private key file. */
    public static KeyPair load(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            Iterable<KeyPair> pairs = SecurityUtils.loadKeyPairIdentities(null, NamedResource.ofName(file.toString()), in, null);
            Iterator<KeyPair> it = pairs == null ? null : pairs.iterator();
            if (it == null || !it.hasNext()) {
                throw new IOException("no key pair in " + file);
            }
            return it.next();
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new IOException("cannot read the key in " + file + ": " + e.getMessage(), e);
        }
    }

    /** Writes a key pair as an unencrypted OpenSSH private key, atomically, readable by the owner only. */
    public static void save(KeyPair kp, Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try {
            OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(kp, "triage-lab", null, b);
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot encode the key: " + e.getMessage(), e);
        }
        Path tmp;
        try {
            tmp = Files.createTempFile(dir, ".triage-key", ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            tmp = Files.createTempFile(dir, ".triage-key", ".tmp");
        }
        try {
            Files.write(tmp, b.toByteArray());
            Files.move(tmp, file); // never replaces: a key that exists is the key
        } catch (FileAlreadyExistsException e) {
            // another process saved its key first: keep that one
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** The public key as an OpenSSH line: {@code ssh-ed25519 AAAA…}. */
    public static String openSsh(PublicKey key) {
        return PublicKeyEntry.toString(key);
    }

    /** The key's SHA-256 fingerprint as OpenSSH prints it: {@code SHA256:…}. */
    public static String fingerprint(PublicKey key) {
        return KeyUtils.getFingerPrint(key);
    }
}
