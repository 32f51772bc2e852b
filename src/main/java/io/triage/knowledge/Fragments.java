package io.triage.knowledge;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The knowledge base as the union of files. The top-level files ({@code causes.yaml}, {@code texts.yaml},
 * {@code remediation.yaml}, {@code differentials.yaml}) each hold some sections; a <em>fragment</em> is a file that
 * may hold any of those sections, and {@code markers:} by server kind, for one topic
 * ({@code knowledge-base/topics/NAME.yaml}, or any YAML file of an overlay's {@code knowledge-base/}). Every section is
 * a map by id; the maps of all files are merged, and an id given twice is an error naming both files and lines.
 *
 * <p>The sections are the map components of the top-level files' schemas, read from the records themselves: a
 * section added to one of those files is a fragment section with no change here.
 */
final class Fragments {
    /**
     * Where an entry was given: its file and the line of its id (0 when not found, or not looked up: lines are found
     * only for a message, so that a load reads each file once).
     */
    record Site(Path file, int line) {
        @Override
        public String toString() {
            return file + (line > 0 ? ":" + line : "");
        }
    }

    /** A fragment's own key for what it is about; read as documentation. */
    static final String ABOUT = "about";
    /** A fragment's markers: server kind ({@code common} for all) to a list of markers. */
    static final String MARKERS = "markers";

    /** The top-level files whose sections a fragment may hold, in the order they are merged. */
    static final List<Class<? extends Record>> SECTIONED = List.of(KnowledgeBase.CauseFile.class,
            KnowledgeBase.TextFile.class, KnowledgeBase.StepFile.class, KnowledgeBase.DifferentialFile.class);

    private final ObjectMapper yaml;
    /** Per schema, the parts read so far (the top-level file first). */
    private final Map<Class<?>, List<Part>> parts = new LinkedHashMap<>();
    /** Per section, per id, where it was given. */
    private final Map<String, Map<String, Site>> sites = new HashMap<>();
    /** The markers of fragments, as marker files of their server kind. */
    private final List<Map.Entry<Path, KnowledgeBase.MarkerFile>> markerFiles = new ArrayList<>();
    private final Map<Path, Map<String, Map<String, Integer>>> lines = new HashMap<>();

    private record Part(Object value, Path file) { }

    Fragments(ObjectMapper yaml) {
        this.yaml = yaml;
        for (Class<?> c : SECTIONED) {
            parts.put(c, new ArrayList<>());
        }
    }

    /** The section name of each map component of the top-level schemas, to its schema. */
    static Map<String, Class<? extends Record>> sections() {
        Map<String, Class<? extends Record>> m = new LinkedHashMap<>();
        for (Class<? extends Record> c : SECTIONED) {
            for (RecordComponent rc : c.getRecordComponents()) {
                m.put(rc.getName(), c);
            }
        }
        return m;
    }

    /** Adds a top-level file already read as its schema. */
    <T extends Record> void addFile(Path file, T value) {
        parts.get(value.getClass()).add(new Part(value, file));
    }

    /** Reads a fragment: its sections are checked against the schemas, its markers kept for the marker loader. */
    void addFragment(Path file) {
        JsonNode tree;
        try {
            tree = yaml.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")";
            throw new KnowledgeException(file + where + ": " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new KnowledgeException(file + ": " + e.getMessage(), e);
        }
        if (tree == null || tree.isMissingNode() || tree.isNull()) {
            return; // an empty fragment adds nothing
        }
        if (!tree.isObject()) {
            throw new KnowledgeException(file + ": a knowledge fragment is a map of sections (" + allowed() + ")");
        }
        Map<String, Class<? extends Record>> sections = sections();
        Map<Class<? extends Record>, ObjectNode> bySchema = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = tree.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String k = f.getKey();
            if (k.equals(ABOUT)) {
                continue;
            }
            if (k.equals(MARKERS)) {
                markers(file, f.getValue());
                continue;
            }
            Class<? extends Record> schema = sections.get(k);
            if (schema == null) {
                throw new KnowledgeException(at(file, "", k) + ": unknown section '" + k + "' (a fragment holds "
                        + allowed() + ")");
            }
            bySchema.computeIfAbsent(schema, x -> yaml.createObjectNode()).set(k, f.getValue());
        }
        for (Map.Entry<Class<? extends Record>, ObjectNode> e : bySchema.entrySet()) {
            try {
                parts.get(e.getKey()).add(new Part(yaml.treeToValue(e.getValue(), e.getKey()), file));
            } catch (JsonProcessingException ex) {
                throw new KnowledgeException(file + where(file, ex) + ": " + ex.getOriginalMessage());
            }
        }
    }

    private void markers(Path file, JsonNode node) {
        if (!node.isObject()) {
            throw new KnowledgeException(at(file, "", MARKERS) + ": a fragment's markers are given by server kind"
                    + " (markers: {common: [...], vllm: [...]})");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> s = it.next();
            try {
                KnowledgeBase.MarkerSpec[] specs = yaml.treeToValue(s.getValue(), KnowledgeBase.MarkerSpec[].class);
                markerFiles.add(Map.entry(file, new KnowledgeBase.MarkerFile(s.getKey(), null, null,
                        specs == null ? List.of() : List.of(specs))));
            } catch (JsonProcessingException ex) {
                throw new KnowledgeException(file + where(file, ex) + ": markers of " + s.getKey() + ": "
                        + ex.getOriginalMessage());
            }
        }
    }

    /** The markers the fragments gave, each as a marker file of its server kind. */
    List<Map.Entry<Path, KnowledgeBase.MarkerFile>> markerFiles() {
        return markerFiles;
    }

    /**
     * The schema {@code type} with every section merged over the files read, in order.
     *
     * @throws KnowledgeException when an id is given twice, naming both files and lines
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    <T extends Record> T merged(Class<T> type) {
        RecordComponent[] rcs = type.getRecordComponents();
        Object[] args = new Object[rcs.length];
        Class<?>[] types = new Class<?>[rcs.length];
        for (int i = 0; i < rcs.length; i++) {
            RecordComponent rc = rcs[i];
            types[i] = rc.getType();
            String section = rc.getName();
            if (!Map.class.isAssignableFrom(rc.getType())) {
                // not a map by id: only the top-level file gives it
                for (Part p : parts.get(type)) {
                    Object v = get(rc, p.value());
                    if (v != null && args[i] == null) {
                        args[i] = v;
                    }
                }
                continue;
            }
            Map<Object, Object> merged = new LinkedHashMap<>();
            boolean any = false;
            for (Part p : parts.get(type)) {
                Map<?, ?> m = (Map<?, ?>) get(rc, p.value());
                if (m == null) {
                    continue;
                }
                any = true;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    String id = String.valueOf(e.getKey());
                    Site here = new Site(p.file(), 0);
                    Site before = sites.computeIfAbsent(section, x -> new HashMap<>()).putIfAbsent(id, here);
                    if (before != null) {
                        throw clash(section, section, id, before, here);
                    }
                    merged.put(e.getKey(), e.getValue());
                }
            }
            args[i] = any ? merged : null;
        }
        try {
            return type.getDeclaredConstructor(types).newInstance(args);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot build " + type.getSimpleName() + ": " + e, e);
        }
    }

    private static Object get(RecordComponent rc, Object value) {
        try {
            return rc.getAccessor().invoke(value);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Where each merged entry was given, by section and id. */
    Map<String, Map<String, Site>> sites() {
        return sites;
    }

    /** An id given twice, both sites with their lines ({@code section} as the files name it, {@code what} for people). */
    static KnowledgeException clash(String what, String section, String id, Site firstSite, Site secondSite) {
        Site first = withLine(firstSite, section, id);
        Site second = withLine(secondSite, section, id);
        return new KnowledgeException(second + ": " + what + " '" + id + "' is defined twice: at " + first
                + " and at " + second + " (an overlay or fragment extends the knowledge base; it cannot redefine an"
                + " entry: give it an id of its own)");
    }

    /** The line of {@code section: id:} (or of a marker's {@code id:}) in {@code file}, or 0. */
    int line(Path file, String section, String id) {
        return lines.computeIfAbsent(file, Fragments::locate).getOrDefault(section, Map.of()).getOrDefault(id, 0);
    }

    /** {@code s} with the line of its entry looked up (the file read again: only for a message). */
    static Site withLine(Site s, String section, String id) {
        return s.line() > 0 ? s : new Site(s.file(), locate(s.file()).getOrDefault(section, Map.of()).getOrDefault(id, 0));
    }

    private String at(Path file, String section, String id) {
        int l = line(file, section, id);
        return file + (l > 0 ? ":" + l : "");
    }

    private static String where(Path file, JsonProcessingException ex) {
        StringBuilder b = new StringBuilder();
        if (ex instanceof JsonMappingException m && !m.getPath().isEmpty()) {
            b.append(" (");
            for (JsonMappingException.Reference r : m.getPath()) {
                b.append(r.getFieldName() != null ? (b.length() > 2 ? "." : "") + r.getFieldName() : "[" + r.getIndex() + "]");
            }
            b.append(')');
        }
        return b.toString();
    }

    private static String allowed() {
        List<String> s = new ArrayList<>(sections().keySet());
        s.add(MARKERS);
        s.add(ABOUT);
        return String.join(", ", s);
    }

    /**
     * The line of each key one level under each top-level key ({@code section → id → line}), of each top-level key
     * (under {@code ""}) and of each marker's {@code id:} value (under {@code markers}), from the YAML parser's own
     * token locations. A file that does not parse has no lines (its reader reports it).
     */
    static Map<String, Map<String, Integer>> locate(Path file) {
        Map<String, Map<String, Integer>> out = new HashMap<>();
        try (JsonParser p = new com.fasterxml.jackson.dataformat.yaml.YAMLFactory().createParser(file.toFile())) {
            int depth = 0;
            String section = null;
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                switch (t) {
                    case START_OBJECT, START_ARRAY -> depth++;
                    case END_OBJECT, END_ARRAY -> depth--;
                    case FIELD_NAME -> {
                        String name = p.currentName();
                        int line = p.currentTokenLocation().getLineNr();
                        if (depth == 1) {
                            section = name;
                            out.computeIfAbsent("", k -> new HashMap<>()).putIfAbsent(name, line);
                        } else if (depth == 2 && section != null) {
                            out.computeIfAbsent(section, k -> new HashMap<>()).putIfAbsent(name, line);
                        }
                        if (MARKERS.equals(section) && name.equals("id") && depth > 1) {
                            if (p.nextToken() == JsonToken.VALUE_STRING) {
                                out.computeIfAbsent(MARKERS, k -> new HashMap<>())
                                        .putIfAbsent(p.getText(), p.currentTokenLocation().getLineNr());
                            } else if (p.currentToken() == JsonToken.START_OBJECT || p.currentToken() == JsonToken.START_ARRAY) {
                                depth++;
                            }
                        }
                    }
                    default -> { }
                }
            }
        } catch (IOException | RuntimeException e) {
            // lines are a courtesy of the messages: the file's reader says what is wrong with it
        }
        return out;
    }

    /** The YAML files under {@code dir} (recursively, sorted), without following links, leaving out {@code skip}. */
    static List<Path> yamlFiles(Path dir, List<Path> skip) {
        if (dir == null || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> skip.stream().noneMatch(p::startsWith))
                    .filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                    .filter(p -> p.getFileName().toString().endsWith(".yaml") || p.getFileName().toString().endsWith(".yml"))
                    .sorted().toList();
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new KnowledgeException("cannot list " + dir + ": " + e.getMessage(), e);
        }
    }
}
