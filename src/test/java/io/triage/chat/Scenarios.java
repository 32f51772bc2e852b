package io.triage.chat;

import io.triage.TestHome;
import io.triage.explain.Diagnosis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Every scenario of the knowledge base replayed once for the chat tests (replaying them all takes
 * seconds; three test classes share it), by its path under {@code knowledge-base/scenarios}.
 */
final class Scenarios {
    private static final class Holder {
        static final Map<String, Diagnosis> ALL = replayAll();
    }

    private Scenarios() {
    }

    static Map<String, Diagnosis> all() {
        return Holder.ALL;
    }

    static List<Path> dirs() {
        List<Path> dirs = new ArrayList<>();
        try (Stream<Path> s = Files.walk(TestHome.SCENARIOS)) {
            s.filter(p -> Files.isRegularFile(p.resolve("expected.txt"))).sorted().forEach(dirs::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dirs;
    }

    private static Map<String, Diagnosis> replayAll() {
        Map<String, Diagnosis> out = new LinkedHashMap<>();
        for (Path dir : dirs()) {
            try {
                out.put(TestHome.SCENARIOS.relativize(dir).toString(), TestHome.triage().replay(dir, Map.of()));
            } catch (Exception e) {
                throw new IllegalStateException("scenario " + dir + " does not replay", e);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalStateException("no scenario under " + TestHome.SCENARIOS);
        }
        return Map.copyOf(out);
    }
}
