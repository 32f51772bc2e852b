package io.triage.lab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The bundled lab hosts, {@code knowledge-base/lab/hosts.yaml}:
 * <pre>
 * hosts:
 *   - name: gpu-healthy
 *     capture: scenarios/02-healthy-sglang-tp2-h200     # relative to the knowledge base
 *     note: SGLang serving normally
 * </pre>
 */
final class LabCatalog {
    record Entry(String name, String capture, String note) {
    }

    private LabCatalog() {
    }

    static List<Entry> read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException("lab hosts file not found: " + file);
        }
        JsonNode root;
        try {
            root = new ObjectMapper(new YAMLFactory()).readTree(file.toFile());
        } catch (IOException e) {
            throw new IOException(file + " is not readable YAML: " + e.getMessage(), e);
        }
        JsonNode list = root == null ? null : root.get("hosts");
        if (list == null || !list.isArray()) {
            throw new IOException(file + ": expected a list under 'hosts:'");
        }
        List<Entry> out = new ArrayList<>();
        int i = 0;
        for (JsonNode h : list) {
            i++;
            String name = text(h, "name");
            String capture = text(h, "capture");
            if (name.isEmpty() || capture.isEmpty()) {
                throw new IOException(file + ": host " + i + " needs a name and a capture");
            }
            if (Path.of(capture).isAbsolute() || Path.of(capture).normalize().startsWith("..")) {
                throw new IOException(file + ": host " + name + ": the capture must be a path inside the knowledge base, not "
                        + capture);
            }
            out.add(new Entry(name, capture, text(h, "note")));
        }
        return out;
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        return v == null || v.isNull() ? "" : v.asText().strip();
    }
}
