package io.triage.engine;

import org.drools.base.common.DroolsObjectInputStream;
import org.drools.base.common.DroolsObjectOutputStream;
import org.drools.kiesession.rulebase.InternalKnowledgeBase;
import org.drools.kiesession.rulebase.KnowledgeBaseFactory;
import org.kie.api.KieBase;
import org.kie.api.KieServices;
import org.kie.api.builder.KieBuilder;
import org.kie.api.builder.KieFileSystem;
import org.kie.api.builder.Message;
import org.kie.api.builder.ReleaseId;
import org.kie.api.definition.KiePackage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The rules, compiled once from the DRL files of a directory into one {@link KieBase}. A rule author
 * edits the files and restarts; nothing is compiled into the product.
 */
public final class RuleBase {
    /** A compile problem, with the file and line the compiler gave. */
    public record Problem(String level, String file, int line, String text) {
        @Override
        public String toString() {
            return level + " " + file + (line > 0 ? ":" + line : "") + ": " + text;
        }
    }

    /** Where a rule base came from, and a line that says so for {@code --verbose}. */
    public record Origin(Kind kind, String detail) {
        public enum Kind {
            /** compiled from the DRL files, no cache asked for (the rule-author commands and the tests) */
            SOURCE,
            /** compiled from the DRL files and stored in the cache for the next run */
            SOURCE_CACHED,
            /** loaded from the cache: nothing compiled */
            CACHE,
            /** compiled from the DRL files in memory: the cache was refused ({@link #detail()} says why) */
            SOURCE_CACHE_REFUSED
        }

        public boolean fromCache() {
            return kind == Kind.CACHE;
        }
    }

    private final KieBase kieBase;
    private final List<Path> files;
    private final List<Problem> warnings;
    private final Origin origin;
    /** What the compiler parsed, kept for the consistency check of a base compiled here; null when loaded. */
    private final List<org.drools.drl.ast.descr.PackageDescr> descriptors;
    /** The consistency check's warnings ({@link Consistency}); empty until checked. */
    private final List<Problem> consistency;

    /** The overlay's {@code rules/} compiled into this base, or null. */
    private final Path overlayRules;
    /** The {@link ContentHash} of the files this base was built from when the cache took it (null: not taken). */
    private final String contentHash;

    private RuleBase(KieBase kieBase, List<Path> files, List<Problem> warnings, Origin origin,
                     List<org.drools.drl.ast.descr.PackageDescr> descriptors, List<Problem> consistency,
                     Path overlayRules) {
        this(kieBase, files, warnings, origin, descriptors, consistency, overlayRules, null);
    }

    private RuleBase(KieBase kieBase, List<Path> files, List<Problem> warnings, Origin origin,
                     List<org.drools.drl.ast.descr.PackageDescr> descriptors, List<Problem> consistency,
                     Path overlayRules, String contentHash) {
        this.contentHash = contentHash;
        this.overlayRules = overlayRules;
        this.kieBase = kieBase;
        this.files = files;
        this.warnings = warnings;
        this.origin = origin;
        this.descriptors = descriptors;
        this.consistency = List.copyOf(consistency);
    }

    /**
     * Compiles every {@code *.drl} (and decision table {@code *.drl.csv}) file under {@code dir}.
     *
     * @throws RuleBaseException listing every error, with file and line
     */
    public static RuleBase load(Path dir) {
        return load(dir, null);
    }

    /**
     * Compiles every rule file under {@code dir} and under {@code overlayRules} (a site overlay's {@code rules/}, or
     * null) into one base. A rule name is the rule's identity in every verdict, so one given in both (in any package)
     * is refused, naming both files and lines.
     *
     * @throws RuleBaseException listing every error, with file and line
     */
    public static RuleBase load(Path dir, Path overlayRules) {
        return compile(dir, overlayRules, sources(ruleFiles(dir, overlayRules)),
                new Origin(Origin.Kind.SOURCE, "rules compiled from " + dir
                        + (overlayRules == null ? "" : " and the overlay's " + overlayRules)));
    }

