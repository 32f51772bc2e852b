package io.triage.parse;

import io.triage.facts.LogProgress;
import io.triage.knowledge.Cadence;
import io.triage.knowledge.LinePattern;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Measures the newest run's lines of work against the server's logging cadence: how long the log has
 * been silent since the last one, whether work was pending then, whether the lines still report tokens
 * produced. One line of work followed by a silence longer than the server's rhythm is not progress.
 */
final class WorkLog {
    /**
     * Accepted requests after an idle line that say the engine takes none: uvicorn's access lines carry no time, so a
     * few could be a test sent moments before the look (the next statistics line is up to an interval away); many
     * cannot all be.
     */
    private static final int NOT_TAKEN_MIN_REQUESTS = 10;
    /** How long requests must have kept arriving with no batch logged before they count as never taken, seconds. */
    private static final long NOT_TAKEN_MIN_SECONDS = 5;

    /** An access line of a generation request the front end accepted: its answer (or its stream) began. */
    private static final com.google.re2j.Pattern ACCEPTED_GENERATION = com.google.re2j.Pattern.compile(
            "\"POST /(?:v1/(?:chat/)?completions|v1/responses|generate)[^\" ]{0,200} HTTP/[0-9.]{1,3}\" 200\\b");

    /** Gaps between lines of work used to learn the log's own rhythm (the newest ones). */
    private static final int RHYTHM_SAMPLE = 24;
    /** Newest lines of work read for counts and throughput. */
    private static final int COUNT_SAMPLE = 64;

    /** One classified line of the newest run, in log order. */
    record Line(String kind, String markerId, long epoch, String text, String probe, int line) {
    }

    private final Cadence cadence;
    private final String serverKind;

    /**
     * @param serverKind the target's server kind, or empty (then the kind whose lines of work appear)
     */
    WorkLog(Cadence cadence, String serverKind) {
        this.cadence = cadence;
        this.serverKind = serverKind == null ? "" : serverKind;
    }

    /** As {@link #read(List, long, long, String, Sink)} with no log clock. */
    void read(List<Line> lines, long clock, String fallbackProbe, Sink sink) {
        read(lines, clock, -1, fallbackProbe, sink);
    }

