package io.triage.safety;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

import java.io.IOException;

/**
 * The calls every output goes through. Text for a person ({@link #forTerminal}, and through it markdown,
 * Slack and HTML, which add their own escaping on top): the {@link Sanitizer}. JSON ({@link #json},
 * {@link #configure}): the text is kept exactly, but every character the sanitiser would make visible is
 * written as a {@code \}{@code uXXXX} escape, and numbers are always finite (NaN and infinities become
 * {@code null}). Redaction happens before any of this, on the capture ({@link Redactor}).
 */
public final class Safe {
    private Safe() {
    }

    /** One value for a terminal line (or markdown, Slack, HTML before their own escaping). */
    public static String forTerminal(String s) {
        return Sanitizer.line(s);
    }

    /** Text that may span lines: line feeds kept, everything else as {@link #forTerminal}. */
    public static String forTerminalText(String s) {
        return Sanitizer.text(s);
    }

    /** A new JSON mapper with the safe escapes and finite numbers. */
    public static ObjectMapper json() {
        return configure(new ObjectMapper());
    }

    /** Makes {@code mapper} write safe JSON (for a web framework's own mapper); returns it. */
    public static ObjectMapper configure(ObjectMapper mapper) {
        mapper.getFactory().setCharacterEscapes(new Escapes());
        SimpleModule finite = new SimpleModule("triage-finite-numbers");
        finite.addSerializer(Double.class, new FiniteDouble());
        finite.addSerializer(Double.TYPE, new FiniteDouble());
        finite.addSerializer(Float.class, new FiniteFloat());
        finite.addSerializer(Float.TYPE, new FiniteFloat());
        mapper.registerModule(finite);
        return mapper;
    }

    /** Escapes controls (C0, DEL, C1), format characters (bidi, zero-width…), U+2028/9 and surrogates. */
    static final class Escapes extends CharacterEscapes {
        private final int[] ascii;

        Escapes() {
            ascii = CharacterEscapes.standardAsciiEscapesForJSON();
            ascii[0x7f] = CharacterEscapes.ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            // supplementary characters reach here as two surrogates: both escaped, so the pair survives
            // intact and tag characters (plane 14, format characters) never appear raw
            if (Sanitizer.dangerous(ch)) {
                return new com.fasterxml.jackson.core.io.SerializedString(String.format("\\u%04x", ch));
            }
            return null;
        }
    }

    static final class FiniteDouble extends StdSerializer<Double> {
        FiniteDouble() {
            super(Double.class);
        }

        @Override
        public void serialize(Double v, JsonGenerator g, SerializerProvider p) throws IOException {
            if (v == null || v.isNaN() || v.isInfinite()) {
                g.writeNull();
            } else {
                g.writeNumber(v);
            }
        }
    }

    static final class FiniteFloat extends StdSerializer<Float> {
        FiniteFloat() {
            super(Float.class);
        }

        @Override
        public void serialize(Float v, JsonGenerator g, SerializerProvider p) throws IOException {
            if (v == null || v.isNaN() || v.isInfinite()) {
                g.writeNull();
            } else {
                g.writeNumber(v);
            }
        }
    }
}
