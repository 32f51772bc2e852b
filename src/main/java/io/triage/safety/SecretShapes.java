package io.triage.safety;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.triage.knowledge.Compact;
import io.triage.knowledge.KnowledgeException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The shapes of secrets, read from {@code knowledge-base/secrets.yaml} and compiled once. Patterns are built
 * here from plain data (names, prefixes, character sets), never taken as regular expressions from the file,
 * and use only possessive or bounded repetition so that no input makes matching slow.
 */
public final class SecretShapes {
    /** Longest secret value looked at after a name; longer quoted values are cut there. */
    static final int MAX_VALUE = 4096;

    /** The file's shape. */
    public record File(List<String> names, @JsonProperty("not-secret") List<String> notSecret, Headers headers,
                       List<Token> tokens) { }

    public record Headers(List<String> names, List<String> schemes) { }

    /** A token prefix: {@code prefix} then {@code min}..{@code max} characters of {@code charset}. */
    public record Token(String id, String prefix, String charset, int min, Integer max) { }

    /** What {@link #candidate} says of a word: it names a secret (or a header) and a value follows it. */
    static final int NAME = 1;
    /** What {@link #candidate} says of a word: it holds a token's prefix and enough of its characters. */
    static final int TOKEN = 2;

    /** A token prefix, with the fewest characters any token of that prefix needs after it, of their union. */
    private record TokenGate(String prefix, boolean[] chars, int min) { }

    private final Set<String> names;
    private final Set<String> headerNames;
    /** The same names as an array (looked at for every word), and the length of the shortest. */
    private final String[] headerArray;
    private final int shortestHeader;
    private final List<TokenGate> prefixes;
    /** Secret and header names (normalised) by length, for a look-up without allocating. */
    private final List<List<String>> byLength = new ArrayList<>();
    /** ASCII characters a name starts with, lower case: a word starting otherwise is no name (one look-up). */
    private final boolean[] nameFirst = new boolean[128];
    /** ASCII characters a token prefix starts with, as spelt. */
    private final boolean[] prefixFirst = new boolean[128];
    private final Set<String> notSecret;
    /** {@code --name} followed by {@code =} or blanks. */
    final Pattern option;
    /** {@code name=}, {@code 'name':}, {@code name:} before a quote or Rust's {@code Some("…")}; the value follows. */
    final Pattern assignment;
    /** {@code Authorization: [Bearer] } (the value follows). */
    final Pattern header;
    /** Every token prefix shape, one alternation. */
    final Pattern tokens;
    /** The data these shapes were compiled from ({@link #writeTo}). */
    private final File source;

    /** False for the reference copy ({@link #ungated}) whose every word is a candidate. */
    private final boolean gated;

    private SecretShapes(File source, Set<String> names, Set<String> headerNames, List<TokenGate> prefixes,
                         Set<String> notSecret, Pattern option, Pattern assignment, Pattern header, Pattern tokens) {
        this(source, names, headerNames, prefixes, notSecret, option, assignment, header, tokens, true);
    }

    private SecretShapes(File source, Set<String> names, Set<String> headerNames, List<TokenGate> prefixes,
                         Set<String> notSecret, Pattern option, Pattern assignment, Pattern header, Pattern tokens,
                         boolean gated) {
        this.source = source;
        this.gated = gated;
        this.names = names;
        this.headerNames = headerNames;
        this.headerArray = headerNames.toArray(new String[0]);
        this.shortestHeader = headerNames.stream().mapToInt(String::length).min().orElse(0);
        this.prefixes = prefixes;
        for (Set<String> set : List.of(names, headerNames)) {
            for (String w : set) {
                while (byLength.size() <= w.length()) {
                    byLength.add(new ArrayList<>());
                }
                byLength.get(w.length()).add(w);
                char c = w.charAt(0);
                if (c < 128) {
                    nameFirst[c] = true;
                    if (c >= 'a' && c <= 'z') {
                        nameFirst[c - 32] = true;
                    }
                }
            }
        }
        for (TokenGate p : prefixes) {
            prefixFirst[p.prefix().charAt(0)] = true; // prefixes are letters, digits, '_' and '-' (checked at load)
        }
        this.notSecret = notSecret;
        this.option = option;
        this.assignment = assignment;
        this.header = header;
        this.tokens = tokens;
    }

