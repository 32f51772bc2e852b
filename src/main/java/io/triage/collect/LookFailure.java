package io.triage.collect;

/**
 * The look at a host itself failed: not a diagnosis of the server, but an answer all the same, with
 * what the operator should check. {@code kind} is one of {@code unreachable}, {@code dns},
 * {@code auth-refused}, {@code host-key-unknown}, {@code host-key-changed}, {@code timeout},
 * {@code deadline}, {@code ssh-error}.
 */
public record LookFailure(String host, String kind, String message, String check) {
}
