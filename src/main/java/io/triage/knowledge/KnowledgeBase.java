package io.triage.knowledge;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.triage.facts.GpuProfile;
import io.triage.facts.Thresholds;
import io.triage.facts.XidInfo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Everything the product knows that is not a rule: log markers per server, process patterns, GPU
 * profiles, thresholds, the Xid catalogue, cause titles and the texts shown to people. Loaded from the
 * {@code knowledge-base/} directory; every file is checked, and an error names the file and the entry.
 */
public final class KnowledgeBase {
    private static final Pattern SERVES_PATH = Pattern.compile("^/[A-Za-z0-9/._-]{0,200}$");
    private static final Pattern NAMED_GROUP = Pattern.compile("\\(\\?P?<([a-zA-Z][a-zA-Z0-9]*)>");

    private final List<io.triage.facts.DifferentialNeed> differentials;
    private final List<Marker> markers;
    private final Map<String, ServesSpec> serves;
    private final Map<String, String> kindByAlias;
    private final ProcessPatterns processes;
    private final List<GpuProfileSpec> gpuProfiles;
    private final List<LinePattern> gpuPatterns = new ArrayList<>();
    private final GpuProfileSpec defaultGpuProfile;
    private final Thresholds thresholds;
    private final Map<Integer, XidInfo> xids;
    private final Map<String, CauseSpec> causes;
    private final Map<String, String> symptomTexts;
    private final Texts texts;
    private final Map<String, QuestionSpec> questions;
    private final Map<String, StepSpec> steps;
    private final List<io.triage.facts.AdviceOption> adviceOptions = new ArrayList<>();
    private volatile io.triage.facts.Catalogue catalogue;
    private final Cadence cadence;

    // ---- file schemas (unknown keys are errors) ----
    public record MarkerFile(String server, List<String> aliases, ServesSpec serves, List<MarkerSpec> markers) { }

    /**
     * How a server kind serves, from its markers file: its default HTTP port, the path that answers 200 only
     * when it can serve, where its engine runs and when it loads its models.
     *
     * @param port default port (1–65535)
     * @param health health or readiness path, starting with '/'
     * @param engine {@code workers} (the engine runs in worker processes beside the front end, the default) or
     *               {@code in-process} (inside the front-end process)
     * @param models {@code at-start} (loaded before the server is ready, the default) or {@code on-demand}
     *               (loaded per request, unloaded when idle)
     * @param loading words the health path's answer holds while the server loads its model (llama-server's 503
     *                {@code "Loading model"}), or empty when it says nothing of the kind
     */
    public record ServesSpec(Integer port, String health, String engine, String models, String loading,
                             String unavailable) {
        public boolean inProcessEngine() {
            return "in-process".equals(engine);
        }

        public boolean onDemandModels() {
            return "on-demand".equals(models);
        }
    }

    public record MarkerSpec(String id, String kind, String pattern, String subtype, Integer priority,
                             String note) { }

    public record ProcessFile(List<String> ignore, Map<String, RoleSpec> servers, RoleSpec generic, List<String> comm,
                              List<String> containers, List<String> clients, List<String> compilers) { }

    public record RoleSpec(List<String> frontend, List<String> workers) { }

    public record GpuProfileSpec(String name, String match, double idleWattsMax, long memReleasedMiB,
                                 int utilPinnedPct, int utilIdlePct, String note) { }

    public record GpuProfileFile(GpuProfileSpec defaults, List<GpuProfileSpec> profiles) { }

    public record ThresholdFile(long logStalledSeconds, long progressRecentSeconds, long loadingRecentSeconds,
                                double healthSlowSeconds, long launchSlackSeconds, Map<String, String> notes) { }

    public record XidSpec(int code, String name, String implicates, boolean fault, String action, String note) { }

    public record XidFile(List<XidSpec> xids) { }

    /** A cause: its title, its place in the ranking (higher first at equal confidence) and a caveat. */
    public record CauseSpec(String title, int rank, String summary, String caveat) { }

    public record CauseFile(Map<String, CauseSpec> causes) { }

    /** An observation to ask for: what to run and why it decides. */
    public record QuestionSpec(String text, String command) { }

    public record TextFile(Map<String, String> symptoms, Map<String, QuestionSpec> questions,
                           Map<String, String> details, Map<String, String> reasons, Map<String, String> rationales) { }

    /** A next step: a title, a copyable command with {placeholders}, and why. */
    public record StepSpec(String title, String command, String rationale, List<String> causes) {
        public StepSpec(String title, String command, String rationale) {
            this(title, command, rationale, List.of());
        }
    }

    public record StepFile(Map<String, StepSpec> steps) { }

    /** One need of a cause's differential: what it answers, and the probes any one of which answers it. */
    public record NeedSpec(String need, List<String> probes, List<String> evidence) { }

    /** {@code differentials.yaml}: per cause, what must have been read before it is named with high confidence. */
    public record DifferentialFile(Map<String, List<NeedSpec>> differentials) { }

