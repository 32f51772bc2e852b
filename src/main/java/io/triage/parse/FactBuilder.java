package io.triage.parse;

import io.triage.capture.Capture;
import io.triage.capture.ProbeOutput;
import io.triage.facts.CaptureClock;
import io.triage.facts.Container;
import io.triage.facts.GpuApp;
import io.triage.facts.Gpu;
import io.triage.facts.Intent;
import io.triage.facts.KernelEvent;
import io.triage.facts.Listener;
import io.triage.facts.LogMarker;
import io.triage.facts.ProbeStatus;
import io.triage.facts.Proc;
import io.triage.facts.ProcStatus;
import io.triage.facts.ServerArg;
import io.triage.facts.Target;
import io.triage.knowledge.KnowledgeBase;
import io.triage.knowledge.Marker;
import io.triage.knowledge.ProcessPatterns;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a capture into typed facts. Total: whatever the input, it returns facts; what it cannot read
 * becomes an {@link io.triage.facts.Unparseable} fact, never an exception.
 */
public final class FactBuilder {
    /** A pasted command line that runs {@code date} first ({@code date -u; tail …}, {@code date && curl …}). */
    private static final com.google.re2j.Pattern DATE_FIRST =
            com.google.re2j.Pattern.compile("date(?: +(?:-u|--utc|-Is|-Iseconds|--iso-8601(?:=seconds)?|-R))* *(?:;|&&)");

    /** The probes of the capture format (the catalogue's standard ones); one that is missing is reported as absent (unknown). */
    public static final List<String> STANDARD_PROBES = io.triage.probe.ProbeCatalogue.SHIPPED.standardNames();
    /**
     * The answer to a real request someone sent (curl to a completion or generate endpoint): never a probe of ours
     * (the collector only reads), but what a person pastes, or saves, when health says 200 and requests hang.
     */
    public static final String GENERATION_PROBE = "generate";
    /** curl's own words when it got no answer from the port: refused, nothing to connect to, or timed out. */
    private static final com.google.re2j.Pattern CURL_COULD_NOT_CONNECT = com.google.re2j.Pattern.compile(
            "(?m)^\\s*curl: \\((?:7|28)\\) ");
    /** A health route that runs one real generation (SGLang's {@code /health_generate}): a real request's answer too. */
    public static final String HEALTH_GENERATE_PROBE = "health_generate";
    /**
     * A listener line ({@code ss -ltnp}, {@code netstat -ltnp}). Host text, with wildcards a backtracking matcher
     * could try in every combination: a {@link io.triage.knowledge.LinePattern}, linear whichever engine runs it.
     */
    private static final io.triage.knowledge.LinePattern SS_LINE = io.triage.knowledge.LinePattern.compile(
            "(?:LISTEN|tcp6?)\\s+\\d+\\s+\\d+\\s+\\S*?[:.](?<port>\\d+)\\s+\\S+(?:\\s+LISTEN)?(?:\\s+(?:users:\\(\\(\"(?<comm>[^\"]*)\",pid=(?<pid>\\d+)|(?<npid>\\d+)/(?<ncomm>\\S+)))?",
            List.of("port", "comm", "pid", "npid", "ncomm"));

    private final KnowledgeBase kb;
    private final long workBudget;
    private final Map<String, List<Marker>> markersByServer = new HashMap<>();
    /** Built on first use: a command diagnoses one server kind or two, and each index costs an automaton. */
    private final Map<String, io.triage.knowledge.LiteralIndex> indexByServer = new java.util.concurrent.ConcurrentHashMap<>();
    private final Set<String> serverKinds = new HashSet<>();
    /** Each marker's server kind by marker id ("common" for markers of every server). */
    private final Map<String, String> serverOf = new HashMap<>();
    /** Routes files no parser reads by name (and a health answer's body) to the probes that read what they hold. */
    private final io.triage.capture.ByContent byContent;
    /** Then supervisor records found by content, a second one of a kind beside the first. */
    private final ByContent supervisorsByContent;

    public FactBuilder(KnowledgeBase kb) {
        this(kb, ReadBudget.CAPTURE_WORK);
    }

    /** With a parsing budget per capture other than {@link ReadBudget#CAPTURE_WORK}, characters examined. */
    public FactBuilder(KnowledgeBase kb, long workBudget) {
        this.kb = kb;
        this.workBudget = workBudget;
        io.triage.capture.PasteRecognizer recognizer = new io.triage.capture.PasteRecognizer(kb);
        this.byContent = new io.triage.capture.ByContent(recognizer, n -> readsByName(n) || recognizer.files(n));
        for (Marker m : kb.markers()) {
            if (!m.server().equals("common")) {
                serverKinds.add(m.server());
            }
            serverOf.put(m.id(), m.server());
        }
        for (String s : serverKinds) {
            List<Marker> list = new ArrayList<>();
            for (Marker m : kb.markers()) {
                if (m.server().equals("common") || m.server().equals(s)) {
                    list.add(m);
                }
            }
            markersByServer.put(s, List.copyOf(list));
        }
        markersByServer.put("", kb.markers());
        this.supervisorsByContent = new ByContent(recognizer, FactBuilder::readsByName);
    }

