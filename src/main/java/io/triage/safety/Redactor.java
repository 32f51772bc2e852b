package io.triage.safety;

import io.triage.capture.Capture;
import io.triage.capture.ProbeOutput;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;

/**
 * Replaces secrets ({@link SecretShapes}, from {@code knowledge-base/secrets.yaml}) with
 * {@code ‹redacted:xxxxxxxx›}: the first 8 hex digits of HMAC-SHA256(key, secret). Equal secrets under one
 * key give equal placeholders, so rules that compare values (the intended {@code api_key} against the running
 * one) still see "equal" or "different"; the secret itself never leaves. Idempotent: a placeholder is never
 * redacted again, so a saved (redacted) capture replays to the same facts.
 *
 * <p>Apply {@link #redact(Capture)} to a capture before it is diagnosed or written, and
 * {@link #redactIntent(Map)} to what the operator says they launched, with the same redactor.
 */
public final class Redactor {
    public static final String OPEN = "\u2039redacted:";
    public static final String CLOSE = "\u203a";

    private final SecretShapes shapes;
    private final RedactionKey key;

    public Redactor(SecretShapes shapes, RedactionKey key) {
        this.shapes = shapes;
        this.key = key;
    }

    /** A redactor that changes nothing ({@code --no-redact}). */
    public static Redactor none() {
        return new Redactor(null, null);
    }

    public boolean enabled() {
        return shapes != null;
    }

    /** The capture with every secret in every probe's command, output and error, target, intent and note replaced. */
    public Capture redact(Capture c) {
        if (!enabled() || c == null) {
            return c;
        }
        Map<String, ProbeOutput> probes = new LinkedHashMap<>();
        c.probes().forEach((name, p) -> probes.put(name, new ProbeOutput(p.name(), redact(p.cmd()), redact(p.out()),
                redact(p.err()), p.rc(), p.seconds(), p.truncated())));
        Map<String, String> target = new LinkedHashMap<>();
        c.target().forEach((k, v) -> target.put(k, redactValue(k, v)));
        List<String> notes = new ArrayList<>();
        for (String n : c.notes()) {
            notes.add(redact(n));
        }
        return new Capture(redact(c.source()), probes, target, redactIntent(c.intent()), notes);
    }

    /**
     * Intent values: a value under a secret's name ({@code api_key=…}) is replaced whole, whatever it looks
     * like; any other value is searched for secret shapes like free text.
     */
    public Map<String, String> redactIntent(Map<String, String> intent) {
        if (!enabled() || intent == null) {
            return intent;
        }
        Map<String, String> out = new LinkedHashMap<>();
        intent.forEach((k, v) -> out.put(k, redactValue(k, v)));
        return out;
    }

    private String redactValue(String name, String value) {
        if (value == null) {
            return null;
        }
        String v = value.strip();
        if (shapes.isSecretName(name) && !shapes.isNotSecret(v) && !isPlaceholder(v)) {
            return placeholder(unquote(v));
        }
        return redact(value);
    }

    /**
     * Free text (a log, a command line, a body) with every secret shape replaced; null stays null. One pass
     * over the words of the text finds the few that could start a secret (a secret's name or a header name with
     * what a value needs after it, a token prefix with enough of the token's characters:
     * {@link SecretShapes#candidate}); the shapes' patterns run only there, so a log of megabytes costs one scan.
     */
    public String redact(String s) {
        if (!enabled() || s == null || s.isEmpty()) {
            return s;
        }
        List<int[]> spans = new ArrayList<>();
        int n = s.length();
        int i = 0;
        Matcher option = null;
        Matcher assignment = null;
        Matcher header = null;
        Matcher tokens = null;
        while (i < n) {
            if (!wordChar(s.charAt(i))) {
                i++;
                continue;
            }
            int ws = i;
            while (i < n && wordChar(s.charAt(i))) {
                i++;
            }
            int candidate = shapes.candidate(s, ws, i);
            if (candidate != 0) {
                if (option == null) { // one set of matchers for the whole text, made at its first candidate
                    option = shapes.option.matcher(s);
                    assignment = shapes.assignment.matcher(s);
                    header = shapes.header.matcher(s);
                    tokens = shapes.tokens.matcher(s);
                }
                int from = Math.max(0, ws - 2);
                int to = Math.min(n, i + 64);
                // a word holding a token is looked at for names too (a header glued on by '_' or '.')
                valueAfter(option, s, from, to, i, spans);
                valueAfter(assignment, s, from, to, i, spans);
                valueAfter(header, s, from, to, i, spans);
                if ((candidate & SecretShapes.TOKEN) != 0) {
                    Matcher t = region(tokens, ws, Math.min(n, i + 1));
                    while (t.find() && t.start() < i) {
                        spans.add(new int[] {t.start(), t.end()});
                    }
                }
            }
        }
        if (spans.isEmpty()) {
            return s;
        }
        spans.sort((a, b) -> a[0] != b[0] ? Integer.compare(a[0], b[0]) : Integer.compare(b[1], a[1]));
        StringBuilder b = new StringBuilder(s.length());
        int at = 0;
        for (int[] span : spans) {
            if (span[0] < at) {
                continue; // inside a secret already replaced
            }
            b.append(s, at, span[0]).append(placeholder(s.substring(span[0], span[1])));
            at = span[1];
        }
        return b.append(s, at, s.length()).toString();
    }

    static boolean wordChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    }

    private static Matcher region(Matcher m, int from, int to) {
        return m.region(from, to).useTransparentBounds(true).useAnchoringBounds(false);
    }

    /**
     * The value after a name matched in {@code [from, to)} that starts before {@code wordEnd}: quoted (up to
     * the closing quote) or bare (up to a blank or separator).
     */
    private void valueAfter(Matcher m, String s, int from, int to, int wordEnd, List<int[]> spans) {
        region(m, from, to);
        while (m.find() && m.start() < wordEnd) {
            int start = m.end();
            if (start >= s.length()) {
                return;
            }
            char q = s.charAt(start);
            int end;
            int limit = Math.min(s.length(), start + 1 + SecretShapes.MAX_VALUE);
            if (q == '\'' || q == '"') {
                start++;
                end = start;
                while (end < limit && s.charAt(end) != q && s.charAt(end) != '\n') {
                    end += s.charAt(end) == '\\' && end + 1 < limit ? 2 : 1;
                }
                end = Math.min(end, limit);
            } else {
                end = start;
                while (end < limit && !Character.isWhitespace(s.charAt(end)) && ",;)}]'\"&|<>".indexOf(s.charAt(end)) < 0) {
                    end++;
                }
            }
            String value = s.substring(start, end);
            if (end > start && !shapes.isNotSecret(value) && !isPlaceholder(value)) {
                spans.add(new int[] {start, end});
            }
        }
    }

    /** {@code ‹redacted:xxxxxxxx›} for a secret: the first 8 hex digits of its keyed digest. */
    public String placeholder(String secret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.bytes(), "HmacSHA256"));
            byte[] d = mac.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            return OPEN + HexFormat.of().formatHex(d, 0, 4) + CLOSE;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    public static boolean isPlaceholder(String value) {
        return value.startsWith(OPEN);
    }

    private static String unquote(String v) {
        if (v.length() >= 2 && (v.charAt(0) == '\'' || v.charAt(0) == '"') && v.charAt(v.length() - 1) == v.charAt(0)) {
            return v.substring(1, v.length() - 1);
        }
        return v;
    }
}
