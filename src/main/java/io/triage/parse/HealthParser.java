package io.triage.parse;

import io.triage.capture.ProbeOutput;
import io.triage.facts.Health;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the health probe: {@code curl -w '%{http_code} %{time_total}'} output plus curl's exit code
 * and error text. Pasted output without an exit code is read from curl's error text.
 */
final class HealthParser {
    private static final Pattern CODE_TIME = Pattern.compile("^\\s*(\\d{3})\\s+(\\d+(?:\\.\\d+)?)\\s*$");
    private static final Pattern CODE_ONLY = Pattern.compile("^\\s*(\\d{3})\\s*$");
    private static final Pattern CURL_ERR = Pattern.compile("curl: \\((\\d+)\\)");
    /** curl's error where a paste put it in among the output: at the start of a line only, never in an answer's body. */
    private static final com.google.re2j.Pattern CURL_ERR_LINE = com.google.re2j.Pattern.compile("(?m)^[ \\t]*curl: \\((\\d+)\\)");
    /** The shell's exit status echoed after a silent curl: {@code rc=28}, {@code exit=7}, {@code $?=28}. */
    private static final com.google.re2j.Pattern SHELL_RC = com.google.re2j.Pattern.compile("^\\s*(?:rc|exit|status|\\$\\?)\\s*[=:]\\s*(\\d{1,3})\\s*$");
    private static final com.google.re2j.Pattern TIME_REAL = com.google.re2j.Pattern.compile("^\\s*real\\s+(\\d{1,5})m(\\d{1,3}(?:\\.\\d{1,6})?)s\\s*$");
    private static final com.google.re2j.Pattern MAX_TIME = com.google.re2j.Pattern.compile("(?:--max-time|-m)[ =]?(\\d+(?:\\.\\d+)?)");
    /** curl's {@code --max-time} when its command line does not say: the capture format's health probe. */
    private static final double DEFAULT_MAX_TIME = 5;
    /** An HTTP status line as curl -i prints it, or -v with its "< " before it. */
    private static final com.google.re2j.Pattern STATUS_LINE = com.google.re2j.Pattern.compile(
            "^(?:< )?HTTP/[0-9](?:\\.[0-9])? ([1-5][0-9][0-9])(?: |$)");

    private HealthParser() {
    }

    static void parse(ProbeOutput p, Sink sink) {
        Health h = read(p, DEFAULT_MAX_TIME, sink);
        if (h != null) {
            sink.add(h);
        }
    }

    /**
     * The answer curl printed: {@code -w '%{http_code} %{time_total}'}, its error text and exit code (or, pasted, an
     * {@code rc=N} line of the shell after it); null, with the output reported unparseable, when it says none.
     *
     * @param defaultMaxTime curl's {@code --max-time} where its command line does not say, seconds
     */
    static Health read(ProbeOutput p, double defaultMaxTime, Sink sink) {
        return read(p, defaultMaxTime, true, sink);
    }

    /** @param resetIsRefusal whether a connection reset (curl 56) means nothing serves (a fresh health request) */
    static Health read(ProbeOutput p, double defaultMaxTime, boolean resetIsRefusal, Sink sink) {
        return read(p, defaultMaxTime, resetIsRefusal, null, sink);
    }