    public Observation build(Capture given, Map<String, String> extraIntent) {
        Capture capture = kernelJournalFiled(supervisorsByContent.apply(byContent.route(given)));
        Sink sink = new Sink(new ReadBudget(workBudget));
        List<String> notes = new ArrayList<>(capture.notes());
        Map<String, String> t = capture.target();
        String server = kb.serverKind(t.getOrDefault("server", ""));
        int port = Text.parseInt(t.getOrDefault("port", ""), -1);
        String log = t.getOrDefault("log", "");
        if (!server.isEmpty() && !markersByServer.containsKey(server)) {
            notes.add("server kind '" + server + "' has no markers of its own; common markers used");
        }

        for (String name : STANDARD_PROBES) {
            if (capture.probe(name).isEmpty()) {
                sink.add(new ProbeStatus(name, "absent", -1, -1, true, "not in the capture"));
            }
        }
        for (ProbeOutput p : capture.probes().values()) {
            sink.add(status(p));
        }

        // clock first: log ages and years depend on it
        long clock = -1;
        ZoneOffset zone = ZoneOffset.UTC;
        int year = -1;
        ProbeOutput date = capture.probes().get("date");
        if (date != null && !date.outOrEmpty().isBlank()) {
            // a pasted terminal shows the prompt that ran it first ("$ date -u"): the date is the line after
            List<String> dateLines = Text.lines(date.outOrEmpty());
            int at = 0;
            while (at + 1 < dateLines.size() && at < 3 && (dateLines.get(at).isBlank()
                    || io.triage.capture.PasteRecognizer.promptCommand(dateLines.get(at)) != null)) {
                at++;
            }
            String first = sink.budget().cut(date.name(), at + 1, dateLines.get(at));
            OffsetDateTime odt = dateOutput(first);
            if (odt != null) {
                clock = odt.toEpochSecond();
                zone = odt.getOffset();
                year = odt.getYear();
                sink.add(new CaptureClock(clock, date.name(), at + 1, Text.excerpt(first)));
            } else {
                sink.unparseable(date.name(), "not an ISO date (date -Is)", at + 1, Text.excerpt(first));
            }
        }

        if (clock < 0) {
            // no date probe (a paste), but a pasted command that ran date before what it shows ("$ date -u; tail -n 30
            // server.log"): the line after its prompt is the time of the look
            for (ProbeOutput p : capture.probes().values()) {
                List<String> ls = Text.lines(p.outOrEmpty().length() > 4096 ? p.outOrEmpty().substring(0, 4096) : p.outOrEmpty());
                for (int i = 0; i + 1 < ls.size() && i < 3; i++) {
                    String cmd = io.triage.capture.PasteRecognizer.promptCommand(LogParser.withoutComposePrefix(ls.get(i)));
                    if (cmd == null || !DATE_FIRST.matcher(cmd.strip()).lookingAt()) {
                        continue;
                    }
                    String first = LogParser.withoutComposePrefix(ls.get(i + 1)).strip();
                    OffsetDateTime odt = dateOutput(first);
                    if (odt != null) {
                        clock = odt.toEpochSecond();
                        zone = odt.getOffset();
                        year = odt.getYear();
                        sink.add(new CaptureClock(clock, p.name(), i + 2, Text.excerpt(first)));
                    }
                    break;
                }
                if (clock >= 0) {
                    break;
                }
            }
        }

        ProbeOutput smi = capture.probes().get("nvidia_smi_full");
        if (clock < 0 && smi != null && !smi.outOrEmpty().isBlank()) {
            // no date probe (a paste): nvidia-smi's table opens with the time it ran, the host's local time as the
            // server's log has it
            String first = firstNonBlankLine(smi.outOrEmpty());
            OffsetDateTime odt = Timestamps.smiHeader(first, zone);
            if (odt != null) {
                clock = odt.toEpochSecond();
                year = odt.getYear();
                sink.add(new CaptureClock(clock, smi.name(), 1, Text.excerpt(first.strip())));
                notes.add("the time of the look is nvidia-smi's, from its table's first line (the host's local time)");
            }
        }
        guarded(capture.probes().get("health"), sink, p -> HealthParser.parse(p, sink));
        ProbeOutput healthProbe = capture.probes().get("health");
        ProbeOutput listing = capture.probes().get("models");
        if (healthProbe == null && listing != null && CURL_COULD_NOT_CONNECT.matcher(listing.outOrEmpty().length() > 65_536
                ? listing.outOrEmpty().substring(0, 65_536) : listing.outOrEmpty()).find()) {
            // no health probe, but a request for the model list could not connect (refused, timed out): the same
            // observation of the port as a health check that could not
            guarded(listing, sink, p -> HealthParser.parse(p, sink));
        }
        if (healthProbe != null && !healthProbe.outOrEmpty().isBlank()) {
            // the answer's own words while the server loads (llama-server's 503 "Loading model"): its state, in its words
            String out = healthProbe.outOrEmpty().length() > 65_536 ? healthProbe.outOrEmpty().substring(0, 65_536)
                    : healthProbe.outOrEmpty();
            for (Map.Entry<String, KnowledgeBase.ServesSpec> e : new java.util.TreeMap<>(kb.serves()).entrySet()) {
                String words = e.getValue().loading();
                int at = words == null || words.isEmpty() ? -1 : out.indexOf(words);
                if (at >= 0) {
                    int lineNo = (int) out.substring(0, at).chars().filter(ch -> ch == '\n').count() + 1;
                    sink.add(new io.triage.facts.HealthSays("loading", e.getKey(), healthProbe.name(), lineNo,
                            Text.excerpt(Text.lines(out).get(lineNo - 1))));
                    break;
                }
            }
        }
        ProbeOutput generation = capture.probes().get(GENERATION_PROBE);
        guarded(generation != null ? generation : capture.probes().get(HEALTH_GENERATE_PROBE), sink,
                p -> GenerationParser.parse(p, sink));
        guarded(capture.probes().get("gpus"), sink, p -> NvidiaSmiParser.gpuCsv(p, sink));
        guarded(capture.probes().get("gpu_apps"), sink, p -> NvidiaSmiParser.appsCsv(p, sink));
        guarded(capture.probes().get("nvidia_smi_full"), sink, p -> NvidiaSmiParser.table(p, sink));
        guarded(capture.probes().get("gpu_throttle"), sink, p -> GpuThrottleParser.parse(p, sink));
        guarded(capture.probes().get("nvidia_smi_q"), sink, p -> GpuThrottleParser.report(p, sink));

        Map<Integer, Proc> procs = new LinkedHashMap<>();
        guarded(capture.probes().get("ps"), sink, p -> ProcessParser.ps(p, kb.processes(), procs, sink));
        guarded(capture.probes().get("pgrep"), sink, p -> ProcessParser.pgrep(p, kb.processes(), procs, sink));
        // /proc/PID/status: a SIGKILL that waits undelivered, and the state of a process pgrep listed without one
        for (ProbeOutput ps : capture.probes().values()) {
            if (!ps.name().startsWith(PROC_STATUS) || ps.name().endsWith(LoadParser.AGAIN)) {
                continue;
            }
            guarded(ps, sink, p -> {
                ProcStatus st = ProcStatusParser.parse(p, sink);
                if (st == null) {
                    return;
                }
                sink.add(st);
                Proc known = procs.get(st.pid());
                if (known != null && known.state().isEmpty() && !st.state().isEmpty()) {
                    procs.put(known.pid(), new Proc(known.pid(), known.ppid(), st.state(), known.elapsedSec(),
                            known.rssKiB(), known.args(), known.role(), known.server(), known.probe(), known.line(),
                            known.excerpt()));
                }
            });
        }
        if (server.isEmpty()) {
            for (Proc p : procs.values()) {
                if (!p.server().isEmpty()) {
                    server = p.server();
                    notes.add("server kind '" + server + "' discovered from process " + p.pid());
                    break;
                }
            }
        }
        // the listeners first: the server is the process that owns the target port's listener
        List<Listener> listeners = new ArrayList<>();
        guarded(capture.probes().get("listen"), sink, p -> listen(p, sink, listeners::add));
        listeners.forEach(sink::add);
        int owner = port <= 0 ? -1 : listeners.stream().filter(l -> l.port() == port && l.pid() > 0)
                .mapToInt(Listener::pid).findFirst().orElse(-1);
        boolean someoneServesTargetPort = port > 0 && procs.values().stream()
                .anyMatch(p -> !"other".equals(p.role()) && !"client".equals(p.role()) && servesPort(p.args(), port));
        java.util.Set<Integer> foreignPids = new HashSet<>();
        Map<Integer, String> otherInstances = port > 0 && !someoneServesTargetPort ? otherInstances(procs, port)
                : Map.of();
        Map<Integer, Proc> kept = new LinkedHashMap<>();
        for (Proc p : procs.values()) {
            boolean client = "client".equals(p.role());
            String foreign = client ? null : foreign(p, server, someoneServesTargetPort ? port : -1);
            if (foreign == null && !client) {
                foreign = otherInstances.get(p.pid());
            }
            if (foreign == null && !client && foreignPids.contains(p.ppid()) && !"other".equals(p.role())) {
                foreign = "a child of process " + p.ppid() + ", another server";
            }
            if (foreign != null) {
                foreignPids.add(p.pid());
            }
            if (foreign != null) {
                notes.add("process " + p.pid() + " is another server (" + foreign + "), not the target");
                p = new Proc(p.pid(), p.ppid(), p.state(), p.elapsedSec(), p.rssKiB(), p.args(), "other", p.server(),
                        p.probe(), p.line(), p.excerpt());
            }
            if (client) {
                // a benchmark, an HTTP loop, this product: it talks to the server and never counts as one
                notes.add("process " + p.pid() + " is a client of the server, not the server (processes.yaml clients)"
                        + (port > 0 && servesPort(p.args(), port) ? ", though its command line names port " + port : ""));
                p = new Proc(p.pid(), p.ppid(), p.state(), p.elapsedSec(), p.rssKiB(), p.args(), "other", "",
                        p.probe(), p.line(), p.excerpt());
            } else if ("other".equals(p.role()) && foreign == null && port > 0 && servesPort(p.args(), port)) {
                if (owner < 0 || owner == p.pid()) {
                    p = new Proc(p.pid(), p.ppid(), p.state(), p.elapsedSec(), p.rssKiB(), p.args(), "frontend", "",
                            p.probe(), p.line(), p.excerpt());
                    notes.add("process " + p.pid() + " taken for the server: its command line names port " + port
                            + (owner == p.pid() ? " and it owns the port's listener" : ""));
                } else {
                    notes.add("process " + p.pid() + " names port " + port + " but PID " + owner
                            + " owns its listener: a client, not the server");
                }
            }
            sink.add(p);
            kept.put(p.pid(), p);
            if ("frontend".equals(p.role()) && p.live()) {
                for (Map.Entry<String, String> a : ArgsDump.commandLine(p.args())) {
                    sink.add(new ServerArg(a.getKey(), a.getValue(), "cmdline", true, p.pid(), -1, p.probe(),
                            p.line(), Text.excerpt(a.getKey() + "=" + a.getValue())));
                }
            }
        }

        compilers(kept, sink);

        int y = year > 0 ? year : OffsetDateTime.now(ZoneOffset.UTC).getYear();
        long c = clock;
        ZoneOffset z = zone;
        List<ProbeOutput> otherLogs = new ArrayList<>();
        List<String> twice = LoadParser.takenTwice(capture.probes());
        for (ProbeOutput p : capture.probes().values()) {
            // a log taken again seconds later (docker_logs_2) is the second look's, compared with the first take
            if (isOtherLog(p.name()) && !(p.name().endsWith(LoadParser.AGAIN)
                    && twice.contains(p.name().substring(0, p.name().length() - LoadParser.AGAIN.length())))) {
                otherLogs.add(p);
            }
        }
        List<String> logNames = new ArrayList<>();
        if (capture.probes().containsKey("log_tail")) {
            logNames.add("log_tail");
        }
        otherLogs.forEach(o -> logNames.add(o.name()));
        // a log saved under another name (vllm.log, server_log.out) is the log's tail when the capture has none: the
        // marker lines grep numbered are aligned with it, not read a second time before it
        ProbeOutput tail = capture.probes().get("log_tail");
        if (tail == null && !otherLogs.isEmpty()) {
            tail = otherLogs.remove(0);
        }
        String serverForMarkers = markersByServer.containsKey(server) ? server : "";
        int before = sink.facts().size();
        try {
            LogParser.parse(tail, capture.probes().get("log_markers"), otherLogs,
                    markersByServer.get(serverForMarkers), indexByServer.computeIfAbsent(serverForMarkers,
                            k -> new io.triage.knowledge.LiteralIndex(markersByServer.get(k))), z, y, c, sink,
                    new WorkLog(kb.cadence(), server));
        } catch (RuntimeException | StackOverflowError e) {
            sink.unparseable("log_tail", "log could not be read: " + e, 0, "");
        }
        if (server.isEmpty()) {
            server = inferServerFromLog(sink.facts().subList(before, sink.facts().size()), notes);
        }
        // the body of a real request the server failed (5xx) names what failed in the server's own words ("unable
        // to load model: …", an engine's death): its errors are read with the catalogue's markers, apart from the log
        for (Object f : List.copyOf(sink.facts())) {
            if (f instanceof io.triage.facts.Generation g && g.httpCode() >= 500 && !g.body().isEmpty()) {
                String forMarkers = markersByServer.containsKey(server) ? server : "";
                LogParser.answer(g.probe(), g.body(), g.line(), markersByServer.get(forMarkers),
                        indexByServer.computeIfAbsent(forMarkers, k -> new io.triage.knowledge.LiteralIndex(markersByServer.get(k))), sink);
                break;
            }
        }

        // busy-hung: the server's own load, and what moved between the second look's two samples
        LoadParser load = new LoadParser(kb.cadence());
        guarded(capture.probes().get("metrics"), sink, p -> load.metrics(p, sink));
        guarded(capture.probes().get("models"), sink, p -> ModelsParser.served(p, sink));
        guarded(capture.probes().get("du"), sink, p -> load.du(p, sink));
        for (ProbeOutput p : capture.probes().values()) {
            // a listing is an extra probe's output: the standard probes and the logs are not looked through
            if (!readsByName(p.name()) && p.out() != null
                    && (p.out().contains(".incomplete") || p.out().contains(".downloadInProgress")
                        || p.out().contains("-partial"))) {
                guarded(p, sink, o -> load.partialDownloads(o, c, z, sink));
                break;
            }
        }
        ProbeOutput firstScrape = capture.probes().get("metrics");
        if (!capture.probes().containsKey("second_look") && !twice.isEmpty()) {
            guarded(capture.probes().get(twice.get(0) + LoadParser.AGAIN), sink,
                    p -> load.pairedLook(capture.probes(), logNames, line -> LogParser.notWork(line,
                            markersByServer.get(serverForMarkers), indexByServer.get(serverForMarkers)), sink));
        }
        if (firstScrape != null && !capture.probes().containsKey("second_look") && !twice.contains("metrics")) {
            for (ProbeOutput later : capture.probes().values()) {
                if (later.name().startsWith("metrics_")) {
                    guarded(later, sink, p -> load.metricsTwice(firstScrape, p, sink));
                    break;
                }
            }
        }
        ProbeOutput firstLook = capture.probes().get("first_look");
        guarded(capture.probes().get("second_look"), sink, p -> {
            if (firstLook != null) {
                load.secondLook(firstLook, p, sink);
            } else {
                sink.unparseable(p.name(), "a second sample without the first (first_look): nothing compared", 0, "");
            }
        });

        for (String dmesgName : KERNEL_LOGS) {
            guarded(capture.probes().get(dmesgName), sink, p -> KernelLogParser.parse(p, sink, y, z));
        }
        for (ProbeOutput kernelJournal : capture.probes().values()) {
            // a second kernel journal by name (the first was filed as journal_kernel): read under its own name
            if (!KERNEL_LOGS.contains(kernelJournal.name()) && isKernelJournal(kernelJournal.name())) {
                guarded(kernelJournal, sink, p -> KernelLogParser.parse(p, sink, y, z));
            }
        }

        for (String name : List.of("docker_ps", "podman_ps", "docker_compose_ps", "compose_ps")) {
            guarded(capture.probes().get(name), sink, p -> containers(p, kb.processes(), sink));
        }
        SupervisorParsers.read(capture, kb.processes(), sink);

        Map<String, String> intent = new LinkedHashMap<>(capture.intent());
        intent.putAll(extraIntent);
        final long now = clock;
        final ZoneOffset tz = zone;
        intent.forEach((k, v) -> sink.add(intent(k, v, capture.intent().containsKey(k) && !extraIntent.containsKey(k), now, tz)));

        // per-GPU thresholds and the Xid catalogue entries for codes seen
        Set<Integer> profiled = new HashSet<>();
        Set<Integer> xids = new HashSet<>();
        List<Object> extra = new ArrayList<>();
        List<Gpu> gpusSeen = new ArrayList<>();
        Map<Integer, io.triage.facts.GpuProfile> profiles = new HashMap<>();
        for (Object f : sink.facts()) {
            if (f instanceof Gpu g && profiled.add(g.index())) {
                io.triage.facts.GpuProfile gp = kb.gpuProfile(g.index(), g.name());
                extra.add(gp);
                gpusSeen.add(g);
                profiles.put(g.index(), gp);
            } else if (f instanceof KernelEvent k && k.kind().equals("xid") && xids.add(k.code())) {
                kb.xid(k.code()).ifPresent(extra::add);
            }
        }
        if (!gpusSeen.isEmpty()) {
            extra.add(LoadParser.gpuActivity(gpusSeen, profiles));
        }
        extra.add(kb.thresholds());
        extra.add(kb.catalogue());
        Target target = new Target(server, port, log);
        extra.add(target);
        KnowledgeBase.ServesSpec serves = kb.serves().get(server);
        if (serves != null) {
            extra.add(new io.triage.facts.ServerTraits(server, serves.port(), serves.health(),
                    serves.inProcessEngine(), serves.onDemandModels(), serves.unavailable()));
        }
        List<Object> facts = dedupe(sink.facts());
        facts = beforeTheProcessStarted(facts, clock, port, notes);
        facts = xidsBeforeTheServer(facts, clock, notes);
        facts.addAll(extra);
        notes.addAll(sink.notes());
        notes.addAll(sink.budget().notes());
        return new Observation(target, facts, notes, sink.budget().spent());
    }

