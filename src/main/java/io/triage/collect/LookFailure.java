package io.triage.collect;

/**
 * The look at a host itself failed: not a diagnosis of the server, but an answer all the same, with
 * what the operator should check. {@code kind} is one of {@code unreachable}, {@code dns},
 * {@code auth-refused}, {@code host-key-unknown}, {@code host-key-changed}, {@code timeout},
 * {@code deadline}, {@code output-cap} (the host sent more than a look takes), {@code no-probes} (it answered
 * without a single probe result), {@code ssh-error}; and, from the use case, {@code save-failed} and
 * {@code internal-error}.
 */
public record LookFailure(String host, String kind, String message, String check) {
}
