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
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
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
                field(md, (part + "/" + dir.relativize(f)).replace('\\', '/').getBytes(StandardCharsets.UTF_8));
                try {
                    field(md, Files.readAllBytes(f));
                } catch (IOException e) {
                    field(md, new byte[0]);
                }
            }
        }
        return "sha256:" + HexFormat.of().formatHex(md.digest()).substring(0, 16);
    }

    /** Length-prefixed, so that no two different inputs hash alike by moving bytes between fields. */
    private static void field(MessageDigest md, byte[] b) {
        md.update(java.nio.ByteBuffer.allocate(8).putLong(b.length).array());
        md.update(b);
    }
}
