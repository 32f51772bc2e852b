package io.triage.facts;

/**
 * What is being diagnosed.
 *
 * @param server server kind (sglang, vllm, tgi…) or empty when unknown
 * @param port the server's port, or -1 when unknown
 * @param log path of its log on the host, or empty
 */
public record Target(String server, int port, String log) {
}