    /** How far a kernel log's times may be off the capture's clock: dmesg -T prints local time, without its zone. */
    private static final long KERNEL_CLOCK_SKEW_SECONDS = 14 * 3600;

    /**
     * Xids the kernel logged well before every live server process started (by more than any time zone's skew): an
     * earlier run's history, which may explain how that run ended but not this one's state. Kept as evidence of kind
     * {@code xid-history}, with a note, so that no rule reads them as a fault of the GPUs the running server uses.
     */
    private static List<Object> xidsBeforeTheServer(List<Object> facts, long clock, List<String> notes) {
        if (clock < 0) {
            return facts;
        }
        long earliestStart = Long.MAX_VALUE;
        for (Object f : facts) {
            if (f instanceof Proc p && p.live() && (p.role().equals("frontend") || p.role().equals("worker"))
                    && p.elapsedSec() >= 0) {
                earliestStart = Math.min(earliestStart, clock - p.elapsedSec());
            }
        }
        if (earliestStart == Long.MAX_VALUE) {
            return facts;
        }
        List<Object> out = new ArrayList<>(facts.size());
        for (Object f : facts) {
            if (f instanceof KernelEvent k && k.kind().equals("xid") && k.epoch() >= 0
                    && k.epoch() < earliestStart - KERNEL_CLOCK_SKEW_SECONDS) {
                out.add(new KernelEvent("xid-history", k.pid(), k.process(), k.code(), k.epoch(), k.serverProcess(),
                        k.probe(), k.line(), k.excerpt()));
                notes.add("Xid " + k.code() + " (" + k.probe() + " line " + k.line() + ") was logged "
                        + (earliestStart - k.epoch()) / 86400 + " d before the running server's processes started:"
                        + " an earlier run's history, not read as a fault of this one");
            } else {
                out.add(f);
            }
        }
        return out;
    }

