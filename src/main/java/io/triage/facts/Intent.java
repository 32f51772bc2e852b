package io.triage.facts;

/**
 * What the operator says they launched: a server argument ({@code moe_runner_backend=flashinfer_trtllm})
 * or {@code launched_at} (epoch seconds in {@code epoch}). Keys are normalised like {@link ServerArg}.
 *
 * @param epoch for time-valued intents, epoch seconds; else -1
 */
public record Intent(String key, String value, long epoch, String probe, int line, String excerpt)
        implements Evidence {
}
