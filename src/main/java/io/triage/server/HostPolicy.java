package io.triage.server;

import io.triage.collect.SshTarget;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which hosts the server may look at, and how to reach them: the lab's hosts, an inventory's, and hosts
 * matching an allow pattern. Anything else is refused, so that the server never becomes an SSH client for
 * an address a caller made up.
 */
public final class HostPolicy {
    /** A host the server may look at: the name callers use, where SSH goes, and the operator's intent for it. */
    public record Known(String name, SshTarget target, Map<String, String> intent, String source) { }

    private final Map<String, Known> known;
    private final List<Pattern> patterns;
    private final List<String> patternTexts;

    public HostPolicy(Map<String, Known> known, List<String> allowPatterns) {
        this.known = new LinkedHashMap<>(known);
        this.patternTexts = List.copyOf(allowPatterns);
        this.patterns = allowPatterns.stream().map(HostPolicy::glob).toList();
    }

    /**
     * Reads an inventory: one host per line, {@code NAME [user@]address[:port]} or just
     * {@code [user@]address[:port]} (its own name); blank lines and {@code #} comments are skipped.
     */
    public static Map<String, Known> readInventory(Path file) throws IOException {
        Map<String, Known> out = new LinkedHashMap<>();
        ConfigLines cfg = ConfigLines.read(file);
        for (ConfigLines.Line l : cfg.lines()) {
            String[] parts = l.text().split("\\s+");
            if (parts.length > 2) {
                throw cfg.error(l, "expected NAME [user@]host[:port]");
            }
            String name = parts[0];
            SshTarget t;
            try {
                t = SshTarget.parse(parts.length == 2 ? parts[1] : parts[0]);
            } catch (IllegalArgumentException e) {
                throw cfg.error(l, e.getMessage());
            }
            if (!name.matches("[A-Za-z0-9@\\[][A-Za-z0-9._:@\\[\\]-]{0,127}")) {
                throw cfg.error(l, "not a usable host name");
            }
            out.put(name, new Known(name, t, Map.of(), "inventory"));
        }
        return out;
    }

    /** The host by the name a caller gave, or a 403 saying it is not one this server may look at. */
    public Known resolve(String name) {
        if (name == null || name.isBlank() || name.length() > 300) {
            throw ApiError.badRequest("bad-host", "a host is a non-empty name of at most 300 characters");
        }
        Known k = known.get(name);
        if (k != null) {
            return k;
        }
        for (Pattern p : patterns) {
            if (p.matcher(name).matches()) {
                SshTarget t;
                try {
                    t = SshTarget.parse(name);
                } catch (IllegalArgumentException e) {
                    throw ApiError.badRequest("bad-host", e.getMessage());
                }
                return new Known(name, t, Map.of(), "allowed");
            }
        }
        throw ApiError.forbidden("host-not-allowed", "this server may only look at its lab's or inventory's hosts"
                + (patternTexts.isEmpty() ? "" : " and hosts matching " + String.join(", ", patternTexts))
                + "; not at '" + printable(name) + "'");
    }

    public Optional<Known> known(String name) {
        return Optional.ofNullable(known.get(name));
    }

    /** The named hosts (lab and inventory), in order. */
    public List<Known> hosts() {
        return new ArrayList<>(known.values());
    }

    public List<String> allowPatterns() {
        return patternTexts;
    }

    /** {@code *} any run of characters, {@code ?} one; everything else literal. */
    static Pattern glob(String g) {
        StringBuilder b = new StringBuilder();
        for (char c : g.toCharArray()) {
            switch (c) {
                case '*' -> b.append(".*");
                case '?' -> b.append('.');
                default -> b.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(b.toString());
    }

    static String printable(String s) {
        String t = s.length() > 80 ? s.substring(0, 80) + "…" : s;
        return t.replaceAll("[\\p{Cntrl}]", "?");
    }
}
