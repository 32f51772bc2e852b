package io.triage.bench;

import io.triage.Triage;
import io.triage.parse.FactBuilder;
import io.triage.parse.Observation;
import io.triage.parse.ReadBudget;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Runs generated captures through parsing and diagnosis in this process and counts what went wrong. */
public final class FuzzRun {
    /** What a run found. */
    public record Result(int captures, int exceptions, int overBudget, int budgetSpent, int cut, List<String> failures,
                         long[] nanos, String slowest, long slowestNanos, long maxWork) {
        public long percentile(double p) {
            long[] s = nanos.clone();
            Arrays.sort(s);
            return s[Math.min(s.length - 1, (int) Math.floor(p * s.length))];
        }
    }

    private FuzzRun() {
    }

    public static Result run(Triage triage, CaptureFuzzer fuzzer, int count) {
        FactBuilder builder = new FactBuilder(triage.knowledge());
        long oneLine = io.triage.parse.PatternInventory.oneLineWork(triage.knowledge());
        int exceptions = 0;
        int over = 0;
        int spent = 0;
        int cut = 0;
        long maxWork = 0;
        List<String> failures = new ArrayList<>();
        long[] nanos = new long[count];
        String slowest = "";
        long slowestNanos = -1;
        for (int i = 0; i < count; i++) {
            CaptureFuzzer.Case c = fuzzer.make(i);
            long t0 = System.nanoTime();
            try {
                Observation o = builder.build(c.capture(), Map.of());
                triage.diagnose(c.capture(), Map.of());
                maxWork = Math.max(maxWork, o.work());
                if (o.work() > ReadBudget.CAPTURE_WORK + oneLine) {
                    over++;
                    failures.add("#" + i + " over budget: " + o.work() + " " + c.mutations());
                }
                if (o.notes().stream().anyMatch(n -> n.startsWith("parsing stopped after"))) {
                    spent++;
                }
                if (o.notes().stream().anyMatch(n -> n.contains(" characters cut to "))) {
                    cut++;
                }
            } catch (Throwable t) {
                exceptions++;
                if (failures.size() < 20) {
                    failures.add("#" + i + " (" + c.base() + ") " + t + " " + c.mutations());
                }
            }
            nanos[i] = System.nanoTime() - t0;
            if (nanos[i] > slowestNanos) {
                slowestNanos = nanos[i];
                slowest = "#" + i + " (" + c.base() + ") " + c.mutations();
            }
        }
        return new Result(count, exceptions, over, spent, cut, failures, nanos, slowest, slowestNanos, maxWork);
    }
}