    /**
     * Adds one {@link LogProgress} for the newest run's lines ({@code progress}, served {@code access}, stall warnings).
     *
     * @param clock the capture's clock (epoch seconds), or -1 when it has none (a pasted log)
     * @param logClock the newest timestamp of the log itself, or -1: without the capture's clock, "now" is at least
     *                 this, so a silence measured to it is a lower bound — enough to call a stall, never to call
     *                 work continuing
     */
    void read(List<Line> lines, long clock, long logClock, String fallbackProbe, Sink sink) {
        Optional<Cadence.Server> server = cadence.server(serverKind);
        List<Line> work = new ArrayList<>();
        // the stall warnings after the newest batch line, where the server logs its batches: the 200 of a streamed
        // request is logged when its headers go out, stalled engine or not, so answers do not end a run of warnings
        int warningsAfterAny = 0;
        int warningsAfterBatch = 0;
        boolean batches = false;
        for (Line l : lines) {
            if (l.kind().equals("health-check-failed")) {
                warningsAfterAny++;
                warningsAfterBatch++;
                continue;
            }
            work.add(l);
            warningsAfterAny = 0;
            if (cadence.byMarker(l.markerId()).isPresent()) {
                batches = true;
                warningsAfterBatch = 0;
            }
            if (server.isEmpty()) {
                server = cadence.byMarker(l.markerId());
            }
        }
        int warningsAfter = batches ? warningsAfterBatch : warningsAfterAny;
        String name = server.map(Cadence.Server::name).orElse(serverKind);
        long every = server.map(Cadence.Server::everySeconds).orElse(0L);
        if (work.isEmpty()) {
            sink.add(new LogProgress(name, "none", 0, 0, -1, -1, every, "knowledge", stallAfter(every), -1, -1, -1,
                    warningsAfter, fallbackProbe, 0, "(no line of work in the newest run)"));
            return;
        }
        Line last = work.get(work.size() - 1);
        // the newest line that carries counts speaks for the queue
        int running = -1;
        int waiting = -1;
        double throughput = -1;
        int zero = 0;
        int servedSince = 0; // requests answered after the newest line that counts the queue
        int acceptedSince = 0; // ...of them, generation requests the front end accepted (200)
        boolean newestCountZero = false; // that line counted requests and said nothing was produced
        boolean zeroLoggedOnce = false; // ...by a server that logs such an interval once, then falls silent
        boolean streak = true;
        // the newest lines only: what the queue says now, and how long the zero-throughput streak runs
        for (int i = work.size() - 1; i >= Math.max(0, work.size() - COUNT_SAMPLE); i--) {
            Line l = work.get(i);
            Cadence.Server s = cadence.byMarker(l.markerId()).orElse(null);
            if (s == null) {
                streak = false; // a served request is work done
                if (running < 0 && waiting < 0) {
                    servedSince++;
                    if (ACCEPTED_GENERATION.matcher(l.text()).find()) {
                        acceptedSince++;
                    }
                }
                continue;
            }
            int r = integer(s.running(), l.text());
            int w = integer(s.waiting(), l.text());
            double t = decimal(s.throughput(), l.text());
            double prefill = t == 0 ? decimal(s.prompt(), l.text()) : -1; // read only where it can count
            if (t == 0 && prefill > 0) {
                t = prefill; // a long prefill: prompt tokens processed, none generated yet, work all the same
            }
            if (running < 0 && waiting < 0 && (r >= 0 || w >= 0)) {
                running = r;
                waiting = w;
                newestCountZero = t == 0 && (r > 0 || w > 0);
                zeroLoggedOnce = s.zeroLoggedOnce();
            }
            if (throughput < 0 && t >= 0) {
                throughput = t;
            }
            if (streak && t == 0 && (r > 0 || w > 0)) {
                zero++;
            } else {
                streak = false;
            }
            if (!streak && (running >= 0 || waiting >= 0) && throughput >= 0) {
                break; // the queue and the throughput are known and the streak is over: older lines change nothing
            }
        }
        // ...unless that line said nothing was being produced: the 200s after it are streams whose headers went out
        // (uvicorn logs a streamed answer when it starts) and never got a token
        if (running >= 0 && waiting >= 0 && running + waiting > 0 && servedSince >= running + waiting && throughput != 0) {
            // as many answers logged after the count as requests it counted: what was in flight was answered (a
            // server that logs its batches every N steps says nothing more once the last request is done)
            running = 0;
            waiting = 0;
        }
        // the log's own rhythm: the median gap between its newest timestamped lines of work
        long observed = medianGap(work);
        long rhythm = every;
        String source = "knowledge";
        if (every > 0 && observed > every) {
            rhythm = observed;
            source = "observed";
        }
        long stallAfter = stallAfter(rhythm);
        // the newest timestamped line of work; with requests pending on a server that logs its batches while it
        // works, the newest of its batches: an answer's access line is not progress on its own (uvicorn logs a
        // streamed answer's 200 when its headers go out, before any token)
        boolean batchesOnly = (running > 0 || waiting > 0) && every > 0
                && work.stream().anyMatch(l -> l.epoch() >= 0 && cadence.byMarker(l.markerId()).isPresent());
        long lastEpoch = -1;
        for (int i = work.size() - 1; i >= 0 && lastEpoch < 0; i--) {
            Line l = work.get(i);
            if (!batchesOnly || cadence.byMarker(l.markerId()).isPresent()) {
                lastEpoch = l.epoch();
            }
        }
        long silence = clock >= 0 && lastEpoch >= 0 ? Math.max(0, clock - lastEpoch) : -1;
        if (clock < 0 && logClock >= 0 && lastEpoch >= 0 && running + waiting > 0
                && stallAfter >= 0 && logClock - lastEpoch > stallAfter) {
            silence = logClock - lastEpoch; // the log went on this long after its last line of work: at least a stall
        }
        // a server that logs one interval of nothing produced and then falls silent (zeroLoggedOnce): that line, with
        // requests counted on it and answers logged after it, says nothing has been produced since
        boolean zeroThenQuiet = zeroLoggedOnce && newestCountZero && servedSince > 0 && (running > 0 || waiting > 0);
        // ...and one whose newest line says it had nothing to do, after which the front end accepted generation
        // requests for longer than the stall window without another line: any request taken would have put tokens
        // through and brought the line back. The engine takes no work
        boolean notTaken = zeroLoggedOnce && running == 0 && waiting == 0 && throughput == 0
                && acceptedSince >= NOT_TAKEN_MIN_REQUESTS && stallAfter > 0 && silence > stallAfter;
        // ...or one that logs every batch it schedules, whose newest lines are generation requests accepted with no
        // batch among them: none of them reached its scheduler
        boolean everyBatch = server.map(Cadence.Server::everyBatch).orElse(false);
        int sampled = Math.min(work.size(), COUNT_SAMPLE);
        long oldestSampled = work.get(work.size() - sampled).epoch();
        long sampleEnd = clock >= 0 ? clock : lastEpoch;
        boolean unscheduled = everyBatch && running < 0 && waiting < 0 && acceptedSince >= NOT_TAKEN_MIN_REQUESTS
                && servedSince == sampled && oldestSampled >= 0 && sampleEnd - oldestSampled >= NOT_TAKEN_MIN_SECONDS;
        int timed = (int) work.stream().filter(l -> l.epoch() >= 0).count();
        boolean pending = running > 0 || waiting > 0;
        String state;
        if (notTaken) {
            state = "not-taken";
        } else if (unscheduled) {
            state = "unscheduled";
        } else if (silence < 0 && (zero >= cadence.workLines() || zeroThenQuiet)) {
            state = "zero-throughput"; // the log's own lines say it, whatever the time of the look
        } else if (silence < 0) {
            state = "untimed";
        } else if (running == 0 && waiting == 0 && zero == 0) {
            state = "idle";
        } else if (stallAfter < 0 && observed > 0 && silence <= stallAfter(observed) && timed >= cadence.workLines()
                && zero < cadence.workLines()) {
            // a server that logs per request (no cadence of its own): lines of work at its own rhythm up to the look
            // say it works; a silence beyond that rhythm says nothing (a long request logs nothing until it ends)
            state = "continuing";
            rhythm = observed;
            source = "observed";
        } else if (stallAfter < 0) {
            state = "no-cadence";
        } else if (silence > stallAfter) {
            state = pending ? "stalled" : "quiet";
        } else if (zero >= cadence.workLines() || zeroThenQuiet) {
            state = "zero-throughput";
        } else if (timed >= cadence.workLines()) {
            state = "continuing";
        } else {
            state = "single";
        }
        sink.add(new LogProgress(name, state, work.size(), zero, lastEpoch, silence, rhythm, source, stallAfter,
                running, waiting, throughput, warningsAfter, last.probe(), last.line(), Text.excerpt(last.text())));
    }

