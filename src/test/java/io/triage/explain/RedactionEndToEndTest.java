package io.triage.explain;

import io.triage.TestHome;
import io.triage.Triage;
import io.triage.capture.Capture;
import io.triage.capture.ProbeOutput;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Secrets in every place they were seen — the process list's command line, an argument dump in the log,
 * an Authorization header in a log line, the health probe's output, the operator's intent — are absent
 * from the text and the JSON, while the verdict is the one the unredacted capture gets: equal secrets stay
 * equal, different ones stay different.
 */
class RedactionEndToEndTest {
    static final String RUNNING = "sk-running0123456789abcdefXYZ";
    static final String OTHER = "sk-intended9876543210zyxwvuABC";
    static final String HF = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123";
    static final String BEARER = "opaque.bearer.value-42";
    static final String BODY = "bodysecret-from-health";
    static final Pattern PLACEHOLDER = Pattern.compile("‹redacted:[0-9a-f]{8}›");

    /** The healthy vLLM scenario with an API key on its command line and secrets in its log and health output. */
    static Capture withSecrets() throws Exception {
        Triage t = TestHome.triage();
        Capture c = t.reader().read(TestHome.fixture("01-healthy-vllm-h100"));
        Map<String, ProbeOutput> probes = new LinkedHashMap<>(c.probes());
        for (String name : List.of("pgrep", "ps")) {
            ProbeOutput p = probes.get(name);
            probes.put(name, new ProbeOutput(p.name(), p.cmd(), p.out().replace("--max-model-len 32768",
                    "--max-model-len 32768 --api-key " + RUNNING), p.err(), p.rc(), p.seconds(), p.truncated()));
        }
        ProbeOutput log = probes.get("log_tail");
        String dump = "(APIServer pid=2871) INFO 12-03 10:11:00 [api_server.py:1] args: Namespace(model='Qwen/Qwen3-8B',"
                + " port=8000, max_model_len=32768, api_key='" + RUNNING + "', hf_token='" + HF + "')\n";
        String header = "(APIServer pid=2871) DEBUG 12-03 14:19:21 [auth.py:9] rejected Authorization: Bearer " + BEARER + "\n";
        probes.put("log_tail", new ProbeOutput(log.name(), log.cmd(), dump + log.out() + header, log.err(), log.rc(),
                log.seconds(), log.truncated()));
        ProbeOutput h = probes.get("health");
        probes.put("health", new ProbeOutput(h.name(), h.cmd(), h.out(), "{\"detail\": \"x\", \"token\": \"" + BODY + "\"}",
                h.rc(), h.seconds(), h.truncated()));
        return new Capture(c.source(), probes, c.target(), c.intent(), c.notes());
    }

    @Test
    void secretsFromEveryPlaceAreAbsentFromTextAndJsonButWereThereUnredacted() throws Exception {
        Capture c = withSecrets();
        Map<String, String> intent = Map.of("api_key", RUNNING, "hf_token", HF);
        Triage triage = TestHome.triage();
        Diagnosis raw = triage.unredacted().diagnose(c, intent);
        String rawOut = new JsonRenderer().render(raw) + new TextRenderer().render(raw);
        for (String s : List.of(RUNNING, HF, BEARER, BODY)) {
            assertTrue(rawOut.contains(s), "the test should carry " + s + " to the output when not redacting");
        }
        Diagnosis d = triage.diagnose(c, intent);
        String json = new JsonRenderer().render(d);
        String text = new TextRenderer().render(d);
        for (String out : List.of(json, text)) {
            for (String s : List.of(RUNNING, HF, BEARER, BODY, "sk-running", "hf_AbCd")) {
                assertFalse(out.contains(s), "secret " + s + " in\n" + out);
            }
            assertTrue(PLACEHOLDER.matcher(out).find(), out);
        }
        assertEquals(raw.cause(), d.cause(), "redaction must not change the verdict");
        assertEquals("healthy", d.cause());
        assertEquals(raw.confidence(), d.confidence());
    }

    @Test
    void anIntendedKeyThatDiffersFromTheRunningOneIsStillAConfigMismatchAfterRedaction() throws Exception {
        Capture c = withSecrets();
        Map<String, String> intent = Map.of("api_key", OTHER);
        Diagnosis raw = TestHome.triage().unredacted().diagnose(c, intent);
        Diagnosis d = TestHome.triage().diagnose(c, intent);
        assertEquals("config-mismatch", raw.cause(), "the rules compare api_key as any other argument");
        assertEquals(raw.cause(), d.cause());
        String text = new TextRenderer().render(d);
        assertFalse(text.contains(OTHER) || text.contains(RUNNING), text);
        // the chain names two different placeholders: intended vs running
        Matcher m = Pattern.compile(
                "intended api_key=(‹redacted:[0-9a-f]{8}›), (?:PID \\d+ runs|newest dump has) (‹redacted:[0-9a-f]{8}›)")
                .matcher(text);
        assertTrue(m.find(), text);
        assertFalse(m.group(1).equals(m.group(2)));
    }

    @Test
    void aSavedRedactedCaptureReplaysToTheLiveVerdictWithTheSameIntent() throws Exception {
        Capture c = withSecrets();
        Triage triage = TestHome.triage();
        for (String intended : List.of(RUNNING, OTHER)) {
            Map<String, String> intent = Map.of("api_key", intended);
            Diagnosis live = triage.diagnose(c, intent);
            Capture saved = triage.redactor().redact(c);
            assertFalse(saved.toString().contains(RUNNING));
            Diagnosis replayed = triage.diagnose(saved, intent);
            assertEquals(live.cause(), replayed.cause());
            assertEquals(live.confidence(), replayed.confidence());
            assertEquals(live.nextSteps(), replayed.nextSteps());
            assertEquals(live.ruledOut(), replayed.ruledOut());
            assertEquals(new TextRenderer().renderBrief(live), new TextRenderer().renderBrief(replayed));
        }
    }
}
