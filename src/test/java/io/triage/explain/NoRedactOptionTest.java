package io.triage.explain;

import io.triage.TestHome;
import io.triage.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code replay --no-redact} shows a secret as the capture has it (the rare case it is wanted). The default
 * (redacted) path is covered through the core in RedactionEndToEndTest: run through the command line it
 * would create the installation's key in the user's configuration directory, which a test must not do.
 */
class NoRedactOptionTest {

    @Test
    void replayWithNoRedactShowsTheSecretAsCaptured(@TempDir Path tmp) throws Exception {
        Path src = TestHome.fixture("30-config-mismatch-vllm-max-model-len");
        Path dir = Files.createDirectory(tmp.resolve("capture"));
        try (Stream<Path> files = Files.list(src)) {
            for (Path f : files.toList()) {
                Files.copy(f, dir.resolve(f.getFileName().toString()));
            }
        }
        for (String probe : new String[] {"pgrep.out", "ps.out"}) {
            Path p = dir.resolve(probe);
            Files.writeString(p, Files.readString(p).replace("--max-model-len 8192",
                    "--max-model-len 8192 --api-key sk-shown0123456789abcdefXYZ"));
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = Main.run(new String[] {"--home", TestHome.HOME.toString(), "replay", dir.toString(), "--no-redact",
                "--intent", "api_key=sk-wanted0123456789abcdefXYZ", "--format", "json"},
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, rc, err.toString());
        assertTrue(out.toString().contains("sk-shown0123456789abcdefXYZ"), out.toString());
        assertTrue(out.toString().contains("\"cause\" : \"config-mismatch\""), out.toString());
    }
}
