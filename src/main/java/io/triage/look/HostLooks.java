package io.triage.look;

import io.triage.Triage;
import io.triage.capture.Capture;
import io.triage.capture.CaptureWriter;
import io.triage.collect.HostFilters;
import io.triage.collect.LookFailure;
import io.triage.collect.ProbeBundle;
import io.triage.collect.ProbeListener;
import io.triage.collect.SshCollector;
import io.triage.collect.SshTarget;
import io.triage.engine.RuleBaseException;
import io.triage.explain.Diagnosis;
import io.triage.knowledge.KnowledgeException;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The use case "look at these hosts over SSH and diagnose each", shared by the command line, the server
 * and its API: one host or a sweep of many on a bounded pool, results handed over as each host finishes.
 * A host whose look or diagnosis fails in any way is a {@link LookFailure} for that host; it never takes the
 * other hosts' results with it.
 */
public final class HostLooks {
    /** One host's result: a diagnosis, or the reason the look failed. {@code seconds} is the look's wall time. */
    public record Outcome(String host, Diagnosis diagnosis, LookFailure failure, double seconds) {
        public boolean failed() {
            return failure != null;
        }

        /** {@code cause[/subtype]}, or {@code look failed: kind}. */
        public String verdict() {
            if (failure != null) {
                return "look failed: " + failure.kind();
            }
            return diagnosis.cause() + (diagnosis.subtype().isEmpty() ? "" : "/" + diagnosis.subtype());
        }
    }

    private final CompletableFuture<Triage> triage;
    private final SshCollector collector;
    /** The script's filters, generated once from the knowledge base when a template comes without them. */
    private final java.util.concurrent.atomic.AtomicReference<HostFilters> filters = new java.util.concurrent.atomic.AtomicReference<>();
    /** The last template asked for and the bundle made from it with the filters. */
    private final java.util.concurrent.atomic.AtomicReference<Prepared> prepared = new java.util.concurrent.atomic.AtomicReference<>();

    private record Prepared(ProbeBundle template, ProbeBundle ready) { }

    /**
     * @param triage the product, possibly still compiling its rules (a cold CLI compiles them while the first
     *               hosts are looked at)
     */
    public HostLooks(CompletableFuture<Triage> triage, SshCollector collector) {
        this.triage = triage;
        this.collector = collector;
    }

    /** The product these looks diagnose with, or null while it is still loading. */
    public Triage product() {
        return triage.getNow(null);
    }

    public HostLooks(Triage triage, SshCollector collector) {
        this(CompletableFuture.completedFuture(triage), collector);
    }

    /**
     * Looks at one host with a fresh bundle (a fresh nonce) made from {@code template}, optionally saves the
     * capture, and diagnoses it.
     */
    public Outcome look(SshTarget target, ProbeBundle template, Map<String, String> intent, Path saveDir) {
        return look(target, template, intent, saveDir, null);
    }

    /** As {@link #look(SshTarget, ProbeBundle, Map, Path)}, telling {@code progress} (when not null) about each probe as it arrives. */
    public Outcome look(SshTarget target, ProbeBundle template, Map<String, String> intent, Path saveDir,
                        ProbeListener progress) {
        long start = System.nanoTime();
        return guarded(target, start, () -> {
            Object collected = collect(target, template, intent, saveDir, progress);
            return collected instanceof Outcome o ? o : diagnose(target, (SshCollector.Collected) collected, saveDir);
        });
    }

    /**
     * Runs one host's part of the work: any failure there is that host's alone ({@code internal-error}), except
     * a product that cannot diagnose at all (broken rules or knowledge), which is thrown.
     */
    private static Outcome guarded(SshTarget target, long start, java.util.function.Supplier<Outcome> work) {
        try {
            return work.get();
        } catch (RuleBaseException | KnowledgeException e) {
            throw e; // the product itself cannot diagnose: not one host's problem
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            // one host's bad answer must not cost the others theirs; what this look held is released as its
            // stack unwinds, so the sweep can go on even after running out of memory here
            String what = e instanceof StackOverflowError ? "stack overflow"
                    : e instanceof OutOfMemoryError ? "out of memory" : e.getClass().getSimpleName();
            return new Outcome(target.toString(), null, new LookFailure(target.toString(), "internal-error",
                    "the answer of this host could not be processed (" + what + ")",
                    "save the look with --save and report it; the other hosts are unaffected"),
                    (System.nanoTime() - start) / 1e9);
        }
    }