    /**
     * Lines of the newest run logged before the server's front end started (its age in the process listing, or the
     * start its container runtime recorded) belong to a run before it, whose restart the log does not show (a log
     * grep that holds only errors, a runtime that restarted the container): they are history, not this process's
     * errors. Done only when the log also has lines of work after that start, so its times and the clock agree, and
     * holds no start of its own near it (its arguments, its ready banner: then the log knows where the run began).
     */
    private static List<Object> beforeTheProcessStarted(List<Object> facts, long clock, int port, List<String> notes) {
        if (clock < 0) {
            return facts;
        }
        // the target's front end: the one listening on its port when the listeners were read, else every front end
        Set<Integer> owners = new HashSet<>();
        for (Object f : facts) {
            if (f instanceof io.triage.facts.Listener l && port > 0 && l.port() == port) {
                owners.add(l.pid());
            }
        }
        boolean ownerIsFrontEnd = facts.stream().anyMatch(f -> f instanceof Proc p && p.role().equals("frontend")
                && owners.contains(p.pid())); // a docker-proxy or another program may hold it instead
        long start = Long.MAX_VALUE;
        for (Object f : facts) {
            if (f instanceof Proc p && p.role().equals("frontend") && !p.state().equals("Z") && p.elapsedSec() >= 0
                    && (!ownerIsFrontEnd || owners.contains(p.pid()))) {
                start = Math.min(start, clock - p.elapsedSec());
            }
        }
        if (start == Long.MAX_VALUE || start > clock) {
            return facts;
        }
        final long from = start;
        boolean workAfter = facts.stream().anyMatch(f -> f instanceof LogMarker m && m.currentRun() && m.epoch() > from
                && m.kind().equals("progress"));
        boolean before = facts.stream().anyMatch(f -> f instanceof LogMarker m && m.currentRun() && m.epoch() >= 0
                && m.epoch() < from - START_SLACK_SECONDS && !m.kind().equals("progress") && !m.kind().equals("access"));
        // the log's own start of this run near that start (its arguments, its ready banner): the log knows where the
        // run began, and a few seconds' disagreement with the process's age is the capture's, not a restart
        boolean ownStart = facts.stream().anyMatch(f -> f instanceof LogMarker m && m.currentRun() && m.epoch() >= from - 600
                && (m.kind().equals("run-start") || m.kind().equals("server-args") || m.kind().equals("ready")));
        if (!workAfter || !before || ownStart) {
            return facts;
        }
        List<Object> out = new ArrayList<>(facts.size());
        int moved = 0;
        for (Object f : facts) {
            if (f instanceof LogMarker m && m.currentRun() && m.epoch() >= 0 && m.epoch() < from - START_SLACK_SECONDS) {
                out.add(new LogMarker(m.kind(), m.markerId(), m.subtype(), m.priority(), m.seq(), m.run() - 1, false,
                        m.epoch(), m.detail(), m.probe(), m.line(), m.excerpt()));
                moved++;
            } else {
                out.add(f);
            }
        }
        notes.add(moved + " line(s) of the log predate the server's front end (started "
                + java.time.Instant.ofEpochSecond(from) + "): read as a run before it");
        return out;
    }