    /** The rule files of {@code dir} then those of {@code overlayRules} (null: none; it may hold none). */
    static List<Path> ruleFiles(Path dir, Path overlayRules) {
        List<Path> files = new ArrayList<>(ruleFiles(dir));
        if (overlayRules != null && Files.isDirectory(overlayRules, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            try (Stream<Path> s = Files.walk(overlayRules)) {
                s.filter(p -> Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                        .filter(p -> p.toString().endsWith(".drl") || p.toString().endsWith(".drl.csv"))
                        .sorted().forEach(files::add);
            } catch (IOException | java.io.UncheckedIOException e) {
                throw new RuleBaseException("cannot list " + overlayRules + ": " + e.getMessage(), List.of());
            }
        }
        return List.copyOf(files);
    }

    /** The DRL and decision-table files under {@code dir}, sorted. */
    static List<Path> ruleFiles(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new RuleBaseException("rules directory not found: " + dir, List.of());
        }
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(Files::isRegularFile)
                    .filter(p -> p.toString().endsWith(".drl") || p.toString().endsWith(".drl.csv"))
                    .sorted().toList();
        } catch (IOException e) {
            throw new RuleBaseException("cannot list " + dir + ": " + e.getMessage(), List.of());
        }
        if (files.isEmpty()) {
            throw new RuleBaseException("no rule files (*.drl) in " + dir, List.of());
        }
        return files;
    }

    /**
     * The content of each file, read once: what is compiled is exactly what the cache's key was computed from.
     */
    static Map<Path, byte[]> sources(List<Path> files) {
        Map<Path, byte[]> m = new LinkedHashMap<>();
        for (Path f : files) {
            try {
                m.put(f, Files.readAllBytes(f));
            } catch (IOException e) {
                throw new RuleBaseException("cannot read rule file " + f + ": " + e.getMessage(), List.of());
            }
        }
        return m;
    }

    /** Compiles the {@code sources} (file: content, in order); errors are thrown with file and line. */
    static RuleBase compile(Path dir, Map<Path, byte[]> sources, Origin origin) {
        return compile(dir, null, sources, origin);
    }

    /**
     * How an overlay's rule file is named among the rule base's resources: {@code overlay~} and its path under the
     * overlay's {@code rules/} ({@code /} written {@code ~}), in the folder of the package it declares (so that Drools
     * finds folder and package agreeing, as for the shipped files).
     */
    static final String OVERLAY_PREFIX = "overlay~";
    private static final java.util.regex.Pattern PACKAGE = java.util.regex.Pattern.compile(
            "(?m)^\\s*package\\s+([A-Za-z_$][\\w$]*(?:\\.[A-Za-z_$][\\w$]*)*)\\s*;?\\s*$");

    /** The resource path of an overlay's rule file {@code rel} (relative to its {@code rules/}) of content {@code drl}. */
    static String overlayResource(String rel, byte[] drl) {
        java.util.regex.Matcher m = PACKAGE.matcher(new String(drl, 0, Math.min(drl.length, 1 << 16),
                java.nio.charset.StandardCharsets.UTF_8));
        String folder = m.find() ? m.group(1).replace('.', '/') : "triage/overlay";
        return folder + "/" + OVERLAY_PREFIX + rel.replace('/', '~');
    }

    /** The overlay's file a resource path names ({@link #overlayResource}), or null when it names a shipped file. */
    static Path overlayFile(String resource, Path overlayRules) {
        if (resource == null || overlayRules == null) {
            return null;
        }
        int slash = resource.lastIndexOf('/');
        String name = resource.substring(slash + 1);
        return name.startsWith(OVERLAY_PREFIX)
                ? overlayRules.resolve(name.substring(OVERLAY_PREFIX.length()).replace('~', '/')) : null;
    }