    /** Reads and checks {@code dir/secrets.yaml}. */
    public static SecretShapes load(Path dir) {
        Path file = dir.resolve("secrets.yaml");
        if (!Files.isRegularFile(file)) {
            throw new KnowledgeException("knowledge file missing: " + file);
        }
        File f;
        try {
            f = new ObjectMapper(new YAMLFactory()).enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .readValue(file.toFile(), File.class);
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")";
            throw new KnowledgeException(file + where + ": " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new KnowledgeException(file + ": " + e.getMessage(), e);
        }
        return of(f, file);
    }

    /** Compiles shapes given as data; {@code origin} names them in errors. */
    public static SecretShapes of(File f, Path origin) {
        require(f != null && f.names() != null && !f.names().isEmpty(), origin, "needs 'names:'");
        require(f.headers() != null && f.headers().names() != null && f.headers().schemes() != null, origin,
                "needs 'headers:' with 'names:' and 'schemes:'");
        require(f.tokens() != null && !f.tokens().isEmpty(), origin, "needs 'tokens:'");
        Set<String> names = new LinkedHashSet<>();
        for (String n : f.names()) {
            require(n != null && n.matches("[A-Za-z][A-Za-z0-9_-]*"), origin, "name '" + n + "' is not a plain name");
            names.add(norm(n));
        }
        String nameAlt = names.stream().sorted((a, b) -> b.length() - a.length())
                .map(n -> n.replace("_", "[-_]")).collect(Collectors.joining("|"));
        Pattern option = Pattern.compile("(?i)(?<![A-Za-z0-9_.-])--(?:" + nameAlt + ")(?:=|[ \\t]++)");
        Pattern assignment = Pattern.compile(
                "(?i)(?<![A-Za-z0-9_.$-])(['\"]?)(?:" + nameAlt + ")\\1(?:=|[ \\t]*+:[ \\t]*+(?:Some\\()?+(?=[\"']))");
        for (String h : f.headers().names()) {
            require(h != null && h.matches("[A-Za-z][A-Za-z0-9-]*"), origin, "header '" + h + "' is not a header name");
        }
        for (String s : f.headers().schemes()) {
            require(s != null && s.matches("[A-Za-z]+"), origin, "scheme '" + s + "' is not a word");
        }
        Pattern header = Pattern.compile("(?i)(?<![A-Za-z0-9-])(?:" + String.join("|", f.headers().names())
                + ")[ \\t]*+[:=][ \\t]*+(?:(?:" + String.join("|", f.headers().schemes()) + ")[ \\t]++)?");
        List<String> alts = new ArrayList<>();
        Set<String> ids = new LinkedHashSet<>();
        List<Token> sorted = new ArrayList<>(f.tokens());
        sorted.sort((a, b) -> b.prefix().length() - a.prefix().length());
        for (Token t : sorted) {
            require(t.id() != null && ids.add(t.id()), origin, "token shapes need distinct ids");
            require(t.prefix() != null && t.prefix().matches("[A-Za-z0-9_-]{2,}"), origin,
                    "token " + t.id() + ": prefix must be letters, digits, '_' or '-'");
            require(t.charset() != null && t.charset().matches("(?:[A-Za-z0-9](?:-[A-Za-z0-9])?|_|-)+"), origin,
                    "token " + t.id() + ": charset must be ranges like A-Za-z0-9 and '_' or '-'");
            require(t.min() >= 4 && (t.max() == null || t.max() >= t.min()), origin,
                    "token " + t.id() + ": min must be at least 4 and max at least min");
            String cls = "[" + t.charset().replace("-", "\\-").replaceAll("([A-Za-z0-9])\\\\-([A-Za-z0-9])", "$1-$2")
                    + "]";
            alts.add(Pattern.quote(t.prefix()) + cls + "{" + t.min() + "," + (t.max() == null ? "" : t.max())
                    + "}+" + (t.max() == null ? "" : "(?!" + cls + ")"));
        }
        Pattern tokens = Pattern.compile("(?<![A-Za-z0-9_])(?:" + String.join("|", alts) + ")");
        Set<String> notSecret = new LinkedHashSet<>(f.notSecret() == null ? List.of() : f.notSecret());
        Set<String> headerNames = new LinkedHashSet<>();
        f.headers().names().forEach(h -> headerNames.add(norm(h)));
        java.util.Map<String, TokenGate> gates = new java.util.LinkedHashMap<>();
        for (Token t : f.tokens()) {
            boolean[] chars = charset(t.charset());
            gates.merge(t.prefix(), new TokenGate(t.prefix(), chars, t.min()), (a, b) -> {
                boolean[] union = a.chars().clone();
                for (int c = 0; c < union.length; c++) {
                    union[c] |= b.chars()[c];
                }
                return new TokenGate(a.prefix(), union, Math.min(a.min(), b.min()));
            });
        }
        List<TokenGate> prefixes = List.copyOf(gates.values());
        return new SecretShapes(f, Set.copyOf(names), Set.copyOf(headerNames), prefixes, Set.copyOf(notSecret), option,
                assignment, header, tokens);
    }

    /** The same shapes with every word a candidate for every pattern: what tests hold {@link #candidate} to. */
    SecretShapes ungated() {
        return new SecretShapes(source, names, headerNames, prefixes, notSecret, option, assignment, header, tokens, false);
    }

    /** The data of these shapes in {@link Compact}'s form, for a cache beside the knowledge base's ({@link #readFrom}). */
    public void writeTo(Compact.Out o) {
        o.strs(source.names()).strs(source.notSecret());
        o.bool(source.headers() != null);
        if (source.headers() != null) {
            o.strs(source.headers().names()).strs(source.headers().schemes());
        }
        o.count(source.tokens().size());
        for (Token t : source.tokens()) {
            o.str(t.id()).str(t.prefix()).str(t.charset()).num(t.min()).optInt(t.max());
        }
    }

    /**
     * The shapes {@link #writeTo} wrote, compiled and checked as {@link #of} does ({@code origin} names them in errors).
     *
     * @throws java.io.IOException when the bytes are not such a form
     */
    public static SecretShapes readFrom(Compact.In in, Path origin) throws java.io.IOException {
        List<String> names = in.strs();
        List<String> notSecret = in.strs();
        Headers headers = in.bool() ? new Headers(in.strs(), in.strs()) : null;
        int n = in.count();
        if (n < 0) {
            throw new java.io.IOException("missing token shapes");
        }
        List<Token> tokens = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            tokens.add(new Token(in.str(), in.str(), in.str(), in.integer(), in.optInt()));
        }
        try {
            return of(new File(names, notSecret, headers, tokens), origin);
        } catch (RuntimeException e) {
            throw new java.io.IOException("not secret shapes of this form: " + e.getMessage(), e);
        }
    }

