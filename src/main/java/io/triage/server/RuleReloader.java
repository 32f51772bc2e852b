package io.triage.server;

import io.triage.ScenarioSuite;
import io.triage.Triage;
import io.triage.engine.RuleBase;
import io.triage.engine.RuleBaseException;
import io.triage.knowledge.KnowledgeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The server's product, replaced when its rules or knowledge change: {@code rules/} and {@code knowledge-base/}
 * (and those of the site overlay it was loaded with) are watched (recursively; a burst of changes is taken as one after a quiet {@code debounce}), the new product is
 * built and checked (compiled, consistent; with {@code strict}, every scenario passes too) and only then swapped
 * in. A failure keeps the last good product serving and is kept, with each error's file and line, for
 * {@code GET /api/v1/rules} and the log. A diagnosis takes {@link #current()} once and runs on it to the end.
 */
public final class RuleReloader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RuleReloader.class);

    /**
     * One reload: when it ended, whether it was swapped in, the content hash it built (empty when it did not build),
     * what refused it (file and line where known) and how long building and checking took.
     */
    public record Attempt(Instant at, boolean ok, String contentHash, String reason, List<RuleBase.Problem> errors,
                          double seconds) {
        public Attempt {
            errors = List.copyOf(errors);
        }
    }

    private final Path home;
    private final Function<Path, Triage> loader;
    private final boolean strict;
    private final Duration debounce;
    private final AtomicReference<Triage> current;
    private final AtomicLong swaps = new AtomicLong();
    private final Object reloading = new Object();
    private volatile Attempt last;
    private volatile Instant loadedAt = Instant.now();
    private WatchService watcher;
    private Thread thread;

    /**
     * @param initial the product serving now
     * @param loader builds and checks a product from a home (throws {@link RuleBaseException} or
     *               {@link KnowledgeException} with the errors)
     * @param strict a new product must also pass every scenario of {@code knowledge-base/scenarios}
     * @param debounce how long the files must stay quiet before a reload
     */
    public RuleReloader(Triage initial, Function<Path, Triage> loader, boolean strict, Duration debounce) {
        this.home = initial.home();
        this.loader = loader;
        this.strict = strict;
        this.debounce = debounce;
        this.current = new AtomicReference<>(initial);
    }

    /** The product serving now: take it once per diagnosis. */
    public Triage current() {
        return current.get();
    }

    public boolean strict() {
        return strict;
    }

    /** The last reload, or null when none was tried. */
    public Attempt last() {
        return last;
    }

    /** Reloads swapped in since the start. */
    public long swaps() {
        return swaps.get();
    }

    /** When the serving product was loaded. */
    public Instant loadedAt() {
        return loadedAt;
    }

    /** Whether the files are being watched. */
    public boolean watching() {
        return thread != null && thread.isAlive();
    }

    /**
     * Builds, checks and (when good) swaps in the product of the files as they are now. Reloads run one at a time.
     */
    public Attempt reload() {
        synchronized (reloading) {
            long start = System.nanoTime();
            Triage next;
            try {
                next = loader.apply(home);
            } catch (RuleBaseException e) {
                return record(new Attempt(Instant.now(), false, "", firstLine(e.getMessage()), e.problems(), since(start)));
            } catch (KnowledgeException e) {
                return record(new Attempt(Instant.now(), false, "", oneLine(e.getMessage()), List.of(), since(start)));
            } catch (RuntimeException e) {
                return record(new Attempt(Instant.now(), false, "", "the rules could not be loaded: " + oneLine(String.valueOf(e)),
                        List.of(), since(start)));
            }
            if (strict) {
                ScenarioSuite.Result r;
                try {
                    r = ScenarioSuite.run(next, next.scenarioDirs());
                } catch (RuntimeException e) {
                    return record(new Attempt(Instant.now(), false, next.contentHash(), "the scenarios could not be run: "
                            + oneLine(String.valueOf(e)), List.of(), since(start)));
                }
                if (!r.ok()) {
                    List<RuleBase.Problem> failed = new ArrayList<>();
                    for (Map.Entry<Path, List<String>> f : r.failed().entrySet()) {
                        Path exp = f.getKey().resolve("expected.txt");
                        String file = (exp.startsWith(home) ? home.relativize(exp) : exp).toString().replace('\\', '/');
                        for (String why : f.getValue()) {
                            failed.add(new RuleBase.Problem("error", file, 0, oneLine(why)));
                        }
                    }
                    return record(new Attempt(Instant.now(), false, next.contentHash(), r.failed().size()
                            + " scenario(s) fail with the new rules (--strict-reload); " + r.passed() + " pass", failed, since(start)));
                }
            }
            current.set(next);
            loadedAt = Instant.now();
            swaps.incrementAndGet();
            return record(new Attempt(Instant.now(), true, next.contentHash(), "", List.of(), since(start)));
        }
    }

    private Attempt record(Attempt a) {
        last = a;
        if (a.ok()) {
            LOG.info("rules reloaded from {} in {} s: now serving {}", home, String.format("%.2f", a.seconds()), a.contentHash());
        } else {
            StringBuilder b = new StringBuilder();
            for (RuleBase.Problem p : a.errors()) {
                b.append("\n  ").append(p);
            }
            LOG.warn("rules reload refused, still serving {}: {}{}", current.get().contentHash(), a.reason(), b);
        }
        return a;
    }

    private static double since(long start) {
        return (System.nanoTime() - start) / 1e9;
    }

    private static String firstLine(String s) {
        String t = s == null ? "" : s.strip();
        int nl = t.indexOf('\n');
        String line = nl < 0 ? t : t.substring(0, nl);
        return line.endsWith(":") ? line.substring(0, line.length() - 1) : line;
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replace('\n', ' ').strip();
    }

    /** Starts watching {@code rules/} and {@code knowledge-base/}, reloading after each quiet burst of changes. */
    public synchronized void start() throws IOException {
        if (thread != null) {
            return;
        }
        watcher = FileSystems.getDefault().newWatchService();
        for (String d : List.of("rules", "knowledge-base")) {
            registerAll(home.resolve(d));
        }
        io.triage.knowledge.Overlay overlay = current().overlay();
        if (overlay != null) {
            // the overlay itself too (not its subtree), so that a rules/ or knowledge-base/ made later is seen
            overlay.dir().register(watcher, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
                    StandardWatchEventKinds.ENTRY_DELETE);
            for (Path d : overlay.watched()) {
                registerAll(d);
            }
        }
        thread = new Thread(this::watch, "triage-rule-watch");
        thread.setDaemon(true);
        thread.start();
    }

    private void registerAll(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path d : s.filter(Files::isDirectory).toList()) {
                if (!strict && (d.startsWith(home.resolve("knowledge-base").resolve("scenarios"))
                        || d.getFileName() != null && d.getFileName().toString().equals("scenarios")
                        && d.getParent() != null && d.getParent().getFileName() != null
                        && d.getParent().getFileName().toString().equals("knowledge-base"))) {
                    continue; // test data: it matters to a reload only when the scenarios must pass
                }
                d.register(watcher, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
                        StandardWatchEventKinds.ENTRY_DELETE);
            }
        }
    }

    private void watch() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                WatchKey key = watcher.take();
                boolean relevant = drain(key);
                // a save is often several events (write, rename, chmod), an edit of many files more: wait until
                // the files have been quiet for the debounce, then reload once
                WatchKey more;
                while ((more = watcher.poll(debounce.toMillis(), TimeUnit.MILLISECONDS)) != null) {
                    relevant |= drain(more);
                }
                if (relevant) {
                    reload();
                }
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            // stopped
        }
    }

    /** Reads a key's events (registering new directories); whether any may change the product. */
    private boolean drain(WatchKey key) {
        boolean relevant = false;
        Path dir = (Path) key.watchable();
        for (WatchEvent<?> ev : key.pollEvents()) {
            if (ev.kind() == StandardWatchEventKinds.OVERFLOW) {
                relevant = true;
                continue;
            }
            Path p = dir.resolve((Path) ev.context());
            String name = p.getFileName().toString();
            if (name.startsWith(".") || name.endsWith("~") || name.endsWith(".swp")) {
                continue; // editors' temporary files
            }
            relevant = true;
            if (ev.kind() == StandardWatchEventKinds.ENTRY_CREATE && Files.isDirectory(p)) {
                try {
                    registerAll(p);
                } catch (IOException e) {
                    LOG.warn("cannot watch {}: {}", p, e.getMessage());
                }
            }
        }
        key.reset();
        return relevant;
    }

    /** What {@code GET /api/v1/rules} answers. */
    public Map<String, Object> status() {
        Triage t = current.get();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("contentHash", t.contentHash());
        m.put("overlay", t.overlay() == null ? null : t.overlay().dir().toString());
        m.put("loadedAt", loadedAt.toString());
        m.put("files", t.rules().files().size());
        m.put("rules", t.rules().kieBase().getKiePackages().stream().mapToInt(p -> p.getRules().size()).sum());
        m.put("watching", watching());
        m.put("strictReload", strict);
        m.put("reloads", swaps.get());
        m.put("warnings", problems(t.rules().consistencyWarnings()));
        Attempt a = last;
        if (a == null) {
            m.put("lastReload", null);
        } else {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("at", a.at().toString());
            r.put("ok", a.ok());
            r.put("contentHash", a.contentHash());
            r.put("seconds", Math.round(a.seconds() * 1000) / 1000.0);
            r.put("reason", a.reason());
            r.put("errors", problems(a.errors()));
            m.put("lastReload", r);
        }
        return m;
    }

    private static List<Map<String, Object>> problems(List<RuleBase.Problem> ps) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (RuleBase.Problem p : ps) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("level", p.level());
            e.put("file", p.file());
            e.put("line", p.line());
            e.put("text", p.text());
            out.add(e);
        }
        return out;
    }

    @Override
    public synchronized void close() {
        if (thread != null) {
            thread.interrupt();
        }
        if (watcher != null) {
            try {
                watcher.close();
            } catch (IOException e) {
                // closing: nothing to keep
            }
        }
    }
}
