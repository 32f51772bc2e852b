package io.triage.server;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/** Counters for {@code GET /metrics}, in Prometheus' text format. Thread-safe; one per server. */
final class Metrics {
    /** Upper bounds of the latency histogram, seconds. */
    static final double[] BUCKETS = {0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120};

    private final Map<String, LongAdder> byCause = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> failures = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> requests = new ConcurrentHashMap<>();
    private final LongAdder[] buckets = new LongAdder[BUCKETS.length];
    private final LongAdder count = new LongAdder();
    private final DoubleAdder sum = new DoubleAdder();
    private final AtomicLong running = new AtomicLong();

    Metrics() {
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = new LongAdder();
        }
    }

    void diagnosed(String cause) {
        byCause.computeIfAbsent(label(cause), k -> new LongAdder()).increment();
    }

    void lookFailed(String kind) {
        failures.computeIfAbsent(label(kind), k -> new LongAdder()).increment();
    }

    void request(String kind) {
        requests.computeIfAbsent(label(kind), k -> new LongAdder()).increment();
    }

    void latency(double seconds) {
        count.increment();
        sum.add(seconds);
        for (int i = 0; i < BUCKETS.length; i++) {
            if (seconds <= BUCKETS[i]) {
                buckets[i].increment();
            }
        }
    }

    void started() {
        running.incrementAndGet();
    }

    void finished() {
        running.decrementAndGet();
    }

    String render() {
        StringBuilder b = new StringBuilder();
        b.append("# HELP triage_diagnoses_total Diagnoses produced, by cause.\n# TYPE triage_diagnoses_total counter\n");
        new TreeMap<>(byCause).forEach((k, v) -> b.append("triage_diagnoses_total{cause=\"").append(k).append("\"} ").append(v.sum()).append('\n'));
        b.append("# HELP triage_look_failures_total Looks at hosts that failed, by kind.\n# TYPE triage_look_failures_total counter\n");
        new TreeMap<>(failures).forEach((k, v) -> b.append("triage_look_failures_total{kind=\"").append(k).append("\"} ").append(v.sum()).append('\n'));
        b.append("# HELP triage_requests_total Diagnosis requests accepted, by kind.\n# TYPE triage_requests_total counter\n");
        new TreeMap<>(requests).forEach((k, v) -> b.append("triage_requests_total{kind=\"").append(k).append("\"} ").append(v.sum()).append('\n'));
        b.append("# HELP triage_diagnoses_running Diagnoses queued or running now.\n# TYPE triage_diagnoses_running gauge\n");
        b.append("triage_diagnoses_running ").append(running.get()).append('\n');
        b.append("# HELP triage_diagnosis_seconds Time from request to result.\n# TYPE triage_diagnosis_seconds histogram\n");
        for (int i = 0; i < BUCKETS.length; i++) {
            b.append("triage_diagnosis_seconds_bucket{le=\"").append(BUCKETS[i]).append("\"} ").append(buckets[i].sum()).append('\n');
        }
        b.append("triage_diagnosis_seconds_bucket{le=\"+Inf\"} ").append(count.sum()).append('\n');
        b.append("triage_diagnosis_seconds_sum ").append(sum.sum()).append('\n');
        b.append("triage_diagnosis_seconds_count ").append(count.sum()).append('\n');
        return b.toString();
    }

    /** Label values are ids (causes, failure kinds); anything else is replaced rather than escaped. */
    private static String label(String s) {
        return s == null || s.isEmpty() ? "unknown" : s.replaceAll("[^A-Za-z0-9_./-]", "_");
    }
}
