package io.triage.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The lines of a small configuration file (tokens, inventory): blank lines and {@code #} comments skipped. */
record ConfigLines(Path file, List<Line> lines) {
    /** One meaningful line, stripped, with its 1-based number for error messages. */
    record Line(int number, String text) { }

    static ConfigLines read(Path file) throws IOException {
        List<Line> out = new ArrayList<>();
        int n = 0;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            n++;
            String s = line.strip();
            if (!s.isEmpty() && !s.startsWith("#")) {
                out.add(new Line(n, s));
            }
        }
        return new ConfigLines(file, List.copyOf(out));
    }

    /** An error about one line, naming the file and the line. */
    IllegalArgumentException error(Line l, String what) {
        return new IllegalArgumentException(file.getFileName() + " line " + l.number() + ": " + what);
    }
}