    /**
     * @param bodyCode the HTTP code the answer's body itself states (an error body's {@code "code": 500}), taken when
     *                 curl printed none (a plain {@code curl -s} pasted), with the body's line as the excerpt; or null
     */
    static Health read(ProbeOutput p, double defaultMaxTime, boolean resetIsRefusal, BodyCode bodyCode, Sink sink) {
        String out = p.outOrEmpty();
        String err = p.errOrEmpty();
        int code = 0;
        double secs = p.seconds() == null ? -1 : p.seconds();
        String excerpt = "";
        int line = 0;
        List<String> lines = sink.lines(p, 3);
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = CODE_TIME.matcher(lines.get(i));
            Matcher c = CODE_ONLY.matcher(lines.get(i));
            if (m.matches()) {
                code = Integer.parseInt(m.group(1));
                secs = Double.parseDouble(m.group(2));
            } else if (c.matches()) {
                code = Integer.parseInt(c.group(1));
            } else {
                continue;
            }
            excerpt = Text.excerpt(lines.get(i));
            line = i + 1;
        }
        if (line == 0) {
            // curl -i or -v: the answer's status line ("HTTP/1.1 503 Service Unavailable", "< HTTP/2 200"); the last
            // one is the answer's (a 100 Continue or a redirect followed comes before it)
            for (int i = 0; i < lines.size(); i++) {
                com.google.re2j.Matcher st = STATUS_LINE.matcher(lines.get(i));
                if (st.find()) {
                    code = Integer.parseInt(st.group(1));
                    excerpt = Text.excerpt(lines.get(i).strip());
                    line = i + 1;
                }
            }
        }
        if (secs < 0) {
            // "time curl …": the shell's own count of the wall time ("real\t3m0.004s")
            for (String l : lines) {
                com.google.re2j.Matcher t = TIME_REAL.matcher(l);
                if (t.matches()) {
                    secs = Integer.parseInt(t.group(1)) * 60 + Double.parseDouble(t.group(2));
                }
            }
        }
        Integer rc = p.rc();
        Matcher ce = CURL_ERR.matcher(err);
        com.google.re2j.Matcher co = CURL_ERR_LINE.matcher(out);
        int curlRc = ce.find() ? Integer.parseInt(ce.group(1)) : co.find() ? Integer.parseInt(co.group(1)) : -1;
        if (curlRc < 0) {
            // "curl …; echo rc=$?" pasted: the shell's line after curl's (silent, -s) output
            for (String l : lines) {
                com.google.re2j.Matcher r = SHELL_RC.matcher(l);
                if (r.matches()) {
                    curlRc = Integer.parseInt(r.group(1));
                    excerpt = excerpt.isEmpty() ? Text.excerpt(l.strip()) : excerpt;
                }
            }
        }
        if (rc == null || (rc == 124 && curlRc > 0)) {
            rc = curlRc >= 0 ? curlRc : null;
        }
        String errLine = Text.lines(err).stream().filter(s -> !s.isBlank()).findFirst().orElse("");
        if (!errLine.isEmpty()) {
            excerpt = excerpt.isEmpty() ? Text.excerpt(errLine) : excerpt + " | " + Text.excerpt(errLine);
        }
        String status;
        if (rc == null) {
            if (code >= 200 && code < 300) {
                status = "ok";
            } else if (code >= 100) {
                status = "http-error";
            } else {
                if (line == 0 && bodyCode != null) {
                    // the body states its status: words in it ("timeout not permitted") are not curl's
                    code = bodyCode.code();
                    line = bodyCode.line();
                    excerpt = Text.excerpt(lines.get(line - 1).strip());
                    status = "http-error"; // a body's code is read only from an error body (4xx, 5xx)
                } else {
                    status = fromErrorText(err + "\n" + out, resetIsRefusal);
                    if (status == null && line > 0) {
                        status = noAnswer(secs, p.cmd(), defaultMaxTime);
                    }
                }
            }
        } else {
            status = switch (rc) {
                case 0 -> code >= 200 && code < 300 ? "ok" : code >= 100 ? "http-error" : "other";
                // 56 "Recv failure: Connection reset by peer": docker's port proxy accepts, finds nothing listening
                // in the container and resets; a bare server that resets a fresh connection does not serve either
                case 7 -> "refused";
                case 56 -> resetIsRefusal ? "refused" : "other";
                case 28, 124 -> "timeout";
                case 6 -> "dns";
                case 22 -> "http-error";
                default -> "other";
            };
        }
        if (status == null) {
            sink.unparseable(p.name(), p.name() + " output has neither an HTTP code nor a curl error", 1,
                    Text.excerpt(out.isBlank() ? err : out));
            return null;
        }
        if (excerpt.isEmpty()) {
            excerpt = rc == null ? "(no output)" : "curl exit code " + rc;
        }
        return new Health(status, code, secs, p.name(), line, excerpt);
    }

    /** The HTTP code an answer's body states, on its 1-based line. */
    record BodyCode(int code, int line) {
    }

    /**
     * curl's {@code 000}, its code when no HTTP answer came, with its time and without its error text or exit code
     * (stdout saved alone): a connection that failed at once was refused (nothing listens; a local port answers a
     * refusal in well under a second), one that lasted curl's whole {@code --max-time} timed out; in between it
     * says neither (null).
     */
    private static String noAnswer(double secs, String cmd, double defaultMaxTime) {
        if (secs < 0) {
            return null;
        }
        double max = defaultMaxTime;
        com.google.re2j.Matcher m = cmd == null ? null : MAX_TIME.matcher(cmd);
        if (m != null && m.find()) {
            max = Double.parseDouble(m.group(1));
        }
        return secs < 1 ? "refused" : secs >= max * 0.95 ? "timeout" : null;
    }

    private static String fromErrorText(String text, boolean resetIsRefusal) {
        String t = text.toLowerCase(java.util.Locale.ROOT);
        if (t.contains("connection refused") || t.contains("couldn't connect") || t.contains("failed to connect")
                || resetIsRefusal && t.contains("connection reset by peer")) {
            return "refused";
        }
        if (t.contains("timed out") || t.contains("timeout")) {
            return "timeout";
        }
        if (t.contains("could not resolve") || t.contains("name or service not known")) {
            return "dns";
        }
        return null;
    }
}