    private KnowledgeBase(List<Marker> markers, Map<String, ServesSpec> serves, Map<String, String> kindByAlias,
                          ProcessPatterns processes, List<GpuProfileSpec> gpuProfiles,
                          GpuProfileSpec defaultGpuProfile, Thresholds thresholds, Map<Integer, XidInfo> xids,
                          Map<String, CauseSpec> causes, Texts texts,
                          Map<String, QuestionSpec> questions, Map<String, StepSpec> steps, Cadence cadence,
                          List<io.triage.facts.DifferentialNeed> differentials) {
        this.differentials = differentials;
        this.markers = markers;
        this.cadence = cadence;
        this.serves = Map.copyOf(serves);
        this.kindByAlias = Map.copyOf(kindByAlias);
        this.processes = processes;
        this.gpuProfiles = gpuProfiles;
        for (GpuProfileSpec p : gpuProfiles) {
            gpuPatterns.add(LinePattern.compile(p.match(), List.of()));
        }
        this.defaultGpuProfile = defaultGpuProfile;
        this.thresholds = thresholds;
        this.xids = xids;
        this.causes = causes;
        this.texts = texts;
        this.symptomTexts = texts.symptoms();
        this.questions = questions;
        this.steps = steps;
        int order = 0;
        for (Map.Entry<String, StepSpec> e : steps.entrySet()) {
            for (String c : e.getValue().causes() == null ? List.<String>of() : e.getValue().causes()) {
                int slash = c.indexOf('/');
                String cause = slash < 0 ? c : c.substring(0, slash);
                String sub = slash < 0 ? "" : c.substring(slash + 1);
                adviceOptions.add(new io.triage.facts.AdviceOption(e.getKey(), cause, sub, order++));
            }
        }
    }

    /** The knowledge base of {@code dir} alone: {@link #load(Path, Overlay)} with no overlay. */
    public static KnowledgeBase load(Path dir) {
        return load(dir, null);
    }

    /**
     * Loads the knowledge base of {@code dir} and, when {@code overlay} is not null, extends it with the overlay's.
     * The sections of {@code causes.yaml}, {@code texts.yaml}, {@code remediation.yaml} and {@code differentials.yaml}
     * may also be given by fragments ({@code dir/topics/**.yaml}; every YAML file of the overlay's
     * {@code knowledge-base/} but its {@code markers/} and {@code scenarios/}), markers by fragments or by marker
     * files ({@code markers/*.yaml}, the overlay's too). All are merged; an id given twice is an error that names both
     * files and lines.
     */
    public static KnowledgeBase load(Path dir, Overlay overlay) {
        if (!Files.isDirectory(dir)) {
            throw new KnowledgeException("knowledge base directory not found: " + dir);
        }
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory())
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
        Fragments fragments = new Fragments(yaml);
        CauseFile cf0 = read(yaml, dir.resolve("causes.yaml"), CauseFile.class);
        TextFile txt0 = read(yaml, dir.resolve("texts.yaml"), TextFile.class);
        StepFile sf0 = read(yaml, dir.resolve("remediation.yaml"), StepFile.class);
        require(sf0.steps() != null, dir.resolve("remediation.yaml"), "needs 'steps:'");
        DifferentialFile df0 = read(yaml, dir.resolve("differentials.yaml"), DifferentialFile.class);
        require(df0.differentials() != null, dir.resolve("differentials.yaml"), "needs 'differentials:'");
        fragments.addFile(dir.resolve("causes.yaml"), cf0);
        fragments.addFile(dir.resolve("texts.yaml"), txt0);
        fragments.addFile(dir.resolve("remediation.yaml"), sf0);
        fragments.addFile(dir.resolve("differentials.yaml"), df0);
        for (Path f : Fragments.yamlFiles(dir.resolve(TOPICS), List.of())) {
            fragments.addFragment(f);
        }
        Path overlayKb = overlay == null ? null : overlay.knowledgeDir();
        if (overlayKb != null) {
            for (Path f : Fragments.yamlFiles(overlayKb, List.of(overlayKb.resolve("markers"), overlayKb.resolve("scenarios")))) {
                fragments.addFragment(f);
            }
        }
        CauseFile cf = fragments.merged(CauseFile.class);
        TextFile txt = fragments.merged(TextFile.class);
        StepFile sf = fragments.merged(StepFile.class);
        Map<String, Fragments.Site> stepSites = fragments.sites().getOrDefault("steps", Map.of());

