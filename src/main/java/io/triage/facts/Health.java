package io.triage.facts;

/**
 * The result of the HTTP health probe. {@code status} is one of {@code ok} (2xx), {@code http-error}
 * (answered with another code), {@code refused} (nothing listens), {@code timeout}, {@code dns},
 * {@code other}.
 *
 * @param httpCode the HTTP status, or 0 when no answer came
 * @param seconds total time of the request in seconds, or -1 when unknown
 */
public record Health(String status, int httpCode, double seconds, String probe, int line, String excerpt)
        implements Evidence {
}
