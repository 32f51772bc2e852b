package io.triage.engine;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Compiled rule bases kept between runs, so that a command does not compile the same rules again: one entry per
 * content of {@code rules/} and {@code knowledge-base/} (scenarios aside), product build and Drools version.
 *
 * <p>An entry is code the next run loads and executes, so it is handled as such: the directory must belong to this
 * user and be writable by no one else (otherwise the cache is refused and the rules compiled in memory); an entry is
 * named by the SHA-256 of everything it was built from and carries a SHA-256 of its own bytes, both checked before
 * use (a corrupt, truncated or foreign entry is ignored and rebuilt); entries are written to a temporary file and
 * renamed into place, so that a process never reads half of one that another is writing.
 */
public final class RuleBaseCache {
    private static final byte[] MAGIC = "triage-rulebase/3\n".getBytes(StandardCharsets.US_ASCII);
    /** Largest entry body read back, inflated (a rule base of a few hundred rules is a few MiB). */
    private static final int MAX_BODY = 256 << 20;
    private static final Set<PosixFilePermission> GROUP_OR_OTHERS_WRITE =
            EnumSet.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);
    /** Entries kept: one per rules/knowledge content recently used (several homes may share the cache). */
    private static final int KEEP = 8;

    private final Path dir;
    private final String product;

    /**
     * @param dir     the cache's directory (created, private to this user, when missing)
     * @param product the product's build identity: entries of another build are never used
     */
    public RuleBaseCache(Path dir, String product) {
        this.dir = dir.toAbsolutePath().normalize();
        this.product = product;
    }

    /**
     * The user's cache: {@code $XDG_CACHE_HOME/triage/rulebase} when that is an absolute path, else
     * {@code ~/.cache/triage/rulebase}; the product's build identity from {@code triage-build.properties}.
     */
    public static RuleBaseCache forUser(Map<String, String> env, Path userHome) {
        String xdg = env.get("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg)
                : userHome.resolve(".cache");
        return new RuleBaseCache(base.resolve("triage").resolve("rulebase"), productBuild());
    }

    /**
     * The version and build time of this product, or {@code "unknown"} when the build did not stamp it (classes
     * compiled outside Maven): then the cache is not used, since a change to the fact classes would go unseen.
     */
    static String productBuild() {
        Properties p = new Properties();
        try (InputStream in = RuleBaseCache.class.getResourceAsStream("/triage-build.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // an unreadable build stamp only costs the cache: it is keyed by "unknown" below
        }
        String v = p.getProperty("version", "unknown") + "+" + p.getProperty("built", "unknown");
        return v.contains("${") ? "unknown" : v;
    }

    public Path dir() {
        return dir;
    }

    /**
     * The rules of {@code rules} loaded from the cache when an entry for exactly these sources is there, else
     * compiled (errors thrown as by {@link RuleBase#load(Path)}) and stored for the next run.
     *
     * @param knowledge the knowledge base beside the rules, part of the key (its {@code scenarios/} aside)
     */
    public RuleBase load(Path rules, Path knowledge) {
        return load(rules, knowledge, java.util.function.UnaryOperator.identity());
    }

    /**
     * As {@link #load(Path, Path)}; a base compiled here is first given to {@code check} (which returns it checked,
     * or throws), and only a checked base is stored: an entry read back was checked when it was made.
     */
    public RuleBase load(Path rules, Path knowledge, java.util.function.UnaryOperator<RuleBase> check) {
        return load(rules, knowledge, null, check);
    }

    /**
     * As {@link #load(Path, Path, java.util.function.UnaryOperator)}, with a site overlay's rules compiled into the
     * same base and its rules and knowledge part of the key (null: no overlay, and the key of the shipped files alone).
     */
    public RuleBase load(Path rules, Path knowledge, io.triage.knowledge.Overlay overlay,
                         java.util.function.UnaryOperator<RuleBase> check) {
        return load(rules, knowledge, overlay, check, key -> { });
    }

    /**
     * As {@link #load(Path, Path, io.triage.knowledge.Overlay, java.util.function.UnaryOperator)}, telling {@code keyed}
     * the entry's key as soon as it is known (before the entry is read or the rules compiled): a companion entry of
     * the same files ({@link #readCompanion}) can be read under it meanwhile, without digesting the files again.
     */
    public RuleBase load(Path rules, Path knowledge, io.triage.knowledge.Overlay overlay,
                         java.util.function.UnaryOperator<RuleBase> check, java.util.function.Consumer<String> keyed) {
        Path overlayRules = overlay == null ? null : overlay.rulesDir();
        Map<Path, byte[]> sources = RuleBase.sources(RuleBase.ruleFiles(rules, overlayRules));
        List<Path> files = List.copyOf(sources.keySet());
        String key;
        String contentHash;
        try {
            Keys k = keys(rules, sources, knowledge, overlay);
            key = k.key();
            contentHash = k.contentHash();
        } catch (IOException e) {
            throw new RuleBaseException("cannot read the rules in " + rules + ": " + e.getMessage(), List.of());
        }
        keyed.accept(key);
        String refused = refusal();
        if (refused != null) {
            return check.apply(RuleBase.compile(rules, overlayRules, sources, new RuleBase.Origin(RuleBase.Origin.Kind.SOURCE_CACHE_REFUSED,
                    "rule cache " + dir + " not used (" + refused + "); rules compiled in memory"))).withContentHash(contentHash);
        }
        Path entry = dir.resolve(key + ".rulebase");
        String ignored = null;
        if (Files.exists(entry, LinkOption.NOFOLLOW_LINKS)) {
            try {
                Entry e = read(entry, key);
                return RuleBase.fromPackages(e.packages(), files, e.warnings(), e.consistency(),
                        new RuleBase.Origin(RuleBase.Origin.Kind.CACHE, "rules loaded from the cache " + entry), overlayRules)
                        .withContentHash(contentHash);
            } catch (IOException | RuntimeException ex) {
                ignored = ex.getMessage() == null ? ex.toString() : ex.getMessage();
            }
        }
        RuleBase c = check.apply(RuleBase.compile(rules, overlayRules, sources, new RuleBase.Origin(RuleBase.Origin.Kind.SOURCE_CACHED, "")));
        String stored;
        try {
            write(entry, key, c.packages(), c.warnings(), c.consistencyWarnings());
            stored = "rules compiled from " + rules + " and stored in the cache " + entry;
        } catch (IOException | RuntimeException ex) {
            stored = "rules compiled from " + rules + "; not stored in the cache (" + ex.getMessage() + ")";
        }
        if (ignored != null) {
            stored += "; the entry there was ignored: " + ignored;
        }
        return c.withOrigin(new RuleBase.Origin(RuleBase.Origin.Kind.SOURCE_CACHED, stored)).withContentHash(contentHash);
    }

    /**
     * The key {@link #load} files its entry under for these sources. Another product of the same files (the knowledge
     * base in its compact form) is kept under the same key, as a companion entry ({@link #readCompanion}).
     *
     * @throws IOException when a file cannot be read
     */
    public String key(Path rules, Path knowledge, io.triage.knowledge.Overlay overlay) throws IOException {
        Path overlayRules = overlay == null ? null : overlay.rulesDir();
        return key(rules, RuleBase.sources(RuleBase.ruleFiles(rules, overlayRules)), knowledge, overlay);
    }

    /**
     * A companion entry read: its body, or null when there is none to use, with why when one was refused (a cache not
     * private to this user, an entry corrupt, truncated, of another version or of other sources).
     */
    public record Companion(byte[] body, String refused) { }

    /**
     * The companion entry {@code kind} ({@code knowledge}…) of {@code key}, checked exactly as a rule-base entry is:
     * the directory private to this user, the file this user's and closed to others, its digest and recorded key.
     */
    public Companion readCompanion(String key, String kind) {
        String refused = refusal();
        if (refused != null) {
            return new Companion(null, "cache " + dir + " not used (" + refused + ")");
        }
        Path entry = dir.resolve(key + "." + kind);
        if (!Files.exists(entry, LinkOption.NOFOLLOW_LINKS)) {
            return new Companion(null, null);
        }
        try {
            return new Companion(read(entry, key).packages(), null);
        } catch (IOException | RuntimeException ex) {
            return new Companion(null, "the entry " + entry + " was ignored: "
                    + (ex.getMessage() == null ? ex.toString() : ex.getMessage()));
        }
    }

    /**
     * Stores {@code body} as the companion entry {@code kind} of {@code key}, as a rule-base entry is stored (written
     * beside its place and renamed there); returns the entry's path.
     *
     * @throws IOException when the cache cannot be used or written (the reason in the message)
     */
    public Path writeCompanion(String key, String kind, byte[] body) throws IOException {
        String refused = refusal();
        if (refused != null) {
            throw new IOException("cache " + dir + " not used (" + refused + ")");
        }
        if (!kind.matches("[a-z]+") || kind.equals("rulebase")) {
            throw new IllegalArgumentException("not a companion kind: " + kind);
        }
        Path entry = dir.resolve(key + "." + kind);
        write(entry, key, body, List.of(), List.of());
        return entry;
    }

    /** Why this cache cannot be used (a build without its stamp, a directory not private to this user), or null. */
    private String refusal() {
        return product.contains("unknown") ? "this build of the product has no build stamp" : unsafe();
    }

    /** Why the cache's directory cannot hold code for this user (creating it private when missing), or null. */
    String unsafe() {
        try {
            for (Path p : List.of(dir.getParent(), dir)) {
                if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createDirectories(p.getParent());
                    try {
                        // private from the start, whatever the umask: the permissions are checked below
                        Files.createDirectory(p, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                    } catch (java.nio.file.FileAlreadyExistsException raced) {
                        // another process made it: checked below like any other
                    }
                }
            }
            PosixFileAttributeView view = Files.getFileAttributeView(dir, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
            if (view == null) {
                return "its file system has no owners and permissions";
            }
            UserPrincipal me = FileSystems.getDefault().getUserPrincipalLookupService()
                    .lookupPrincipalByName(System.getProperty("user.name"));
            // this directory and its parent (triage/) must be ours and closed to others: whoever can write
            // either can put code in our path
            for (Path p : List.of(dir, dir.getParent())) {
                PosixFileAttributes a = Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                if (!a.isDirectory()) {
                    return p + " is not a directory";
                }
                if (!a.owner().equals(me)) {
                    return p + " belongs to " + a.owner().getName() + ", not " + me.getName();
                }
                if (a.permissions().stream().anyMatch(GROUP_OR_OTHERS_WRITE::contains)) {
                    return p + " is writable by others (" + PosixFilePermissions.toString(a.permissions()) + ")";
                }
            }
            return null;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return "cannot check it: " + e.getMessage();
        }
    }

    /** An entry: the serialised packages and the warnings their compilation gave. */
    record Entry(byte[] packages, List<RuleBase.Problem> warnings, List<RuleBase.Problem> consistency) { }

    /**
     * Reads and checks an entry: its file ours and closed to others, its magic, its recorded key, its digest.
     *
     * @throws IOException saying what is wrong with it
     */
    Entry read(Path entry, String key) throws IOException {
        PosixFileAttributes a = Files.readAttributes(entry, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!a.isRegularFile()) {
            throw new IOException("not a regular file");
        }
        UserPrincipal me = FileSystems.getDefault().getUserPrincipalLookupService()
                .lookupPrincipalByName(System.getProperty("user.name"));
        if (!a.owner().equals(me) || a.permissions().stream().anyMatch(GROUP_OR_OTHERS_WRITE::contains)) {
            throw new IOException("not this user's own, or writable by others");
        }
        if (a.size() > 256L << 20) {
            throw new IOException("too large (" + a.size() + " bytes)");
        }
        byte[] all = Files.readAllBytes(entry);
        if (all.length < MAGIC.length + 32 || !Arrays.equals(all, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw new IOException("not a rule-base entry of this format");
        }
        byte[] digest = Arrays.copyOfRange(all, MAGIC.length, MAGIC.length + 32);
        byte[] stored = Arrays.copyOfRange(all, MAGIC.length + 32, all.length);
        if (!MessageDigest.isEqual(digest, sha256().digest(stored))) {
            throw new IOException("its digest does not match its content (corrupt or truncated)");
        }
        byte[] body = inflate(stored);
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(body))) {
            String recorded = in.readUTF();
            if (!recorded.equals(key)) {
                throw new IOException("built from other sources or another version (" + recorded + ")");
            }
            int n = in.readInt();
            if (n < 0 || n > 100_000) {
                throw new IOException("bad warning count " + n);
            }
            List<RuleBase.Problem> warnings = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                warnings.add(new RuleBase.Problem(in.readUTF(), in.readUTF(), in.readInt(), in.readUTF()));
            }
            int m = in.readInt();
            if (m < 0 || m > 100_000) {
                throw new IOException("bad consistency warning count " + m);
            }
            List<RuleBase.Problem> consistency = new ArrayList<>();
            for (int i = 0; i < m; i++) {
                consistency.add(new RuleBase.Problem(in.readUTF(), in.readUTF(), in.readInt(), in.readUTF()));
            }
            int len = in.readInt();
            if (len <= 0 || len != in.available()) {
                throw new IOException("bad packages length " + len);
            }
            return new Entry(in.readNBytes(len), List.copyOf(warnings), List.copyOf(consistency));
        }
    }

    /** Writes an entry beside its place and renames it there, so that no reader ever sees part of it. */
    void write(Path entry, String key, byte[] packages, List<RuleBase.Problem> warnings,
               List<RuleBase.Problem> consistency) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream(packages.length + 4096);
        try (DataOutputStream out = new DataOutputStream(body)) {
            out.writeUTF(key);
            out.writeInt(warnings.size());
            for (RuleBase.Problem w : warnings) {
                out.writeUTF(w.level());
                out.writeUTF(clip(w.file()));
                out.writeInt(w.line());
                out.writeUTF(clip(w.text()));
            }
            out.writeInt(consistency.size());
            for (RuleBase.Problem w : consistency) {
                out.writeUTF(w.level());
                out.writeUTF(clip(w.file()));
                out.writeInt(w.line());
                out.writeUTF(clip(w.text()));
            }
            out.writeInt(packages.length);
            out.write(packages);
        }
        byte[] b = deflate(body.toByteArray());
        Path tmp = Files.createTempFile(dir, ".entry-", ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            try (var ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE)) {
                ch.write(java.nio.ByteBuffer.wrap(MAGIC));
                ch.write(java.nio.ByteBuffer.wrap(sha256().digest(b)));
                ch.write(java.nio.ByteBuffer.wrap(b));
                ch.force(true);
            }
            try {
                Files.move(tmp, entry, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("the cache's file system cannot rename atomically", e);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
        prune(entry);
    }

    /**
     * What an entry stores of its body: its length, then the body deflated. The serialised packages shrink about ten
     * times, and the digest, which the first run of a process computes slowly (not yet compiled to machine code),
     * is then taken over a tenth of the bytes.
     */
    static byte[] deflate(byte[] body) {
        java.util.zip.Deflater d = new java.util.zip.Deflater(java.util.zip.Deflater.DEFAULT_COMPRESSION);
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream(body.length / 8 + 64);
            out.writeBytes(java.nio.ByteBuffer.allocate(4).putInt(body.length).array());
            d.setInput(body);
            d.finish();
            byte[] buf = new byte[64 << 10];
            while (!d.finished()) {
                out.write(buf, 0, d.deflate(buf));
            }
            return out.toByteArray();
        } finally {
            d.end();
        }
    }

    /**
     * The body of {@link #deflate}'s bytes: exactly the length they declare (at most {@link #MAX_BODY}), every byte
     * of them used.
     *
     * @throws IOException when they are not such bytes
     */
    static byte[] inflate(byte[] stored) throws IOException {
        if (stored.length < 4) {
            throw new IOException("no body");
        }
        int len = java.nio.ByteBuffer.wrap(stored, 0, 4).getInt();
        if (len <= 0 || len > MAX_BODY) {
            throw new IOException("bad body length " + len);
        }
        java.util.zip.Inflater inf = new java.util.zip.Inflater();
        try {
            inf.setInput(stored, 4, stored.length - 4);
            byte[] body = new byte[len];
            int n = 0;
            while (n < len) {
                int k = inf.inflate(body, n, len - n);
                if (k == 0 && (inf.finished() || inf.needsInput() || inf.needsDictionary())) {
                    throw new IOException("its body ends before its declared length (" + n + " of " + len + " bytes)");
                }
                n += k;
            }
            if (!inf.finished() || inf.getRemaining() != 0) {
                // more compressed data than the declared length, or bytes after it
                byte[] probe = new byte[1];
                if (inf.inflate(probe) != 0 || !inf.finished() || inf.getRemaining() != 0) {
                    throw new IOException("its body is longer than its declared length");
                }
            }
            return body;
        } catch (java.util.zip.DataFormatException e) {
            throw new IOException("its body is not deflated data: " + e.getMessage(), e);
        } finally {
            inf.end();
        }
    }

    /**
     * Keeps the {@link #KEEP} most recently written entries of {@code keep}'s kind (and stale temporary files of crashed
     * runs go).
     */
    private void prune(Path keep) {
        String keepName = keep.getFileName().toString();
        String kind = keepName.substring(keepName.lastIndexOf('.'));
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> all = s.filter(p -> !p.equals(keep)).toList();
            long dayAgo = System.currentTimeMillis() - 86_400_000L;
            List<Path> entries = new ArrayList<>();
            for (Path p : all) {
                String n = p.getFileName().toString();
                if (n.endsWith(kind) && !n.startsWith(".")) {
                    entries.add(p);
                } else if (n.startsWith(".entry-") && n.endsWith(".tmp")
                        && Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toMillis() < dayAgo) {
                    Files.deleteIfExists(p);
                }
            }
            entries.sort(Comparator.comparingLong((Path p) -> {
                try {
                    return Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toMillis();
                } catch (IOException e) {
                    return 0L;
                }
            }).reversed());
            for (Path old : entries.subList(Math.min(entries.size(), KEEP - 1), entries.size())) {
                Files.deleteIfExists(old);
            }
        } catch (IOException e) {
            // pruning is housekeeping: a failure leaves old entries, which are never used for other sources
        }
    }

    private static String clip(String s) {
        String v = s == null ? "" : s;
        return v.length() > 8000 ? v.substring(0, 8000) : v;
    }

    /**
     * The SHA-256 of everything a rule base is built from: this product build, Drools, the Java version, and the
     * name and content of every rule file and every knowledge file (scenarios aside: they are test data).
     */
    String key(Path rules, Map<Path, byte[]> ruleSources, Path knowledge) throws IOException {
        return key(rules, ruleSources, knowledge, null);
    }

    /**
     * As {@link #key(Path, Map, Path)}, with a site overlay: its directory (warnings name its files), and the name and
     * content of each of its rule files and knowledge files (its scenarios aside). Without one, the key is the shipped
     * files' alone, as it always was.
     */
    String key(Path rules, Map<Path, byte[]> ruleSources, Path knowledge, io.triage.knowledge.Overlay overlay)
            throws IOException {
        return keys(rules, ruleSources, knowledge, overlay).key();
    }

    /** An entry's key and the {@link ContentHash} every verdict of its rule base names. */
    record Keys(String key, String contentHash) { }

    /**
     * The {@link #key} and the {@link ContentHash} of the same files, read once: the content hash is the SHA-256 of
     * every file under the rules and the knowledge (and the overlay's), scenarios aside, the rule files as in
     * {@code ruleSources} (the bytes compiled); the key is that digest with the build, Drools and Java, plus any rule
     * file the content hash leaves out (one under a {@code scenarios/} of the rules).
     */
    Keys keys(Path rules, Map<Path, byte[]> ruleSources, Path knowledge,
                           io.triage.knowledge.Overlay overlay) throws IOException {
        Set<Path> hashed = new java.util.HashSet<>();
        byte[] content;
        try {
            content = ContentHash.digest(rules, knowledge, overlay, ruleSources, true, hashed);
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
        Path overlayRules = overlay == null ? null : overlay.rulesDir();
        MessageDigest md = sha256();
        field(md, "product " + product);
        field(md, "drools " + droolsVersion());
        field(md, "java " + Runtime.version().feature());
        field(md, "content " + HexFormat.of().formatHex(content));
        for (Map.Entry<Path, byte[]> f : ruleSources.entrySet()) {
            if (hashed.contains(f.getKey())) {
                continue;
            }
            boolean fromOverlay = overlayRules != null && f.getKey().startsWith(overlayRules);
            field(md, (fromOverlay ? "overlay-rule " : "rule ")
                    + (fromOverlay ? overlayRules : rules).relativize(f.getKey()).toString().replace('\\', '/'));
            field(md, f.getValue());
        }
        if (overlay != null) {
            field(md, "overlay " + overlay.dir());
        }
        return new Keys(HexFormat.of().formatHex(md.digest()), ContentHash.shortForm(content));
    }

    private static void field(MessageDigest md, String s) {
        field(md, s.getBytes(StandardCharsets.UTF_8));
    }

    /** Length-prefixed, so that no two different inputs hash alike by moving bytes between fields. */
    private static void field(MessageDigest md, byte[] b) {
        md.update(java.nio.ByteBuffer.allocate(8).putLong(b.length).array());
        md.update(b);
    }

    static String droolsVersion() {
        return org.drools.base.util.Drools.getFullVersion();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
