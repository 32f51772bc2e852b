package io.triage.collect;

import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.apache.sshd.common.util.security.SecurityUtils;
import org.apache.sshd.server.Environment;
import org.apache.sshd.server.ExitCallback;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.channel.ChannelSession;
import org.apache.sshd.server.command.Command;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Arrays;
import java.util.Base64;
import java.util.Random;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An SSH server on 127.0.0.1 that answers the probe bundle the way a hostile or broken host would. What a
 * session does is chosen per login user name (so one server stands for many hosts): floods of valid-looking
 * frames on standard output, floods of standard error, a tarpit, an answer without any probe. Each flood
 * stops by itself after {@code floodLimit} bytes, so a client that fails to stop it cannot hang a test.
 */
public final class HostileSshd implements AutoCloseable {
    /** How a session answers. */
    public enum Mode {
        /** Frames for a real probe, carrying the run's nonce (read from the script), without end. */
        FLOOD_STDOUT,
        /** Noise on standard error without end, while standard output stays silent. */
        FLOOD_STDERR,
        /** One byte a second on standard output, never a complete frame. */
        TRICKLE,
        /** A banner and a clean exit, not a single probe frame. */
        NO_PROBES
    }

    private static final Pattern NONCE = Pattern.compile("(?m)^N=([0-9a-f]+)$");

    public final KeyPair hostKey;
    public final KeyPair clientKey;
    private final SshServer server;
    private final long floodLimit;

    /**
     * @param modeOfUser the mode of a session by its login user name
     * @param floodLimit bytes after which a flood stops by itself (a safety net, well above any cap)
     */
    public HostileSshd(Function<String, Mode> modeOfUser, long floodLimit) throws IOException, GeneralSecurityException {
        this.floodLimit = floodLimit;
        hostKey = ed25519();
        clientKey = ed25519();
        server = SshServer.setUpDefaultServer();
        server.setHost("127.0.0.1");
        server.setPort(0);
        server.setKeyPairProvider(KeyPairProvider.wrap(hostKey));
        server.setPublickeyAuthenticator((user, key, session) -> key.equals(clientKey.getPublic()));
        server.setPasswordAuthenticator(null);
        server.setKeyboardInteractiveAuthenticator(null);
        server.setCommandFactory((channel, command) -> new Hostile(modeOfUser.apply(channel.getSession().getUsername())));
        server.start();
    }

    static KeyPair ed25519() throws GeneralSecurityException {
        KeyPairGenerator g = SecurityUtils.getKeyPairGenerator("EdDSA");
        g.initialize(256);
        return g.generateKeyPair();
    }

    public int port() {
        return server.getPort();
    }

    @Override
    public void close() throws IOException {
        server.stop(true);
    }

    private final class Hostile implements Command {
        private final Mode mode;
        private InputStream in;
        private OutputStream out;
        private OutputStream err;
        private ExitCallback exit;
        private volatile Thread worker;

        Hostile(Mode mode) {
            this.mode = mode;
        }

        @Override public void setInputStream(InputStream in) { this.in = in; }
        @Override public void setOutputStream(OutputStream out) { this.out = out; }
        @Override public void setErrorStream(OutputStream err) { this.err = err; }
        @Override public void setExitCallback(ExitCallback callback) { this.exit = callback; }

        @Override
        public void start(ChannelSession channel, Environment env) {
            worker = new Thread(this::run, "hostile-" + mode);
            worker.setDaemon(true);
            worker.start();
        }

        private void run() {
            try {
                String script = readScript();
                switch (mode) {
                    case FLOOD_STDOUT -> floodFrames(nonce(script));
                    case FLOOD_STDERR -> flood(err, "Traceback (most recent call last): fork bomb says hello\n");
                    case TRICKLE -> {
                        for (int i = 0; i < 600; i++) {
                            out.write('@');
                            out.flush();
                            Thread.sleep(1000);
                        }
                    }
                    case NO_PROBES -> {
                        out.write("This account is restricted to backups. Goodbye.\n".getBytes(StandardCharsets.UTF_8));
                        out.flush();
                    }
                }
                exit.onExit(0);
            } catch (IOException | InterruptedException e) {
                // the client hung up: what a flood ends with
                exit.onExit(1);
            } catch (RuntimeException e) {
                exit.onExit(1);
            }
        }

        /** The script arrives on stdin (bash -s); it ends with the "end" echo. */
        private String readScript() throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            while (b.size() < (1 << 20)) {
                int n = in.read(buf);
                if (n < 0) {
                    break;
                }
                b.write(buf, 0, n);
                if (b.toString(StandardCharsets.UTF_8).contains("end\"\n")) {
                    break;
                }
            }
            return b.toString(StandardCharsets.UTF_8);
        }

        private String nonce(String script) {
            Matcher m = NONCE.matcher(script);
            return m.find() ? m.group(1) : "0";
        }

        private void floodFrames(String nonce) throws IOException {
            byte[] payload = new byte[200 << 10];
            new Random(7).nextBytes(payload);
            String frame = "@@" + nonce + " probe log_tail rc=0 ms=3\n" + Base64.getEncoder().encodeToString(payload) + "\n\n";
            flood(out, frame);
        }

        private void flood(OutputStream s, String chunk) throws IOException {
            byte[] b = chunk.getBytes(StandardCharsets.UTF_8);
            byte[] block = b.length >= 32 << 10 ? b : repeat(b, (32 << 10) / b.length);
            for (long sent = 0; sent < floodLimit; sent += block.length) {
                s.write(block);
                s.flush();
            }
        }

        private byte[] repeat(byte[] b, int times) {
            byte[] r = Arrays.copyOf(b, b.length * times);
            for (int i = 1; i < times; i++) {
                System.arraycopy(b, 0, r, i * b.length, b.length);
            }
            return r;
        }

        @Override
        public void destroy(ChannelSession channel) {
            Thread w = worker;
            if (w != null) {
                w.interrupt();
            }
        }
    }
}
