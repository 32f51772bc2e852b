import io.triage.Triage;
import io.triage.capture.CaptureException;
import io.triage.explain.Diagnosis;
import io.triage.explain.JsonRenderer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Every capture's whole diagnosis as JSON, one capture after another, for comparing two builds: a speed change
 * must leave every line the same.
 *
 * <pre>
 * java -cp target/triage.jar src/test/bench/Verdicts.java HOME CAPTURES_DIR &gt; after.txt
 * </pre>
 * The parts that differ between two processes by design are masked: the redaction placeholders (their key is
 * the process's own) and the home the rules came from.
 */
public final class Verdicts {
    public static void main(String[] args) throws Exception {
        Triage triage = Triage.load(Path.of(args[0]));
        List<Path> dirs;
        try (Stream<Path> s = Files.walk(Path.of(args[1]))) {
            dirs = s.filter(Files::isDirectory).filter(Verdicts::hasProbes).sorted().toList();
        }
        JsonRenderer json = new JsonRenderer();
        Path root = Path.of(args[1]);
        for (Path d : dirs) {
            Diagnosis diagnosis;
            try {
                diagnosis = triage.diagnose(triage.reader().read(d), Map.of());
            } catch (CaptureException e) {
                continue;
            }
            String text = json.render(diagnosis)
                    .replaceAll("\u2039redacted:[0-9a-f]{8}\u203a", "\u2039redacted\u203a")
                    .replace(triage.home().toAbsolutePath().toString(), "HOME")
                    .replace(root.toAbsolutePath().toString(), "CAPTURES");
            System.out.println("== " + root.relativize(d));
            System.out.println(text);
        }
    }

    private static boolean hasProbes(Path d) {
        try (Stream<Path> s = Files.list(d)) {
            return s.anyMatch(p -> p.toString().endsWith(".out"));
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
