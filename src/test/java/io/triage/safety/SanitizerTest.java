package io.triage.safety;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SanitizerTest {

    /** No character that could act on a terminal or reorder what is shown; newline and tab allowed. */
    static void assertInert(String s) {
        s.codePoints().forEach(cp -> assertFalse(cp != '\n' && cp != '\t' && Sanitizer.dangerous(cp),
                String.format("raw U+%04X in: %s", cp, s)));
    }

    @Test
    void escapeSequencesAreShownNotObeyed() {
        assertEquals("␛[31mred␛[0m", Sanitizer.line("\u001b[31mred\u001b[0m"));
        assertEquals("␛]52;c;cm0gLXJmIC8=␇", Sanitizer.line("\u001b]52;c;cm0gLXJmIC8=\u0007"));
        assertEquals("␛[2J␛P1$r␛\\", Sanitizer.line("\u001b[2J\u001bP1$r\u001b\\"));
        assertEquals("ok␍FAKE", Sanitizer.line("ok\rFAKE"));
        assertEquals("a␈b␡", Sanitizer.line("a\bb\u007f"));
        assertEquals("<U+009B>31m", Sanitizer.line("\u009b31m"), "the one-byte CSI");
    }

    @Test
    void bidiAndZeroWidthCharactersAreMadeVisible() {
        assertEquals("evil<U+202E>gnp.exe", Sanitizer.line("evil\u202egnp.exe"));
        for (int cp : new int[] {0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e,
                0x200f, 0x061c, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x2028, 0x2029, 0xe0041}) {
            String s = "a" + new String(Character.toChars(cp)) + "b";
            assertEquals("a" + String.format("<U+%04X>", cp) + "b", Sanitizer.line(s));
        }
    }

    @Test
    void ordinaryTextIsUntouchedAndTheSameObject() {
        String s = "VLLM::EngineCore_DP0 — 72 410 MiB, ünïcødé, 中文, emoji 🙂, tab\there";
        assertTrue(s == Sanitizer.line(s));
    }

    @Test
    void lineFeedsAreVisibleInALineAndKeptInText() {
        assertEquals("a␤VERDICT: healthy", Sanitizer.line("a\nVERDICT: healthy"));
        assertEquals("a\nb␍", Sanitizer.text("a\nb\r"));
    }

    @Test
    void aLongValueIsCutWithAVisibleMarker() {
        String cut = Sanitizer.line("x".repeat(Sanitizer.MAX_CHARS + 10));
        assertTrue(cut.endsWith("…[+10 chars]"), cut.substring(cut.length() - 20));
        assertEquals(Sanitizer.MAX_CHARS + "…[+10 chars]".length(), cut.length());
        String emoji = "🙂".repeat(30);
        assertEquals("🙂".repeat(20) + "…[+10 chars]", Sanitizer.line(emoji, 20), "never splits a surrogate pair");
    }

    @Test
    void jsonKeepsTheTextButEscapesTheSameCharacters() throws Exception {
        String hostile = "\u001b]52;c;Y2F0\u0007\u001b[2J\rx\u202eevil\u200bname\u009b\u007f 🙂 \udb40\udc41";
        ObjectMapper m = Safe.json();
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("s", hostile);
        String json = m.writeValueAsString(doc);
        assertInert(json);
        assertTrue(json.contains("\\u001B]52") || json.contains("\\u001b]52"), json);
        assertTrue(json.contains("\\u202e") || json.contains("\\u202E"), json);
        assertEquals(hostile, new ObjectMapper().readTree(json).get("s").asText(), "the text itself is kept");
    }

    @Test
    void jsonNumbersAreAlwaysFinite() throws Exception {
        record Probe(String name, double seconds, Double rate, float f) { }
        String json = Safe.json().writeValueAsString(new Probe("x", Double.NaN, Double.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY));
        assertFalse(json.contains("NaN") || json.contains("Infinity"), json);
        JsonNode n = new ObjectMapper().readTree(json);
        assertTrue(n.get("seconds").isNull() && n.get("rate").isNull() && n.get("f").isNull(), json);
        assertEquals("{\"name\":\"x\",\"seconds\":1.5,\"rate\":null,\"f\":2.0}",
                Safe.json().writeValueAsString(new Probe("x", 1.5, null, 2f)));
    }
}
