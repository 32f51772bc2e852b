package io.triage.server;

import io.triage.TestHome;
import io.triage.collect.SshTarget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Who may call, which hosts may be looked at, which URLs may be called: the rules without HTTP. */
class AccessRulesTest {
    @TempDir
    Path dir;

    @Test
    void aPublicAddressWithoutAConfiguredTokenIsRefusedBeforeAnythingStarts() {
        StringBuilder generated = new StringBuilder();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TriageServer.start(
                new TriageServer.Setup(TestHome.triage(), dir.resolve("data"), Tokens.generate(generated), true,
                        Duration.ZERO, null, List.of(), List.of(), Duration.ofSeconds(5),
                        ServeSettings.defaults().withBind("0.0.0.0", 0))));
        assertTrue(e.getMessage().contains("--tokens FILE") && e.getMessage().contains("TRIAGE_API_TOKEN"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("data")), "nothing was started or written");
    }

    @Test
    void tokensAreNamedAndOnlyTheirHashesCompare() throws Exception {
        Path f = Files.writeString(dir.resolve("tokens"), "# bots\nabcdefghijklmnop0001 slack-bot\n\nabcdefghijklmnop0002\n");
        Tokens t = Tokens.read(f);
        assertEquals("slack-bot", t.check("abcdefghijklmnop0001").orElseThrow());
        assertEquals("token-2", t.check("abcdefghijklmnop0002").orElseThrow());
        assertTrue(t.check("abcdefghijklmnop000").isEmpty());
        assertTrue(t.check("").isEmpty());
        assertTrue(t.check(null).isEmpty());
        assertThrows(IllegalArgumentException.class, () -> Tokens.read(Files.writeString(dir.resolve("short"), "tooshort\n")));
        assertThrows(IllegalArgumentException.class, () -> Tokens.read(Files.writeString(dir.resolve("empty"), "# none\n")));
        assertThrows(IllegalArgumentException.class, () -> Tokens.read(Files.writeString(dir.resolve("badname"),
                "abcdefghijklmnop0001 name with spaces\n")));
    }

    @Test
    void onlyKnownOrAllowedHostsAreLookedAt() throws Exception {
        Map<String, HostPolicy.Known> inv = HostPolicy.readInventory(Files.writeString(dir.resolve("inv"),
                "# fleet\ngpu-1 ubuntu@10.0.0.1:2222\n10.0.0.2\n"));
        HostPolicy p = new HostPolicy(inv, List.of("gpu-*.cluster", "nobody@127.0.0.1:*"));
        assertEquals(new SshTarget("ubuntu", "10.0.0.1", 2222), p.resolve("gpu-1").target());
        assertEquals("10.0.0.2", p.resolve("10.0.0.2").target().host());
        assertEquals("gpu-7.cluster", p.resolve("gpu-7.cluster").target().host());
        assertEquals(2201, p.resolve("nobody@127.0.0.1:2201").target().port());
        for (String refused : List.of("10.0.0.3", "gpu-7.cluster.evil.net", "root@127.0.0.1:22", "gpu-1 ", "")) {
            ApiError e = assertThrows(ApiError.class, () -> p.resolve(refused), refused);
            assertTrue(e.status() == 403 || e.status() == 400, refused);
        }
        // a pattern never lets through what is not a host
        ApiError e = assertThrows(ApiError.class, () -> p.resolve("gpu-;rm -rf.cluster"));
        assertEquals(400, e.status());
        assertThrows(IllegalArgumentException.class, () -> HostPolicy.readInventory(Files.writeString(dir.resolve("bad"),
                "gpu-1 -oProxyCommand=x\n")));
    }

    @Test
    void callbacksMustStartWithAnAllowedPrefixAtABoundary() {
        Webhooks w = new Webhooks(List.of("https://hooks.example.com/triage", "http://127.0.0.1:9000/"));
        assertEquals("https://hooks.example.com/triage/bot?x=1", w.check("https://hooks.example.com/triage/bot?x=1"));
        assertEquals("http://127.0.0.1:9000/a", w.check("http://127.0.0.1:9000/a"));
        for (String bad : List.of("https://hooks.example.com/triagex", "https://hooks.example.com.evil/triage",
                "https://hooks.example.com/triage/../admin", "http://127.0.0.1:90001/")) {
            assertThrows(ApiError.class, () -> w.check(bad), bad);
        }
        assertEquals(400, assertThrows(ApiError.class, () -> w.check("https://user:pw@hooks.example.com/triage")).status());
        assertEquals(400, assertThrows(ApiError.class, () -> w.check("gopher://hooks.example.com/triage")).status());
        assertEquals(403, assertThrows(ApiError.class, () -> new Webhooks(List.of()).check("https://a.example/")).status());
    }

    @Test
    void captureFileNamesAreProbeNamesNeverPaths() {
        assertEquals("health.out", Diagnoses.fileName("health"));
        assertEquals("health.err", Diagnoses.fileName("health.err"));
        assertEquals("_probes.txt", Diagnoses.fileName("_probes"));
        assertEquals("target.txt", Diagnoses.fileName("target.txt"));
        for (String bad : List.of("../x", "a/b", ".hidden", "health.sh", "health.out.out", "target.out", "gpus.txt", "x".repeat(80))) {
            assertEquals(422, assertThrows(ApiError.class, () -> Diagnoses.fileName(bad), bad).status());
        }
    }
}
