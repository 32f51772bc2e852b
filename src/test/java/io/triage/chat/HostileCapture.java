package io.triage.chat;

import io.triage.TestHome;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * A real scenario copied and laced with what a hostile or careless host can print: chat mentions,
 * Slack links, markdown and mrkdwn markup, backtick runs and code fences, HTML, and an ANSI colour
 * sequence, in the log, a process's command line, a probe's stderr, an unreadable GPU line and the
 * log path (which is filled into the next steps' commands).
 */
final class HostileCapture {
    static final String ESC = "\u001b";
    /** One line of everything at once; each piece must come out as inert text. */
    static final String PAYLOAD = "<!channel> <!here> <@U123> <#C123> <https://evil.example|click> *bold* _it_ ~s~ "
            + "`tick` ```fence``` <script>alert(1)</script> " + ESC + "[31mred" + ESC + "[0m [x](http://evil.example) # | @here &amp;";
    static final String SCENARIO = "52-external-kill-docker-kill-exited-137";

    private HostileCapture() {
    }

    static Path build(Path into) throws IOException {
        Path src = TestHome.fixture(SCENARIO);
        Path dst = into.resolve("hostile");
        Files.createDirectories(dst);
        try (Stream<Path> files = Files.list(src)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.copy(f, dst.resolve(f.getFileName()));
            }
        }
        replaceInFile(dst.resolve("ps.out"), "--device cuda", "--device cuda --name " + PAYLOAD);
        append(dst.resolve("health.err"), " " + PAYLOAD);
        replaceInFile(dst.resolve("log_tail.out"), "15:35:58 TP0] Decode batch.", "15:35:58 TP0] Decode batch. " + PAYLOAD);
        replaceInFile(dst.resolve("target.txt"), "log=/srv/sglang/logs/llama31-8b.log",
                "log=/srv/sglang/logs/a````b`<!channel>*x*" + ESC + "[31m.log");
        append(dst.resolve("gpus.out"), "\n" + PAYLOAD + "\n");
        return dst;
    }

    private static void replaceInFile(Path f, String what, String with) throws IOException {
        String s = Files.readString(f, StandardCharsets.UTF_8);
        if (!s.contains(what)) {
            throw new IllegalStateException(f + " no longer holds \"" + what + "\": update the hostile capture");
        }
        Files.writeString(f, s.replace(what, with), StandardCharsets.UTF_8);
    }

    private static void append(Path f, String what) throws IOException {
        String s = Files.readString(f, StandardCharsets.UTF_8).stripTrailing();
        Files.writeString(f, s + what, StandardCharsets.UTF_8);
    }
}
