package io.triage.explain;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/** Renders a diagnosis as the JSON contract shared by the web page, the API and chat bots. */
public final class JsonRenderer {
    private final ObjectMapper mapper = new ObjectMapper()
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
