package io.triage.knowledge;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Which command lines are which server's front end or workers, and which are the probe itself. */
public final class ProcessPatterns {
    /** Result of classifying one command line. */
    public record Role(String role, String server) {
        public static final Role OTHER = new Role("other", "");
        public static final Role PROBE = new Role("probe", "");
        /** A program that talks to a server (a benchmark, a health loop, this product): never the server. */
        public static final Role CLIENT = new Role("client", "");
    }

    private final List<LinePattern> ignore;
    private final Map<String, List<LinePattern>> frontends;
    private final Map<String, List<LinePattern>> workers;
    private final List<LinePattern> comm;
    private final List<LinePattern> containers;
    private final List<LinePattern> clients;
    private final List<LinePattern> compilers;

    private ProcessPatterns(List<LinePattern> ignore, Map<String, List<LinePattern>> frontends,
                            Map<String, List<LinePattern>> workers, List<LinePattern> comm, List<LinePattern> containers,
                            List<LinePattern> clients, List<LinePattern> compilers) {
        this.ignore = ignore;
        this.clients = clients;
        this.compilers = compilers;
        this.frontends = frontends;
        this.workers = workers;
        this.comm = comm;
        this.containers = containers;
    }

    /** How many patterns there are: what classifying one command line may try. */
    public int size() {
        int n = ignore.size() + clients.size() + comm.size() + containers.size() + compilers.size();
        for (List<LinePattern> l : frontends.values()) {
            n += l.size();
        }
        for (List<LinePattern> l : workers.values()) {
            n += l.size();
        }
        return n;
    }

    /** True when a kernel process name (15 characters at most, as the OOM killer prints it) is a server's. */
    public boolean serverComm(String name) {
        return any(comm, name);
    }

    /** True when a command line is a compiler's ({@code compilers:}): kernels being built, if a server started it. */
    public boolean compiler(String args) {
        return any(compilers, args);
    }

    /** True when a container's image or command is an inference server's. */
    public boolean serverContainer(String image, String command) {
        return any(containers, image) || any(containers, command);
    }

    private static boolean any(List<LinePattern> patterns, String text) {
        if (text == null) {
            return false;
        }
        LinePattern.Shape shape = LinePattern.shape(text);
        for (LinePattern p : patterns) {
            if (p.find(text, shape) != null) {
                return true;
            }
        }
        return false;
    }

    /** Writes the patterns' regexes in {@link Compact}'s form ({@link #readFrom} compiles them again). */
    void writeTo(Compact.Out o) {
        for (List<LinePattern> l : List.of(ignore, comm, containers, clients, compilers)) {
            regexes(o, l);
        }
        for (Map<String, List<LinePattern>> m : List.of(frontends, workers)) {
            o.count(m.size());
            m.forEach((server, l) -> {
                o.str(server);
                regexes(o, l);
            });
        }
    }

    private static void regexes(Compact.Out o, List<LinePattern> l) {
        o.strs(l.stream().map(LinePattern::pattern).toList());
    }

