package io.triage.probe;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The probe frame protocol, written once: how the probe script frames each probe's result on its standard output,
 * how the lab writes the same frames from a recording, and how the collector reads them back (whole, or only
 * their headers for progress).
 *
 * <p>A run's answer is lines. A line that starts with {@code @@NONCE } (the run's random nonce, then one space)
 * is the script's; any other line (a login banner, a shell's noise) is not. A probe's result is three lines:
 * <pre>
 *   @@NONCE probe NAME rc=EXIT ms=WALL out=BYTES err=BYTES
 *   base64 of the first {@code maxOut} bytes of its standard output (may be empty)
 *   base64 of the first {@code maxErr} bytes of its standard error (may be empty)
 * </pre>
 * {@code out=} and {@code err=} are the full sizes the probe wrote: more than the body holds means the body was
 * cut (truncation is said, never guessed). Older scripts wrote the header without them; such a frame is read with
 * its sizes unknown. A body is base64, so nothing a probe prints (a forged header, a newline, bytes that are not
 * UTF-8) can end a frame or start another. Other tagged lines: {@code discovered …}, {@code assumed …},
 * {@code skipped …} and {@code end} (the script finished). A line may end in CR (a pseudo-terminal): it is
 * read as if it did not.
 *
 * <p>The shell side is {@link #shellFunctions}: {@code say} prints a tagged line and {@code p} runs one probe
 * under its timeout and prints its frame. A probe is asked for by an {@link #invocation} line, which the lab
 * reads back with {@link #invoked}.
 */
public final class ProbeFrames {
    /** What starts every tagged line, before the nonce. */
    public static final String MARK = "@@";
    /** Longest header line: a name, an exit code, a time and two sizes with room to spare. */
    public static final int MAX_HEADER = 384;
    private static final Pattern NONCE = Pattern.compile("[0-9A-Za-z]{1,128}");
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,63}");
    private static final Pattern HEADER = Pattern.compile(
            "^probe ([a-z][a-z0-9_]{0,63}) rc=(-?\\d{1,9}) ms=(-?\\d{1,12})(?: out=(\\d{1,15}) err=(\\d{1,15}))?$");
    /** An invocation line of the script, with or without the condition it runs under. */
    private static final Pattern INVOCATION = Pattern.compile(
            "^(?:if .{1,400}?; then )?p ([a-z][a-z0-9_]{0,63}) ([0-9]{1,6}) '.*$");

    private final String nonce;
    private final byte[] tag;

    /**
     * @param nonce the run's nonce: letters and digits only (it is written into the script and matched in the answer)
     * @throws IllegalArgumentException for any other nonce
     */
    public ProbeFrames(String nonce) {
        if (nonce == null || !NONCE.matcher(nonce).matches()) {
            throw new IllegalArgumentException("a frame nonce is 1-128 letters and digits");
        }
        this.nonce = nonce;
        this.tag = (MARK + nonce + " ").getBytes(StandardCharsets.US_ASCII);
    }

    public String nonce() {
        return nonce;
    }

    /** Whether a probe name can be framed: lower-case letters, digits and {@code _}, starting with a letter. */
    public static boolean isName(String name) {
        return name != null && NAME.matcher(name).matches();
    }

    // ------------------------------------------------------------------------------------------ the header

    /**
     * A probe's header.
     *
     * @param rc its exit code (124: killed by its timeout; 127: not found)
     * @param millis its wall time, ms
     * @param outBytes the size of its whole standard output, bytes; -1 when the frame did not say
     * @param errBytes the size of its whole standard error, bytes; -1 when the frame did not say
     */
    public record Header(String probe, int rc, long millis, long outBytes, long errBytes) {
        /** The header line's text after the tag. */
        public String text() {
            String s = "probe " + probe + " rc=" + rc + " ms=" + millis;
            return outBytes < 0 || errBytes < 0 ? s : s + " out=" + outBytes + " err=" + errBytes;
        }
    }

    /** A header read from the text after the tag, when it is one (exactly that shape, nothing more). */
    public static Optional<Header> header(String body) {
        Matcher m = HEADER.matcher(body);
        if (!m.matches()) {
            return Optional.empty();
        }
        long out = m.group(4) == null ? -1 : Long.parseLong(m.group(4));
        long err = m.group(5) == null ? -1 : Long.parseLong(m.group(5));
        return Optional.of(new Header(m.group(1), Integer.parseInt(m.group(2)), Long.parseLong(m.group(3)), out, err));
    }

    // ------------------------------------------------------------------------------------------ writing (Java)

    /** Writes one tagged line ({@code discovered port=8000}, {@code end}…). */
    public void tagged(OutputStream out, String body) throws IOException {
        if (body.indexOf('\n') >= 0 || body.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("a tagged line is one line");
        }
        out.write(tag);
        out.write(body.getBytes(StandardCharsets.UTF_8));
        out.write('\n');
    }

    /**
     * Writes one probe's frame as the script does: the header with the full sizes, then the first {@code maxOut}
     * bytes of stdout and {@code maxErr} of stderr, each base64 on its own line.
     */
    public void frame(OutputStream out, String probe, int rc, long millis, byte[] stdout, byte[] stderr, int maxOut,
                      int maxErr) throws IOException {
        frameEncoded(out, new Header(probe, rc, millis, stdout.length, stderr.length),
                body(stdout, maxOut), body(stderr, maxErr));
    }

    /** As {@link #frame}, with bodies already made by {@link #body} (a recording played many times encodes once). */
    public void frameEncoded(OutputStream out, Header h, byte[] outBody, byte[] errBody) throws IOException {
        if (!isName(h.probe())) {
            throw new IllegalArgumentException("not a probe name: " + h.probe());
        }
        tagged(out, h.text());
        out.write(outBody);
        out.write('\n');
        out.write(errBody);
        out.write('\n');
    }

    /** A body line's content: base64 of the first {@code max} bytes. */
    public static byte[] body(byte[] bytes, int max) {
        return Base64.getEncoder().encode(bytes.length <= max ? bytes : Arrays.copyOf(bytes, max));
    }

    // ------------------------------------------------------------------------------------------ writing (shell)

    /**
     * The script's framing, as shell functions: {@code say TEXT…} prints a tagged line; {@code p NAME TIMEOUT CMD}
     * runs {@code CMD} with {@code bash -c} under {@code timeout}, stdin from /dev/null, its outputs in {@code $d}
     * (a private directory the script made), and prints its frame. {@code afterRun} is shell run right after the
     * probe with {@code $1} its name and {@code "$d/o"} its whole stdout (empty for none). Reads {@code $N}.
     */
    public static String shellFunctions(int maxOut, int maxErr, String afterRun) {
        return "say() { printf '" + MARK + "%s %s\\n' \"$N\" \"$*\"; }\n"
                + "p() {\n"
                + "  s=$(date +%s%N)\n"
                + "  timeout -k 2 \"$2\" bash -c \"$3\" >\"$d/o\" 2>\"$d/e\" </dev/null\n"
                + "  rc=$?\n"
                + "  e=$(date +%s%N)\n"
                + "  say \"probe $1 rc=$rc ms=$(( (e - s) / 1000000 )) out=$(( $(wc -c <\"$d/o\") + 0 ))"
                + " err=$(( $(wc -c <\"$d/e\") + 0 ))\"\n"
                + (afterRun == null || afterRun.isBlank() ? "" : "  " + afterRun.strip() + "\n")
                + "  head -c " + maxOut + " \"$d/o\" | base64 -w0; echo\n"
                + "  head -c " + maxErr + " \"$d/e\" | base64 -w0; echo\n"
                + "}\n";
    }

    /** The script line that prints a tagged line whose text is {@code shellWords} (expanded by the shell). */
    public static String say(String shellWords) {
        return "say " + shellWords;
    }

    /** The script's last line: the {@code end} tag, which says the run was not cut short. */
    public static final String END = "say end";

    /** The script line that runs one probe: {@code quotedCommand} is its command as one single-quoted shell word. */
    public static String invocation(String probe, int timeoutSeconds, String quotedCommand) {
        if (!isName(probe)) {
            throw new IllegalArgumentException("not a probe name: " + probe);
        }
        if (!quotedCommand.startsWith("'")) {
            throw new IllegalArgumentException("the command must be one single-quoted word");
        }
        return "p " + probe + " " + timeoutSeconds + " " + quotedCommand;
    }

    /** A probe asked for by a script line ({@link #invocation}, perhaps behind an {@code if …; then}). */
    public record Invocation(String probe, int timeoutSeconds) { }

    /** The probe a script line asks for, when it is an invocation. */
    public static Optional<Invocation> invoked(String line) {
        Matcher m = INVOCATION.matcher(line);
        return m.matches() ? Optional.of(new Invocation(m.group(1), Integer.parseInt(m.group(2)))) : Optional.empty();
    }

    // ------------------------------------------------------------------------------------------ reading

    /** What a {@link Decoder} tells as the answer streams in. */
    public interface Listener {
        /**
         * A probe's frame is complete (or the answer ended inside it: then {@code cut} is true and the bodies
         * not received are null).
         *
         * @param out its stdout as sent (up to the script's cap), or null when not received or not readable
         * @param err its stderr likewise
         * @param problem why a body could not be read, or null
         */
        void frame(Header h, byte[] out, byte[] err, boolean cut, String problem);

        /** A tagged line that is not a probe header ({@code discovered …}, {@code end}…): the text after the tag. */
        default void tagged(String body) {
        }
    }

    /**
     * Reads an answer line by line as it arrives, in any chunks. Holds at most one line of {@code maxLine} bytes;
     * a longer line is dropped as it comes (a header cannot be that long; a body that long is reported unreadable).
     * With {@code bodies} false, bodies are counted but neither kept nor decoded (progress needs the header only).
     * Not thread-safe: its owner serialises the writes.
     */
    public final class Decoder {
        private final int maxLine;
        private final boolean bodies;
        private final Listener listener;
        private byte[] line = new byte[256];
        private int len;
        private boolean overlong;
        private Header pending;
        private byte[] pendingOut;
        private String pendingProblem;
        private int part; // 0: no frame open; 1: its stdout line is next; 2: its stderr line

        public Decoder(int maxLine, boolean bodies, Listener listener) {
            this.maxLine = Math.max(MAX_HEADER, maxLine);
            this.bodies = bodies;
            this.listener = listener;
        }

        public void write(byte[] b, int off, int n) {
            for (int i = off; i < off + n; i++) {
                byte c = b[i];
                if (c == '\n') {
                    endLine();
                } else if (!overlong) {
                    int cap = part == 0 || !bodies ? MAX_HEADER : maxLine;
                    if (len >= cap) {
                        overlong = true; // the rest of this line is dropped as it comes
                    } else {
                        if (len == line.length) {
                            line = Arrays.copyOf(line, Math.min(cap, line.length * 2));
                        }
                        line[len++] = c;
                    }
                }
            }
        }

        /** The answer has ended: a last line without its newline is read, a frame left open is told as cut. */
        public void finish() {
            if (part != 0 && (len > 0 || overlong)) {
                // a body line the answer ended inside: base64 of a prefix would decode, but it is not the body sent
                if (part == 1) {
                    pendingProblem = "output frame cut mid-line";
                } else if (pendingProblem == null) {
                    pendingProblem = "error frame cut mid-line";
                }
                len = 0;
                overlong = false;
            } else if (len > 0 || overlong) {
                endLine();
            }
            if (part != 0) {
                Header h = pending;
                byte[] out = part == 2 ? pendingOut : null;
                String problem = pendingProblem;
                reset();
                listener.frame(h, out, null, true, problem);
            }
        }

        private void endLine() {
            try {
                if (part != 0) {
                    body();
                } else if (!overlong && startsWithTag()) {
                    int end = len;
                    while (end > tag.length && (line[end - 1] == '\r' || line[end - 1] == ' ')) {
                        end--;
                    }
                    String text = new String(line, tag.length, end - tag.length, StandardCharsets.UTF_8);
                    Optional<Header> h = header(text);
                    if (h.isPresent()) {
                        pending = h.get();
                        part = 1;
                    } else {
                        listener.tagged(text);
                    }
                }
            } finally {
                len = 0;
                overlong = false;
                if (line.length > 4096) {
                    line = new byte[256]; // a long body line is not kept alive between frames
                }
            }
        }

        private void body() {
            byte[] decoded = null;
            String problem = null;
            if (bodies) {
                if (overlong) {
                    problem = "output frame longer than the probe script ever prints; dropped";
                } else {
                    int end = len;
                    while (end > 0 && (line[end - 1] == '\r' || line[end - 1] == ' ')) {
                        end--;
                    }
                    try {
                        decoded = Base64.getDecoder().decode(Arrays.copyOf(line, end));
                    } catch (IllegalArgumentException e) {
                        problem = "output frame not readable (" + e.getMessage() + ")";
                    }
                }
            }
            if (part == 1) {
                pendingOut = decoded;
                pendingProblem = problem;
                part = 2;
                return;
            }
            Header h = pending;
            byte[] out = pendingOut;
            String p = pendingProblem != null ? pendingProblem : problem;
            reset();
            listener.frame(h, out, decoded, false, p);
        }

        private void reset() {
            part = 0;
            pending = null;
            pendingOut = null;
            pendingProblem = null;
        }

        private boolean startsWithTag() {
            if (len < tag.length) {
                return false;
            }
            for (int i = 0; i < tag.length; i++) {
                if (line[i] != tag[i]) {
                    return false;
                }
            }
            return true;
        }
    }
}
