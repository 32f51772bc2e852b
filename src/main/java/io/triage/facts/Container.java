package io.triage.facts;

/**
 * A container from {@code docker ps -a} (or podman): its name, image, command and state.
 *
 * @param exitCode the code of an exited container ({@code Exited (137)}), or -1 while it runs
 * @param server true when its image or command is an inference server's, per {@code processes.yaml}
 */
public record Container(String name, String image, String command, String state, int exitCode, boolean server,
                        String probe, int line, String excerpt) implements Evidence {
}
