package io.triage.server;

import java.time.Duration;
import java.util.List;

/**
 * How the HTTP side of the server behaves.
 *
 * @param bind the address to listen on
 * @param port the port, 0 for a free one
 * @param publicUrl the URL people and bots reach the server at (its origin is the one cookie sessions
 *                  accept), or null for {@code http://bind:port}
 * @param maxBodyBytes largest request body accepted, bytes (413 beyond)
 * @param alertLabel the Alertmanager label that names the host (its port is dropped)
 * @param webhookTarget where Alertmanager-triggered diagnoses are posted, or null
 * @param allowedCallbacks URL prefixes a request's callback may start with
 * @param workers diagnoses running at once
 * @param queue diagnoses waiting beyond those (503 beyond)
 * @param sweepParallel hosts of one sweep looked at at once
 * @param shutdownBound how long running diagnoses may take to finish on stop
 */
public record ServeSettings(String bind, int port, String publicUrl, long maxBodyBytes, String alertLabel,
                            String webhookTarget, List<String> allowedCallbacks, int workers, int queue,
                            int sweepParallel, Duration shutdownBound) {
    public static final long DEFAULT_MAX_BODY = 8L << 20;

    public ServeSettings {
        allowedCallbacks = List.copyOf(allowedCallbacks == null ? List.of() : allowedCallbacks);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0-65535, not " + port);
        }
        if (publicUrl != null) {
            publicUrl = publicUrl.replaceAll("/+$", "");
            if (!publicUrl.matches("https?://[^/\\s]+(/\\S*)?")) {
                throw new IllegalArgumentException("--public-url must be an http(s) URL, not '" + publicUrl + "'");
            }
        }
    }

    public static ServeSettings defaults() {
        return new ServeSettings("127.0.0.1", 8321, null, DEFAULT_MAX_BODY, "instance", null, List.of(), 8, 1000, 32,
                Duration.ofSeconds(20));
    }

    public ServeSettings withBind(String b, int p) {
        return new ServeSettings(b, p, publicUrl, maxBodyBytes, alertLabel, webhookTarget, allowedCallbacks, workers,
                queue, sweepParallel, shutdownBound);
    }

    public ServeSettings withPublicUrl(String u) {
        return new ServeSettings(bind, port, u, maxBodyBytes, alertLabel, webhookTarget, allowedCallbacks, workers,
                queue, sweepParallel, shutdownBound);
    }

    public ServeSettings withCallbacks(List<String> allowed, String webhook, String label) {
        return new ServeSettings(bind, port, publicUrl, maxBodyBytes, label, webhook, allowed, workers, queue,
                sweepParallel, shutdownBound);
    }

    public ServeSettings withLimits(long maxBody, int w, int q, int sweep, Duration bound) {
        return new ServeSettings(bind, port, publicUrl, maxBody, alertLabel, webhookTarget, allowedCallbacks, w, q,
                sweep, bound);
    }

    /** True for 127.0.0.0/8, ::1 and localhost. */
    public boolean loopback() {
        return bind.equals("localhost") || bind.startsWith("127.") || bind.equals("::1") || bind.equals("[::1]");
    }
}