    private long stallAfter(long rhythm) {
        if (rhythm <= 0) {
            return -1;
        }
        return Math.max(cadence.minStallSeconds(), (long) Math.ceil(cadence.stallFactor() * rhythm));
    }

    /** Median gap in seconds between consecutive timestamped lines of work (the newest ones), or -1. */
    private static long medianGap(List<Line> work) {
        List<Long> epochs = new ArrayList<>();
        for (int i = work.size() - 1; i >= 0 && epochs.size() <= RHYTHM_SAMPLE; i--) {
            if (work.get(i).epoch() >= 0) {
                epochs.add(work.get(i).epoch());
            }
        }
        if (epochs.size() < 3) {
            return -1;
        }
        long[] gaps = new long[epochs.size() - 1];
        for (int i = 0; i + 1 < epochs.size(); i++) {
            gaps[i] = Math.max(0, epochs.get(i) - epochs.get(i + 1));
        }
        Arrays.sort(gaps);
        return gaps[gaps.length / 2];
    }

    private static int integer(LinePattern p, String text) {
        String v = value(p, text);
        if (v == null || v.length() > 9) {
            return -1;
        }
        return Text.parseInt(v, -1);
    }

    private static double decimal(LinePattern p, String text) {
        String v = value(p, text);
        if (v == null || v.length() > 24) {
            return -1;
        }
        try {
            double d = Double.parseDouble(v);
            return Double.isFinite(d) && d >= 0 ? d : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String value(LinePattern p, String text) {
        if (p == null) {
            return null;
        }
        LinePattern.Match m = p.find(text);
        return m == null ? null : m.group("v");
    }
}
