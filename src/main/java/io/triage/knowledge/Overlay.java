package io.triage.knowledge;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * A site's own knowledge on top of the shipped one: a directory with {@code rules/} (DRL files compiled into the same
 * rule base), {@code knowledge-base/} (fragments and marker files, see {@link KnowledgeBase#load(Path, Overlay)}) and
 * {@code knowledge-base/scenarios/} (run by {@code rules test}), each optional but not both of the first two absent.
 *
 * <p>An overlay is input like any other, so it is checked before anything in it is read: it is a real directory, no
 * entry in its rules and knowledge is a symbolic link (none can point outside it), a device or a pipe; there are at
 * most {@link #MAX_FILES} files, none larger than {@link #MAX_FILE_BYTES}, {@link #MAX_TOTAL_BYTES} in all (the
 * scenarios' captures aside: their reader has its own bounds).
 */
public final class Overlay {
    /** Rule and knowledge files an overlay may hold. */
    public static final int MAX_FILES = 2_000;
    /** Bytes of one rule or knowledge file. */
    public static final long MAX_FILE_BYTES = 1L << 20;
    /** Bytes of all its rule and knowledge files. */
    public static final long MAX_TOTAL_BYTES = 16L << 20;

    private final Path dir;

    private Overlay(Path dir) {
        this.dir = dir;
    }

    /**
     * The overlay at {@code dir}, checked.
     *
     * @throws KnowledgeException saying what is wrong (the entry named)
     */
    public static Overlay open(Path dir) {
        Path abs = dir.toAbsolutePath().normalize();
        if (Files.isSymbolicLink(abs)) {
            throw new KnowledgeException("overlay " + abs + " is a symbolic link: name the directory itself");
        }
        if (!Files.isDirectory(abs, LinkOption.NOFOLLOW_LINKS)) {
            throw new KnowledgeException("overlay directory not found: " + abs);
        }
        Overlay o = new Overlay(abs);
        Path rules = abs.resolve("rules");
        Path kb = abs.resolve("knowledge-base");
        boolean any = false;
        for (Path p : List.of(rules, kb)) {
            if (Files.isSymbolicLink(p)) {
                throw new KnowledgeException("overlay " + abs + ": " + p.getFileName() + " is a symbolic link (not followed)");
            }
            any |= Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS);
        }
        if (!any) {
            throw new KnowledgeException("overlay " + abs + " holds neither rules/ nor knowledge-base/");
        }
        o.check(rules, kb);
        return o;
    }

    /** Walks the rules and knowledge (scenarios aside) without following links, holding them to the bounds. */
    private void check(Path rules, Path kb) {
        long[] count = {0, 0};
        Path scenarios = kb.resolve("scenarios");
        for (Path root : List.of(rules, kb)) {
            if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            try {
                Files.walkFileTree(root, new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes a) {
                        if (d.equals(scenarios)) {
                            return FileVisitResult.SKIP_SUBTREE; // test data: the capture reader bounds it
                        }
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFile(Path f, BasicFileAttributes a) {
                        if (a.isSymbolicLink()) {
                            throw new KnowledgeException("overlay " + dir + ": " + dir.relativize(f)
                                    + " is a symbolic link (an overlay's rules and knowledge are its own files)");
                        }
                        if (!a.isRegularFile()) {
                            throw new KnowledgeException("overlay " + dir + ": " + dir.relativize(f) + " is not a regular file");
                        }
                        if (++count[0] > MAX_FILES) {
                            throw new KnowledgeException("overlay " + dir + " holds more than " + MAX_FILES + " files");
                        }
                        if (a.size() > MAX_FILE_BYTES) {
                            throw new KnowledgeException("overlay " + dir + ": " + dir.relativize(f) + " is larger than "
                                    + (MAX_FILE_BYTES >> 10) + " KiB (" + a.size() + " bytes)");
                        }
                        count[1] += a.size();
                        if (count[1] > MAX_TOTAL_BYTES) {
                            throw new KnowledgeException("overlay " + dir + ": its rules and knowledge exceed "
                                    + (MAX_TOTAL_BYTES >> 20) + " MiB");
                        }
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(Path f, IOException e) {
                        throw new KnowledgeException("overlay " + dir + ": cannot read " + dir.relativize(f) + ": " + e.getMessage());
                    }
                });
            } catch (IOException e) {
                throw new KnowledgeException("overlay " + dir + ": cannot list " + root + ": " + e.getMessage(), e);
            }
        }
        Path sc = kb.resolve("scenarios");
        if (Files.isSymbolicLink(sc)) {
            throw new KnowledgeException("overlay " + dir + ": knowledge-base/scenarios is a symbolic link (not followed)");
        }
    }

    /** The overlay's directory (absolute). */
    public Path dir() {
        return dir;
    }

    /** Its {@code rules/}, or null when it has none. */
    public Path rulesDir() {
        Path p = dir.resolve("rules");
        return Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) ? p : null;
    }

    /** Its {@code knowledge-base/}, or null when it has none. */
    public Path knowledgeDir() {
        Path p = dir.resolve("knowledge-base");
        return Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) ? p : null;
    }

    /** Its {@code knowledge-base/scenarios/}, or null when it has none. */
    public Path scenariosDir() {
        Path kb = knowledgeDir();
        Path p = kb == null ? null : kb.resolve("scenarios");
        return p != null && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) ? p : null;
    }

    /** The directories a server watches for changes: those of the overlay that exist. */
    public List<Path> watched() {
        List<Path> out = new ArrayList<>();
        if (rulesDir() != null) {
            out.add(rulesDir());
        }
        if (knowledgeDir() != null) {
            out.add(knowledgeDir());
        }
        return out;
    }

    @Override
    public String toString() {
        return dir.toString();
    }
}