    /** What {@code date} printed, as {@code date -Is} or in its own format with a UTC zone; null otherwise. */
    private static OffsetDateTime dateOutput(String line) {
        OffsetDateTime odt = Timestamps.isoInstant(line);
        return odt != null ? odt : Timestamps.plainDate(line);
    }

    /** How much earlier than the process's start a line must be to be a run before it (clock and ps rounding). */
    private static final long START_SLACK_SECONDS = 5;

    private static final Pattern PORT_ARG = Pattern.compile("--port[= ](\\d{1,5})(?!\\d)");

    /**
     * Why a server process is not the target's, or null: it is another kind of server than the target,
     * or its command line names another port while some other server process serves the target's (a
     * lone server on another port is the target probed at the wrong port). Two servers on one host must
     * not vouch for each other; a worker of a foreign server is foreign too.
     */
    private static String foreign(Proc p, String server, int port) {
        if ("other".equals(p.role())) {
            return null;
        }
        if (!server.isEmpty() && !p.server().isEmpty() && !p.server().equals(server)) {
            return p.server() + " while the target is " + server;
        }
        Matcher m = PORT_ARG.matcher(p.args());
        if (port > 0 && m.find() && Integer.parseInt(m.group(1)) != port) {
            return "port " + m.group(1) + " while the target's is " + port;
        }
        return null;
    }

    /**
     * Nothing serves the target's port, but a front end serving another port lives beside server processes outside
     * its own process tree (an engine and workers its dead front end left, a second instance's remains): that front end
     * is another instance, not the target probed at the wrong port, and so is its tree. A lone server on another port
     * stays the target (probed at the wrong port). PID to the reason, for each process of such an instance.
     */
    private static Map<Integer, String> otherInstances(Map<Integer, Proc> procs, int port) {
        // without parent PIDs (pgrep alone) no tree is known: nothing is set apart
        if (procs.values().stream().anyMatch(p -> p.ppid() < 0)) {
            return Map.of();
        }
        Map<Integer, List<Integer>> children = new java.util.HashMap<>();
        for (Proc p : procs.values()) {
            children.computeIfAbsent(p.ppid(), k -> new ArrayList<>()).add(p.pid());
        }
        Map<Integer, String> out = new java.util.HashMap<>();
        for (Proc f : procs.values()) {
            if (!"frontend".equals(f.role()) || !f.live() || f.server().isEmpty()) {
                continue;
            }
            Matcher m = PORT_ARG.matcher(f.args());
            if (!m.find() || Integer.parseInt(m.group(1)) == port) {
                continue;
            }
            // the front end's own tree, walked once from a parent-to-children map, and the chain of its ancestors
            java.util.Set<Integer> tree = new HashSet<>(List.of(f.pid()));
            java.util.ArrayDeque<Integer> todo = new java.util.ArrayDeque<>(List.of(f.pid()));
            while (!todo.isEmpty() && tree.size() <= procs.size()) {
                for (Integer c : children.getOrDefault(todo.poll(), List.of())) {
                    if (tree.add(c)) {
                        todo.add(c);
                    }
                }
            }
            java.util.Set<Integer> ancestors = new HashSet<>();
            ancestry(procs, f).forEach(a -> ancestors.add(a.pid()));
            // outside it: a live process of the same server kind (an engine or workers a dead front end left), not a
            // wrapper above it and not another kind of program
            boolean outside = procs.values().stream().anyMatch(p -> p.live() && !tree.contains(p.pid())
                    && !ancestors.contains(p.pid()) && f.server().equals(p.server()));
            if (outside) {
                String why = "port " + m.group(1) + " while the target's is " + port
                        + ", beside server processes outside its tree";
                for (Integer pid : tree) {
                    out.put(pid, pid == f.pid() ? why : "of the instance of process " + f.pid() + ": " + why);
                }
            }
        }
        return out;
    }

    /** Ancestors climbed from a process (a compiler to the server that started it, a front end to its wrappers). */
    private static final int MAX_ANCESTRY = 16;

    /** Each live compiler whose ancestors include a server process (not another instance's): kernels being built. */
    private void compilers(Map<Integer, Proc> procs, Sink sink) {
        for (Proc c : procs.values()) {
            if ("Z".equals(c.state()) || !"other".equals(c.role()) || !kb.processes().compiler(c.args())) {
                continue;
            }
            ancestry(procs, c).stream()
                    .filter(up -> ("frontend".equals(up.role()) || "worker".equals(up.role())) && !up.server().isEmpty())
                    .findFirst()
                    .ifPresent(up -> sink.add(new io.triage.facts.Compiling(c.pid(), up.pid(), c.elapsedSec(), c.probe(),
                            c.line(), c.excerpt())));
        }
    }

    /** A process's parent, its parent's parent…, nearest first, as far as the list shows them (bounded, loop-safe). */
    private static List<Proc> ancestry(Map<Integer, Proc> procs, Proc p) {
        List<Proc> out = new ArrayList<>();
        java.util.Set<Integer> seen = new HashSet<>(List.of(p.pid()));
        for (Proc up = procs.get(p.ppid()); up != null && out.size() < MAX_ANCESTRY && seen.add(up.pid());
                up = procs.get(up.ppid())) {
            out.add(up);
        }
        return out;
    }

