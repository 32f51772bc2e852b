package io.triage.facts;

/**
 * What the health path's answer itself says beyond its status: {@code loading} when it holds the words a server
 * answers with while it loads its model ({@code serves.loading} of its markers file, such as llama-server's 503
 * {@code "Loading model"}).
 *
 * @param what   {@code loading}
 * @param server the server kind whose words they are
 */
public record HealthSays(String what, String server, String probe, int line, String excerpt) implements Evidence {
}
