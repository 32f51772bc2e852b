package io.triage.chat;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AlertmanagerPayloadTest {

    /** The shape of Alertmanager's webhook documentation, with three firing alerts and one resolved. */
    private static final String PAYLOAD = """
            {
              "version": "4",
              "groupKey": "{}:{alertname=\\"InferenceDown\\"}",
              "truncatedAlerts": 0,
              "status": "firing",
              "receiver": "triage",
              "groupLabels": {"alertname": "InferenceDown"},
              "commonLabels": {"alertname": "InferenceDown", "job": "vllm"},
              "commonAnnotations": {"summary": "inference server down"},
              "externalURL": "http://alertmanager.example:9093",
              "alerts": [
                {"status": "firing", "labels": {"alertname": "InferenceDown", "instance": "gpu-node-3:9100", "node": "n3"},
                 "annotations": {"summary": "down"}, "startsAt": "2026-11-30T21:00:00.123456789Z",
                 "endsAt": "0001-01-01T00:00:00Z", "generatorURL": "http://prometheus.example/graph", "fingerprint": "a1b2"},
                {"status": "firing", "labels": {"alertname": "InferenceDown", "instance": "[fe80::1]:9100"},
                 "annotations": {}, "startsAt": "2026-11-30T21:00:01+01:00", "endsAt": "0001-01-01T00:00:00Z",
                 "generatorURL": "", "fingerprint": "c3d4"},
                {"status": "resolved", "labels": {"alertname": "InferenceDown", "instance": "gpu-node-9:9100"},
                 "annotations": {}, "startsAt": "2026-11-30T20:00:00Z", "endsAt": "2026-11-30T20:30:00Z",
                 "generatorURL": "", "fingerprint": "e5f6"},
                {"status": "firing", "labels": {"alertname": "InferenceDown", "instance": "GPU-NODE-3:9400"},
                 "annotations": {}, "startsAt": "2026-11-30T21:00:02Z", "endsAt": "0001-01-01T00:00:00Z",
                 "generatorURL": "", "fingerprint": "a7b8"},
                {"status": "firing", "labels": {"alertname": "InferenceDown", "instance": "gpu-node-5", "node": "n5"},
                 "annotations": {}, "startsAt": "2026-11-30T21:00:03Z", "endsAt": "0001-01-01T00:00:00Z",
                 "generatorURL": "", "fingerprint": "c9d0"}
              ]
            }
            """;

    @Test
    void readsEveryFieldOfAVersion4Payload() {
        AlertmanagerPayload p = AlertmanagerPayload.parse(PAYLOAD);
        assertEquals("4", p.version());
        assertEquals("triage", p.receiver());
        assertEquals("firing", p.status());
        assertEquals(5, p.alerts().size());
        assertEquals("InferenceDown", p.groupLabels().get("alertname"));
        assertEquals("vllm", p.commonLabels().get("job"));
        assertEquals("inference server down", p.commonAnnotations().get("summary"));
        assertEquals("http://alertmanager.example:9093", p.externalURL());
        AlertmanagerPayload.Alert a = p.alerts().get(0);
        assertTrue(a.firing());
        assertEquals("a1b2", a.fingerprint());
        assertEquals(Instant.parse("2026-11-30T21:00:00.123456789Z"), a.startsAt());
        assertEquals(Instant.parse("0001-01-01T00:00:00Z"), a.endsAt());
        assertEquals(Instant.parse("2026-11-30T20:00:01Z"), p.alerts().get(1).startsAt());
    }

    @Test
    void hostsAreTheFiringAlertsInstancesWithoutPortsOnceEachResolvedSkipped() {
        AlertmanagerPayload p = AlertmanagerPayload.parse(PAYLOAD);
        assertEquals(List.of("gpu-node-3", "fe80::1", "gpu-node-5"), p.hosts());
        assertEquals(List.of("n3", "n5"), p.hosts("node"));
        assertEquals(List.of("alerts[1] (InferenceDown) has no label \"node\"",
                "alerts[3] (InferenceDown) has no label \"node\""), p.skipped("node"));
        assertEquals(List.of(), p.skipped("instance"));
    }

    @Test
    void hostOfTakesOffPortsBracketsSchemesAndPaths() {
        assertEquals(Optional.of("gpu-node-3"), AlertmanagerPayload.hostOf("gpu-node-3:9100"));
        assertEquals(Optional.of("fe80::1"), AlertmanagerPayload.hostOf("[fe80::1]:9100"));
        assertEquals(Optional.of("fe80::1"), AlertmanagerPayload.hostOf("[fe80::1]"));
        assertEquals(Optional.of("fe80::1"), AlertmanagerPayload.hostOf("fe80::1"));
        assertEquals(Optional.of("gpu-node-3"), AlertmanagerPayload.hostOf("gpu-node-3"));
        assertEquals(Optional.of("10.1.2.3"), AlertmanagerPayload.hostOf("10.1.2.3:8000"));
        assertEquals(Optional.of("gpu-node-3.dc1.example"), AlertmanagerPayload.hostOf("https://gpu-node-3.dc1.example:8000/health?x=1"));
        assertEquals(Optional.of("gpu-node-3"), AlertmanagerPayload.hostOf("http://ops@gpu-node-3/metrics"));
    }

    @Test
    void labelValuesThatAreNoHostGiveNone() {
        for (String bad : new String[]{"", " ", "-oProxyCommand=touch /tmp/x", "gpu-node-3; rm -rf /", "host:99999",
                "host:port", "[fe80::1", "[fe80::1]x", "[gpu-node-3]:22", "a b", "$(id)", "host\u001b[31m", "a..b"}) {
            assertEquals(Optional.empty(), AlertmanagerPayload.hostOf(bad), bad);
        }
        AlertmanagerPayload p = AlertmanagerPayload.parse("""
                {"version":"4","status":"firing","alerts":[
                  {"status":"firing","labels":{"alertname":"X","instance":"-oProxyCommand=id"}},
                  {"status":"firing","labels":{"instance":"ok-host:1"}}]}""");
        assertEquals(List.of("ok-host"), p.hosts());
        assertEquals(List.of("alerts[0] (X): label \"instance\" is not a host name or address: \"-oProxyCommand=id\""),
                p.skipped("instance"));
        assertNull(p.alerts().get(0).startsAt());
    }

    @Test
    void malformedPayloadsAreRefusedWithAMessageThatSaysWhere() {
        String[][] cases = {
                {null, "empty"},
                {"", "empty"},
                {"{", "not JSON"},
                {"[]", "must be a JSON object"},
                {"{\"status\":\"firing\",\"alerts\":[]}", "has no \"version\""},
                {"{\"version\":\"3\",\"status\":\"firing\",\"alerts\":[]}", "version \"3\""},
                {"{\"version\":4,\"status\":\"firing\",\"alerts\":[]}", "version must be a string"},
                {"{\"version\":\"4\",\"status\":\"firing\"}", "no \"alerts\" array"},
                {"{\"version\":\"4\",\"status\":\"firing\",\"alerts\":{}}", "no \"alerts\" array"},
                {"{\"version\":\"4\",\"alerts\":[]}", "has no \"status\""},
                {"{\"version\":\"4\",\"status\":\"burning\",\"alerts\":[]}", "status must be \"firing\" or \"resolved\""},
                {"{\"version\":\"4\",\"status\":\"firing\",\"alerts\":[null]}", "alerts[0] must be a JSON object"},
                {"{\"version\":\"4\",\"status\":\"firing\",\"alerts\":[{\"status\":\"firing\"}]}", "alerts[0] has no \"labels\""},
                {"{\"version\":\"4\",\"status\":\"firing\",\"alerts\":[{\"labels\":{}}]}", "alerts[0] has no \"status\""},
                {"{\"version\":\"4\",\"status\":\"firing\",\"alerts\":[{\"status\":\"firing\",\"labels\":[]}]}",
                        "alerts[0].labels must be an object of strings"},
                {"{\"version\":\"4\",\"status\":\"firing\",\"alerts\":[{\"status\":\"firing\",\"labels\":{\"instance\":3}}]}",
                        "alerts[0].labels.instance must be a string"},
                {"{\"version\":\"4\",\"status\":\"firing\",\"alerts\":[{\"status\":\"firing\",\"labels\":{},\"startsAt\":\"yesterday\"}]}",
                        "alerts[0].startsAt is not an RFC 3339 time"},
                {"{\"version\":\"4\",\"status\":\"firing\",\"truncatedAlerts\":-1,\"alerts\":[]}", "truncatedAlerts"},
                {"{\"version\":\"4\",\"status\":\"firing\",\"commonLabels\":\"x\",\"alerts\":[]}", "commonLabels must be an object"},
        };
        for (String[] c : cases) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AlertmanagerPayload.parse(c[0]),
                    String.valueOf(c[0]));
            assertTrue(e.getMessage().contains(c[1]), c[0] + " → " + e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> AlertmanagerPayload.parse((com.fasterxml.jackson.databind.JsonNode) null));
        AlertmanagerPayload ok = AlertmanagerPayload.parse("{\"version\":\"4\",\"status\":\"resolved\",\"alerts\":[]}");
        assertThrows(IllegalArgumentException.class, () -> ok.hosts(""));
        assertThrows(IllegalArgumentException.class, () -> ok.hosts(null));
        assertEquals(List.of(), ok.hosts());
    }
}
