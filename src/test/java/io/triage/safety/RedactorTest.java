package io.triage.safety;

import io.triage.TestHome;
import io.triage.capture.Capture;
import io.triage.capture.ProbeOutput;
import io.triage.knowledge.KnowledgeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RedactorTest {
    static final Pattern PLACEHOLDER = Pattern.compile("‹redacted:[0-9a-f]{8}›");
    static final SecretShapes SHAPES = SecretShapes.load(TestHome.HOME.resolve("knowledge-base"));

    final Redactor redactor = new Redactor(SHAPES, RedactionKey.of(new byte[32]));

    static final String OPENAI = "sk-live0123456789abcdefABCDEF";
    static final String HF = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345";

    private void redacts(String text, String... secrets) {
        String out = redactor.redact(text);
        for (String s : secrets) {
            assertFalse(out.contains(s), "secret '" + s + "' left in: " + out);
        }
        assertTrue(PLACEHOLDER.matcher(out).find(), "no placeholder in: " + out);
    }

    @Test
    void everyShapeOfSecretIsRedacted() {
        redacts("python3 -m sglang.launch_server --model-path m --api-key " + OPENAI + " --port 30000", OPENAI);
        redacts("vllm serve m --api-key=abc123notaprefix --port 8000", "abc123notaprefix");
        redacts("text-generation-launcher --hf-token plainsecretvalue", "plainsecretvalue");
        redacts("HF_TOKEN=" + HF + " python serve.py", HF);
        redacts("env HUGGING_FACE_HUB_TOKEN=tok3n-without-prefix vllm serve", "tok3n-without-prefix");
        redacts("INFO server_args=ServerArgs(model_path='m', api_key='opaque-key-1', port=30000)", "opaque-key-1");
        redacts("args: Namespace(host=None, api_key='sk-proj-AAAAbbbbCCCCdddd1234', port=8000)", "sk-proj-AAAAbbbbCCCCdddd1234");
        redacts("non-default args: {'api_key': 'dictsecret', 'port': 8000}", "dictsecret");
        redacts("{\"detail\": \"ok\", \"token\": \"jsonsecret\"}", "jsonsecret");
        redacts("Args { hf_token: Some(\"rustsecret\"), port: 80 }", "rustsecret");
        redacts("curl -H 'Authorization: Bearer opaque.jwt.value' http://127.0.0.1:8000/v1/models", "opaque.jwt.value");
        redacts("DEBUG request headers: authorization: Basic dXNlcjpwYXNz", "dXNlcjpwYXNz");
        redacts("url?token=querysecret&x=1", "querysecret");
        redacts("export GITHUB=ghp_0123456789abcdefghijABCDEFGHIJ012345", "ghp_0123456789abcdefghijABCDEFGHIJ012345");
        redacts("pat github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "github_pat_11ABCDEFG0123456789_abcdefghijklmnop");
        redacts("slack xoxb-123456789012-abcdefABCDEF and xoxp-1234-5678-abcd", "xoxb-123456789012-abcdefABCDEF",
                "xoxp-1234-5678-abcd");
        redacts("aws AKIAIOSFODNN7EXAMPLE done", "AKIAIOSFODNN7EXAMPLE");
    }

    @Test
    void lookalikesThatAreNotSecretsStay() {
        for (String s : List.of(
                "server_args=ServerArgs(api_key=None, tokenizer_path='m', max_total_tokens=4096)",
                "Decode batch. #running-req: 1, #token: 1234, token usage: 0.01, gen throughput (token/s): 40.1",
                "time_per_token=\"5.25ms\" max_tokens=16 prompt_tokens: 12",
                "task-0123456789abcdefghij done; disk-0123456789abcdefghijkl",
                "AKIAIOSFODNN7EXAMPLEX is too long for an access key id",
                "echo ${HF_TOKEN:+token set}")) {
            assertEquals(s, redactor.redact(s));
        }
    }

    @Test
    void equalSecretsGiveEqualPlaceholdersAndDifferentOnesDiffer() {
        String a = redactor.redact("--api-key " + OPENAI);
        String b = redactor.redact("Namespace(api_key='" + OPENAI + "')");
        String c = redactor.redact("--api-key sk-other0123456789abcdefABCDEF");
        String pa = placeholderIn(a);
        assertEquals(pa, placeholderIn(b));
        assertNotEquals(pa, placeholderIn(c));
        assertEquals(pa, redactor.redactIntent(Map.of("api_key", OPENAI)).get("api_key"));
        assertEquals(pa, redactor.redactIntent(Map.of("api-key", "'" + OPENAI + "'")).get("api-key"));
        // another key, another placeholder: the digest is keyed, not a plain hash anyone can recompute
        byte[] other = new byte[32];
        other[0] = 1;
        assertNotEquals(pa, placeholderIn(new Redactor(SHAPES, RedactionKey.of(other)).redact(a.replace(pa, OPENAI))));
    }

    @Test
    void redactingTwiceChangesNothing() {
        String once = redactor.redact("python3 x --api-key " + OPENAI + " HF_TOKEN=" + HF + " api_key='q'");
        assertEquals(once, redactor.redact(once));
        Map<String, String> intent = redactor.redactIntent(Map.of("api_key", OPENAI));
        assertEquals(intent, redactor.redactIntent(intent));
    }

    @Test
    void aCaptureIsRedactedInEveryField() {
        Capture c = new Capture("/captures/" + HF, Map.of(
                "pgrep", new ProbeOutput("pgrep", "pgrep -fa vllm", "2871 vllm serve m --api-key " + OPENAI, "HF_TOKEN=" + HF, 0, 0.1, false)),
                Map.of("log", "/srv/" + OPENAI + ".log"), Map.of("api_key", "plain-intended"), List.of("note " + OPENAI));
        Capture r = redactor.redact(c);
        String all = r.toString();
        for (String s : List.of(OPENAI, HF, "plain-intended")) {
            assertFalse(all.contains(s), s + " left in " + all);
        }
        assertSame(c, Redactor.none().redact(c));
    }

    @Test
    void theInstallationKeyIsCreatedOnceWithOwnerOnlyPermissionsAndReused(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("cfg/triage/redaction.key");
        Redactor first = new Redactor(SHAPES, RedactionKey.stored(file));
        assertFalse(Files.exists(file), "the key is only made when a secret is found");
        String p1 = first.placeholder(OPENAI);
        assertTrue(Files.isRegularFile(file));
        assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(file));
        assertEquals(p1, new Redactor(SHAPES, RedactionKey.stored(file)).placeholder(OPENAI),
                "a later process on this installation gives the same placeholder");
        assertNotEquals(p1, new Redactor(SHAPES, RedactionKey.perProcess()).placeholder(OPENAI));
    }

    @Test
    void aBadShapeFileIsRefusedWithItsReason(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("secrets.yaml"), """
                names: [api_key]
                headers: {names: [Authorization], schemes: [Bearer]}
                tokens:
                  - {id: bad, prefix: 'sk-', charset: '.*', min: 4}
                """);
        KnowledgeException e = assertThrows(KnowledgeException.class, () -> SecretShapes.load(dir));
        assertTrue(e.getMessage().contains("charset"), e.getMessage());
    }

    private static String placeholderIn(String s) {
        Matcher m = PLACEHOLDER.matcher(s);
        assertTrue(m.find(), "no placeholder in " + s);
        return m.group();
    }

    /**
     * The word gate lets a name through only with what a value needs after it, and a token prefix only with enough
     * of its characters: every form each pattern takes still reaches it (blanks and quotes included), and prose
     * does not.
     */
    @Test
    void theGateTakesEveryFormOfANameAndNoneOfProse() {
        redacts("python3 serve --hf-token\tplainsecretvalue", "plainsecretvalue");
        redacts("{\"token\" : \"spacedjson\"}", "spacedjson");
        redacts("{'api_key'='quotedeq'}", "quotedeq");
        redacts("Args { API_KEY:some(\"lowersome\") }", "lowersome");
        redacts("X-Api-Key =headerspaced", "headerspaced");
        redacts("proxy-authorization:\tBearer tabbed", "tabbed");
        redacts("--token=x1 then token: 'x2'", "x1", "x2");
        redacts("X_Authorization: Bearer gluedheader", "gluedheader"); // a word that is no name ends in a header's
        redacts("hf_" + "a".repeat(20) + " is the shortest Hugging Face token", "hf_" + "a".repeat(20));
        assertEquals("hf_" + "a".repeat(19) + " is one short", redactor.redact("hf_" + "a".repeat(19) + " is one short"));
        for (String prose : List.of("generated token budget", "the token: 1234", "#token: 1234, token usage: 0.01",
                "Authorization failed", "secret ingredient", "password reset", "sk-short here", "xoxb-123 x")) {
            int found = 0;
            for (int i = 0; i < prose.length(); ) {
                int ws = i;
                while (i < prose.length() && Redactor.wordChar(prose.charAt(i))) {
                    i++;
                }
                found |= i > ws ? SHAPES.candidate(prose, ws, i) : 0;
                i = Math.max(i, ws + 1);
            }
            assertEquals(0, found, "no secret can start in: " + prose);
        }
        assertEquals(SecretShapes.NAME, SHAPES.candidate("token='x'", 0, 5));
        assertEquals(SecretShapes.TOKEN, SHAPES.candidate(OPENAI, 0, OPENAI.length()));
    }

    /**
     * The gate turns away no word a pattern would take: on every probe output of every scenario, and on a hundred
     * thousand lines built of names, headers, prefixes, quotes and separators, the redactor gives what it gives
     * when every word is tried.
     */
    @Test
    void theGateMissesNothingEveryWordTriedWouldFind() throws Exception {
        Redactor everyWord = new Redactor(SHAPES.ungated(), RedactionKey.of(new byte[32]));
        List<Path> files;
        try (java.util.stream.Stream<Path> s = Files.walk(TestHome.SCENARIOS)) {
            files = s.filter(p -> p.toString().endsWith(".out") || p.toString().endsWith(".txt")).toList();
        }
        assertTrue(files.size() > 500, "scenario files: " + files.size());
        for (Path f : files) {
            String text = Files.readString(f, java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(everyWord.redact(text), redactor.redact(text), f.toString());
        }
        String[] parts = {"token", "api-key", "API_KEY", "hf_token", "Authorization", "x-api-key", "secret", "password",
                "--", "-", "_", ".", "=", ":", " ", "\t", "'", "\"", "Some(", "some(", "Bearer ", "sk-", "sk-proj-", "hf_",
                "ghp_", "xoxb-", "AKIA", "abcdefghij", "ABCDEFGHIJ0123456789", "0123456789", "$", "(", ")", ",", "None"};
        java.util.Random r = new java.util.Random(7);
        int changed = 0;
        for (int n = 0; n < 100_000; n++) {
            StringBuilder b = new StringBuilder();
            for (int k = r.nextInt(12); k >= 0; k--) {
                b.append(parts[r.nextInt(parts.length)]);
            }
            String text = b.toString();
            String out = redactor.redact(text);
            assertEquals(everyWord.redact(text), out, text);
            changed += out.equals(text) ? 0 : 1;
        }
        assertTrue(changed > 5_000, "lines with a secret redacted: " + changed);
    }
}