    /** The host's answer ({@link SshCollector.Collected}), or its {@link Outcome} when there is nothing to diagnose. */
    private Object collect(SshTarget target, ProbeBundle template, Map<String, String> intent, Path saveDir,
                           ProbeListener progress) {
        if (saveDir != null) {
            // refused before the host is asked anything: a look that cannot be saved as asked is not started
            try {
                CaptureWriter.prepare(saveDir);
            } catch (IOException e) {
                return saveFailed(target, saveDir, e, 0);
            }
        }
        ProbeBundle bundle = ready(template).renewed();
        SshCollector.Look look = collector.look(target, bundle, intent, progress);
        if (look instanceof SshCollector.Failed f) {
            return new Outcome(target.toString(), null, f.failure(), f.elapsed().toMillis() / 1000.0);
        }
        return look;
    }

    /** Saves (when asked) and diagnoses what one host answered; waits for the product when it is still loading. */
    private Outcome diagnose(SshTarget target, SshCollector.Collected c, Path saveDir) {
        if (saveDir != null) {
            try {
                save(c.capture(), saveDir);
            } catch (IOException e) {
                return saveFailed(target, saveDir, e, c.elapsed().toMillis() / 1000.0);
            }
        }
        Diagnosis d;
        try {
            d = triage.join().diagnose(c.capture(), Map.of());
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        return new Outcome(target.toString(), d, null, c.elapsed().toMillis() / 1000.0);
    }

    /**
     * The template with its filters, made once per template (the last one asked for is kept): every look of a
     * sweep renews it with its own nonce instead of generating the script again.
     */
    private ProbeBundle ready(ProbeBundle template) {
        if (template.ready()) {
            return template;
        }
        Prepared last = prepared.get();
        if (last != null && last.template() == template) {
            return last.ready();
        }
        ProbeBundle made = template.with(filters());
        prepared.set(new Prepared(template, made));
        return made;
    }

    /** The filters of the knowledge base the diagnoses use (waits for it when it is still loading). */
    private HostFilters filters() {
        HostFilters f = filters.get();
        if (f == null) {
            try {
                f = HostFilters.of(triage.join().knowledge());
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : e;
            }
            filters.compareAndSet(null, f);
        }
        return f;
    }

    /**
     * THE ONE PLACE a look is written to disk ({@code --save}). A saved capture holds what the host printed;
     * whatever must not leave the host that way (secrets in command lines, tokens in logs) is to be removed
     * here, before {@link CaptureWriter#write}, and nowhere else: the product's redactor, the same that
     * redacts before diagnosing, so the saved capture replays to the verdict of the live look.
     */
    private void save(Capture capture, Path dir) throws IOException {
        Triage product;
        try {
            product = triage.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        CaptureWriter.write(product.redactor().redact(capture), dir);
    }

    private static Outcome saveFailed(SshTarget target, Path dir, IOException e, double seconds) {
        String why = e instanceof CaptureWriter.SaveRefused ? e.getMessage()
                : dir + ": " + e.getClass().getSimpleName().replace("Exception", "") + " (" + e.getMessage() + ")";
        return new Outcome(target.toString(), null, new LookFailure(target.toString(), "save-failed",
                "the capture cannot be saved: " + why, "give --save a new directory"), seconds);
    }

    /**
     * Looks at every target, at most {@code parallel} at once, calling {@code onDone} (from the calling
     * thread) as each finishes; returns the outcomes in the order they finished.
     *
     * <p>Looking and diagnosing are two stages: a host's answer is handed, as it arrives, to a small pool (one
     * thread per core) that saves and diagnoses it, while the thread that looked goes on to the next host. A look
     * mostly waits on the network and a diagnosis only computes: the cores are not shared among {@code parallel}
     * diagnoses at once, and the looks go on while the rules are still loading. At most {@code parallel} answers
     * wait for their diagnosis; a look that would add one more waits first, so memory stays bounded.
     *
     * @param saveDir where to save a host's capture, or {@code null} for none
     */
    public List<Outcome> sweep(List<SshTarget> targets, ProbeBundle template, Map<String, String> intent,
                               Function<SshTarget, Path> saveDir, int parallel, Consumer<Outcome> onDone)
            throws InterruptedException {
        List<Outcome> outcomes = new ArrayList<>();
        if (targets.isEmpty()) {
            return outcomes;
        }
        int lookers = Math.max(1, Math.min(parallel, targets.size()));
        int diagnosers = Math.max(1, Math.min(lookers, Runtime.getRuntime().availableProcessors()));
        ExecutorService looking = Executors.newFixedThreadPool(lookers, named("triage-look"));
        ExecutorService diagnosing = Executors.newFixedThreadPool(diagnosers, named("triage-diagnose"));
        java.util.concurrent.Semaphore waiting = new java.util.concurrent.Semaphore(lookers);
        BlockingQueue<Future<Outcome>> done = new LinkedBlockingQueue<>();
        try {
            for (SshTarget t : targets) {
                Path dir = saveDir == null ? null : saveDir.apply(t);
                looking.execute(() -> {
                    long start = System.nanoTime();
                    FutureTask<Outcome> task;
                    try {
                        Object collected = guardedCollect(t, template, intent, dir, start);
                        if (collected instanceof Outcome o) {
                            task = new FutureTask<>(() -> o);
                            task.run();
                        } else {
                            waiting.acquire(); // released when the diagnosis ends, however it ends
                            task = new FutureTask<>(() -> {
                                try {
                                    return guarded(t, start, () -> diagnose(t, (SshCollector.Collected) collected, dir));
                                } finally {
                                    waiting.release();
                                }
                            }) {
                                @Override
                                protected void done() {
                                    done.add(this);
                                }
                            };
                            diagnosing.execute(task);
                            return;
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return; // the sweep was stopped: no one waits for this host any more
                    } catch (RuntimeException | Error e) {
                        task = new FutureTask<>(() -> {
                            throw e;
                        });
                        task.run();
                    }
                    done.add(task);
                });
            }
            for (int i = 0; i < targets.size(); i++) {
                Outcome o;
                try {
                    o = done.take().get();
                } catch (ExecutionException e) {
                    // broken rules or knowledge, or an Error other than a stack overflow: nothing can be diagnosed
                    if (e.getCause() instanceof RuntimeException r) {
                        throw r;
                    }
                    throw new IllegalStateException("a look failed: " + e.getCause(), e.getCause());
                }
                outcomes.add(o);
                onDone.accept(o);
            }
        } finally {
            looking.shutdownNow();
            diagnosing.shutdownNow();
        }
        return outcomes;
    }

    private Object guardedCollect(SshTarget t, ProbeBundle template, Map<String, String> intent, Path dir, long start) {
        Object[] collected = new Object[1];
        Outcome failed = guarded(t, start, () -> {
            collected[0] = collect(t, template, intent, dir, null);
            return collected[0] instanceof Outcome o ? o : null;
        });
        return failed != null ? failed : collected[0];
    }

    /** Daemon threads named {@code prefix-N}: a sweep's pools never keep the process alive. */
    private static java.util.concurrent.ThreadFactory named(String prefix) {
        java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
        return r -> {
            Thread th = new Thread(r, prefix + "-" + n.incrementAndGet());
            th.setDaemon(true);
            return th;
        };
    }

    /** The directory name a host's capture is saved under in a sweep. */
    public static String saveName(SshTarget t) {
        return t.toString().replaceAll("[^A-Za-z0-9._@-]", "_");
    }
}
