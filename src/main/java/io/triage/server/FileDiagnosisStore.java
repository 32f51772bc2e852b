package io.triage.server;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Records as JSON files, one per id, under {@code <data>/diagnoses/}. A save writes a temporary file,
 * forces it to disk, renames it over the record atomically and forces the directory, so that a crash at
 * any moment leaves either the old record or the new one, never half of one. At start every record is
 * read; one that cannot be read is reported in the log and skipped, never a reason not to start.
 */
public final class FileDiagnosisStore implements DiagnosisStore {
    private static final Logger LOG = LoggerFactory.getLogger(FileDiagnosisStore.class);
    static final Pattern ID = Pattern.compile("^[a-z0-9_-]{1,64}$");
    private static final String SUFFIX = ".json";

    private final Path dir;
    private final ObjectMapper mapper;
    private final Map<String, DiagnosisRecord> byId = new ConcurrentHashMap<>();
    private final Map<String, String> byKey = new ConcurrentHashMap<>();
    private int skipped;

    public FileDiagnosisStore(Path dataDir) throws IOException {
        this.dir = dataDir.resolve("diagnoses");
        Files.createDirectories(dir);
        this.mapper = new ObjectMapper()
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        load();
    }

    private void load() throws IOException {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                if (name.startsWith(".") && name.contains(".tmp")) {
                    Files.deleteIfExists(f); // a save that a crash cut short; the record it replaced is intact
                    continue;
                }
                if (!name.endsWith(SUFFIX)) {
                    continue;
                }
                try {
                    DiagnosisRecord r = mapper.readValue(f.toFile(), DiagnosisRecord.class);
                    if (r.id() == null || !(r.id() + SUFFIX).equals(name) || r.kind() == null || r.status() == null) {
                        throw new IOException("the record does not match its file name or lacks id, kind or status");
                    }
                    index(r);
                } catch (IOException | RuntimeException e) {
                    skipped++;
                    LOG.warn("skipping damaged record {}: {}", name, oneLine(e));
                }
            }
        }
    }

    private void index(DiagnosisRecord r) {
        byId.put(r.id(), r);
        if (r.idempotencyKey() != null) {
            byKey.put(key(r.by(), r.idempotencyKey()), r.id());
        }
    }

    private static String key(String by, String k) {
        return by + "\n" + k;
    }

    /** Records found damaged at start (and skipped). */
    public int skipped() {
        return skipped;
    }

    @Override
    public void save(DiagnosisRecord r) throws IOException {
        if (!ID.matcher(r.id()).matches()) {
            throw new IllegalArgumentException("not a record id: " + r.id());
        }
        byte[] bytes = mapper.writeValueAsBytes(r);
        Path target = dir.resolve(r.id() + SUFFIX);
        Path tmp = dir.resolve("." + r.id() + SUFFIX + ".tmp" + Tokens.random(4));
        synchronized (r.id().intern()) {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer b = ByteBuffer.wrap(bytes);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                ch.force(true);
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.deleteIfExists(tmp);
                throw new IOException("the data directory does not support atomic renames: " + dir, e);
            }
            forceDirectory(dir);
            index(r);
        }
    }

    static void forceDirectory(Path d) {
        try (FileChannel ch = FileChannel.open(d, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // some file systems cannot open a directory for syncing; the rename itself is atomic there
        }
    }

    @Override
    public Optional<DiagnosisRecord> find(String id) {
        return id == null ? Optional.empty() : Optional.ofNullable(byId.get(id));
    }

    @Override
    public Optional<DiagnosisRecord> findByIdempotencyKey(String by, String key) {
        String id = byKey.get(key(by, key));
        return id == null ? Optional.empty() : find(id);
    }

    @Override
    public List<DiagnosisRecord> list(String host, int limit) {
        return byId.values().stream()
                .filter(r -> host == null || r.hosts().contains(host))
                .sorted(Comparator.comparing(DiagnosisRecord::created).reversed())
                .limit(Math.max(0, limit))
                .toList();
    }

    @Override
    public List<DiagnosisRecord> unfinished() {
        return byId.values().stream().filter(r -> !r.status().finished()).toList();
    }

    ObjectMapper mapper() {
        return mapper;
    }

    private static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
