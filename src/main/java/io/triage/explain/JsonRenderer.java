package io.triage.explain;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.triage.safety.Safe;

/**
 * Renders a diagnosis as the JSON contract shared by the web page, the API and chat bots. The text is kept
 * as it is (already redacted), but controls, bidi and zero-width characters are written as {@code \}{@code uXXXX}
 * escapes and numbers are always finite ({@link Safe#configure}); use {@link #mapper()} for any other
 * document that carries diagnoses.
 */
public final class JsonRenderer {
    private final ObjectMapper mapper = Safe.configure(new ObjectMapper())
            .setSerializationInclusion(JsonInclude.Include.NON_NULL)
            .enable(SerializationFeature.INDENT_OUTPUT);

    public String render(Diagnosis d) {
        try {
            return mapper.writeValueAsString(d);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("diagnosis could not be written as JSON", e);
        }
    }

    public ObjectMapper mapper() {
        return mapper;
    }
}
