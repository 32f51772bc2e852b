package io.triage.bench;

import io.triage.Triage;
import io.triage.parse.ReadBudget;

import java.nio.file.Path;

/**
 * Fuzz run, not a test: generated hostile captures (real scenario lines, cut lines, repeated
 * fragments, random characters, lines up to 1 MiB) through parsing and diagnosis in this process.
 * Reports uncaught exceptions (goal 0), captures whose parsing went past the budget (goal 0), and
 * the slowest case. Run: {@code java -cp target/classes:target/test-classes:$(cat target/cp.txt)
 * io.triage.bench.FuzzBench [captures] [seed]} after {@code mvn -q dependency:build-classpath
 * -Dmdep.outputFile=target/cp.txt}.
 */
public final class FuzzBench {
    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
        Path home = Path.of("").toAbsolutePath();
        Triage triage = Triage.load(home);
        CaptureFuzzer fuzzer = new CaptureFuzzer(triage, home.resolve("knowledge-base/scenarios"), seed, 1 << 20);
        long t0 = System.nanoTime();
        FuzzRun.Result r = FuzzRun.run(triage, fuzzer, count);
        double secs = (System.nanoTime() - t0) / 1e9;
        System.out.printf("captures: %d in %.1f s (seed %d)%n", r.captures(), secs, seed);
        System.out.printf("uncaught exceptions: %d%n", r.exceptions());
        System.out.printf("over the parsing budget (%d + one line): %d%n", ReadBudget.CAPTURE_WORK, r.overBudget());
        System.out.printf("budget spent, rest noted unread: %d; lines cut and noted: %d; most work: %d%n",
                r.budgetSpent(), r.cut(), r.maxWork());
        System.out.printf("parse + diagnose per capture: median %.2f ms, p99 %.2f ms, max %.1f ms%n",
                r.percentile(0.5) / 1e6, r.percentile(0.99) / 1e6, r.slowestNanos() / 1e6);
        System.out.println("slowest: " + r.slowest());
        for (String f : r.failures()) {
            System.out.println("  " + f);
        }
    }
}
