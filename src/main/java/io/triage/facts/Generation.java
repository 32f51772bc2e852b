package io.triage.facts;

/**
 * The answer to a real request (a completion, a chat, a generate call) someone sent the server, as curl printed
 * it: what a health endpoint cannot say, whether the engine behind the front end produces anything. {@code status}
 * is one of {@code ok} (2xx), {@code http-error} (answered with another code), {@code refused}, {@code timeout}
 * (no answer within curl's time), {@code dns}, {@code other}.
 *
 * @param httpCode the HTTP status, or 0 when no answer came
 * @param seconds total time of the request in seconds, or -1 when unknown
 * @param body the answer's first line of text (an error body names what failed), or empty
 */
public record Generation(String status, int httpCode, double seconds, String body, String probe, int line,
                         String excerpt) implements Evidence {
    public Generation {
        body = body == null ? "" : body;
    }
}
