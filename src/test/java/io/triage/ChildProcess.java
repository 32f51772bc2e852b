package io.triage;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Child processes for the tests that need a real process: a JVM on the test class path, or a script. */
public final class ChildProcess {
    /** What a child said and how it ended. */
    public record Result(int code, String out, String err) { }

    private ChildProcess() {
    }

    /** {@code java -cp <the test class path, absolute> ARGS…}: a JVM that finds the product from any directory. */
    public static List<String> java(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-cp");
        cmd.add(absoluteClassPath());
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** The test's class path with every entry absolute, so that a child in another directory finds it. */
    public static String absoluteClassPath() {
        StringBuilder b = new StringBuilder();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!e.isEmpty()) {
                b.append(b.length() == 0 ? "" : File.pathSeparator).append(Path.of(e).toAbsolutePath());
            }
        }
        return b.toString();
    }

    /** Starts {@code pb} with no input and waits for it; stdout and stderr are read together (no pipe fills up). */
    public static Result run(ProcessBuilder pb, Duration timeout) throws IOException, InterruptedException {
        Process p = pb.start();
        p.getOutputStream().close();
        return finish(p, timeout);
    }

    /** Waits for a started child, reading its stdout and stderr together; a child past {@code timeout} is killed. */
    public static Result finish(Process p, Duration timeout) throws IOException, InterruptedException {
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the child did not end within " + timeout);
        }
        return new Result(p.exitValue(), out, err.join());
    }
}
