package io.triage.engine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The identity of a rule base by its content: a SHA-256 of the name and bytes of every file under {@code rules/}
 * and {@code knowledge-base/} (scenarios aside: test data). Two servers, or one server before and after a reload,
 * gave a verdict on the same rules exactly when their hashes are equal.
 */
public final class ContentHash {
    private ContentHash() {
    }

    /** {@code sha256:} and the first 16 hex digits of the digest of {@code home}'s rules and knowledge. */
    public static String of(Path home) {
        return of(home, null);
    }

    /**
     * As {@link #of(Path)}, over the shipped rules and knowledge and then a site overlay's ({@code overlay/rules/…},
     * {@code overlay/knowledge-base/…}, its scenarios aside; by content, not by where it lies). Without an overlay
     * (null) the hash is the shipped files' alone, as it always was.
     */
    public static String of(Path home, io.triage.knowledge.Overlay overlay) {
        return shortForm(digest(home.resolve("rules"), home.resolve("knowledge-base"), overlay, Map.of(), false, null));
    }

    /** {@code sha256:} and the first 16 hex digits of a {@link #digest}. */
    static String shortForm(byte[] digest) {
        return "sha256:" + HexFormat.of().formatHex(digest).substring(0, 16);
    }

    /**
     * The whole SHA-256 that {@link #of(Path, io.triage.knowledge.Overlay)} shows the start of, over {@code rules}
     * and {@code knowledge} (a home's {@code rules/} and {@code knowledge-base/}) and the overlay's (null: none).
     *
     * @param read     files already read, by path: their bytes are hashed as given instead of being read again (the
     *                 rule cache passes the rule files it compiles, so that the hash is of exactly those bytes)
     * @param strict   a file that cannot be read throws (the cache's key); otherwise it counts as empty (the file
     *                 failed the load already)
     * @param hashed   when not null, receives every file hashed
     * @throws java.io.UncheckedIOException when {@code strict} and a file or directory cannot be read
     */
    static byte[] digest(Path rules, Path knowledge, io.triage.knowledge.Overlay overlay, Map<Path, byte[]> read,
                         boolean strict, Set<Path> hashed) {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
        hash(md, rules, "rules", read, strict, hashed);
        hash(md, knowledge, "knowledge-base", read, strict, hashed);
        if (overlay != null) {
            hash(md, overlay.dir().resolve("rules"), "overlay/rules", read, strict, hashed);
            hash(md, overlay.dir().resolve("knowledge-base"), "overlay/knowledge-base", read, strict, hashed);
        }
        return md.digest();
    }

    private static void hash(MessageDigest md, Path dir, String label, Map<Path, byte[]> read, boolean strict,
                             Set<Path> hashed) {
        if (!Files.isDirectory(dir)) {
            return;
        }
        Path scenarios = dir.resolve("scenarios");
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(p -> !p.startsWith(scenarios)).filter(Files::isRegularFile).sorted().toList();
        } catch (IOException | java.io.UncheckedIOException e) {
            if (strict) {
                throw new java.io.UncheckedIOException("cannot list " + dir,
                        e instanceof IOException io ? io : ((java.io.UncheckedIOException) e).getCause());
            }
            return; // a directory that cannot be listed failed the load already
        }
        for (Path f : files) {
            field(md, (label + "/" + dir.relativize(f)).replace('\\', '/').getBytes(StandardCharsets.UTF_8));
            byte[] known = read.get(f);
            if (known != null) {
                field(md, known);
            } else {
                try {
                    field(md, Files.readAllBytes(f));
                } catch (IOException e) {
                    if (strict) {
                        throw new java.io.UncheckedIOException("cannot read " + f, e);
                    }
                    field(md, new byte[0]);
                }
            }
            if (hashed != null) {
                hashed.add(f);
            }
        }
    }

    /** Length-prefixed, so that no two different inputs hash alike by moving bytes between fields. */
    private static void field(MessageDigest md, byte[] b) {
        md.update(java.nio.ByteBuffer.allocate(8).putLong(b.length).array());
        md.update(b);
    }
}
