package io.triage.parse;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.triage.capture.ProbeOutput;
import io.triage.facts.SupervisorEvent;
import io.triage.facts.SupervisorRecord;
import io.triage.knowledge.ProcessPatterns;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What container runtimes record: {@code docker inspect} / {@code podman inspect} (a JSON array of containers:
 * {@code State.OOMKilled}, {@code ExitCode}, {@code Error}, {@code FinishedAt}, {@code RestartCount}),
 * {@code crictl inspect} (containerd or CRI-O through the CRI: {@code status.state}, {@code reason},
 * {@code exitCode}, {@code metadata.attempt}) and {@code crictl ps -a}. The JSON is read with nesting and
 * string-length limits; anything that is not the expected shape is an {@code Unparseable}, never an exception.
 */
public final class ContainerParser {
    /** Jackson, bounded: a hostile document cannot nest deeper than this or hold a longer string. */
    private static final ObjectReader JSON = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(64).maxStringLength(1 << 20).maxNumberLength(64).build())
                    .build())
            .build()
            .reader();

    private ContainerParser() {
    }

    /** {@code docker inspect} or {@code podman inspect} ({@code kind} docker or podman). */
    public static void inspect(ProbeOutput p, String kind, ProcessPatterns patterns, Sink sink) {
        JsonNode root = json(p, sink);
        java.util.Map<String, String> format = formatFields(p.outOrEmpty());
        if (root == null) {
            cutInspect(p, kind, sink);
            return;
        }
        List<JsonNode> items = items(root);
        int n = 0;
        for (JsonNode c : items) {
            JsonNode st = c.path("State");
            if (!st.isObject() && c.has("Status") && (c.has("ExitCode") || c.has("OOMKilled"))) {
                st = c; // docker inspect -f '{{json .State}}': the State object alone
            }
            if (!st.isObject()) {
                continue;
            }
            n++;
            String name = text(c, "Name");
            if (name.isEmpty() && items.size() == 1) {
                name = format.getOrDefault("Name", "");
            }
            name = name.startsWith("/") ? name.substring(1) : name;
            String image = text(c.path("Config"), "Image");
            if (image.isEmpty()) {
                image = text(c, "ImageName");
            }
            String cmd = join(c.path("Config").path("Cmd")) + " " + join(c.path("Config").path("Entrypoint"))
                    + " " + join(c.path("Args")) + " " + text(c, "Path");
            String status = text(st, "Status");
            boolean oom = st.path("OOMKilled").asBoolean(false);
            int exit = st.path("ExitCode").isNumber() ? st.path("ExitCode").asInt() : -1;
            boolean running = st.path("Running").asBoolean(false);
            String error = text(st, "Error");
            int restarts = c.path("RestartCount").isNumber() ? c.path("RestartCount").asInt()
                    : items.size() == 1 ? Text.parseInt(format.getOrDefault("RestartCount", ""), -1) : -1;
            String started = text(st, "StartedAt");
            String finished = running ? "" : zeroTime(text(st, "FinishedAt"));
            boolean server = items.size() == 1 || patterns.serverContainer(image, cmd) || patterns.serverContainer(name, "");
            String signal = !running && exit > 128 && exit < 160 ? SupervisorText.signalName(String.valueOf(exit - 128)) : "";
            String reason = oom ? "OOMKilled" : error;
            String excerpt = name + ": " + status + (running ? "" : " ExitCode=" + exit) + " OOMKilled=" + oom
                    + (error.isEmpty() ? "" : " Error=" + error) + (restarts >= 0 ? " RestartCount=" + restarts : "")
                    + (finished.isEmpty() ? "" : " FinishedAt=" + finished);
            sink.add(new SupervisorRecord(kind, SupervisorText.clean(name), SupervisorText.clean(status),
                    SupervisorText.clean(reason), exit, signal, oom, restarts, SupervisorText.clean(started),
                    SupervisorText.clean(finished), "", server, p.name(), 0, Text.excerpt(excerpt)));
            if (restarts >= 2 && server) {
                // the restart policy brought it back this many times: each run ended, and the cause is what ended them
                sink.add(new SupervisorEvent(kind, SupervisorText.Event.RESTART.id(), SupervisorText.clean(name),
                        "RestartCount " + restarts, restarts, p.name(), 0, Text.excerpt(excerpt)));
            }
            if (!error.isEmpty()) {
                SupervisorEvent e = SupervisorText.event(error, kind, p.name(), 0);
                if (e != null) {
                    sink.add(new SupervisorEvent(e.kind(), e.event(), SupervisorText.clean(name), e.detail(), e.count(),
                            e.probe(), e.line(), e.excerpt()));
                }
            }
        }
        if (n == 0) {
            sink.unparseable(p.name(), "no container with a State in this inspect output", 0, "");
        }
    }

    /**
     * The live look's {@code container_inspect}: a first line {@code # docker}, {@code # podman} or
     * {@code # crictl} names the runtime that owns the server's process, then that runtime's inspect output.
     */
    public static void inspectAny(ProbeOutput p, ProcessPatterns patterns, Sink sink) {
        String out = p.outOrEmpty();
        String first = out.strip().isEmpty() ? "" : Text.lines(out.strip()).get(0).strip();
        String runtime = first.startsWith("# ") ? first.substring(2).strip() : "";
        if (runtime.equals("crictl") || runtime.isEmpty() && out.contains("\"status\"") && !out.contains("\"State\"")) {
            crictlInspect(p, sink);
        } else if (!out.isBlank()) {
            inspect(p, runtime.equals("podman") ? "podman" : "docker", patterns, sink);
        }
    }

    /**
     * An inspect output cut short (a terminal's scrollback, a chat's limit) is no JSON document; its
     * {@code "Key": value} lines still say how the container ended. One container per {@code "Id"} line.
     */
    private static void cutInspect(ProbeOutput p, String kind, Sink sink) {
        List<String> lines = sink.lines(p, 1);
        java.util.Map<String, String> v = new java.util.HashMap<>();
        int first = 0;
        for (int i = 0; i <= lines.size(); i++) {
            String l = i < lines.size() ? lines.get(i).strip() : "\"Id\": \"\"";
            if (!l.startsWith("\"")) {
                continue;
            }
            int colon = l.indexOf("\":");
            if (colon < 0) {
                continue;
            }
            String key = l.substring(1, colon);
            String val = l.substring(colon + 2).strip();
            if (val.endsWith(",")) {
                val = val.substring(0, val.length() - 1);
            }
            if (val.startsWith("\"") && val.endsWith("\"") && val.length() >= 2) {
                val = val.substring(1, val.length() - 1);
            }
            if (key.equals("Id")) {
                if (v.containsKey("OOMKilled") || v.containsKey("ExitCode")) {
                    boolean oom = "true".equals(v.get("OOMKilled"));
                    int exit = Text.parseInt(v.getOrDefault("ExitCode", ""), -1);
                    boolean running = "true".equals(v.get("Running"));
                    String name = v.getOrDefault("Name", "");
                    name = name.startsWith("/") ? name.substring(1) : name;
                    String error = v.getOrDefault("Error", "");
                    String finished = running ? "" : zeroTime(v.getOrDefault("FinishedAt", ""));
                    String excerpt = name + ": " + v.getOrDefault("Status", "") + (running ? "" : " ExitCode=" + exit)
                            + " OOMKilled=" + oom + (error.isEmpty() ? "" : " Error=" + error)
                            + (finished.isEmpty() ? "" : " FinishedAt=" + finished) + " (cut inspect output)";
                    sink.add(new SupervisorRecord(kind, SupervisorText.clean(name), SupervisorText.clean(v.getOrDefault("Status", "")),
                            SupervisorText.clean(oom ? "OOMKilled" : error), exit,
                            !running && exit > 128 && exit < 160 ? SupervisorText.signalName(String.valueOf(exit - 128)) : "",
                            oom, Text.parseInt(v.getOrDefault("RestartCount", ""), -1),
                            SupervisorText.clean(v.getOrDefault("StartedAt", "")), SupervisorText.clean(finished), "", true,
                            p.name(), first, Text.excerpt(excerpt)));
                    int restarts = Text.parseInt(v.getOrDefault("RestartCount", ""), -1);
                    if (restarts >= 2) {
                        sink.add(new SupervisorEvent(kind, SupervisorText.Event.RESTART.id(), SupervisorText.clean(name),
                                "RestartCount " + restarts, restarts, p.name(), first, Text.excerpt(excerpt)));
                    }
                }
                v.clear();
                first = i + 1;
            } else if (v.size() < 256) {
                v.putIfAbsent(key, val);
            }
        }
    }

    /**
     * The {@code Key=value} words an inspect {@code --format} template printed before (or instead of) its JSON
     * ({@code {{.Name}} RestartCount={{.RestartCount}} {{json .State}}}), and a leading {@code /name}: what the
     * document itself then lacks. Bounded: the first 4 KiB, the first 64 words.
     */
    static java.util.Map<String, String> formatFields(String out) {
        java.util.Map<String, String> v = new java.util.HashMap<>();
        String s = out.startsWith("$ ") && out.indexOf('\n') > 0 ? out.substring(out.indexOf('\n') + 1) : out;
        int a = s.indexOf('['), b = s.indexOf('{');
        int end = a < 0 ? b : b < 0 ? a : Math.min(a, b);
        s = s.substring(0, Math.min(end < 0 ? s.length() : end, 4096));
        String[] words = s.strip().split("\\s+", 65);
        for (int i = 0; i < Math.min(words.length, 64); i++) {
            String w = words[i];
            int eq = w.indexOf('=');
            if (eq > 0 && eq < w.length() - 1) {
                v.putIfAbsent(w.substring(0, eq), w.substring(eq + 1));
            } else if (i == 0 && w.startsWith("/") && w.length() > 1 && w.indexOf('/', 1) < 0) {
                v.put("Name", w);
            }
        }
        return v;
    }

    /** The documents of an inspect output: the elements of an array ({@code docker inspect A B}), or the one object. */
    private static List<JsonNode> items(JsonNode root) {
        List<JsonNode> items = new ArrayList<>();
        if (root.isArray()) {
            root.forEach(items::add);
        } else {
            items.add(root);
        }
        return items;
    }

    /** {@code crictl inspect ID}: the CRI's view of one container (containerd, CRI-O). */
    public static void crictlInspect(ProbeOutput p, Sink sink) {
        JsonNode root = json(p, sink);
        if (root == null) {
            return;
        }
        List<JsonNode> items = items(root);
        int n = 0;
        for (JsonNode c : items) {
            JsonNode st = c.path("status");
            if (!st.isObject()) {
                continue;
            }
            n++;
            String name = text(st.path("metadata"), "name");
            String pod = text(st.path("labels"), "io.kubernetes.pod.name");
            String state = text(st, "state");
            String reason = text(st, "reason");
            int exit = st.path("exitCode").isNumber() ? st.path("exitCode").asInt() : -1;
            int attempt = st.path("metadata").path("attempt").isNumber() ? st.path("metadata").path("attempt").asInt() : -1;
            boolean exited = state.equals("CONTAINER_EXITED");
            String signal = exited && exit > 128 && exit < 160 ? SupervisorText.signalName(String.valueOf(exit - 128)) : "";
            String full = (pod.isEmpty() ? "" : pod + "/") + name;
            String excerpt = full + ": " + state + (exited ? " exitCode=" + exit : "") + (reason.isEmpty() ? "" : " reason=" + reason)
                    + (attempt >= 0 ? " attempt=" + attempt : "");
            sink.add(new SupervisorRecord("containerd", SupervisorText.clean(full), SupervisorText.clean(state),
                    SupervisorText.clean(reason), exited ? exit : -1, signal, reason.equals("OOMKilled"), attempt,
                    SupervisorText.clean(zeroTime(text(st, "startedAt"))),
                    SupervisorText.clean(exited ? zeroTime(text(st, "finishedAt")) : ""), "", true, p.name(), 0,
                    Text.excerpt(excerpt)));
        }
        if (n == 0) {
            sink.unparseable(p.name(), "no container status in this crictl inspect output", 0, "");
        }
    }

    /**
     * {@code crictl ps -a}: {@code CONTAINER IMAGE CREATED STATE NAME ATTEMPT POD ID POD [NAMESPACE]}; CREATED
     * holds spaces ({@code 2 minutes ago}), so a row is read around its STATE word.
     */
    public static void crictlPs(ProbeOutput p, Sink sink) {
        crictlPs(p, sink, "");
    }

    /** A container that names a server (its name or its pod's), when nothing says which pod is the target's. */
    private static final com.google.re2j.Pattern SERVER_NAME = com.google.re2j.Pattern.compile(
            "(?i)(?:vllm|sglang|tgi|text-generation|triton|ollama|llama|lmdeploy|trtllm|tensorrt|tei\\b|inference)");
    /** The pod a kubelet log path names: /var/log/pods/NS_POD_UID/CONTAINER/N.log, /var/log/containers/POD_NS_CONTAINER-ID.log. */
    private static final com.google.re2j.Pattern POD_LOG = com.google.re2j.Pattern.compile(
            "/var/log/(?:pods/[a-z0-9-]{1,63}_([a-z0-9.-]{1,253})_[0-9a-f-]{8,64}/|containers/([a-z0-9.-]{1,253})_[a-z0-9-]{1,63}_)");

    /** The pod the target's log path names (a kubelet log file), or empty. */
    static String podOfLog(String log) {
        com.google.re2j.Matcher m = POD_LOG.matcher(log == null ? "" : log);
        if (!m.find()) {
            return "";
        }
        return m.group(1) != null ? m.group(1) : m.group(2);
    }

    /**
     * As above; {@code pod}, when known (the target's log is a kubelet log file), is the server's: the other pods'
     * containers on the node (a notebook, another replica) are not it. When it is not known, a listing of several
     * containers counts as the server's those whose name or pod names a server.
     */
    static void crictlPs(ProbeOutput p, Sink sink, String pod) {
        List<String> lines = sink.lines(p, 2);
        long rows = lines.stream().filter(l -> !l.isBlank() && !l.strip().startsWith("CONTAINER")).count();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String s = line.strip();
            if (s.isEmpty() || s.startsWith("CONTAINER")) {
                continue;
            }
            String[] t = s.split("\\s+", 32);
            int at = -1;
            for (int k = 2; k < t.length; k++) {
                if (List.of("Running", "Exited", "Created", "Unknown").contains(t[k])) {
                    at = k;
                    break;
                }
            }
            if (at < 0 || at + 2 >= t.length) {
                sink.unparseable(p.name(), "not a 'crictl ps -a' row", i + 1, Text.excerpt(line));
                continue;
            }
            String name = t[at + 1];
            int attempt = Text.parseInt(t[at + 2], -1);
            String podName = at + 4 < t.length ? t[at + 4] : "";
            String full = (podName.isEmpty() ? "" : podName + "/") + name;
            boolean server = !pod.isEmpty() ? podName.equals(pod) : rows <= 1 || SERVER_NAME.matcher(full).find();
            sink.add(new SupervisorRecord("containerd", SupervisorText.clean(full), t[at], "", -1, "", false, attempt,
                    "", "", "", server, p.name(), i + 1, Text.excerpt(line)));
            if (attempt >= 2 && server) {
                sink.add(new SupervisorEvent("containerd", SupervisorText.Event.RESTART.id(), SupervisorText.clean(full),
                        "attempt " + attempt, attempt, p.name(), i + 1, Text.excerpt(line)));
            }
        }
    }

    /** The JSON document in the output (text before its first bracket, a prompt's echo, is skipped), or null. */
    private static JsonNode json(ProbeOutput p, Sink sink) {
        String out = p.outOrEmpty();
        if (out.startsWith("$ ")) {
            // a paste's prompt line first: its own braces ({{json .State}}) are not the document
            int nl = out.indexOf('\n');
            out = nl < 0 ? "" : out.substring(nl + 1);
        }
        int a = out.indexOf('[');
        int b = out.indexOf('{');
        int start = a < 0 ? b : b < 0 ? a : Math.min(a, b);
        if (start < 0) {
            if (!out.isBlank()) {
                sink.unparseable(p.name(), "no JSON document in this output", 1, Text.excerpt(Text.lines(out).get(0)));
            }
            return null;
        }
        if (!sink.budget().charge(out.length() - start)) {
            sink.unparseable(p.name(), "not read: parsing budget spent", 0, "");
            return null;
        }
        try {
            JsonNode n = JSON.readTree(out.substring(start));
            return n == null || n.isMissingNode() ? null : n;
        } catch (java.io.IOException | RuntimeException e) {
            String m = String.valueOf(e.getMessage());
            sink.unparseable(p.name(), "not a JSON document: " + Text.excerpt(SupervisorText.upTo(m, '\n')), 0, "");
            return null;
        }
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.path(field);
        return v.isValueNode() && !v.isNull() ? v.asText("") : "";
    }

    private static String join(JsonNode a) {
        if (a.isTextual()) {
            return a.asText();
        }
        StringBuilder b = new StringBuilder();
        if (a.isArray()) {
            for (JsonNode v : a) {
                if (b.length() > 2000) {
                    break;
                }
                b.append(v.asText("")).append(' ');
            }
        }
        return b.toString().strip();
    }

    /** Docker writes {@code 0001-01-01T00:00:00Z} for "never". */
    private static String zeroTime(String t) {
        return t.startsWith("0001-01-01") || t.equals("0") ? "" : t.toLowerCase(Locale.ROOT).equals("null") ? "" : t;
    }
}
