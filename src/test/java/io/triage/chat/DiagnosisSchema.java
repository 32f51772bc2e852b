package io.triage.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The JSON Schema of the {@code triage.diagnosis/v1} document ({@code api/diagnosis.schema.json}, draft
 * 2020-12), for tests that check what the product emits: the CLI's {@code --format json} and the API's
 * responses. Thread-safe; build one per test class.
 */
public final class DiagnosisSchema {
    public static final String RESOURCE = "/api/diagnosis.schema.json";

    private final JsonNode document;
    private final Schema schema;

    public DiagnosisSchema() {
        try (InputStream in = DiagnosisSchema.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("no " + RESOURCE + " on the class path");
            }
            document = new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("the diagnosis schema does not read", e);
        }
        schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(document);
    }

    /** What is wrong with the document, one line per error ({@code $.path: message}); empty when valid. */
    public List<String> validate(JsonNode doc) {
        if (doc == null) {
            return List.of("$: no document");
        }
        return schema.validate(doc).stream().map(DiagnosisSchema::line).toList();
    }

    /** The schema itself, as JSON. */
    public JsonNode document() {
        return document.deepCopy();
    }

    private static String line(Error e) {
        return e.getInstanceLocation() + ": " + e.getMessage();
    }
}
