package io.triage.server;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Where diagnoses outlive the process. One implementation writes files ({@link FileDiagnosisStore}); several
 * replicas sharing a database would implement the same few calls.
 */
public interface DiagnosisStore {
    /** Saves the record whole, replacing any earlier version of it; durable when this returns. */
    void save(DiagnosisRecord r) throws IOException;

    Optional<DiagnosisRecord> find(String id);

    /** The record a caller created earlier with the same idempotency key, if any. */
    Optional<DiagnosisRecord> findByIdempotencyKey(String by, String key);

    /** Records about {@code host} (every record when null), newest first, at most {@code limit}. */
    List<DiagnosisRecord> list(String host, int limit);

    /** Records not finished (queued or running): after a restart, these were interrupted. */
    List<DiagnosisRecord> unfinished();
}
