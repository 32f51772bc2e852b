package io.triage.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.triage.explain.Diagnosis;
import io.triage.explain.JsonRenderer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DiagnosisSchemaTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final DiagnosisSchema schema = new DiagnosisSchema();

    @Test
    void theSchemaIsAValidDraft202012Schema() {
        var meta = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));
        assertEquals(List.of(), meta.validate(schema.document()).stream().map(Object::toString).toList());
        assertEquals("https://json-schema.org/draft/2020-12/schema", schema.document().get("$schema").asText());
    }

    @TestFactory
    Stream<DynamicTest> theJsonOfEveryScenarioIsValid() {
        return Scenarios.all().entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
            JsonNode doc = MAPPER.readTree(new JsonRenderer().render(e.getValue()));
            assertEquals(List.of(), schema.validate(doc));
        }));
    }

    /** The kinds a link of the chain can have: the schema's enum. */
    private static final List<String> KINDS = List.of("evidence", "knowledge", "step", "symptom", "rule", "target", "cut");

    @TestFactory
    Stream<DynamicTest> everyLinkOfEveryScenarioChainHasAKindThatAgreesWithItsShape() {
        return Scenarios.all().entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
            JsonNode doc = MAPPER.readTree(new JsonRenderer().render(e.getValue()));
            List<JsonNode> links = new java.util.ArrayList<>();
            for (JsonNode h : doc.get("hypotheses")) {
                h.get("because").forEach(n -> walk(n, links));
                h.get("against").forEach(n -> walk(n, links));
            }
            doc.get("ruledOut").forEach(x -> x.get("because").forEach(n -> walk(n, links)));
            doc.get("questions").forEach(q -> q.get("because").forEach(n -> walk(n, links)));
            assertFalse(links.isEmpty(), "no chain at all");
            for (JsonNode n : links) {
                String kind = n.path("kind").asText("");
                assertTrue(KINDS.contains(kind), "kind '" + kind + "' of " + n.get("fact"));
                boolean byRule = kind.equals("symptom") || kind.equals("rule");
                assertEquals(byRule, !n.get("rule").asText().isEmpty(), kind + " link with rule '" + n.get("rule") + "'");
                if (n.has("evidence")) {
                    assertEquals("evidence", kind, "a link that locates a line is evidence: " + n.get("fact"));
                }
                if (!byRule) {
                    assertEquals(0, n.get("premises").size(), kind + " link with premises: " + n.get("fact"));
                }
            }
            // each kind of the parser's, the rules' and the knowledge base's facts is in the chains somewhere
            assertTrue(links.stream().anyMatch(n -> n.get("kind").asText().equals("evidence")), e.getKey());
        }));
    }

    private static void walk(JsonNode n, List<JsonNode> into) {
        into.add(n);
        n.get("premises").forEach(p -> walk(p, into));
    }

    @Test
    void brokenDocumentsAreRejected() throws Exception {
        Diagnosis d = Scenarios.all().values().iterator().next();
        ObjectNode good = (ObjectNode) MAPPER.readTree(new JsonRenderer().render(d));
        assertEquals(List.of(), schema.validate(good));

        rejected(good, doc -> doc.remove("cause"), "cause");
        rejected(good, doc -> doc.put("schema", "triage.diagnosis/v2"), "schema");
        rejected(good, doc -> doc.put("confidence", "certain"), "confidence");
        rejected(good, doc -> doc.put("cause", "Not A Cause!"), "cause");
        rejected(good, doc -> doc.put("surprise", true), "surprise");
        rejected(good, doc -> doc.set("hypotheses", MAPPER.createArrayNode()), "hypotheses");
        rejected(good, doc -> ((ObjectNode) doc.get("hypotheses").get(0)).put("status", "likely"), "status");
        rejected(good, doc -> ((ObjectNode) doc.get("hypotheses").get(0)).put("confidence", ""), "confidence");
        rejected(good, doc -> ((ObjectNode) doc.get("coverage")).remove("absent"), "absent");
        rejected(good, doc -> ((ObjectNode) doc.get("target")).put("port", "8000"), "port");
        rejected(good, doc -> ((ObjectNode) doc.get("engine")).put("rulesFired", -1), "rulesFired");
        rejected(good, doc -> ((ObjectNode) doc.get("hypotheses").get(0).get("because").get(0)).put("kind", "hunch"), "kind");
        rejected(good, doc -> {
            ArrayNode probes = (ArrayNode) doc.get("coverage").get("probes");
            ((ObjectNode) probes.get(0)).put("status", "absent");
        }, "status");
        rejected(good, doc -> {
            ObjectNode bad = MAPPER.createObjectNode();
            bad.put("cause", "crash").put("status", "maybe").put("reason", "x").put("missing", "");
            bad.set("because", MAPPER.createArrayNode());
            ((ArrayNode) doc.get("ruledOut")).add(bad);
        }, "status");
        rejected(good, doc -> {
            JsonNode top = doc.get("hypotheses").get(0).get("because").get(0);
            ObjectNode ev = MAPPER.createObjectNode().put("probe", "ps").put("line", -2).put("excerpt", "x");
            ObjectNode leaf = MAPPER.createObjectNode().put("rule", "").put("rationale", "").put("fact", "f");
            leaf.set("evidence", ev);
            leaf.set("premises", MAPPER.createArrayNode());
            ((ArrayNode) top.get("premises")).add(leaf);
        }, "line");
        assertFalse(schema.validate(MAPPER.readTree("[]")).isEmpty());
        assertFalse(schema.validate(null).isEmpty());
    }

    private void rejected(ObjectNode good, Consumer<ObjectNode> breakIt, String mentions) {
        ObjectNode doc = good.deepCopy();
        breakIt.accept(doc);
        List<String> errors = schema.validate(doc);
        assertFalse(errors.isEmpty(), "accepted a document broken at " + mentions);
        assertTrue(errors.stream().anyMatch(e -> e.contains(mentions)), mentions + " not named in " + errors);
    }
}
