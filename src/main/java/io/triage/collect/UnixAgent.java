package io.triage.collect;

import org.apache.sshd.agent.SshAgent;
import org.apache.sshd.agent.SshAgentFactory;
import org.apache.sshd.agent.SshAgentServer;
import org.apache.sshd.agent.common.AbstractAgentProxy;
import org.apache.sshd.common.FactoryManager;
import org.apache.sshd.common.channel.ChannelFactory;
import org.apache.sshd.common.session.ConnectionService;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.util.buffer.Buffer;
import org.apache.sshd.common.util.buffer.ByteArrayBuffer;

import java.io.EOFException;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;

/**
 * An ssh-agent client over the agent's Unix socket ({@code SSH_AUTH_SOCK}), with the JDK's own Unix
 * domain sockets: the agent's keys (passphrase-protected ones included) sign for us and never leave it.
 * MINA encodes the agent protocol; this class only carries its messages.
 */
final class UnixAgent extends AbstractAgentProxy {
    /** Largest agent answer accepted, bytes. */
    private static final int MAX_ANSWER = 256 * 1024;

    private final Path socket;

    UnixAgent(Path socket) {
        super(null);
        this.socket = socket;
    }

    /** Each request opens its own connection to the agent: there is nothing to keep open. */
    @Override
    public boolean isOpen() {
        return true;
    }

    @Override
    protected synchronized Buffer request(Buffer buffer) throws IOException {
        int wpos = buffer.wpos();
        buffer.wpos(0);
        buffer.putInt(wpos - 4);
        buffer.wpos(wpos);
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
             Selector selector = Selector.open()) {
            ch.connect(UnixDomainSocketAddress.of(socket));
            ch.configureBlocking(false);
            long deadline = System.nanoTime() + TIMEOUT_NANOS;
            ByteBuffer out = ByteBuffer.wrap(buffer.array(), buffer.rpos(), buffer.available());
            SelectionKey key = ch.register(selector, SelectionKey.OP_WRITE);
            while (out.hasRemaining()) {
                await(selector, deadline);
                ch.write(out);
            }
            key.interestOps(SelectionKey.OP_READ);
            ByteBuffer len = ByteBuffer.allocate(4);
            read(ch, selector, len, deadline);
            int n = len.flip().getInt();
            if (n < 0 || n > MAX_ANSWER) {
                throw new IOException("ssh-agent answered with an impossible length " + n);
            }
            ByteBuffer msg = ByteBuffer.allocate(n);
            read(ch, selector, msg, deadline);
            return new ByteArrayBuffer(msg.array());
        }
    }

    /** An agent that does not answer (a pinentry prompt, a dead forwarded agent) must not stall the look. */
    private static final long TIMEOUT_NANOS = 5_000_000_000L;

    private static void await(Selector selector, long deadline) throws IOException {
        long left = (deadline - System.nanoTime()) / 1_000_000L;
        if (left <= 0 || selector.select(left) == 0) {
            throw new IOException("ssh-agent did not answer within " + TIMEOUT_NANOS / 1_000_000_000L + " s");
        }
        selector.selectedKeys().clear();
    }

    private static void read(SocketChannel ch, Selector selector, ByteBuffer b, long deadline) throws IOException {
        while (b.hasRemaining()) {
            int n = ch.read(b);
            if (n < 0) {
                throw new EOFException("ssh-agent closed the connection");
            }
            if (n == 0) {
                await(selector, deadline);
            }
        }
    }

    /** Hands MINA an agent client for each session; this product never serves an agent. */
    record Factory(Path socket) implements SshAgentFactory {
        @Override
        public List<ChannelFactory> getChannelForwardingFactories(FactoryManager manager) {
            return List.of();
        }

        @Override
        public SshAgent createClient(Session session, FactoryManager manager) {
            return new UnixAgent(socket);
        }

        @Override
        public SshAgentServer createServer(ConnectionService service) {
            throw new UnsupportedOperationException("agent forwarding is not offered");
        }
    }
}
