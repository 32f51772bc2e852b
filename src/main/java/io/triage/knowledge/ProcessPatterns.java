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
    }

    private final List<LinePattern> ignore;
    private final Map<String, List<LinePattern>> frontends;
    private final Map<String, List<LinePattern>> workers;
    private final List<LinePattern> comm;
    private final List<LinePattern> containers;

    private ProcessPatterns(List<LinePattern> ignore, Map<String, List<LinePattern>> frontends,
                            Map<String, List<LinePattern>> workers, List<LinePattern> comm, List<LinePattern> containers) {
        this.ignore = ignore;
        this.frontends = frontends;
        this.workers = workers;
        this.comm = comm;
        this.containers = containers;
    }

    /** How many patterns there are: what classifying one command line may try. */
    public int size() {
        int n = ignore.size() + comm.size() + containers.size();
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

    /** True when a container's image or command is an inference server's. */
    public boolean serverContainer(String image, String command) {
        return any(containers, image) || any(containers, command);
    }

    private static boolean any(List<LinePattern> patterns, String text) {
        for (LinePattern p : patterns) {
            if (text != null && p.find(text) != null) {
                return true;
            }
        }
        return false;
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
                compileAll(file.containers(), path, "containers"));
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
     * Classifies a command line. Workers are checked first (a worker's title may contain the front
     * end's name), the named servers before the generic patterns; the probe's own wrappers are
     * {@link Role#PROBE}.
     */
    public Role classify(String args) {
        for (LinePattern p : ignore) {
            if (p.find(args) != null) {
                return Role.PROBE;
            }
        }
        for (Map.Entry<String, List<LinePattern>> e : workers.entrySet()) {
            for (LinePattern p : e.getValue()) {
                if (p.find(args) != null) {
                    return new Role("worker", e.getKey());
                }
            }
        }
        for (Map.Entry<String, List<LinePattern>> e : frontends.entrySet()) {
            for (LinePattern p : e.getValue()) {
                if (p.find(args) != null) {
                    return new Role("frontend", e.getKey());
                }
            }
        }
        return Role.OTHER;
    }
}
