package io.triage.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.triage.TestHome;
import io.triage.explain.Diagnosis;
import io.triage.server.ServeSettings;
import io.triage.server.Tokens;
import io.triage.server.TriageServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The chat page in a real browser (headless Chromium driven by Selenium) against a real {@code triage serve}
 * with its lab, probes paced as recorded: what an on-call engineer does, asserted on content. Screenshots
 * of each step land in {@code target/screenshots/}. Skipped where no Chromium is installed, except under CI
 * (whose script installs it), where a missing browser fails.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PageBrowserTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path DRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SHOTS = TestHome.HOME.resolve("target/screenshots");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path data;
    static TriageServer server;
    static ChromeDriver browser;
    static WebDriverWait wait;

    @BeforeAll
    static void start() throws Exception {
        boolean installed = Files.isExecutable(CHROMIUM) && Files.isExecutable(DRIVER);
        if (!installed && System.getenv("CI") != null) {
            fail("CI must install chromium and chromium-driver (see .ci/run)");
        }
        assumeTrue(installed, "no Chromium here (apt-get install chromium chromium-driver)");
        server = TriageServer.start(new TriageServer.Setup(TestHome.triage(), data.resolve("data"),
                Tokens.of("tester", "page-test-" + UUID.randomUUID()), true, Duration.ofMillis(400), null, List.of(),
                List.of(), Duration.ofSeconds(30), ServeSettings.defaults().withBind("127.0.0.1", 0)));
        ChromeOptions o = new ChromeOptions();
        o.setBinary(CHROMIUM.toFile());
        o.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync",
                "--window-size=1400,1000", "--user-data-dir=" + Files.createTempDirectory("triage-chromium"));
        browser = new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort().build(), o);
        wait = new WebDriverWait(browser, Duration.ofSeconds(60));
        Files.createDirectories(SHOTS);
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (server != null) {
            server.stop();
        }
    }

    // ---- helpers

    private static void say(String text) {
        WebElement input = browser.findElement(By.id("input"));
        input.clear();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            input.sendKeys(lines[i]);
            if (i < lines.length - 1) {
                input.sendKeys(Keys.chord(Keys.SHIFT, Keys.ENTER));
            }
        }
        input.sendKeys(Keys.ENTER);
    }

    /** Pasting a long text key by key is slow: set the box's value as a paste would, then press Enter. */
    private static void paste(String text) {
        WebElement input = browser.findElement(By.id("input"));
        ((JavascriptExecutor) browser).executeScript("arguments[0].value = arguments[1];", input, text);
        input.sendKeys(Keys.ENTER);
    }

    private static List<WebElement> cards() {
        return browser.findElements(By.cssSelector(".card"));
    }

    private static WebElement nextCard(int before) {
        wait.until(d -> cards().size() > before);
        List<WebElement> c = cards();
        return c.get(c.size() - 1);
    }

    private static List<WebElement> bubbles() {
        return browser.findElements(By.cssSelector(".msg.bot > .bubble"));
    }

    private static WebElement nextBubble(int before) {
        wait.until(d -> bubbles().size() > before);
        List<WebElement> b = bubbles();
        return b.get(b.size() - 1);
    }

    private static void shot(String name) throws Exception {
        File f = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(f.toPath(), SHOTS.resolve(name + ".png"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static Diagnosis replay(String scenario) throws Exception {
        return TestHome.triage().replay(TestHome.fixture(scenario), Map.of());
    }

    // ---- what a person does

    @Test
    @Order(1)
    void openingThePrintedLinkSignsInAndListsTheLabHosts() throws Exception {
        browser.get(server.signInUrl());
        wait.until(d -> !d.findElements(By.cssSelector("#hosts button[data-host='gpu-killed']")).isEmpty());
        assertFalse(browser.getCurrentUrl().contains("token="), "the one-time token must leave the address bar");
        assertTrue(browser.findElements(By.cssSelector("#hosts button[data-host]")).size() >= 10);
        shot("01-signed-in");
    }

    @Test
    @Order(2)
    void aLabHostIsDiagnosedWithProbesArrivingOneByOneThenTheVerdict() throws Exception {
        int before = cards().size();
        int bubblesBefore = bubbles().size();
        say("diagnose gpu-killed");
        WebElement bubble = nextBubble(bubblesBefore);
        WebElement card = nextCard(before);
        // probes stream in one by one before the verdict: the page stamps each line and the card when shown
        List<Long> shown = new ArrayList<>();
        bubble.findElements(By.cssSelector(".probes li")).forEach(li -> shown.add(Long.parseLong(li.getAttribute("data-at"))));
        long verdictAt = Long.parseLong(card.getAttribute("data-at"));
        List<WebElement> mine = browser.findElements(By.cssSelector(".msg.me"));
        long enterAt = Long.parseLong(mine.get(mine.size() - 1).getAttribute("data-at"));
        assertTrue(shown.size() >= 8, "probes shown: " + shown.size());
        long first = shown.stream().mapToLong(Long::longValue).min().orElseThrow();
        long last = shown.stream().mapToLong(Long::longValue).max().orElseThrow();
        assertTrue(last - first >= 100, "probes arrived all at once: " + shown);
        assertTrue(last <= verdictAt, "a probe was shown after the verdict: " + shown + " verdict at " + verdictAt);
        System.out.printf("page: Enter → first probe %d ms, → verdict %d ms (%d probes)%n", first - enterAt,
                verdictAt - enterAt, shown.size());
        shot("02-verdict");

        Diagnosis expected = replay("04-external-kill-shell-killed-clean-dmesg");
        assertEquals("external-kill", card.getAttribute("data-cause"));
        assertTrue(card.findElement(By.cssSelector(".verdict")).getText().contains(expected.title()));
        // the graph: the verdict node, evidence and symptom nodes, edges into the verdict
        WebElement graph = card.findElement(By.cssSelector("svg.graph"));
        List<WebElement> verdict = graph.findElements(By.cssSelector("g.node.verdict"));
        assertEquals(1, verdict.size());
        assertTrue(verdict.get(0).getAttribute("data-label").startsWith(expected.title()));
        assertFalse(graph.findElements(By.cssSelector("g.node.evidence")).isEmpty(), "no raw evidence in the graph");
        assertFalse(graph.findElements(By.cssSelector("g.node.symptom")).isEmpty(), "no symptom in the graph");
        assertFalse(graph.findElements(By.cssSelector("g.node.refuted")).isEmpty(), "refuted alternatives not shown");
        String verdictLabel = verdict.get(0).getAttribute("data-label");
        long into = graph.findElements(By.cssSelector("path.edge.support")).stream()
                .filter(e -> verdictLabel.equals(e.getAttribute("data-to"))).count();
        assertTrue(into >= 2, "edges into the verdict: " + into);
        // every premise of the verdict's rule is a node
        List<String> labels = new ArrayList<>();
        graph.findElements(By.cssSelector("g.node")).forEach(n -> labels.add(n.getAttribute("data-label")));
        for (Diagnosis.Node n : expected.hypotheses().get(0).because().get(0).premises()) {
            if (!n.rule().isEmpty()) {
                assertTrue(labels.contains(n.fact()), "the graph lacks " + n.fact() + ": " + labels);
            }
        }
        // the GPU bars carry the capture's values
        Diagnosis.HostView host = expected.host();
        assertNotNull(host);
        List<WebElement> mem = card.findElements(By.cssSelector("rect.bar-mem"));
        assertEquals(host.gpus().size(), mem.size());
        for (Diagnosis.GpuView g : host.gpus()) {
            WebElement m = card.findElement(By.cssSelector("rect.bar-mem[data-gpu='" + g.index() + "']"));
            assertEquals(String.valueOf(g.memoryUsedMiB()), m.getAttribute("data-value"));
            WebElement u = card.findElement(By.cssSelector("rect.bar-util[data-gpu='" + g.index() + "']"));
            assertEquals(String.valueOf(g.utilizationPercent()), u.getAttribute("data-value"));
        }
    }

    @Test
    @Order(3)
    void whyShowsTheChainAndWhyNotTheOomKillerSaysWhatRuledItOut() throws Exception {
        int before = bubbles().size();
        List<WebElement> why = cards().get(cards().size() - 1).findElements(By.cssSelector("button[data-action='why?']"));
        why.get(0).click();
        WebElement chain = nextBubble(before);
        assertTrue(chain.getText().startsWith("Why Killed from outside"), chain.getText());
        assertTrue(chain.findElements(By.cssSelector(".chain li")).size() >= 5);
        assertFalse(chain.findElements(By.cssSelector(".chain .ev")).isEmpty(), "the chain does not end on captured lines");
        // every link is drawn by its kind: a captured line only on evidence, a rule only under what a rule concluded
        List<String> kinds = chain.findElements(By.cssSelector(".chain li")).stream().map(li -> li.getAttribute("data-kind")).toList();
        assertTrue(java.util.Set.of("evidence", "knowledge", "step", "symptom", "rule", "cut").containsAll(kinds), kinds.toString());
        assertTrue(kinds.contains("evidence") && kinds.contains("symptom") && kinds.contains("rule"), kinds.toString());
        for (WebElement ev : chain.findElements(By.cssSelector(".chain .ev"))) {
            assertEquals("evidence", ev.findElement(By.xpath("..")).getAttribute("data-kind"));
        }
        for (WebElement r : chain.findElements(By.cssSelector(".chain .rule"))) {
            assertTrue(java.util.Set.of("symptom", "rule").contains(r.findElement(By.xpath("..")).getAttribute("data-kind")));
        }
        shot("03-why-chain");

        before = bubbles().size();
        say("why not the OOM killer?");
        WebElement whyNot = nextBubble(before);
        assertTrue(whyNot.getText().contains("Why not oom-killer?"), whyNot.getText());
        assertTrue(whyNot.getText().contains("Ruled out: the kernel log has no OOM-killer line"), whyNot.getText());
        // and the rules that would conclude it, with the condition the facts did not meet
        wait.until(d -> !whyNot.findElements(By.cssSelector(".whynot-rule[data-rule='OOM killer killed the server'] li[data-met='unmet']")).isEmpty());
        assertTrue(whyNot.findElement(By.cssSelector(".whynot-rule[data-rule='OOM killer killed the server'] li[data-met='unmet']"))
                .getText().contains("the kernel OOM killer killed a server process"), whyNot.getText());
        shot("03-why-not");
    }

    @Test
    @Order(4)
    void statingWhenItWasLaunchedChangesTheVerdictAndSaysWhy() throws Exception {
        int before = cards().size();
        int bubblesBefore = bubbles().size();
        say("I started it at 16:15");
        WebElement bubble = nextBubble(bubblesBefore);
        WebElement card = nextCard(before);
        assertEquals("launch-never-happened", card.getAttribute("data-cause"));
        String text = bubble.getText();
        assertTrue(text.contains("The verdict moved: external-kill (high) → launch-never-happened"), text);
        assertTrue(text.contains("Rules that now fire:"), text);
        shot("04-intent");
    }

    @Test
    @Order(5)
    void aPastedNvidiaSmiTableAndLogTailAreRecognisedAndDiagnosed() throws Exception {
        Path dir = TestHome.fixture("h200/02-external-kill");
        String text = "$ nvidia-smi\n" + Files.readString(dir.resolve("nvidia_smi_full.out"))
                + "$ tail -n 20 /var/log/llm/server-a.log\n" + Files.readString(dir.resolve("log_tail.out"));
        int before = cards().size();
        paste(text);
        WebElement card = nextCard(before);
        List<String> read = new ArrayList<>();
        card.findElements(By.cssSelector(".recognised li")).forEach(li -> read.add(li.getText()));
        assertTrue(read.stream().anyMatch(r -> r.contains("nvidia-smi")), read.toString());
        assertTrue(read.stream().anyMatch(r -> r.toLowerCase().contains("log")), read.toString());
        // the table holds no process list and there is no kernel log: the page must not claim more than that
        assertFalse(card.getAttribute("data-cause").isEmpty());
        assertTrue(card.getText().contains("Not looked at"), card.getText());
        shot("05-paste");
    }

    @Test
    @Order(6)
    void hostileTextIsShownAsTextAndNothingRuns() throws Exception {
        String evil = "[2026-12-06 16:08:31] <script>window.__pwned=1</script> <img src=x onerror=\"window.__pwned=2\">"
                + " \"'><svg onload=\"window.__pwned=3\"> \u001b[31mred\u001b[0m \u202eevil\n"
                + "Traceback (most recent call last):\n  File \"<b>x.py</b>\", line 1\n"
                + "RuntimeError: CUDA error: an illegal memory access was encountered <iframe src=javascript:alert(1)>\n";
        int before = cards().size();
        paste("$ tail /var/log/vllm.log\n" + evil);
        WebElement card = nextCard(before);
        Object pwned = ((JavascriptExecutor) browser).executeScript("return window.__pwned;");
        assertEquals(null, pwned, "script from the capture ran");
        assertTrue(browser.findElements(By.cssSelector(".log img, .log iframe, .log script, .log svg[onload], .log b")).isEmpty(),
                "markup from the capture became elements");
        WebElement why = card.findElement(By.cssSelector("button[data-action='why?']"));
        int b = bubbles().size();
        why.click();
        String shown = nextBubble(b).getText() + card.getText();
        String all = browser.findElement(By.id("log")).getText();
        // the decisive line is cited in the chain: its markup is on the page as the characters it was
        assertTrue(shown.contains("illegal memory access was encountered <iframe src=javascript:alert(1)>"), shown);
        assertFalse(all.contains("\u001b") || all.contains("\u202e"), "an escape or bidi character reached the page raw");
        shot("06-hostile");
    }

    @Test
    @Order(7)
    void aSweepOfThreeLabHostsFillsItsTable() throws Exception {
        int before = bubbles().size();
        say("sweep gpu-killed gpu-healthy gpu-hung");
        WebElement bubble = nextBubble(before);
        wait.until(d -> bubble.findElements(By.cssSelector("tr[data-host][data-verdict]")).size() == 3);
        Map<String, String> verdicts = new java.util.TreeMap<>();
        bubble.findElements(By.cssSelector("tr[data-host]")).forEach(tr -> verdicts.put(tr.getAttribute("data-host"),
                tr.getAttribute("data-verdict")));
        assertEquals("external-kill", verdicts.get("gpu-killed"), verdicts.toString());
        assertEquals("healthy", verdicts.get("gpu-healthy"), verdicts.toString());
        assertTrue(verdicts.get("gpu-hung").startsWith("hung"), verdicts.toString());
        // a row opens that host's card
        int cardsBefore = cards().size();
        wait.until(d -> {
            WebElement btn = bubble.findElement(By.cssSelector("button[data-host='gpu-healthy']"));
            btn.click();
            return cards().size() > cardsBefore;
        });
        assertEquals("healthy", cards().get(cards().size() - 1).getAttribute("data-cause"));
        shot("07-sweep");
    }

    @Test
    @Order(8)
    void afterAReloadAPastConversationReopensFromItsLink() throws Exception {
        String url = browser.getCurrentUrl();
        browser.navigate().refresh();
        wait.until(d -> !d.findElements(By.cssSelector("#history button[data-id]")).isEmpty());
        List<WebElement> past = browser.findElements(By.cssSelector("#history button[data-id]"));
        assertTrue(past.size() >= 4, "past conversations: " + past.size());
        // the first diagnosis (gpu-killed, since re-evaluated with the launch time) reopens by its link
        String killed = null;
        for (WebElement p : past) {
            if (p.getText().startsWith("gpu-killed") && p.getText().contains("launch-never-happened")) {
                killed = p.getAttribute("data-id");
            }
        }
        assertNotNull(killed, "the gpu-killed conversation is not listed: " + url);
        browser.get(server.url() + "/#/d/" + killed);
        browser.navigate().refresh();
        WebElement card = nextCard(0);
        assertEquals("launch-never-happened", card.getAttribute("data-cause"));
        shot("08-reopened");
    }

    @Test
    @Order(9)
    void everyPageResponseCarriesTheContentSecurityPolicy() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        for (String path : List.of("/", "/app.js", "/app.css")) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(server.url() + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), path);
            String csp = r.headers().firstValue("Content-Security-Policy").orElse("");
            assertTrue(csp.contains("script-src 'self'") && !csp.contains("unsafe"), path + ": " + csp);
            if (path.equals("/")) {
                assertFalse(r.body().matches("(?s).*<script(?![^>]*\\bsrc=)[^>]*>.*"), "an inline script in the page");
            }
        }
        JsonNode none = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/hosts")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
        assertEquals("unauthorized", none.path("error").asText(), "the page's files are public, the API is not");
    }
}
