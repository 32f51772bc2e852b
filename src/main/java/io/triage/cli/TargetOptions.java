package io.triage.cli;

import io.triage.collect.HostFilters;
import io.triage.collect.ProbeBundle;
import io.triage.knowledge.KnowledgeBase;
import picocli.CommandLine.Option;

/** The target's server kind, port and log, shared by the commands that build a probe bundle. */
final class TargetOptions {
    @Option(names = "--server", description = "Server kind, one of knowledge-base/processes.yaml: sglang, vllm, tgi… (default: discovered).")
    String server;

    @Option(names = "--port", description = "The server's HTTP port (default: discovered from the listening server process).")
    String port;

    @Option(names = "--log", description = "The server's log file on the host (default: the file behind the server's stdout).")
    String log;

    @Option(names = "--second-look", paramLabel = "MS", description = "When health fails or is slow while a server process "
            + "lives, sample what moves (log, CPU time, GPU use, /metrics, weight downloads) twice, MS milliseconds apart "
            + "(default: 5000; 0 turns it off).")
    Integer secondLookMs;

    /**
     * A bundle for these values, validated.
     *
     * @throws IllegalArgumentException with a message for the user when a value is refused
     */
    ProbeBundle bundle(KnowledgeBase knowledge) {
        ProbeBundle b = ProbeBundle.forTarget(server, port == null ? null : ProbeBundle.parsePort(port), log)
                .with(HostFilters.of(knowledge));
        return secondLookMs == null ? b : b.withSecondLook(secondLookMs);
    }
}
