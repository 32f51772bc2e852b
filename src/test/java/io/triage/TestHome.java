package io.triage;

import io.triage.collect.HostFilters;
import io.triage.collect.ProbeBundle;
import io.triage.knowledge.KnowledgeBase;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the tests find the product's home (the checkout) and the captures they replay. */
public final class TestHome {
    /** The checkout: Surefire runs the tests with the project directory as working directory. */
    public static final Path HOME = Path.of("").toAbsolutePath();
    /** Every capture the tests need lives in the repository: the knowledge base's scenarios. */
    public static final Path SCENARIOS = HOME.resolve("knowledge-base/scenarios");
    /**
     * Opt-in: a directory of further captures (with {@code expected.txt}) named by {@code TRIAGE_EXTRA_SCENARIOS},
     * e.g. a team's own fixture set; {@code null} when unset. No test needs it (see {@code ScenarioTest}).
     */
    public static final Path EXTRA_SCENARIOS = extraScenarios();

    private static Path extraScenarios() {
        String dir = System.getenv("TRIAGE_EXTRA_SCENARIOS");
        return dir == null || dir.isBlank() ? null : HOME.resolve(dir).normalize();
    }

    private static final class Holder {
        static final Triage TRIAGE = Triage.load(HOME);
    }

    private static final class FilterHolder {
        static final HostFilters FILTERS = HostFilters.of(KnowledgeBase.load(HOME.resolve("knowledge-base")));
    }

    private TestHome() {
    }

    /** One loaded product for the whole test run: loading compiles the rules, which takes a second. */
    public static Triage triage() {
        return Holder.TRIAGE;
    }

    /** The probe script's filters generated from the repository's knowledge base (loaded once, without the rules). */
    public static HostFilters filters() {
        return FilterHolder.FILTERS;
    }

    /** A probe bundle for a target, with the repository's filters: what a look sends. */
    public static ProbeBundle bundle(String server, Integer port, String log) {
        return ProbeBundle.forTarget(server, port, log).with(filters());
    }

    /** Copies the shipped rules and knowledge (scenarios aside) into {@code home}, for a test that edits them. */
    public static Path copyHome(Path home) throws java.io.IOException {
        for (String d : java.util.List.of("rules", "knowledge-base")) {
            Path from = HOME.resolve(d);
            try (java.util.stream.Stream<Path> s = Files.walk(from)) {
                for (Path p : s.filter(p -> !p.startsWith(SCENARIOS)).toList()) {
                    Path to = home.resolve(d).resolve(from.relativize(p).toString());
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(to);
                    } else {
                        Files.copy(p, to);
                    }
                }
            }
        }
        return home;
    }

    /** A scenario of the repository by its path under {@code knowledge-base/scenarios}, e.g. {@code h200/02-external-kill}. */
    public static Path fixture(String name) {
        Path p = SCENARIOS.resolve(name);
        if (!Files.isDirectory(p)) {
            throw new IllegalStateException("scenario missing: " + p);
        }
        return p;
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    /**
     * A diagnosis' JSON with every object's fields and every list's members in one order: two runs compared on what
     * they say, whatever order a renderer or a session put it in.
     */
    public static String canonicalJson(String json) throws java.io.IOException {
        return JSON.writeValueAsString(sorted(JSON.readTree(json)));
    }

    private static com.fasterxml.jackson.databind.JsonNode sorted(com.fasterxml.jackson.databind.JsonNode n) {
        if (n.isObject()) {
            com.fasterxml.jackson.databind.node.ObjectNode o = JSON.createObjectNode();
            n.fields().forEachRemaining(e -> o.set(e.getKey(), sorted(e.getValue())));
            return o;
        }
        if (n.isArray()) {
            java.util.List<com.fasterxml.jackson.databind.JsonNode> items = new java.util.ArrayList<>();
            n.forEach(i -> items.add(sorted(i)));
            items.sort(java.util.Comparator.comparing(com.fasterxml.jackson.databind.JsonNode::toString));
            com.fasterxml.jackson.databind.node.ArrayNode a = JSON.createArrayNode();
            items.forEach(a::add);
            return a;
        }
        return n;
    }
}
