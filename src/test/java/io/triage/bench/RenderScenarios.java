package io.triage.bench;

import io.triage.ScenarioSuite;
import io.triage.Triage;
import io.triage.chat.MarkdownRenderer;
import io.triage.chat.SlackRenderer;
import io.triage.explain.Diagnosis;
import io.triage.explain.JsonRenderer;
import io.triage.explain.TextRenderer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Renders every scenario of a home (text, JSON, markdown, Slack) into one directory, a file per scenario and
 * view, so two builds' wording can be compared with {@code diff -r}: how a change that moves sentences
 * between files proves the user-visible output unchanged. The JSON's home and rule-base hash are blanked
 * (they name the build, not the verdict).
 *
 * <p>{@code java -cp target/triage.jar:target/test-classes io.triage.bench.RenderScenarios HOME OUT_DIR [CACHE_DIR]}
 *
 * <p>With {@code CACHE_DIR}, the product is loaded as a command loads it, through a rule-base cache there (loaded twice:
 * the second load takes the rules and the knowledge base from the cache), so that the cached forms are compared too.
 */
public final class RenderScenarios {
    private RenderScenarios() {
    }

    public static void main(String[] args) throws Exception {
        Path home = Path.of(args[0]).toAbsolutePath();
        Path out = Path.of(args[1]);
        Files.createDirectories(out);
        Triage t = Triage.load(home);
        if (args.length > 2) {
            io.triage.engine.RuleBaseCache cache = new io.triage.engine.RuleBaseCache(Path.of(args[2]), "render-scenarios");
            Triage.load(home, io.triage.safety.RedactionKey.perProcess(), cache);
            t = Triage.load(home, io.triage.safety.RedactionKey.perProcess(), cache);
            System.out.println(t.rules().origin().detail() + "; " + t.knowledgeOrigin());
        }
        JsonRenderer json = new JsonRenderer();
        int n = 0;
        for (Path dir : ScenarioSuite.find(List.of(home.resolve("knowledge-base/scenarios")))) {
            String name = home.resolve("knowledge-base/scenarios").relativize(dir).toString().replace('/', '~');
            Diagnosis d;
            try {
                d = t.replay(dir, Map.of());
            } catch (Exception e) {
                Files.writeString(out.resolve(name + ".error"), String.valueOf(e.getMessage()));
                continue;
            }
            Files.writeString(out.resolve(name + ".txt"), new TextRenderer().render(d));
            Files.writeString(out.resolve(name + ".json"), json.render(d)
                    .replace(home.toString(), "HOME").replaceAll("sha256:[0-9a-f]{16}", "sha256:X"));
            Files.writeString(out.resolve(name + ".md"), new MarkdownRenderer().render(d, "https://triage.example/d/1"));
            Files.writeString(out.resolve(name + ".slack.json"),
                    json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(
                            new SlackRenderer().render(d, "https://triage.example/d/1")));
            n++;
        }
        System.out.println(n + " scenarios rendered into " + out);
    }
}
