package io.triage.engine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
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
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
        hash(md, home, "");
        if (overlay != null) {
            hash(md, overlay.dir(), "overlay/");
        }
        return "sha256:" + HexFormat.of().formatHex(md.digest()).substring(0, 16);
    }

    private static void hash(MessageDigest md, Path home, String prefix) {
        for (String part : List.of("rules", "knowledge-base")) {
            Path dir = home.resolve(part);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            Path scenarios = dir.resolve("scenarios");
            List<Path> files;
            try (Stream<Path> s = Files.walk(dir)) {
                files = s.filter(p -> !p.startsWith(scenarios)).filter(Files::isRegularFile).sorted().toList();
            } catch (IOException | java.io.UncheckedIOException e) {
                continue; // a directory that cannot be listed failed the load already
            }
            for (Path f : files) {
                field(md, (prefix + part + "/" + dir.relativize(f)).replace('\\', '/').getBytes(StandardCharsets.UTF_8));
                try {
                    field(md, Files.readAllBytes(f));
                } catch (IOException e) {
                    field(md, new byte[0]);
                }
            }
        }
    }

    /** Length-prefixed, so that no two different inputs hash alike by moving bytes between fields. */
    private static void field(MessageDigest md, byte[] b) {
        md.update(java.nio.ByteBuffer.allocate(8).putLong(b.length).array());
        md.update(b);
    }
}
