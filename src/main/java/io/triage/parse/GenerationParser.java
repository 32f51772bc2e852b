package io.triage.parse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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

    /** An error body longer than this is not parsed for its code. */
    private static final int MAX_BODY_CHARS = 64 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    private GenerationParser() {
    }

    static void parse(ProbeOutput p, Sink sink) {
        // a reset on a real request is an answer cut off (an engine that died under it), not nothing listening
        Health h = HealthParser.read(p, DEFAULT_MAX_TIME, false, bodyCode(sink.lines(p, 3)), sink);
        if (h == null) {
            return;
        }
        String body = body(sink.lines(p, 3));
        String excerpt = body.isEmpty() || h.status().equals("ok") || h.excerpt().equals(body) ? h.excerpt()
                : h.excerpt() + " | " + body;
        sink.add(new Generation(h.status(), h.httpCode(), h.seconds(), body, p.name(), h.line(), excerpt));
    }

    /** An HTTP status line ({@code curl -i}, or {@code < HTTP/1.1 500 …} of {@code curl -v}). */
    private static final com.google.re2j.Pattern STATUS_LINE = com.google.re2j.Pattern.compile("^(?:< )?HTTP/\\d(?:\\.\\d)? \\d{3}\\b");
    /** A header line of the answer ({@code Content-Type: …}), or curl -v's own ({@code < …}, {@code > …}, {@code * …}). */
    private static final com.google.re2j.Pattern HEADER = com.google.re2j.Pattern.compile("^[A-Za-z][A-Za-z0-9-]{0,62}:\\s");
    /** curl -v's own lines: what it tried ({@code * }), sent ({@code > }), received ({@code < }), and its data markers. */
    private static final com.google.re2j.Pattern CURL_VERBOSE = com.google.re2j.Pattern.compile("^(?:[<>*] |[<>*]$|[{}] \\[)");

    /**
     * The first line of the answer's body: after the status line and the headers when curl printed them
     * ({@code -i}, {@code -v}), never curl's own complaint, a bare number (the code {@code -w} printed) or the
     * shell's echoed status; empty when there is none.
     */
    static String body(java.util.List<String> lines) {
        boolean headers = false;
        for (String l : lines) {
            String s = l.strip();
            if (STATUS_LINE.matcher(s).find()) {
                headers = true;
                continue;
            }
            if (headers) {
                // the headers end at the first blank line (curl -v: at a line of "<" alone); a line that is not a
                // header ends them too (a paste that lost the blank line)
                if (s.isEmpty() || s.equals("<")) {
                    headers = false;
                    continue;
                }
                if (HEADER.matcher(s.startsWith("< ") ? s.substring(2) : s).find()) {
                    continue;
                }
                headers = false;
            }
            if (!s.isEmpty() && !s.startsWith("curl: (") && !Character.isDigit(s.charAt(0)) && !SHELL_RC.matcher(s).matches()
                    && !CURL_VERBOSE.matcher(s).find()) {
                return Text.excerpt(s);
            }
        }
        return "";
    }

    /**
     * The status an OpenAI-compatible error body states, for output curl printed without its code ({@code curl -s}):
     * {@code {"error": {"message": …, "code": 500}}} (vLLM, SGLang) or {@code {"object": "error", …, "code": 500}}
     * (older vLLM). A body that states none (TGI's {@code {"error": …, "error_type": …}}) gives no code.
     */
    static HealthParser.BodyCode bodyCode(java.util.List<String> lines) {
        for (int i = 0; i < lines.size(); i++) {
            String s = lines.get(i).strip();
            if (!s.startsWith("{") || s.length() > MAX_BODY_CHARS) {
                continue;
            }
            try {
                JsonNode root = JSON.readTree(s);
                JsonNode err = root == null ? null : root.get("error");
                JsonNode code = err != null && err.isObject() ? err.get("code")
                        : root != null && "error".equals(root.path("object").asText()) ? root.get("code") : null;
                if (code != null && code.canConvertToInt() && code.asInt() >= 400 && code.asInt() < 600) {
                    return new HealthParser.BodyCode(code.asInt(), i + 1);
                }
            } catch (java.io.IOException | RuntimeException e) {
                // not JSON, or cut off: no code from it
            }
            return null;
        }
        return null;
    }
}