    /** True when {@code name} (an intent key, an argument name) names a secret. */
    public boolean isSecretName(String name) {
        if (name == null) {
            return false;
        }
        String n = norm(name.strip().replaceFirst("^-+", ""));
        return names.contains(n);
    }

    /** The characters of a token's {@code charset} (ranges such as {@code A-Z}, '_' and '-'), as its pattern reads them. */
    private static boolean[] charset(String charset) {
        boolean[] in = new boolean[128];
        for (int i = 0; i < charset.length(); ) {
            char c = charset.charAt(i);
            if (i + 2 < charset.length() && charset.charAt(i + 1) == '-' && Character.isLetterOrDigit(c)
                    && Character.isLetterOrDigit(charset.charAt(i + 2))) {
                for (char x = c; x <= charset.charAt(i + 2); x++) {
                    in[x] = true;
                }
                i += 3;
            } else {
                in[c] = true;
                i++;
            }
        }
        return in;
    }

    /**
     * What the word {@code s[from, to)} (letters, digits, '_' and '-') may start, as {@link #NAME} and {@link #TOKEN}
     * bits, 0 for nothing. NAME: it is a secret's name or a header's (leading dashes aside) and the text after it
     * is what the option, assignment or header patterns need before a value ({@code --name} then {@code =} or a
     * blank; {@code name} then an optional quote and {@code =}, or blanks, {@code :}, blanks and a quote; a header
     * then blanks and {@code :} or {@code =}; a header name may also end the word after a '_'): a name in prose
     * ("per token", "the token budget") is no candidate.
     * TOKEN: a token prefix starts the word or follows a '-' in it, and at least as many of the token's characters
     * as its shortest form needs follow the prefix. Each is what the patterns need, never less: a word without
     * the bit matches none of them there.
     */
    int candidate(String s, int from, int to) {
        if (!gated) {
            return NAME | TOKEN;
        }
        int a = from;
        while (a < to && s.charAt(a) == '-') {
            a++;
        }
        int found = 0;
        int len = to - a;
        if (len < byLength.size() && len > 0 && s.charAt(a) < 128 && nameFirst[s.charAt(a)]) {
            for (String w : byLength.get(len)) {
                if (sameName(s, a, w) && valueFollows(s, from, to, names.contains(w), headerNames.contains(w))) {
                    found = NAME;
                    break;
                }
            }
        }
        // a header name may end a word after a '_' (X_Authorization: …): its pattern allows that
        if (found == 0 && to - from > shortestHeader) {
            for (String h : headerArray) {
                int at = to - h.length();
                if (at > from && s.charAt(at - 1) == '_' && sameName(s, at, h) && valueFollows(s, at, to, false, true)) {
                    found = NAME;
                    break;
                }
            }
        }
        // a token starts the word or follows a '-' inside it (--api-key=sk-…, key-sk-…)
        for (int i = from; i < to; i++) {
            if (i > from && s.charAt(i - 1) != '-') {
                continue;
            }
            char c = s.charAt(i);
            if (c >= 128 || !prefixFirst[c]) {
                continue;
            }
            for (TokenGate p : prefixes) {
                if (s.startsWith(p.prefix(), i) && run(s, i + p.prefix().length(), p.chars(), p.min()) >= p.min()) {
                    return found | TOKEN;
                }
            }
        }
        return found;
    }