        Map<String, ServesSpec> serves = new LinkedHashMap<>();
        Map<String, String> kindByAlias = new HashMap<>();
        List<Map.Entry<Path, MarkerFile>> markerFiles = new ArrayList<>(markerFiles(yaml, dir.resolve("markers"), true));
        if (overlayKb != null) {
            markerFiles.addAll(markerFiles(yaml, overlayKb.resolve("markers"), false));
        }
        markerFiles.addAll(fragments.markerFiles());
        List<Marker> markers = loadMarkers(markerFiles, dir.resolve("markers"), serves, kindByAlias, fragments);
        ProcessFile pf = read(yaml, dir.resolve("processes.yaml"), ProcessFile.class);
        ProcessPatterns processes = ProcessPatterns.compile(pf, dir.resolve("processes.yaml"));
        GpuProfileFile gf = read(yaml, dir.resolve("gpu-profiles.yaml"), GpuProfileFile.class);
        require(gf.defaults() != null, dir.resolve("gpu-profiles.yaml"), "needs a 'defaults' profile");
        List<GpuProfileSpec> profiles = gf.profiles() == null ? List.of() : gf.profiles();
        for (GpuProfileSpec p : profiles) {
            compileLinear(p.match(), List.of(), dir.resolve("gpu-profiles.yaml"), "profile " + p.name());
        }
        ThresholdFile tf = read(yaml, dir.resolve("thresholds.yaml"), ThresholdFile.class);
        require(tf.logStalledSeconds() > 0 && tf.progressRecentSeconds() > 0 && tf.loadingRecentSeconds() > 0
                && tf.healthSlowSeconds() > 0 && tf.launchSlackSeconds() >= 0, dir.resolve("thresholds.yaml"),
                "every threshold must be > 0");
        Thresholds thresholds = new Thresholds(tf.logStalledSeconds(), tf.progressRecentSeconds(),
                tf.loadingRecentSeconds(), tf.healthSlowSeconds(), tf.launchSlackSeconds());
        XidFile xf = read(yaml, dir.resolve("xid.yaml"), XidFile.class);
        Map<Integer, XidInfo> xids = new HashMap<>();
        for (XidSpec x : xf.xids()) {
            require(x.name() != null && x.implicates() != null && x.action() != null, dir.resolve("xid.yaml"),
                    "Xid " + x.code() + " needs name, implicates and action");
            xids.put(x.code(), new XidInfo(x.code(), x.name(), x.implicates(), x.fault(), x.action()));
        }
        for (Map.Entry<String, StepSpec> e : sf.steps().entrySet()) {
            StepSpec st = e.getValue();
            Fragments.Site site = stepSites.get(e.getKey());
            Path file = site == null ? dir.resolve("remediation.yaml") : site.file();
            require(st != null && st.title() != null && st.rationale() != null, file,
                    "step " + e.getKey() + " needs title and rationale");
            for (String c : st.causes() == null ? List.<String>of() : st.causes()) {
                String cause = c.contains("/") ? c.substring(0, c.indexOf('/')) : c;
                require(cf.causes() != null && cf.causes().containsKey(cause), file,
                        "step " + e.getKey() + " names unknown cause '" + cause + "'");
            }
        }
        Set<String> markerIds = new HashSet<>();
        markers.forEach(m -> markerIds.add(m.id()));
        Cadence cadence = Cadence.load(yaml, dir.resolve("cadence.yaml"), markerIds);
        KnowledgeBase kb = new KnowledgeBase(markers, serves, kindByAlias, processes, profiles, gf.defaults(), thresholds, xids,
                new LinkedHashMap<>(cf.causes()), new Texts(txt.symptoms(), txt.rationales(), txt.details(), txt.reasons()),
                txt.questions() == null ? Map.of() : txt.questions(), sf.steps(), cadence,
                differentials(fragments.merged(DifferentialFile.class), cf, txt,
                        fragments.sites().getOrDefault("differentials", Map.of()), dir.resolve("differentials.yaml")));
        kb.sites.putAll(fragments.sites());
        return kb;
    }

    /** The version of {@link #compact}'s form: a form of another version is not read. */
    private static final String COMPACT_FORM = "triage-knowledge/1";

    /**
     * This knowledge base in {@link Compact}'s form, for a cache: what {@link #fromCompact} turns back into an equal
     * knowledge base without reading YAML. File names in it are kept relative to {@code dir} (or to the overlay's
     * knowledge directory), so that the same content in another home names that home's files. Unordered collections
     * are written sorted: the same knowledge gives the same bytes.
     */
    public byte[] compact(Path dir, Overlay overlay) {
        Compact.Out o = new Compact.Out();
        o.str(COMPACT_FORM);
        o.count(markers.size());
        for (Marker m : markers) {
            o.str(m.id()).str(m.server()).str(m.kind()).str(m.pattern().pattern()).strs(m.pattern().groups())
                    .str(m.subtype()).num(m.priority()).bool(m.prefilter() != null);
            if (m.prefilter() != null) {
                o.strs(m.prefilter().literals()).bool(m.prefilter().caseless());
            }
            o.strs(m.groups());
        }
        o.count(serves.size());
        new java.util.TreeMap<>(serves).forEach((k, v) -> o.str(k).optInt(v.port()).str(v.health()).str(v.engine()).str(v.models()).str(v.loading())
                .str(v.unavailable()));
        o.strMap(new java.util.TreeMap<>(kindByAlias));
        processes.writeTo(o);
        o.count(gpuProfiles.size());
        gpuProfiles.forEach(p -> gpuProfile(o, p));
        gpuProfile(o, defaultGpuProfile);
        o.num(thresholds.logStalledSeconds()).num(thresholds.progressRecentSeconds()).num(thresholds.loadingRecentSeconds())
                .dbl(thresholds.healthSlowSeconds()).num(thresholds.launchSlackSeconds());
        o.count(xids.size());
        new java.util.TreeMap<>(xids).values().forEach(x -> o.num(x.code()).str(x.name()).str(x.implicates()).bool(x.fault()).str(x.action()));
        o.count(causes.size());
        causes.forEach((k, c) -> o.str(k).str(c.title()).num(c.rank()).str(c.summary()).str(c.caveat()));
        o.strMap(texts.symptoms()).strMap(texts.rationales()).strMap(texts.details()).strMap(texts.reasons());
        o.count(questions.size());
        questions.forEach((k, q) -> o.str(k).str(q.text()).str(q.command()));
        o.count(steps.size());
        steps.forEach((k, st) -> o.str(k).str(st.title()).str(st.command()).str(st.rationale()).strs(st.causes()));
        o.dbl(cadence.stallFactor()).num(cadence.minStallSeconds()).num(cadence.workLines()).dbl(cadence.cpuMovedPercent());
        o.count(cadence.servers().size());
        new java.util.TreeMap<>(cadence.servers()).forEach((k, c) -> {
            o.str(k).str(c.name()).num(c.everySeconds()).strs(new java.util.TreeSet<>(c.markers()));
            for (LinePattern p : java.util.Arrays.asList(c.running(), c.waiting(), c.throughput(), c.prompt())) {
                o.str(p == null ? null : p.pattern());
            }
            o.strMap(new java.util.TreeMap<>(c.metrics())).bool(c.zeroLoggedOnce()).bool(c.everyBatch());
        });
        o.count(differentials.size());
        differentials.forEach(d -> o.str(d.cause()).str(d.need()).strs(d.probes()).strs(d.evidence()));
        Path overlayDir = overlay == null ? null : overlay.knowledgeDir();
        o.count(sites.size());
        new java.util.TreeMap<>(sites).forEach((section, ids) -> {
            o.str(section).count(ids.size());
            new java.util.TreeMap<>(ids).forEach((id, site) -> {
                o.str(id);
                sitePath(o, site.file(), dir, overlayDir);
                o.num(site.line());
            });
        });
        return o.bytes();
    }

    /**
     * The knowledge base {@link #compact} wrote, for {@code dir} (and {@code overlay}) as they were when it was written:
     * the caller knows the form was made from exactly these files (a cache keyed by their content, its entries checked
     * as code). Its regexes were accepted when the form was made: each is compiled at its first use
     * ({@link LinePattern#deferred}), so a command pays only for the few dozen it tries.
     *
     * @throws IOException when the bytes are not such a form (truncated, of another version, a regex that does not compile)
     */
    public static KnowledgeBase fromCompact(byte[] form, Path dir, Overlay overlay) throws IOException {
        Compact.In in = new Compact.In(form);
        try {
            if (!COMPACT_FORM.equals(in.str())) {
                throw new IOException("not a knowledge base of this form");
            }
            int n = in.count();
            List<Marker> markers = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                String id = in.str();
                String server = in.str();
                String kind = in.str();
                LinePattern p = LinePattern.deferred(in.str(), in.strs());
                String subtype = in.str();
                int priority = in.integer();
                RegexLiterals.Prefilter pre = in.bool() ? new RegexLiterals.Prefilter(List.copyOf(in.strs()), in.bool()) : null;
                markers.add(new Marker(id, server, kind, p, subtype, priority, pre, List.copyOf(in.strs())));
            }
            Map<String, ServesSpec> serves = new LinkedHashMap<>();
            for (int i = 0, k = in.count(); i < k; i++) {
                serves.put(in.str(), new ServesSpec(in.optInt(), in.str(), in.str(), in.str(), in.str(), in.str()));
            }
            Map<String, String> kindByAlias = in.strMap();
            ProcessPatterns processes = ProcessPatterns.readFrom(in);
            List<GpuProfileSpec> profiles = new ArrayList<>();
            for (int i = 0, k = in.count(); i < k; i++) {
                profiles.add(gpuProfile(in));
            }
            GpuProfileSpec defaults = gpuProfile(in);
            Thresholds thresholds = new Thresholds(in.num(), in.num(), in.num(), in.dbl(), in.num());
            Map<Integer, XidInfo> xids = new HashMap<>();
            for (int i = 0, k = in.count(); i < k; i++) {
                XidInfo x = new XidInfo(in.integer(), in.str(), in.str(), in.bool(), in.str());
                xids.put(x.code(), x);
            }
            Map<String, CauseSpec> causes = new LinkedHashMap<>();
            for (int i = 0, k = in.count(); i < k; i++) {
                causes.put(in.str(), new CauseSpec(in.str(), in.integer(), in.str(), in.str()));
            }
            Texts texts = new Texts(in.strMap(), in.strMap(), in.strMap(), in.strMap());
            Map<String, QuestionSpec> questions = new LinkedHashMap<>();
            for (int i = 0, k = in.count(); i < k; i++) {
                questions.put(in.str(), new QuestionSpec(in.str(), in.str()));
            }
            Map<String, StepSpec> steps = new LinkedHashMap<>();
            for (int i = 0, k = in.count(); i < k; i++) {
                steps.put(in.str(), new StepSpec(in.str(), in.str(), in.str(), in.strs()));
            }
            double stallFactor = in.dbl();
            long minStall = in.num();
            int workLines = in.integer();
            double cpuMoved = in.dbl();
            Map<String, Cadence.Server> servers = new LinkedHashMap<>();
            for (int i = 0, k = in.count(); i < k; i++) {
                String key = in.str();
                String name = in.str();
                long every = in.num();
                Set<String> ids = Set.copyOf(in.strs());
                LinePattern[] p = new LinePattern[4];
                for (int j = 0; j < p.length; j++) {
                    String regex = in.str();
                    p[j] = regex == null ? null : LinePattern.deferred(regex, List.of("v"));
                }
                Map<String, String> metrics = in.strMap();
                servers.put(key, new Cadence.Server(name, every, ids, p[0], p[1], p[2], p[3], metrics, in.bool(), in.bool()));
            }
            Cadence cadence = new Cadence(stallFactor, minStall, workLines, cpuMoved, servers);
            List<io.triage.facts.DifferentialNeed> differentials = new ArrayList<>();
            for (int i = 0, k = in.count(); i < k; i++) {
                differentials.add(new io.triage.facts.DifferentialNeed(in.str(), in.str(), List.copyOf(in.strs()),
                        List.copyOf(in.strs())));
            }
            Path overlayDir = overlay == null ? null : overlay.knowledgeDir();
            Map<String, Map<String, Fragments.Site>> sites = new HashMap<>();
            for (int i = 0, k = in.count(); i < k; i++) {
                String section = in.str();
                Map<String, Fragments.Site> ids = new HashMap<>();
                for (int j = 0, m = in.count(); j < m; j++) {
                    ids.put(in.str(), new Fragments.Site(sitePath(in, dir, overlayDir), in.integer()));
                }
                sites.put(section, ids);
            }
            in.end();
            KnowledgeBase kb = new KnowledgeBase(List.copyOf(markers), serves, kindByAlias, processes, List.copyOf(profiles),
                    defaults, thresholds, xids, causes, texts, questions, steps, cadence, List.copyOf(differentials));
            kb.sites.putAll(sites);
            return kb;
        } catch (RuntimeException e) {
            // a regex that no longer compiles, a missing value a constructor refuses: not a form this code wrote
            throw new IOException("not a knowledge base of this form: " + e, e);
        }
    }

    private static void gpuProfile(Compact.Out o, GpuProfileSpec p) {
        o.str(p.name()).str(p.match()).dbl(p.idleWattsMax()).num(p.memReleasedMiB()).num(p.utilPinnedPct())
                .num(p.utilIdlePct()).str(p.note());
    }

    private static GpuProfileSpec gpuProfile(Compact.In in) throws IOException {
        return new GpuProfileSpec(in.str(), in.str(), in.dbl(), in.num(), in.integer(), in.integer(), in.str());
    }

    /** A file of the knowledge base: 0 and its name under {@code dir}, 1 and its name under the overlay's, else 2 and the path. */
    private static void sitePath(Compact.Out o, Path file, Path dir, Path overlayDir) {
        if (file.startsWith(dir)) {
            o.num(0).str(dir.relativize(file).toString());
        } else if (overlayDir != null && file.startsWith(overlayDir)) {
            o.num(1).str(overlayDir.relativize(file).toString());
        } else {
            o.num(2).str(file.toString());
        }
    }

    private static Path sitePath(Compact.In in, Path dir, Path overlayDir) throws IOException {
        long where = in.num();
        String name = in.str();
        if (name == null || (where == 1 && overlayDir == null) || where < 0 || where > 2) {
            throw new IOException("bad file of a knowledge entry");
        }
        return where == 0 ? dir.resolve(name) : where == 1 ? overlayDir.resolve(name) : Path.of(name);
    }

    /** Where the shipped knowledge base keeps its fragments, one file per topic. */
    public static final String TOPICS = "topics";

    /** Per section ({@code causes}, {@code symptoms}, {@code steps}, {@code markers}…), per id, where it was given. */
    private final Map<String, Map<String, Fragments.Site>> sites = new HashMap<>();

    /** Where an entry of the knowledge base was given: its file and line. */
    public record Origin(Path file, int line) { }

    /**
     * The file (and line) that gave the entry {@code id} of {@code section} ({@code causes}, {@code symptoms},
     * {@code questions}, {@code steps}, {@code differentials}, {@code markers}), when known: a top-level file, a topic
     * fragment or an overlay's file.
     */
    public Optional<Origin> origin(String section, String id) {
        Fragments.Site s = sites.getOrDefault(section, Map.of()).get(id);
        if (s == null) {
            return Optional.empty();
        }
        Fragments.Site located = Fragments.withLine(s, section, id); // looked up now: loading reads each file once
        return Optional.of(new Origin(located.file(), located.line()));
    }

    /** The file that gave the entry {@code id} of {@code section}, when known (as {@link #origin}, without its line). */
    public Optional<Path> originFile(String section, String id) {
        Fragments.Site s = sites.getOrDefault(section, Map.of()).get(id);
        return s == null ? Optional.empty() : Optional.of(s.file());
    }

    /** Reads the differentials: every cause known, every need with a text and probes, its first probe askable. */
    private static List<io.triage.facts.DifferentialNeed> differentials(DifferentialFile df, CauseFile cf, TextFile txt,
                                                                      Map<String, Fragments.Site> sites, Path base) {
        List<io.triage.facts.DifferentialNeed> out = new ArrayList<>();
        for (Map.Entry<String, List<NeedSpec>> e : df.differentials().entrySet()) {
            Fragments.Site site = sites.get(e.getKey());
            Path file = site == null ? base : site.file();
            require(cf.causes().containsKey(e.getKey()), file, "unknown cause '" + e.getKey() + "'");
            require(e.getValue() != null && !e.getValue().isEmpty(), file, e.getKey() + " lists no need");
            for (NeedSpec n : e.getValue()) {
                require(n != null && n.need() != null && !n.need().isBlank() && n.probes() != null
                        && !n.probes().isEmpty() && n.probes().stream().allMatch(p -> p != null && !p.isBlank()),
                        file, e.getKey() + ": every need has a 'need' text and at least one probe");
                String ask = "probe-" + n.probes().get(0);
                require(txt.questions() != null && txt.questions().containsKey(ask), file, e.getKey() + ": need '"
                        + n.need() + "' starts with probe " + n.probes().get(0) + ", but texts.yaml has no question " + ask);
                List<String> evidence = n.evidence() == null ? List.of() : n.evidence();
                for (String id : evidence) {
                    require(id != null && txt.symptoms() != null && txt.symptoms().containsKey(id), file, e.getKey()
                            + ": need '" + n.need() + "' is answered by symptom '" + id + "', which texts.yaml does not name");
                }
                out.add(new io.triage.facts.DifferentialNeed(e.getKey(), n.need().strip(), n.probes(), evidence));
            }
        }
        return List.copyOf(out);
    }

    /** The marker files of {@code dir}, read ({@code required}: the directory must exist). */
    private static List<Map.Entry<Path, MarkerFile>> markerFiles(ObjectMapper yaml, Path dir, boolean required) {
        if (!Files.isDirectory(dir)) {
            if (required) {
                throw new KnowledgeException("marker directory not found: " + dir);
            }
            return List.of();
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        } catch (IOException e) {
            throw new KnowledgeException("cannot list " + dir + ": " + e.getMessage(), e);
        }
        List<Map.Entry<Path, MarkerFile>> out = new ArrayList<>();
        for (Path f : files) {
            out.add(Map.entry(f, read(yaml, f, MarkerFile.class)));
        }
        return out;
    }

    private static List<Marker> loadMarkers(List<Map.Entry<Path, MarkerFile>> files, Path dir,
                                            Map<String, ServesSpec> serves, Map<String, String> kindByAlias,
                                            Fragments fragments) {
        List<Marker> markers = new ArrayList<>();
        Map<String, Fragments.Site> ids = fragments.sites().computeIfAbsent("markers", k -> new HashMap<>());
        Map<String, Path> servesFile = new HashMap<>();
        for (Map.Entry<Path, MarkerFile> file : files) {
            Path f = file.getKey();
            MarkerFile mf = file.getValue();
            require(mf.server() != null && !mf.server().isBlank(), f, "needs 'server:'");
            require(mf.markers() != null, f, "needs 'markers:'");
            for (String alias : mf.aliases() == null ? List.<String>of() : mf.aliases()) {
                String a = alias == null ? "" : alias.strip().toLowerCase(java.util.Locale.ROOT);
                require(!a.isEmpty() && !mf.server().strip().equals("common"), f,
                        "aliases name other spellings of a server kind (not empty, not on common markers)");
                String before = kindByAlias.putIfAbsent(a, mf.server().strip());
                require(before == null || before.equals(mf.server().strip()), f,
                        "alias '" + a + "' already names server " + before);
            }
            if (mf.serves() != null) {
                ServesSpec sv = mf.serves();
                String server = mf.server().strip();
                require(!server.equals("common"), f, "'serves:' belongs to a server kind, not to common markers");
                require(sv.port() != null && sv.port() >= 1 && sv.port() <= 65535, f, "serves.port must be 1-65535");
                require(sv.health() != null && SERVES_PATH.matcher(sv.health()).matches(), f,
                        "serves.health must be a path such as /health (letters, digits, / . _ -)");
                String engine = sv.engine() == null ? "workers" : sv.engine();
                String models = sv.models() == null ? "at-start" : sv.models();
                require(engine.equals("workers") || engine.equals("in-process"), f,
                        "serves.engine must be 'workers' or 'in-process'");
                require(models.equals("at-start") || models.equals("on-demand"), f,
                        "serves.models must be 'at-start' or 'on-demand'");
                String loading = sv.loading() == null ? "" : sv.loading();
                require(loading.length() <= 200 && loading.strip().length() >= (loading.isEmpty() ? 0 : 6), f,
                        "serves.loading must be words of 6 to 200 characters its health answer holds while it loads");
                String unavailable = sv.unavailable() == null ? "" : sv.unavailable();
                require(unavailable.isEmpty() || unavailable.equals("engine-dead") || unavailable.equals("loading"), f,
                        "serves.unavailable must be 'engine-dead' or 'loading' (what a 503 from its health path means)");
                Path before = servesFile.putIfAbsent(server, f);
                require(serves.putIfAbsent(server, new ServesSpec(sv.port(), sv.health(), engine, models, loading,
                        unavailable)) == null, f,
                        "'serves:' of server " + server + " given twice: in " + before + " and in " + f);
            }
            for (MarkerSpec m : mf.markers()) {
                require(m != null && m.id() != null && !m.id().isBlank(), f, "a marker without an id");
                String where = "marker " + m.id();
                Fragments.Site here = new Fragments.Site(f, 0);
                Fragments.Site first = ids.putIfAbsent(m.id(), here);
                if (first != null) {
                    throw Fragments.clash("marker", "markers", m.id(), first, here);
                }
                require(Marker.KINDS.contains(m.kind()), f, where + ": unknown kind '" + m.kind() + "' (one of "
                        + Marker.KINDS + ")");
                boolean error = m.kind().equals("error");
                require(!error || m.subtype() == null || Marker.SUBTYPES.contains(m.subtype()), f,
                        where + ": an error marker's subtype must be one of " + Marker.SUBTYPES
                        + " (leave it out when the line does not name the root)");
                require(error || m.subtype() == null || m.kind().equals("loading")
                        && Marker.LOADING_SUBTYPES.contains(m.subtype()) || m.kind().equals("shutdown")
                        && Marker.SHUTDOWN_SUBTYPES.contains(m.subtype()), f, where + ": only error markers take a subtype"
                        + " (and loading markers one of " + Marker.LOADING_SUBTYPES + ", shutdown markers one of "
                        + Marker.SHUTDOWN_SUBTYPES + ")");
                require(!error || m.priority() != null, f, where + ": an error marker needs a priority");
                require(m.pattern() != null && !m.pattern().isEmpty(), f, where + ": empty pattern");
                List<String> groups = new ArrayList<>();
                Matcher g = NAMED_GROUP.matcher(m.pattern());
                while (g.find()) {
                    // other named groups are allowed (they document the line); only these are read
                    if (Marker.KNOWN_GROUPS.contains(g.group(1)) && !groups.contains(g.group(1))) {
                        groups.add(g.group(1));
                    }
                }
                LinePattern p = compileLinear(m.pattern(), groups, f, where);
                // an alternation whose every branch has its own literal runs as one marker per branch:
                // the literal index then picks the one branch a line can match, and that branch alone runs
                List<String> branches = RegexLiterals.branches(m.pattern());
                boolean split = branches.size() > 1 && branches.stream().allMatch(b -> RegexLiterals.prefilter(b) != null
                        && compilesMarker(b));
                for (String b : split ? branches : List.of(m.pattern())) {
                    markers.add(new Marker(m.id(), mf.server().strip(), m.kind(),
                            split ? LinePattern.compile(b, groups) : p,
                            m.subtype() == null ? "" : m.subtype(), m.priority() == null ? 0 : m.priority(),
                            RegexLiterals.prefilter(b), List.copyOf(groups)));
                }
            }
        }
        require(!markers.isEmpty(), dir, "no markers found");
        return List.copyOf(markers);
    }

    private static boolean compilesMarker(String regex) {
        try {
            com.google.re2j.Pattern.compile(regex);
            return true;
        } catch (com.google.re2j.PatternSyntaxException e) {
            return false;
        }
    }

    /**
     * A knowledge-base regex (marker, GPU profile) under RE2J (linear time on any line). What RE2J cannot compile (back-references,
     * look-arounds, possessive or atomic groups) is refused with the file and the entry named.
     */
    static LinePattern compileLinear(String regex, List<String> groups, Path file, String where) {
        require(regex != null && !regex.isEmpty(), file, where + ": empty pattern");
        try {
            return LinePattern.compile(regex, groups);
        } catch (com.google.re2j.PatternSyntaxException e) {
            throw new KnowledgeException(file + ": " + where + ": pattern not accepted by the linear-time engine"
                    + " (no back-references, look-arounds, possessive or atomic groups; see the knowledge base's"
                    + " README): " + e.getDescription() + (e.getPattern().isEmpty() ? "" : " in '" + e.getPattern() + "'"));
        }
    }

    static <T> T read(ObjectMapper yaml, Path file, Class<T> type) {
        if (!Files.isRegularFile(file)) {
            throw new KnowledgeException("knowledge file missing: " + file);
        }
        try {
            T value = yaml.readValue(file.toFile(), type);
            require(value != null, file, "is empty");
            return value;
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")";
            throw new KnowledgeException(file + where + ": " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new KnowledgeException(file + ": " + e.getMessage(), e);
        }
    }

    static void require(boolean ok, Path file, String what) {
        if (!ok) {
            throw new KnowledgeException(file + ": " + what);
        }
    }

    /**
     * The server kind a name means: itself, or the kind it is another spelling of (a target of
     * {@code llama.cpp} or {@code llama-server} is the {@code llamacpp} kind). Lower case, stripped.
     */
    public String serverKind(String name) {
        String n = name == null ? "" : name.strip().toLowerCase(java.util.Locale.ROOT);
        return kindByAlias.getOrDefault(n, n);
    }

    /** The other spellings of server kinds ({@code aliases:} of the markers files), lower case. */
    public java.util.Set<String> serverAliases() {
        return kindByAlias.keySet();
    }

    /** How each server kind serves (default port, health path, where its engine runs, when it loads models), by kind; kinds without one are absent. */
    public Map<String, ServesSpec> serves() {
        return serves;
    }

    public List<Marker> markers() {
        return markers;
    }

    public ProcessPatterns processes() {
        return processes;
    }

    public Thresholds thresholds() {
        return thresholds;
    }

    /** How often each server logs its work ({@code cadence.yaml}). */
    public Cadence cadence() {
        return cadence;
    }

    /** The profile whose {@code match} regex finds the GPU's name, or the defaults. */
    public GpuProfile gpuProfile(int index, String gpuName) {
        GpuProfileSpec spec = defaultGpuProfile;
        for (int i = 0; i < gpuProfiles.size(); i++) {
            if (gpuName != null && gpuPatterns.get(i).find(gpuName) != null) {
                spec = gpuProfiles.get(i);
                break;
            }
        }
        return new GpuProfile(index, spec.name() == null ? "default" : spec.name(), spec.idleWattsMax(),
                spec.memReleasedMiB(), spec.utilPinnedPct(), spec.utilIdlePct());
    }

    /** The Xid catalogue by code. */
    public Map<Integer, XidInfo> xids() {
        return java.util.Collections.unmodifiableMap(xids);
    }

    public Optional<XidInfo> xid(int code) {
        return Optional.ofNullable(xids.get(code));
    }

    public Map<String, CauseSpec> causes() {
        return causes;
    }

    public CauseSpec cause(String id) {
        return causes.getOrDefault(id, new CauseSpec(id, 0, "", ""));
    }

    /**
     * The sentence of a symptom. The load-time consistency check refuses rules that produce a symptom without one;
     * should one still be missing (an id only known at run time), a person reads a plain sentence, never the raw id.
     */
    public String symptomText(String id) {
        String t = symptomTexts.get(id);
        return t != null ? t : "An observation the knowledge base has no sentence for";
    }

    public Map<String, String> symptomTexts() {
        return symptomTexts;
    }

    /** The words shown to people by id: sentences, rationales, detail templates, reasons. */
    public Texts texts() {
        return texts;
    }

    public Optional<QuestionSpec> question(String id) {
        return Optional.ofNullable(questions.get(id));
    }

    public Map<String, QuestionSpec> questions() {
        return questions;
    }

    public Optional<StepSpec> step(String id) {
        StepSpec s = steps.get(id);
        StepSpec template = steps.get("xid-action");
        if (s == null && template != null && id.matches("xid-\\d{1,6}")) {
            XidInfo x = xids.get(Integer.parseInt(id.substring(4)));
            if (x != null) {
                // the catalogue's action for this code is the step's rationale
                return Optional.of(new StepSpec(template.title().replace("{xid}", x.code() + " (" + x.name() + ")"),
                        template.command(), x.action()));
            }
        }
        return Optional.ofNullable(s);
    }

    /** The needs of every cause's differential ({@code differentials.yaml}), as facts for the rules. */
    public List<io.triage.facts.DifferentialNeed> differentials() {
        return differentials;
    }

    /** The advice options of the remediation catalogue, as facts for the rules. */
    public List<io.triage.facts.AdviceOption> adviceOptions() {
        return adviceOptions;
    }

    /** {@link #adviceOptions()} and {@link #differentials()} by cause, the one fact the rules consult them through. */
    public io.triage.facts.Catalogue catalogue() {
        io.triage.facts.Catalogue c = catalogue;
        if (c == null) {
            c = new io.triage.facts.Catalogue(adviceOptions, differentials);
            catalogue = c;
        }
        return c;
    }

    public Map<String, StepSpec> steps() {
        return steps;
    }
}