    private static final Pattern PORT_MENTION = Pattern.compile("(?:--port[= ]|:)(\\d{1,5})(?!\\d)");

    private static boolean servesPort(String args, int port) {
        Matcher m = PORT_MENTION.matcher(args);
        while (m.find()) {
            // a URL's port (--base-url http://127.0.0.1:23333/v1) is where a client connects, not where it serves
            int tokenStart = Math.max(args.lastIndexOf(' ', m.start()), args.lastIndexOf('=', m.start())) + 1;
            if (!args.startsWith("-", m.start()) && args.substring(tokenStart, m.start()).contains("://")) {
                continue;
            }
            if (Integer.parseInt(m.group(1)) == port) {
                return true;
            }
        }
        return false;
    }

    /**
     * The same GPU or compute app seen by two probes (CSV and table) is kept once, the CSV's; compute
     * apps get the role their name says.
     */
    private List<Object> dedupe(List<Object> facts) {
        Set<Integer> gpus = new HashSet<>();
        Set<Integer> apps = new HashSet<>();
        List<Object> out = new ArrayList<>(facts.size() + 8);
        for (Object f : facts) {
            if (f instanceof Gpu g && !gpus.add(g.index())) {
                continue;
            }
            if (f instanceof KernelEvent k && !k.process().isEmpty()) {
                f = new KernelEvent(k.kind(), k.pid(), k.process(), k.code(), k.epoch(),
                        kb.processes().serverComm(k.process()), k.probe(), k.line(), k.excerpt());
            }
            if (f instanceof GpuApp a) {
                if (!apps.add(a.pid())) {
                    continue;
                }
                String role = kb.processes().classify(a.name()).role();
                f = new GpuApp(a.pid(), a.name(), a.usedMiB(), "client".equals(role) ? "other" : role, a.probe(),
                        a.line(), a.excerpt());
            }
            out.add(f);
        }
        return out;
    }

    private String inferServerFromLog(List<Object> facts, List<String> notes) {
        Map<String, Integer> votes = new HashMap<>();
        for (Object f : facts) {
            if (f instanceof LogMarker m) {
                String s = serverOf.getOrDefault(m.markerId(), "common");
                if (!s.equals("common")) {
                    votes.merge(s, 1, Integer::sum);
                }
            }
        }
        String best = "";
        int bestVotes = 0;
        for (Map.Entry<String, Integer> e : votes.entrySet()) {
            if (e.getValue() > bestVotes) {
                best = e.getKey();
                bestVotes = e.getValue();
            }
        }
        if (!best.isEmpty()) {
            notes.add("server kind '" + best + "' recognised from its log lines");
        }
        return best;
    }

    /** Kernel logs read by name besides {@code dmesg}. */
    private static final List<String> KERNEL_LOGS = List.of("dmesg", "journal_kernel", "kern_log");

    /**
     * The capture with a kernel journal saved under another name ({@code journalctl_k}) filed as
     * {@code journal_kernel}, where the capture has none: the kernel log it is, read and counted as one. Any
     * other kernel journal by name is read as a kernel log under its own name.
     */
    private static Capture kernelJournalFiled(Capture c) {
        if (c.probes().containsKey("journal_kernel")) {
            return c;
        }
        for (ProbeOutput p : c.probes().values()) {
            if (!KERNEL_LOGS.contains(p.name()) && isKernelJournal(p.name())) {
                Map<String, ProbeOutput> probes = new LinkedHashMap<>(c.probes());
                probes.remove(p.name());
                probes.put("journal_kernel", new ProbeOutput("journal_kernel", p.cmd(), p.out(), p.err(), p.rc(),
                        p.seconds(), p.truncated()));
                List<String> notes = new ArrayList<>(c.notes());
                notes.add(p.name() + " is the kernel's journal (journalctl -k): read as journal_kernel");
                return new Capture(c.source(), probes, c.target(), c.intent(), notes);
            }
        }
        return c;
    }

    /**
     * A journal saved under the name of {@code journalctl -k} / {@code journalctl --dmesg} ({@code journalctl_k},
     * {@code journal_k}, {@code journalctl_dmesg}, {@code journal_kernel_boot}…): the kernel's ring buffer, not a
     * unit's journal nor the server's log.
     */
    public static boolean isKernelJournal(String name) {
        String n = name.toLowerCase(java.util.Locale.ROOT);
        if (!n.startsWith("journal")) {
            return false;
        }
        if (n.contains("kernel") || n.contains("dmesg")) {
            return true;
        }
        String rest = n.startsWith("journalctl") ? n.substring("journalctl".length()) : n.substring("journal".length());
        return rest.equals("_k") || rest.startsWith("_k_");
    }

    /** {@code /proc/PID/status} of a server process (proc_status, proc_status_2…). */
    static final String PROC_STATUS = "proc_status";

    /**
     * Whether a parser reads a probe of this name as it is (the standard probes, kernel logs, container lists,
     * logs by their name; a package manager's history is deliberately not a log): the capture's other files are
     * read by their content ({@link io.triage.capture.ByContent}).
     */
    public static boolean readsByName(String name) {
        return STANDARD_PROBES.contains(name) || name.startsWith(PROC_STATUS) || name.equals(GENERATION_PROBE)
                || name.equals(HEALTH_GENERATE_PROBE)
                || KERNEL_LOGS.contains(name) || isKernelJournal(name) || name.equals("docker_ps") || name.equals("docker_compose_ps") || name.equals("compose_ps")
                || name.equals("podman_ps") || name.contains("apt") || isOtherLog(name) || SupervisorParsers.reads(name);
    }

    private static boolean isOtherLog(String name) {
        // log_stat (stat's time and size of the log file) is about the log, not a line of it
        if (name.equals("log_tail") || name.equals("log_markers") || name.contains("apt") || name.contains("dmesg")
                || name.contains("kern") || name.endsWith("_stat") || isKernelJournal(name)) {
            return false;
        }
        // a docker run in the foreground prints the container's own output after the runtime's: the server's log;
        // slurm-JOBID.out (slurm-JOBID_TASK.out) is the job's own output, where srun writes what the server printed
        return name.startsWith("log") || name.endsWith("_log") || name.contains("logs") || name.startsWith("journal")
                || name.startsWith("docker_run") || name.startsWith("podman_run")
                || name.startsWith("slurm-") && name.length() > 6 && name.substring(6).chars().allMatch(c -> c == '_' || c >= '0' && c <= '9')
                || name.equals("slurm_out") || name.equals("slurm_output") || name.equals("job_out") || name.equals("srun_out");
    }

