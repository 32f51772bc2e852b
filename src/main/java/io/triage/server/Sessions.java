package io.triage.server;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Browser sessions: the one-time token of the URL printed at start is exchanged, once, for a session
 * cookie; a session carries the CSRF token that its state-changing calls must send back. Kept in memory
 * only: after a restart, the new URL printed signs in again.
 */
final class Sessions {
    static final String COOKIE = "triage_session";
    static final Duration TTL = Duration.ofHours(12);

    record Session(String name, String csrf, long expiresAtMillis) { }

    private final String oneTime;
    private final AtomicBoolean used = new AtomicBoolean();
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    Sessions(String oneTimeToken) {
        this.oneTime = oneTimeToken;
    }

    /** Exchanges the one-time token for a new session id; empty when it is wrong or was used already. */
    Optional<String> exchange(String presented) {
        if (!Tokens.sameSecret(presented, oneTime) || !used.compareAndSet(false, true)) {
            return Optional.empty();
        }
        String id = Tokens.random(32);
        sessions.put(id, new Session("browser", Tokens.random(24), System.currentTimeMillis() + TTL.toMillis()));
        return Optional.of(id);
    }

    Optional<Session> find(String id) {
        if (id == null || id.length() != 64) {
            return Optional.empty();
        }
        Session s = sessions.get(id);
        if (s == null) {
            return Optional.empty();
        }
        if (s.expiresAtMillis() < System.currentTimeMillis()) {
            sessions.remove(id);
            return Optional.empty();
        }
        return Optional.of(s);
    }
}
