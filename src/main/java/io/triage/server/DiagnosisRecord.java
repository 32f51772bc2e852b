package io.triage.server;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the server keeps of one request for a diagnosis: who asked, about what, where it stands, and its
 * result (a {@code triage.diagnosis/v1} document, a look failure, or per host for a sweep), plus the
 * conversation that followed (intents given later). Immutable; every change is a new record, saved whole.
 *
 * Times are ISO-8601 instants ({@code 2026-11-30T21:42:06.123Z}).
 *
 * @param by the name of the token (or session) that asked, never the token
 * @param hosts the hosts looked at (empty for a capture or a paste)
 * @param captureDir where the capture is kept, relative to the store's data directory, or null (a sweep keeps one per host)
 * @param diagnosis the document, for one host, a capture or a paste, once done
 * @param results per host, for a sweep, in the order they finished
 */
public record DiagnosisRecord(String id, Kind kind, Status status, String by, String created, String updated,
                              List<String> hosts, Map<String, String> intent, String callback,
                              String idempotencyKey, String captureDir, JsonNode diagnosis, Failure failure,
                              List<HostResult> results, List<Turn> turns) {

    public enum Kind { host, sweep, capture, text, upload }

    public enum Status {
        queued, running, done, failed, interrupted;

        public boolean finished() {
            return this == done || this == failed || this == interrupted;
        }
    }

    /** Why there is no diagnosis: a look failure's kind (unreachable, host-key-changed…), or internal. */
    public record Failure(String kind, String message, String check) { }

    /** One host of a sweep. */
    public record HostResult(String host, Status status, String verdict, double seconds, JsonNode diagnosis,
                             Failure failure) { }

    /** A later turn of the conversation: an intent given, and what it changed. */
    public record Turn(String at, String by, Map<String, String> intent, JsonNode change) { }

    public DiagnosisRecord {
        hosts = hosts == null ? List.of() : List.copyOf(hosts);
        intent = intent == null ? Map.of() : Map.copyOf(intent);
        results = results == null ? List.of() : List.copyOf(results);
        turns = turns == null ? List.of() : List.copyOf(turns);
    }

    DiagnosisRecord with(Status s, String at) {
        return new DiagnosisRecord(id, kind, s, by, created, at, hosts, intent, callback, idempotencyKey, captureDir,
                diagnosis, failure, results, turns);
    }

    DiagnosisRecord done(JsonNode doc, String at) {
        return new DiagnosisRecord(id, kind, Status.done, by, created, at, hosts, intent, callback, idempotencyKey,
                captureDir, doc, null, results, turns);
    }

    DiagnosisRecord failed(Failure f, Status s, String at) {
        return new DiagnosisRecord(id, kind, s, by, created, at, hosts, intent, callback, idempotencyKey, captureDir,
                diagnosis, f, results, turns);
    }

    DiagnosisRecord withResult(HostResult r, String at) {
        List<HostResult> all = new ArrayList<>(results);
        all.add(r);
        return new DiagnosisRecord(id, kind, status, by, created, at, hosts, intent, callback, idempotencyKey,
                captureDir, diagnosis, failure, all, turns);
    }

    DiagnosisRecord withTurn(Turn t, JsonNode newDoc, Map<String, String> newIntent, String at) {
        List<Turn> all = new ArrayList<>(turns);
        all.add(t);
        return new DiagnosisRecord(id, kind, status, by, created, at, hosts, newIntent, callback, idempotencyKey,
                captureDir, newDoc, failure, results, all);
    }
}
