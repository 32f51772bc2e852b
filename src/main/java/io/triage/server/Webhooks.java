package io.triage.server;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * Posts results to callback and webhook URLs, but only to those the operator allowed (by prefix): the
 * server must not become a way to make requests to arbitrary addresses. Redirects are not followed.
 */
final class Webhooks {
    private static final Logger LOG = LoggerFactory.getLogger(Webhooks.class);

    private final List<String> allowed;
    private final HttpClient client = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();

    /** @param allowed URL prefixes a callback may start with (the alert webhook target is always one) */
    Webhooks(List<String> allowed) {
        this.allowed = List.copyOf(allowed);
    }

    /** The callback URL, checked; a 400 or 403 when it is not one this server may call. */
    String check(String url) {
        URI u;
        try {
            u = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest("bad-callback", "the callback is not a URL");
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || u.getHost() == null || u.getRawUserInfo() != null) {
            throw ApiError.badRequest("bad-callback", "the callback must be an http(s) URL without credentials");
        }
        String norm = u.normalize().toString();
        for (String prefix : allowed) {
            if (within(norm, prefix)) {
                return norm;
            }
        }
        throw ApiError.forbidden("callback-not-allowed", allowed.isEmpty()
                ? "this server calls no callback URL (start it with --allow-callback PREFIX)"
                : "the callback does not start with an allowed prefix");
    }

    /**
     * True when {@code url} starts with {@code prefix} at a boundary: {@code http://a/hook} allows
     * {@code http://a/hook/x} and {@code http://a/hook?x}, not {@code http://a/hookx} nor {@code http://a.evil}.
     */
    static boolean within(String url, String prefix) {
        if (!url.startsWith(prefix)) {
            return false;
        }
        if (url.length() == prefix.length() || prefix.endsWith("/")) {
            return true;
        }
        char next = url.charAt(prefix.length());
        return next == '/' || next == '?' || next == '#';
    }

    /** Posts the JSON body; the outcome is logged, never retried endlessly, never fatal. */
    CompletableFuture<Integer> post(String url, String json) {
        HttpRequest req = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .header("User-Agent", "triage-serve")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
        return client.sendAsync(req, HttpResponse.BodyHandlers.discarding())
                .thenApply(r -> {
                    if (r.statusCode() >= 300) {
                        LOG.warn("callback answered {}", r.statusCode());
                    }
                    return r.statusCode();
                })
                .exceptionally(e -> {
                    LOG.warn("callback failed: {}", e.getMessage());
                    return -1;
                });
    }
}
