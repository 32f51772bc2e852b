package io.triage.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.triage.TestHome;
import io.triage.inventory.Inventory;
import io.triage.inventory.Shard;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shape of deploy/kubernetes (no cluster runs here): an Indexed Job whose N completions each take shard
 * {@code $(JOB_COMPLETION_INDEX)/N}, with the index given to the container from the pod's annotation, the SSH
 * key and known_hosts read from a mounted Secret and the inventory from a mounted ConfigMap at the paths the
 * arguments name, and arguments the diagnose command accepts.
 */
class KubernetesJobTest {
    private static final Path DIR = TestHome.HOME.resolve("deploy/kubernetes");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static JsonNode read(String name) throws Exception {
        return YAML.readTree(Files.readString(DIR.resolve(name)));
    }

    @Test
    void theJobIsIndexedAndEachCompletionTakesTheShardOfItsIndex() throws Exception {
        JsonNode job = read("job.yaml");
        assertEquals("batch/v1", job.path("apiVersion").asText());
        assertEquals("Job", job.path("kind").asText());
        JsonNode spec = job.path("spec");
        assertEquals("Indexed", spec.path("completionMode").asText());
        int n = spec.path("completions").asInt(-1);
        assertTrue(n >= 1, "completions: " + n);
        assertTrue(spec.path("parallelism").asInt(0) >= 1 && spec.path("parallelism").asInt() <= n);
        JsonNode pod = spec.path("template").path("spec");
        assertEquals("Never", pod.path("restartPolicy").asText());
        JsonNode c = pod.path("containers").get(0);
        assertNotNull(c, "one container");

        List<String> args = new ArrayList<>();
        c.path("args").forEach(a -> args.add(a.asText()));
        int at = args.indexOf("--shard");
        assertTrue(at >= 0 && at + 1 < args.size(), "--shard given: " + args);
        assertEquals("$(JOB_COMPLETION_INDEX)/" + n, args.get(at + 1), "the shard count is the number of completions");
        JsonNode index = null;
        for (JsonNode e : c.path("env")) {
            if (e.path("name").asText().equals("JOB_COMPLETION_INDEX")) {
                index = e;
            }
        }
        assertNotNull(index, "the index is declared in env, so Kubernetes expands $(JOB_COMPLETION_INDEX) in args");
        assertEquals("metadata.annotations['batch.kubernetes.io/job-completion-index']",
                index.path("valueFrom").path("fieldRef").path("fieldPath").asText());

        // every completion index gives a valid, distinct shard, and the arguments are ones diagnose takes
        Set<Shard> shards = new HashSet<>();
        for (int i = 0; i < n; i++) {
            List<String> concrete = new ArrayList<>(List.of("diagnose", "--format", "json"));
            for (String a : args) {
                concrete.add(a.replace("$(JOB_COMPLETION_INDEX)", String.valueOf(i)));
            }
            CommandLine.ParseResult r = Main.commandLine().parseArgs(concrete.toArray(String[]::new));
            String shard = r.subcommand().matchedOptionValue("--shard", "");
            shards.add(Shard.parse(shard));
        }
        assertEquals(n, shards.size());
    }

    @Test
    void theKeyKnownHostsAndInventoryAreMountedWhereTheArgumentsReadThem() throws Exception {
        JsonNode pod = read("job.yaml").path("spec").path("template").path("spec");
        JsonNode c = pod.path("containers").get(0);
        List<String> args = new ArrayList<>();
        c.path("args").forEach(a -> args.add(a.asText()));
        String identity = args.get(args.indexOf("--identity") + 1);
        String knownHosts = args.get(args.indexOf("--known-hosts") + 1);
        String inventory = args.get(args.indexOf("--inventory") + 1);

        JsonNode secret = source(pod, c, identity, "secret");
        assertEquals("triage-ssh", secret.path("secretName").asText());
        assertEquals(secret, source(pod, c, knownHosts, "secret"), "key and known_hosts come from the same Secret");
        Set<String> paths = new HashSet<>();
        secret.path("items").forEach(i -> paths.add(i.path("path").asText()));
        assertTrue(paths.contains(Path.of(identity).getFileName().toString()) && paths.contains(Path.of(knownHosts).getFileName().toString()),
                "the Secret's items are the files the arguments name: " + paths);
        assertTrue(secret.path("defaultMode").asInt(0777) <= 0440, "the key is not readable by others");

        JsonNode cm = source(pod, c, inventory, "configMap");
        JsonNode map = read("inventory-configmap.yaml");
        assertEquals("ConfigMap", map.path("kind").asText());
        assertEquals(cm.path("name").asText(), map.path("metadata").path("name").asText());
        String file = Path.of(inventory).getFileName().toString();
        assertTrue(map.path("data").has(file), "the ConfigMap holds " + file);
        assertEquals(200, Inventory.yaml(map.path("data").path(file).asText()).hosts().size(), "the example inventory reads");
    }

    /** The volume source of the mount holding {@code path}, checked to be of {@code kind}. */
    private static JsonNode source(JsonNode pod, JsonNode container, String path, String kind) {
        for (JsonNode m : container.path("volumeMounts")) {
            String dir = m.path("mountPath").asText();
            if (path.startsWith(dir + "/")) {
                assertTrue(m.path("readOnly").asBoolean(false), dir + " is mounted read-only");
                for (JsonNode v : pod.path("volumes")) {
                    if (v.path("name").asText().equals(m.path("name").asText())) {
                        assertTrue(v.has(kind), path + " comes from a " + kind + ": " + v);
                        return v.path(kind);
                    }
                }
            }
        }
        throw new AssertionError("no volume is mounted for " + path);
    }

    @Test
    void theImageRunsTheShardScriptWhichPrintsJsonLinesAndTheReadmeSaysItWasNotRunOnACluster() throws Exception {
        String docker = Files.readString(DIR.resolve("Dockerfile"));
        assertTrue(docker.contains("ENTRYPOINT [\"/opt/triage/sweep-shard\"]"));
        for (String line : docker.split("\n")) {
            if (line.startsWith("COPY ") && !line.contains("--from=")) {
                String src = line.split("\\s+")[1];
                assertTrue(Files.exists(TestHome.HOME.resolve(src)), "COPY source exists: " + src);
            }
        }
        assertTrue(docker.contains("USER 10001"));
        String script = Files.readString(DIR.resolve("sweep-shard"));
        assertTrue(script.contains("diagnose --format json \"$@\""));
        assertTrue(Files.isExecutable(DIR.resolve("sweep-shard")));
        String readme = Files.readString(DIR.resolve("README.md"));
        assertTrue(readme.contains("has not been run on a cluster here"));
    }
}