    /**
     * Compiles the {@code sources} (file: content, in order: those under {@code overlayRules} are the overlay's);
     * errors are thrown with file and line.
     */
    static RuleBase compile(Path dir, Path overlayRules, Map<Path, byte[]> sources, Origin origin) {
        List<Path> files = List.copyOf(sources.keySet());
        if (overlayRules != null && files.stream().anyMatch(f -> f.startsWith(overlayRules))) {
            List<Problem> clashes = nameClashes(dir, overlayRules, sources);
            if (!clashes.isEmpty()) {
                throw new RuleBaseException("the overlay's rules clash with the rules in " + dir, clashes);
            }
        }
        KieServices ks = KieServices.Factory.get();
        ReleaseId id = ks.newReleaseId("io.triage", "rules", "1.0.0-" + Long.toHexString(System.nanoTime()));
        KieFileSystem kfs = ks.newKieFileSystem();
        kfs.generateAndWritePomXML(id);
        for (Map.Entry<Path, byte[]> f : sources.entrySet()) {
            boolean overlay = overlayRules != null && f.getKey().startsWith(overlayRules);
            String rel = (overlay ? overlayRules : dir).relativize(f.getKey()).toString().replace('\\', '/');
            kfs.write("src/main/resources/" + (overlay ? overlayResource(rel, f.getValue()) : "triage/rules/" + rel),
                    f.getValue());
        }
        KieBuilder builder = ks.newKieBuilder(kfs).buildAll();
        List<Problem> errors = new ArrayList<>();
        List<Problem> warnings = new ArrayList<>();
        for (Message m : builder.getResults().getMessages()) {
            String path = displayPath(m.getPath(), overlayRules);
            Problem p = new Problem(m.getLevel().name().toLowerCase(java.util.Locale.ROOT), path, m.getLine(),
                    m.getText().strip());
            if (m.getLevel() == Message.Level.ERROR) {
                errors.add(p);
            } else {
                warnings.add(p);
            }
        }
        if (!errors.isEmpty()) {
            ks.getRepository().removeKieModule(id);
            throw new RuleBaseException("rules in " + dir + " do not compile", errors);
        }
        List<org.drools.drl.ast.descr.PackageDescr> descrs = new ArrayList<>();
        try {
            org.drools.compiler.kie.builder.impl.InternalKieModule module =
                    (org.drools.compiler.kie.builder.impl.InternalKieModule) builder.getKieModule();
            for (String kb : module.getKieModuleModel().getKieBaseModels().keySet()) {
                if (module.getKnowledgeBuilderForKieBase(kb) instanceof org.drools.compiler.builder.impl.KnowledgeBuilderImpl b) {
                    for (String pkg : b.getPackageNames()) {
                        List<org.drools.drl.ast.descr.PackageDescr> d = b.getPackageDescrs(pkg);
                        if (d != null) {
                            descrs.addAll(d);
                        }
                    }
                }
            }
        } catch (RuntimeException e) {
            descrs = null; // the consistency check parses the files itself
        }
        try {
            return new RuleBase(ks.newKieContainer(id).getKieBase(), files, List.copyOf(warnings), origin,
                    descrs == null || descrs.isEmpty() ? null : List.copyOf(descrs), List.of(), overlayRules);
        } finally {
            // the container's module is not needed once the base exists; keep the repository clean
            ks.getRepository().removeKieModule(id);
        }
    }

    /**
     * The compiled packages of this base (their rules, and the classes javac made of their consequences) in
     * Drools' own serialised form: what {@link #fromPackages} reads back without compiling anything.
     */
    byte[] packages() {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(1 << 20);
        try (DroolsObjectOutputStream out = new DroolsObjectOutputStream(bytes)) {
            out.writeObject(new ArrayList<>(kieBase.getKiePackages()));
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialise the compiled rules: " + e.getMessage(), e);
        }
        return bytes.toByteArray();
    }

    /**
     * A base of packages {@link #packages() serialised} earlier by this same build. Only classes of the JDK, Drools
     * and the product are let in: the bytes are trusted only as far as the cache checked them.
     *
     * @throws IOException when the bytes are not such packages
     */
    static RuleBase fromPackages(byte[] packages, List<Path> files, List<Problem> warnings, List<Problem> consistency,
                                 Origin origin, Path overlayRules) throws IOException {
        InternalKnowledgeBase base = KnowledgeBaseFactory.newKnowledgeBase();
        List<KiePackage> read = new ArrayList<>();
        try (DroolsObjectInputStream in = new DroolsObjectInputStream(new java.io.ByteArrayInputStream(packages),
                base.getRootClassLoader())) {
            in.setObjectInputFilter(RuleBase::allowed);
            Object o = in.readObject();
            if (!(o instanceof List<?> list)) {
                throw new IOException("not a list of packages");
            }
            for (Object p : list) {
                if (!(p instanceof KiePackage kp)) {
                    throw new IOException("not a package: " + (p == null ? "null" : p.getClass().getName()));
                }
                read.add(kp);
            }
        } catch (ClassNotFoundException | ClassCastException | IllegalStateException e) {
            throw new IOException("unreadable packages: " + e.getMessage(), e);
        }
        base.addPackages(read);
        return new RuleBase(base, files, List.copyOf(warnings), origin, null, consistency, overlayRules);
    }

    private static final List<String> ALLOWED = List.of("java.", "javax.", "org.drools.", "org.kie.", "org.mvel2.",
            "io.triage.");

    private static java.io.ObjectInputFilter.Status allowed(java.io.ObjectInputFilter.FilterInfo info) {
        Class<?> c = info.serialClass();
        while (c != null && c.isArray()) {
            c = c.getComponentType();
        }
        if (c == null || c.isPrimitive()) {
            return java.io.ObjectInputFilter.Status.UNDECIDED;
        }
        String n = c.getName();
        return ALLOWED.stream().anyMatch(n::startsWith) ? java.io.ObjectInputFilter.Status.ALLOWED
                : java.io.ObjectInputFilter.Status.REJECTED;
    }

    /**
     * The rule base {@code f} computes (rules loaded on another thread), waiting for it.
     *
     * @throws RuleBaseException (or any other unchecked exception) exactly as loading threw it
     */
    public static RuleBase await(java.util.concurrent.Future<RuleBase> f) {
        return await(f, c -> new RuleBaseException("cannot load the rules: " + c, java.util.List.of()));
    }

