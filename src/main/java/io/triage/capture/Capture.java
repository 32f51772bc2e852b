package io.triage.capture;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One look at one host: every probe's raw output plus what the operator told us.
 *
 * @param source where the capture came from (a directory, a live host…), for display
 * @param probes probe outputs by probe name, in a stable order
 * @param target key=value lines of {@code target.txt} (server, port, log)
 * @param intent key=value lines of {@code intent.txt}, plus any given on the command line
 * @param notes what the reader noticed while reading (truncated files, odd lines), for the coverage
 */
public record Capture(String source, Map<String, ProbeOutput> probes, Map<String, String> target,
                      Map<String, String> intent, List<String> notes) {

    public Optional<ProbeOutput> probe(String name) {
        return Optional.ofNullable(probes.get(name));
    }
}
