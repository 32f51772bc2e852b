package io.triage.server;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.triage.explain.Diagnosis;
import io.triage.chat.MarkdownRenderer;
import io.triage.chat.SlackRenderer;
import io.triage.explain.JsonRenderer;
import io.triage.safety.Safe;


/**
 * The one place where what the server says leaves it: every response body, event and webhook payload is
 * written here. Text that came from hosts, captures, pastes and callers is in these documents, so this is
 * where a sanitiser and a redactor apply, once, for every route.
 */
final class Outward {
    /** The renderings of a diagnosis a caller may ask for with {@code ?format=}. */
    enum Format { json, markdown, slack }

    /** Keeps every string as it is but writes control, bidi and zero-width characters as escapes; numbers finite. */
    private final ObjectMapper mapper = Safe.configure(new ObjectMapper().setSerializationInclusion(JsonInclude.Include.NON_NULL));
    private final JsonRenderer diagnosisJson = new JsonRenderer();
    private final MarkdownRenderer markdown = new MarkdownRenderer();
    private final SlackRenderer slack = new SlackRenderer();

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
     * A stored diagnosis document in the requested format: JSON as stored, or the chat renderings (markdown,
     * Slack Block Kit), which sanitise and escape every host text themselves.
     *
     * @param link the page of this diagnosis, for the renderings' "full diagnosis" link; may be null
     */
    String render(JsonNode document, Format format, String link) {
        if (format == Format.json) {
            return json(document);
        }
        Diagnosis d;
        try {
            d = diagnosisJson.mapper().treeToValue(document, Diagnosis.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored diagnosis could not be read back", e);
        }
        return format == Format.markdown ? markdown.render(d, link) : json(slack.render(d, link));
    }

    ObjectMapper mapper() {
        return mapper;
    }
}