    /**
     * @param clock the capture's clock (epoch seconds), or -1; a bare time of day ({@code launched_at=00:31})
     *              is read in the host's time zone as the latest such moment at or before the capture
     */
    private static Intent intent(String key, String value, boolean fromFile, long clock, ZoneOffset zone) {
        String k = Text.argName(key);
        String v = Text.argValue(value);
        long epoch = -1;
        if (k.equals("launched_at") || k.endsWith("_at")) {
            OffsetDateTime t = Timestamps.isoInstant(v);
            epoch = t == null ? -1 : t.toEpochSecond();
            int secs = Timestamps.timeOfDay(v.strip());
            if (t == null && clock >= 0 && secs >= 0) {
                OffsetDateTime at = java.time.Instant.ofEpochSecond(clock).atOffset(zone).toLocalDate()
                        .atStartOfDay().plusSeconds(secs).atOffset(zone);
                if (at.toEpochSecond() > clock) {
                    at = at.minusDays(1);
                }
                epoch = at.toEpochSecond();
                v = at.toString();
            }
        }
        return new Intent(k, v, epoch, fromFile ? "intent.txt" : "operator", 0, k + "=" + v);
    }

    /** {@code ss -ltnp} or {@code netstat -ltnp}: each listening socket to {@code out}. */
    private static void listen(ProbeOutput p, Sink sink, java.util.function.Consumer<Listener> out) {
        List<String> lines = sink.lines(p, 2);
        for (int i = 0; i < lines.size(); i++) {
            io.triage.knowledge.LinePattern.Match m = SS_LINE.find(lines.get(i));
            if (m == null) {
                continue;
            }
            int pid = m.group("pid") != null ? Text.parseInt(m.group("pid"), -1)
                    : m.group("npid") != null ? Text.parseInt(m.group("npid"), -1) : -1;
            String name = m.group("comm") != null ? m.group("comm") : m.group("ncomm") != null ? m.group("ncomm") : "";
            out.accept(new Listener(Text.parseInt(m.group("port"), -1), pid, name, p.name(), i + 1,
                    Text.excerpt(lines.get(i))));
        }
    }

    /** RE2J: several wildcards between columns, which a backtracking matcher would try in every combination. */
    private static final com.google.re2j.Pattern DOCKER_ROW = com.google.re2j.Pattern.compile(
            "^(\\S+)\\s{2,}(\\S+)\\s{2,}(\"[^\"]*\"|\\S+)\\s{2,}.*?\\s{2,}((?:Exited \\((-?\\d+)\\)|Restarting \\((-?\\d+)\\)|Up|Created|Restarting|Paused|Dead)[^\\n]*?)\\s{2,}(?:.*\\s{2,})?(\\S+)\\s*$");