    /** What {@link #writeTo} wrote. */
    static ProcessPatterns readFrom(Compact.In in) throws java.io.IOException {
        List<List<LinePattern>> lists = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            lists.add(patterns(in));
        }
        List<Map<String, List<LinePattern>>> maps = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Map<String, List<LinePattern>> m = new LinkedHashMap<>();
            for (int j = 0, n = in.count(); j < n; j++) {
                m.put(in.str(), patterns(in));
            }
            maps.add(m);
        }
        return new ProcessPatterns(lists.get(0), maps.get(0), maps.get(1), lists.get(1), lists.get(2), lists.get(3),
                lists.get(4));
    }

    private static List<LinePattern> patterns(Compact.In in) throws java.io.IOException {
        List<String> regexes = in.strs();
        if (regexes == null) {
            throw new java.io.IOException("missing process patterns");
        }
        List<LinePattern> out = new ArrayList<>(regexes.size());
        for (String r : regexes) {
            out.add(LinePattern.deferred(r, List.of()));
        }
        return List.copyOf(out);
    }

    static ProcessPatterns compile(KnowledgeBase.ProcessFile file, Path path) {
        KnowledgeBase.require(file.servers() != null && !file.servers().isEmpty(), path, "needs 'servers:'");
        List<LinePattern> ignore = compileAll(file.ignore(), path, "ignore");
        Map<String, List<LinePattern>> fronts = new LinkedHashMap<>();
        Map<String, List<LinePattern>> works = new LinkedHashMap<>();
        file.servers().forEach((server, spec) -> {
            fronts.put(server, compileAll(spec.frontend(), path, server + ".frontend"));
            works.put(server, compileAll(spec.workers(), path, server + ".workers"));
        });
        if (file.generic() != null) {
            fronts.put("", compileAll(file.generic().frontend(), path, "generic.frontend"));
            works.put("", compileAll(file.generic().workers(), path, "generic.workers"));
        }
        return new ProcessPatterns(ignore, fronts, works, compileAll(file.comm(), path, "comm"),
                compileAll(file.containers(), path, "containers"), compileAll(file.clients(), path, "clients"),
                compileAll(file.compilers(), path, "compilers"));
    }

    private static List<LinePattern> compileAll(List<String> regexes, Path path, String where) {
        List<LinePattern> out = new ArrayList<>();
        if (regexes != null) {
            for (String r : regexes) {
                try {
                    out.add(LinePattern.compile(r, List.of()));
                } catch (com.google.re2j.PatternSyntaxException e) {
                    throw new KnowledgeException(path + ": " + where + ": pattern not accepted by the linear-time engine '" + r + "': "
                            + e.getDescription());
                }
            }
        }
        return out;
    }

    /**
     * Fixed strings, one of which every match of a {@code containers:} pattern holds (per branch of an alternation;
     * lower case when the pattern ignores case): the words a server's container, unit or job name carries. A branch
     * with no such string gives none.
     */
    public List<String> containerLiterals() {
        List<String> out = new ArrayList<>();
        for (LinePattern p : containers) {
            for (String branch : RegexLiterals.branches(p.pattern())) {
                RegexLiterals.Prefilter f = RegexLiterals.prefilter(branch);
                if (f != null) {
                    out.addAll(f.literals());
                }
            }
        }
        return List.copyOf(out);
    }

    /** The server kinds the catalogue names (its {@code servers:} keys), in file order. */
    public List<String> servers() {
        return frontends.keySet().stream().filter(s -> !s.isEmpty()).toList();
    }

    /** The regexes of every server's (and the generic) front ends and workers: what a server process looks like. */
    public List<String> serverRegexes() {
        List<String> out = new ArrayList<>(frontendRegexes());
        workers.values().forEach(l -> l.forEach(p -> out.add(p.pattern())));
        return out;
    }

    /** The regexes of one server kind's front ends and workers (none for a kind the catalogue lacks). */
    public List<String> serverRegexes(String kind) {
        List<String> out = new ArrayList<>();
        if (kind != null && !kind.isEmpty()) {
            frontends.getOrDefault(kind, List.of()).forEach(p -> out.add(p.pattern()));
            workers.getOrDefault(kind, List.of()).forEach(p -> out.add(p.pattern()));
        }
        return out;
    }

    /** The regexes of every server's (and the generic) front ends. */
    public List<String> frontendRegexes() {
        List<String> out = new ArrayList<>();
        frontends.values().forEach(l -> l.forEach(p -> out.add(p.pattern())));
        return out;
    }

    /** The regexes of the probe's own tools and wrappers ({@code ignore:}). */
    public List<String> ignoreRegexes() {
        return ignore.stream().map(LinePattern::pattern).toList();
    }

    /** The regexes of compilers ({@code compilers:}). */
    public List<String> compilerRegexes() {
        return compilers.stream().map(LinePattern::pattern).toList();
    }

    /** The regexes of known clients ({@code clients:}). */
    public List<String> clientRegexes() {
        return clients.stream().map(LinePattern::pattern).toList();
    }

    /** The regexes of server kernel process names ({@code comm:}). */
    public List<String> commRegexes() {
        return comm.stream().map(LinePattern::pattern).toList();
    }

    /**
     * Classifies a command line. The probe's own wrappers are {@link Role#PROBE}, known clients
     * {@link Role#CLIENT} (before any server pattern: a benchmark's command line names the server it
     * loads); then workers (a worker's title may contain the front end's name), the named servers before
     * the generic patterns.
     */
    public Role classify(String args) {
        LinePattern.Shape shape = LinePattern.shape(args); // one look at the line for every pattern tried
        for (LinePattern p : ignore) {
            if (p.find(args, shape) != null) {
                return Role.PROBE;
            }
        }
        for (LinePattern p : clients) {
            if (p.find(args, shape) != null) {
                return Role.CLIENT;
            }
        }
        for (Map.Entry<String, List<LinePattern>> e : workers.entrySet()) {
            for (LinePattern p : e.getValue()) {
                if (p.find(args, shape) != null) {
                    return new Role("worker", e.getKey());
                }
            }
        }
        for (Map.Entry<String, List<LinePattern>> e : frontends.entrySet()) {
            for (LinePattern p : e.getValue()) {
                if (p.find(args, shape) != null) {
                    return new Role("frontend", e.getKey());
                }
            }
        }
        return Role.OTHER;
    }
}
