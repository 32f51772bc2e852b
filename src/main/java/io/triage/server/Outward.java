package io.triage.server;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.triage.explain.Diagnosis;
import io.triage.explain.JsonRenderer;

import java.util.Optional;

/**
 * The one place where what the server says leaves it: every response body, event and webhook payload is
 * written here. Text that came from hosts, captures, pastes and callers is in these documents, so this is
 * where a sanitiser and a redactor apply, once, for every route.
 */
final class Outward {
    /** The renderings of a diagnosis a caller may ask for with {@code ?format=}. */
    enum Format { json, markdown, slack }

    private final ObjectMapper mapper = new ObjectMapper().setSerializationInclusion(JsonInclude.Include.NON_NULL);
    private final JsonRenderer diagnosisJson = new JsonRenderer();

    /** A diagnosis as its {@code triage.diagnosis/v1} document, as the server keeps and returns it. */
    JsonNode document(Diagnosis d) {
        return diagnosisJson.mapper().valueToTree(d);
    }

    /** Any value as the JSON text sent to a client. */
    String json(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a response could not be written as JSON", e);
        }
    }

    /**
     * A stored diagnosis document in the requested format; empty when this build has no renderer for that
     * format (markdown and Slack are rendered by the chat renderers, which this build does not have yet).
     */
    Optional<String> render(JsonNode document, Format format) {
        return switch (format) {
            case json -> Optional.of(json(document));
            case markdown, slack -> Optional.empty();
        };
    }

    ObjectMapper mapper() {
        return mapper;
    }
}
