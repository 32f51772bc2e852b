package io.triage.lab;

import org.apache.sshd.server.Environment;
import org.apache.sshd.server.ExitCallback;
import org.apache.sshd.server.channel.ChannelSession;
import org.apache.sshd.server.command.Command;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * One exec (or shell) request on a lab host. The answer is written from a worker thread of the lab (never
 * from the SSH I/O threads: a slow reader must only hold its own worker), and no process is ever started.
 */
final class LabCommand implements Command {
    /** Longest script accepted on stdin for {@code bash -s}; the real bundle is a few kilobytes. */
    static final int MAX_STDIN_SCRIPT = 1 << 20;

    private final ExecutorService workers;
    private final Function<String, Optional<LabHost>> hosts;
    private final String command; // null: a shell request
    private final int port;
    private final Duration pacing;
    private final AtomicBoolean exited = new AtomicBoolean();
    private volatile Future<?> task;
    private InputStream in;
    private OutputStream out;
    private OutputStream err;
    private ExitCallback exit;

    LabCommand(ExecutorService workers, Function<String, Optional<LabHost>> hosts, String command, int port,
               Duration pacing) {
        this.workers = workers;
        this.pacing = pacing;
        this.hosts = hosts;
        this.command = command;
        this.port = port;
    }

    @Override
    public void setInputStream(InputStream in) {
        this.in = in;
    }

    @Override
    public void setOutputStream(OutputStream out) {
        this.out = out;
    }

    @Override
    public void setErrorStream(OutputStream err) {
        this.err = err;
    }

    @Override
    public void setExitCallback(ExitCallback callback) {
        this.exit = callback;
    }

    @Override
    public void start(ChannelSession channel, Environment env) throws IOException {
        String user = channel.getServerSession().getUsername();
        Optional<LabHost> host = hosts.apply(user);
        if (host.isEmpty()) { // authentication refuses unknown users; this is a second fence
            finish(1);
            return;
        }
        try {
            task = workers.submit(() -> run(host.get()));
        } catch (RejectedExecutionException e) { // the lab is closing
            finish(1);
        }
    }

    @Override
    public void destroy(ChannelSession channel) {
        Future<?> t = task;
        if (t != null) {
            t.cancel(true);
        }
    }

    private void run(LabHost host) {
        int status;
        try {
            status = answer(host);
            out.flush();
            err.flush();
        } catch (IOException | RuntimeException e) {
            // the client went away mid-output, or the channel closed under us: nothing left to tell
            status = 1;
        }
        finish(status);
    }

    private int answer(LabHost host) throws IOException {
        if (command == null) {
            write(out, help(host).replace("\n", "\r\n"));
            return 0;
        }
        BundleScript.Exec exec = BundleScript.classify(command);
        String script = switch (exec.kind()) {
            case SCRIPT -> exec.text();
            case OTHER -> command;
            case STDIN -> readScript();
        };
        if (script == null) {
            write(err, "lab host " + host.name() + ": the script on stdin is larger than "
                    + MAX_STDIN_SCRIPT + " bytes; only the probe bundle runs here\n");
            return 2;
        }
        Optional<BundleScript> bundle = BundleScript.parse(script);
        if (bundle.isPresent()) {
            LabReplies.bundle(host, bundle.get(), out, pacing);
            return 0;
        }
        if (exec.kind() == BundleScript.Exec.Kind.STDIN) {
            write(err, "lab host " + host.name() + ": only the probe bundle or one recorded probe can run here ("
                    + LabReplies.describe(host.recording()) + ")\n");
            return 127;
        }
        LabReplies.Answer a = LabReplies.ordinary(host, script); // for bash -c, the command it wraps
        out.write(a.out());
        err.write(a.err());
        return a.status();
    }

    /**
     * Reads the script of a {@code bash -s}: until end of input, or as soon as the bundle's end line has
     * arrived (what follows it could not change the answer). Null when the input is too large.
     */
    private String readScript() throws IOException {
        byte[] end = ("\n" + io.triage.probe.ProbeFrames.END + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] buf = new byte[16384];
        int len = 0;
        int n;
        while ((n = in.read(buf, len, buf.length - len)) >= 0) {
            int from = Math.max(0, len - end.length);
            len += n;
            if (contains(buf, from, len, end)) {
                break;
            }
            if (len == buf.length) {
                if (buf.length >= MAX_STDIN_SCRIPT) {
                    return null;
                }
                buf = Arrays.copyOf(buf, Math.min(MAX_STDIN_SCRIPT, buf.length * 2));
            }
        }
        return new String(buf, 0, len, StandardCharsets.UTF_8);
    }

    private static boolean contains(byte[] buf, int from, int to, byte[] what) {
        outer:
        for (int i = from; i + what.length <= to; i++) {
            for (int j = 0; j < what.length; j++) {
                if (buf[i + j] != what[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private String help(LabHost host) {
        String note = host.note().isEmpty() ? "" : " (" + host.note() + ")";
        return "This is " + host.name() + ", a Triage lab host: a recorded capture" + note
                + " played over SSH. Nothing runs here; only the recorded probes answer: "
                + LabReplies.describe(host.recording()) + ". Try 'ssh -p " + port + " " + host.name()
                + "@127.0.0.1 nvidia-smi', or let Triage diagnose this host over SSH.\n";
    }

    private void finish(int status) {
        if (exited.compareAndSet(false, true)) {
            try {
                exit.onExit(status);
            } catch (RuntimeException e) {
                // the channel is already gone
            }
        }
    }

    private static void write(OutputStream s, String text) throws IOException {
        s.write(text.getBytes(StandardCharsets.UTF_8));
    }
}
