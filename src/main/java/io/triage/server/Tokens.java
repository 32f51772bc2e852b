package io.triage.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The API tokens and their names (the name is what the audit log records, never the token). Only SHA-256
 * hashes are kept; a presented token is hashed and compared with every known hash in constant time.
 */
public final class Tokens {
    /** Shortest token accepted from a file or the environment. */
    public static final int MIN_LENGTH = 16;

    private record Named(String name, byte[] hash) { }

    private final List<Named> tokens;
    private final boolean generated;

    private Tokens(List<Named> tokens, boolean generated) {
        this.tokens = List.copyOf(tokens);
        this.generated = generated;
    }

    /**
     * Reads a tokens file: one token per line, optionally followed by whitespace and a name; blank lines
     * and {@code #} comments are skipped.
     *
     * @throws IllegalArgumentException for a line that is not a usable token, or a file with none
     */
    public static Tokens read(Path file) throws IOException {
        List<Named> out = new ArrayList<>();
        ConfigLines cfg = ConfigLines.read(file);
        for (ConfigLines.Line l : cfg.lines()) {
            String[] parts = l.text().split("\\s+", 2);
            String token = parts[0];
            String name = parts.length > 1 ? parts[1].strip() : "token-" + (out.size() + 1);
            if (token.length() < MIN_LENGTH) {
                throw cfg.error(l, "a token must have at least " + MIN_LENGTH + " characters");
            }
            if (!name.matches("[A-Za-z0-9._@-]{1,64}")) {
                throw cfg.error(l, "a token's name is letters, digits, '.', '_', '@' or '-' (at most 64)");
            }
            out.add(new Named(name, hash(token)));
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(file.getFileName() + " holds no token");
        }
        return new Tokens(out, false);
    }

    /** One token named {@code name}. */
    public static Tokens of(String name, String token) {
        if (token.length() < MIN_LENGTH) {
            throw new IllegalArgumentException("a token must have at least " + MIN_LENGTH + " characters");
        }
        return new Tokens(List.of(new Named(name, hash(token))), false);
    }

    /** A fresh random token (returned once, to be printed), named {@code generated}. */
    public static Tokens generate(StringBuilder tokenOut) {
        String t = random(24);
        tokenOut.append(t);
        return new Tokens(List.of(new Named("generated", hash(t))), true);
    }

    /** True when the token was generated at start rather than configured. */
    public boolean generated() {
        return generated;
    }

    /** The name of the token presented, when it is one of ours. Constant time in the token's value. */
    public Optional<String> check(String presented) {
        if (presented == null || presented.isEmpty() || presented.length() > 4096) {
            return Optional.empty();
        }
        byte[] h = hash(presented);
        String found = null;
        for (Named n : tokens) {
            if (MessageDigest.isEqual(n.hash(), h) && found == null) {
                found = n.name();
            }
        }
        return Optional.ofNullable(found);
    }

    static byte[] hash(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /** {@code bytes} random bytes as URL-safe text (hex). */
    static String random(int bytes) {
        byte[] b = new byte[bytes];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    static boolean sameSecret(String a, String b) {
        return a != null && b != null && MessageDigest.isEqual(hash(a), hash(b));
    }
}
