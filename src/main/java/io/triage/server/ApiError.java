package io.triage.server;

/**
 * A refusal with an HTTP status, answered as {@code {"error": "<id>", "reason": "<one line>"}}. The id is
 * stable (clients branch on it); the reason is for people.
 */
public final class ApiError extends RuntimeException {
    private final int status;
    private final String error;

    public ApiError(int status, String error, String reason) {
        super(reason, null, false, false);
        this.status = status;
        this.error = error;
    }

    public int status() {
        return status;
    }

    public String error() {
        return error;
    }

    public String reason() {
        return getMessage();
    }

    static ApiError badRequest(String error, String reason) {
        return new ApiError(400, error, reason);
    }

    static ApiError notFound(String reason) {
        return new ApiError(404, "not-found", reason);
    }

    static ApiError forbidden(String error, String reason) {
        return new ApiError(403, error, reason);
    }
}