    /** How many characters of {@code chars} follow at {@code from}, counted up to {@code enough}. */
    private static int run(String s, int from, boolean[] chars, int enough) {
        int k = from;
        while (k < s.length() && k - from < enough && s.charAt(k) < 128 && chars[s.charAt(k)]) {
            k++;
        }
        return k - from;
    }

    /** Whether what follows the name word {@code s[from, to)} can lead to a value under one of the name patterns. */
    private static boolean valueFollows(String s, int from, int to, boolean secretName, boolean headerName) {
        int n = s.length();
        if (to >= n) {
            return false;
        }
        char next = s.charAt(to);
        if (secretName) {
            // --name=VALUE, --name VALUE
            if (s.startsWith("--", from) && (next == '=' || next == ' ' || next == '\t')) {
                return true;
            }
            // name=…, 'name'=…, name: '…', "name": "…", name: Some("…")
            int k = next == '\'' || next == '"' ? to + 1 : to;
            if (k < n && s.charAt(k) == '=') {
                return true;
            }
            k = blanks(s, k);
            if (k < n && s.charAt(k) == ':') {
                k = blanks(s, k + 1);
                if (s.regionMatches(true, k, "Some(", 0, 5)) {
                    k += 5;
                }
                if (k < n && (s.charAt(k) == '"' || s.charAt(k) == '\'')) {
                    return true;
                }
            }
        }
        if (headerName) {
            // Authorization: …, X-Api-Key=…
            int k = blanks(s, to);
            return k < n && (s.charAt(k) == ':' || s.charAt(k) == '=');
        }
        return false;
    }

    private static int blanks(String s, int k) {
        while (k < s.length() && (s.charAt(k) == ' ' || s.charAt(k) == '\t')) {
            k++;
        }
        return k;
    }

    /** {@code s} at {@code at} spells the normalised {@code name}, case and '-'/'_' aside. */
    private static boolean sameName(String s, int at, String name) {
        for (int k = 0; k < name.length(); k++) {
            char c = s.charAt(at + k);
            c = c == '-' ? '_' : (c >= 'A' && c <= 'Z') ? (char) (c + 32) : c;
            if (c != name.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** True for values that say there is no secret ({@code None}, {@code null}…). */
    public boolean isNotSecret(String value) {
        return notSecret.contains(value);
    }

    private static String norm(String name) {
        return name.toLowerCase(Locale.ROOT).replace('-', '_');
    }

    private static void require(boolean ok, Path file, String what) {
        if (!ok) {
            throw new KnowledgeException(file + ": " + what);
        }
    }
}
