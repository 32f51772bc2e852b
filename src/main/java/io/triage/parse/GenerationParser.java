package io.triage.parse;

import io.triage.capture.ProbeOutput;
import io.triage.facts.Generation;
import io.triage.facts.Health;

/**
 * Reads the answer to a real request sent with curl (probe {@code generate}: a completion, a chat, a generate call):
 * the same code, time and error text as the health probe, and the first line of the body, which on an error names
 * what failed ({@code {"error": "… Stub process 'm_0_0' is not healthy."}}).
 */
final class GenerationParser {
    /** A generation may take long: curl's time when its command line does not say is not the health probe's 5 s. */
    private static final double DEFAULT_MAX_TIME = 600;
    /** The shell's echoed status after curl ({@code rc=28}): curl's exit code, read by {@link HealthParser}, not a body. */
    private static final com.google.re2j.Pattern SHELL_RC = com.google.re2j.Pattern.compile("^(?:rc|exit|status|\\$\\?)\\s*[=:]\\s*\\d{1,3}$");

    private GenerationParser() {
    }

    static void parse(ProbeOutput p, Sink sink) {
        // a reset on a real request is an answer cut off (an engine that died under it), not nothing listening
        Health h = HealthParser.read(p, DEFAULT_MAX_TIME, false, sink);
        if (h == null) {
            return;
        }
        String body = "";
        for (String l : sink.lines(p, 3)) {
            String s = l.strip();
            if (!s.isEmpty() && !s.startsWith("curl: (") && !Character.isDigit(s.charAt(0)) && !SHELL_RC.matcher(s).matches()) {
                body = Text.excerpt(s);
                break;
            }
        }
        String excerpt = body.isEmpty() || h.status().equals("ok") ? h.excerpt() : h.excerpt() + " | " + body;
        sink.add(new Generation(h.status(), h.httpCode(), h.seconds(), body, p.name(), h.line(), excerpt));
    }
}