    /**
     * The value of {@code f}, waiting through interrupts (the interrupt is kept for the caller): what the work threw
     * unchecked is thrown as it was; a checked exception is wrapped by {@code checked}.
     */
    public static <T> T await(java.util.concurrent.Future<T> f,
                              java.util.function.Function<Throwable, RuntimeException> checked) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return f.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (java.util.concurrent.ExecutionException e) {
                    Throwable c = e.getCause();
                    if (c instanceof RuntimeException r) {
                        throw r;
                    }
                    if (c instanceof Error err) {
                        throw err;
                    }
                    throw checked.apply(c);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    public KieBase kieBase() {
        return kieBase;
    }

    public List<Path> files() {
        return files;
    }

    public List<Problem> warnings() {
        return warnings;
    }

    /** The same base, said to come from {@code o}. */
    RuleBase withOrigin(Origin o) {
        return new RuleBase(kieBase, files, warnings, o, descriptors, consistency, overlayRules, contentHash);
    }

    /** The same base, with the {@link ContentHash} of the files it was built from (read with them, by the cache). */
    RuleBase withContentHash(String hash) {
        return new RuleBase(kieBase, files, warnings, origin, descriptors, consistency, overlayRules, hash);
    }

    /**
     * The {@link ContentHash} of the rules and knowledge (and overlay) this base was built from, taken from the same
     * bytes the cache's key was, or null when the base did not come through the cache (then hash the home).
     */
    public String contentHash() {
        return contentHash;
    }

    /**
     * The same base once {@link Consistency} found nothing wrong, with its warnings (ids produced and never used,
     * ids that cannot be checked); its parsed descriptors are dropped.
     *
     * @throws RuleBaseException listing the errors, with file and line, when there are any
     */
    public RuleBase checked(Consistency.Report report) {
        if (!report.ok()) {
            throw new RuleBaseException("the rules and the knowledge base do not agree", report.errors());
        }
        return new RuleBase(kieBase, files, warnings, origin, null, report.warnings(), overlayRules, contentHash);
    }

    /** What the compiler parsed (a base compiled here, not yet checked), or null. */
    List<org.drools.drl.ast.descr.PackageDescr> descriptors() {
        return descriptors;
    }

    /** The consistency check's warnings: ids produced and never used, ids that cannot be checked. */
    public List<Problem> consistencyWarnings() {
        return consistency;
    }

    /** The overlay's {@code rules/} compiled into this base, or null when there is none. */
    public Path overlayRules() {
        return overlayRules;
    }

    /**
     * A compiler's path as the author knows it: relative to the rules directory for the shipped files (as always),
     * the overlay's file in full for the overlay's.
     */
    static String displayPath(String kiePath, Path overlayRules) {
        if (kiePath == null) {
            return "";
        }
        String p = kiePath.replaceFirst("^src/main/resources/", "");
        Path overlay = overlayFile(p, overlayRules);
        if (overlay != null) {
            return overlay.toString();
        }
        return p.replaceFirst("^triage/rules/", "");
    }

    /**
     * Rule names given twice among the shipped and the overlay's rule files (in any package: a verdict names a rule by
     * its name alone), each with both files and lines, from Drools' own parse of each file.
     */
    static List<Problem> nameClashes(Path dir, Path overlayRules, Map<Path, byte[]> sources) {
        Map<String, Problem> first = new LinkedHashMap<>();
        List<Problem> clashes = new ArrayList<>();
        for (org.drools.drl.ast.descr.PackageDescr p : Consistency.parse(sources)) {
            for (org.drools.drl.ast.descr.RuleDescr r : p.getRules()) {
                String src = r.getResource() == null ? "" : r.getResource().getSourcePath();
                Path f = src == null || src.isEmpty() ? null : Path.of(src);
                String file = f == null ? "?" : f.startsWith(overlayRules) ? f.toString()
                        : dir.relativize(f).toString().replace('\\', '/');
                Problem here = new Problem("error", file, r.getLine(), "rule \"" + r.getName() + "\"");
                Problem before = first.putIfAbsent(r.getName(), here);
                if (before != null) {
                    clashes.add(new Problem("error", file, r.getLine(), "rule \"" + r.getName()
                            + "\" is defined twice: at " + before.file() + ":" + before.line() + " and at " + file + ":"
                            + r.getLine() + " (an overlay's rule needs a name of its own)"));
                }
            }
        }
        return clashes;
    }

    /** Whether these rules were compiled now or loaded from the cache. */
    public Origin origin() {
        return origin;
    }
}
