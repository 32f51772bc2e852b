package io.triage.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Who looked at what: one JSON line per action in {@code <data>/audit.log} (the token's name, never the
 * token), appended and forced to disk.
 */
final class AuditLog implements AutoCloseable {
    private final FileChannel file;
    private final ObjectMapper mapper = new ObjectMapper();

    AuditLog(Path dataDir) throws IOException {
        this.file = FileChannel.open(dataDir.resolve("audit.log"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    }

    /** Records an action; an audit line that cannot be written is reported, never silently dropped. */
    void record(String at, String by, String action, String id, String host) {
        ObjectNode n = mapper.createObjectNode();
        n.put("at", at);
        n.put("by", by);
        n.put("action", action);
        if (id != null) {
            n.put("id", id);
        }
        if (host != null) {
            n.put("host", host);
        }
        byte[] line = (n.toString() + "\n").getBytes(StandardCharsets.UTF_8);
        synchronized (file) {
            try {
                ByteBuffer b = ByteBuffer.wrap(line);
                while (b.hasRemaining()) {
                    file.write(b);
                }
                file.force(false);
            } catch (IOException e) {
                throw new ApiError(503, "audit-unavailable", "the audit log cannot be written: " + e.getMessage());
            }
        }
    }

    @Override
    public void close() throws IOException {
        file.close();
    }
}
