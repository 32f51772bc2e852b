package io.triage.parse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.triage.capture.ProbeOutput;
import io.triage.facts.ServerArg;

import java.io.IOException;

/**
 * The models a server says it serves: {@code /v1/models} ({@code {"data":[{"id":…}]}}, an OpenAI-compatible
 * server's base models and loaded LoRA adapters) or Ollama's {@code /api/tags} ({@code {"models":[{"name":…}]}}),
 * each a {@code served_model} argument of source {@code models}, which the rules hold an intended model against.
 */
final class ModelsParser {
    /** Most model ids read from one answer. */
    private static final int MAX_MODELS = 256;
    private static final ObjectMapper JSON = new ObjectMapper();

    private ModelsParser() {
    }

    /** Text that is not such JSON (an HTML error page, a cut answer) is reported unreadable and adds nothing. */
    static void served(ProbeOutput p, Sink sink) {
        String out = p.outOrEmpty().strip();
        int start = out.indexOf('{');
        if (start < 0) {
            return;
        }
        JsonNode root;
        try {
            root = JSON.readTree(out.substring(start));
        } catch (IOException | RuntimeException e) {
            sink.unparseable(p.name(), "not a models list (JSON)", 1, Text.excerpt(out));
            return;
        }
        JsonNode list = root == null ? null : root.has("data") ? root.get("data") : root.get("models");
        if (list == null || !list.isArray()) {
            return;
        }
        int n = 0;
        for (JsonNode m : list) {
            JsonNode id = m.has("id") ? m.get("id") : m.get("name");
            if (id == null || !id.isTextual() || n++ >= MAX_MODELS) {
                continue;
            }
            String v = Text.excerpt(id.asText());
            sink.add(new ServerArg("served_model", v, "models", true, -1, -1, p.name(), 1, "served model " + v));
            // vLLM's and SGLang's listings say the context length in effect: what the engine settled on, which
            // may be less than the launch asked for
            JsonNode len = m.get("max_model_len");
            if (len != null && len.canConvertToLong() && len.asLong() > 0) {
                sink.add(new ServerArg("max_model_len", String.valueOf(len.asLong()), "effective", true, -1, -1, p.name(), 1,
                        "served model " + v + ": max_model_len " + len.asLong()));
            }
        }
    }
}