    /** {@code docker ps -a}: columns separated by two or more spaces; the state says how it ended. */
    private static void containers(ProbeOutput p, ProcessPatterns patterns, Sink sink) {
        List<String> lines = sink.lines(p, 3);
        int[] compose = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (compose == null && COMPOSE_HEADER.matcher(line).find()) {
                // docker compose ps: NAME IMAGE COMMAND SERVICE CREATED STATUS PORTS, rows aligned with the header
                compose = new int[] {line.indexOf("NAME"), line.indexOf("IMAGE"), line.indexOf("COMMAND"),
                        line.indexOf("SERVICE"), line.indexOf("STATUS"), line.indexOf("PORTS")};
                continue;
            }
            if (compose != null) {
                composeRow(p, line, i + 1, compose, patterns, sink);
                continue;
            }
            if (line.indexOf('\t') >= 0 && formattedRow(p, line, i + 1, patterns, sink)) {
                continue;
            }
            if (line.startsWith("CONTAINER ID") || line.isBlank() || line.startsWith("$ ")) {
                continue; // the header, and the prompt line of a paste
            }
            com.google.re2j.Matcher m = DOCKER_ROW.matcher(line);
            if (!m.find()) {
                sink.unparseable(p.name(), "not a 'docker ps -a' row", i + 1, Text.excerpt(line));
                continue;
            }
            // Exited (N), or Restarting (N): a restart policy brings it back after each exit of code N
            String exited = m.group(5) != null ? m.group(5) : m.group(6);
            int code = exited == null ? -1 : Text.parseInt(exited, -1);
            String command = m.group(3).replace("\"", "");
            sink.add(new Container(m.group(7), m.group(2), command, m.group(4).strip(), code,
                    patterns.serverContainer(m.group(2), command), p.name(), i + 1, Text.excerpt(line)));
        }
    }

    private static final com.google.re2j.Pattern COMPOSE_HEADER = com.google.re2j.Pattern.compile(
            "^NAME\\s+IMAGE\\s+COMMAND\\s+SERVICE\\s+CREATED\\s+STATUS\\b");
    private static final com.google.re2j.Pattern CONTAINER_STATE = com.google.re2j.Pattern.compile(
            "^(?:Exited \\((-?\\d{1,4})\\)|Restarting \\((-?\\d{1,4})\\)|(?:Up|Created|Restarting|Paused|Dead)\\b)");

    /** A row of {@code docker compose ps}, cut at the header's columns {NAME, IMAGE, COMMAND, SERVICE, STATUS, PORTS}. */
    private static void composeRow(ProbeOutput p, String line, int lineNo, int[] at, ProcessPatterns patterns, Sink sink) {
        if (line.isBlank()) {
            return;
        }
        String name = column(line, at[0], at[1]);
        String image = column(line, at[1], at[2]);
        String command = column(line, at[2], at[3]).replace("\"", "");
        String state = column(line, at[4], at[5] > at[4] ? at[5] : line.length());
        com.google.re2j.Matcher m = CONTAINER_STATE.matcher(state);
        if (name.isEmpty() || image.isEmpty() || !m.find()) {
            sink.unparseable(p.name(), "not a 'docker compose ps' row", lineNo, Text.excerpt(line));
            return;
        }
        String exited = m.group(1) != null ? m.group(1) : m.group(2);
        sink.add(new Container(name, image, command, state, exited == null ? -1 : Text.parseInt(exited, -1),
                patterns.serverContainer(image, command), p.name(), lineNo, Text.excerpt(line)));
    }

    /**
     * A row of {@code docker ps --format '{{.Names}}\t{{.Image}}\t{{.Status}}'} (any order, tabs between): the field
     * that reads as a state is the status, one with a registry path or a tag the image, the first other the name.
     * False when the line holds no state (a header of {@code table …}, anything else).
     */
    private static boolean formattedRow(ProbeOutput p, String line, int lineNo, ProcessPatterns patterns, Sink sink) {
        String[] f = line.split("\t", 8);
        if (f.length < 2 || f.length > 7) {
            return false;
        }
        int state = -1;
        for (int k = 0; k < f.length; k++) {
            if (CONTAINER_STATE.matcher(f[k].strip()).find()) {
                state = k;
                break;
            }
        }
        if (state < 0) {
            return false;
        }
        String name = "";
        String image = "";
        for (int k = 0; k < f.length; k++) {
            String v = f[k].strip();
            if (k == state || v.isEmpty()) {
                continue;
            }
            if (image.isEmpty() && (v.contains("/") || v.contains(":")) && !v.contains(" ")) {
                image = v;
            } else if (name.isEmpty() && !v.contains(" ")) {
                name = v;
            }
        }
        if (name.isEmpty()) {
            return false;
        }
        String status = f[state].strip();
        com.google.re2j.Matcher m = CONTAINER_STATE.matcher(status);
        m.find();
        String exited = m.group(1) != null ? m.group(1) : m.group(2);
        boolean server = image.isEmpty() ? patterns.serverContainer(name, "") : patterns.serverContainer(image, "");
        sink.add(new Container(name, image, "", status, exited == null ? -1 : Text.parseInt(exited, -1), server,
                p.name(), lineNo, Text.excerpt(line)));
        return true;
    }

    /** The text of a line between two column offsets, stripped; empty when the line is shorter. */
    private static String column(String line, int from, int to) {
        if (from < 0 || from >= line.length()) {
            return "";
        }
        return line.substring(from, Math.max(from, Math.min(to < 0 ? line.length() : to, line.length()))).strip();
    }

    /** Probe status from the exit code, with the codes that mean "ran, found nothing" taken as ok. */
    static ProbeStatus status(ProbeOutput p) {
        boolean empty = p.outOrEmpty().isBlank();
        double secs = p.seconds() == null ? -1 : p.seconds();
        String err = firstNonBlankLine(p.errOrEmpty());
        if (p.out() == null && p.err() == null && p.rc() == null) {
            return new ProbeStatus(p.name(), "absent", -1, secs, true, "only its command was recorded");
        }
        if (p.rc() == null) {
            // output saved without its exit code: a command that could not run still says so, in its error text or
            // (2>&1, a paste of the terminal) as the first line of its output
            String said = !err.isEmpty() ? err : firstNonBlankLine(p.outOrEmpty());
            if (said.contains("command not found")) {
                return new ProbeStatus(p.name(), "not-found", -1, secs, empty, Text.excerpt(said));
            }
            String refused = refusal(p, err);
            if (refused != null) {
                return new ProbeStatus(p.name(), MISSING_FILE.matcher(refused).find() ? "missing-file" : "failed", -1,
                        secs, empty, refused);
            }
            return new ProbeStatus(p.name(), "no-exit-code", -1, secs, empty, "");
        }
        int rc = p.rc();
        String status;
        if (rc == 0) {
            status = "ok";
        } else if (rc == 124) {
            status = "timeout";
        } else if (rc == 127 || err.contains("command not found")) {
            status = "not-found";
        } else if ((p.name().equals("health") || p.name().equals(GENERATION_PROBE)
                || p.name().equals(HEALTH_GENERATE_PROBE)) && rc != 126) {
            status = "ok"; // curl's own failure (refused, timed out) is the observation itself
        } else if (rc == 3 && p.name().equals("systemctl_status") && !empty) {
            status = "ok"; // systemctl status says 3 for a unit that is not active: its status is the answer
        } else if (rc == 1 && (p.name().equals("pgrep") || p.name().equals("ps") || p.name().equals("log_markers"))
                && err.isEmpty()) {
            status = "ok"; // pgrep and grep say 1 for "no match"
        } else {
            status = "failed";
        }
        String reason = status.equals("ok") ? "" : Text.excerpt(err.isEmpty() ? firstNonBlankLine(p.outOrEmpty()) : err);
        String refused = status.equals("ok") ? refusal(p, err) : null;
        if (refused != null) {
            status = "failed";
            reason = refused;
        }
        if (status.equals("failed") && MISSING_FILE.matcher(reason).find()) {
            status = "missing-file";
        }
        return new ProbeStatus(p.name(), status, rc, secs, empty, reason);
    }

    /** Whether a line opens as a command's own complaint does: {@code tail: cannot open…}, not {@code PermissionError:…}. */
    private static boolean commandSays(String line) {
        int colon = line.indexOf(": ");
        if (colon <= 0 || !Character.isLowerCase(line.charAt(0))) {
            return false;
        }
        for (int i = 1; i < colon; i++) {
            char c = line.charAt(i);
            if (!Character.isLetterOrDigit(c) && c != '_' && c != '-' && c != '.') {
                return false;
            }
        }
        return true;
    }

    /**
     * Why a probe that ran read nothing it was asked for, or null: the kernel log's own refusal ({@code dmesg: read
     * kernel buffer failed}, in its output or error text), or a denial or missing file in its error text, or as the
     * whole of its output in a command's own words (2>&1, a paste of the terminal: {@code tail: cannot open…}; a log
     * line that quotes such words, {@code PermissionError: … Permission denied}, is read as the log it is).
     * A health probe's failure is its observation, never a refusal.
     */
    private static String refusal(ProbeOutput p, String err) {
        if (p.name().equals("dmesg") && (p.outOrEmpty().contains("read kernel buffer failed") || err.contains("read kernel buffer failed"))) {
            return "dmesg: read kernel buffer failed (needs root or kernel.dmesg_restrict=0)";
        }
        String out = p.outOrEmpty().strip();
        String said = !err.isEmpty() ? err : out.indexOf('\n') < 0 && commandSays(out) ? out : "";
        if (p.name().equals("health") || !(said.contains("Permission denied") || said.contains("Operation not permitted")
                || said.contains("No such file"))) {
            return null;
        }
        return Text.excerpt(said);
    }

    /**
     * The first line of {@code text} that is not blank, as {@link Text#lines} cuts lines, or empty; without
     * cutting the whole text into lines (a probe's output of thousands of lines is read for its first).
     */
    static String firstNonBlankLine(String text) {
        int from = 0;
        int n = text.length();
        while (from < n) {
            int nl = text.indexOf('\n', from);
            int end = nl < 0 ? n : nl;
            String line = text.substring(from, end);
            if (!line.isBlank()) {
                return line;
            }
            from = end + 1;
        }
        return "";
    }

    /** How tail, grep and friends say the file they were given does not exist. */
    private static final Pattern MISSING_FILE = Pattern.compile("(?i)no such file|cannot open");

    static void guarded(ProbeOutput p, Sink sink, java.util.function.Consumer<ProbeOutput> parser) {
        if (p == null) {
            return;
        }
        try {
            parser.accept(p);
        } catch (RuntimeException | StackOverflowError | LinkageError | AssertionError e) {
            // one probe's parser failing costs that probe only: the rest of the capture is still read
            sink.unparseable(p.name(), "parser failed on this output: " + e, 0, "");
        }
    }

}
