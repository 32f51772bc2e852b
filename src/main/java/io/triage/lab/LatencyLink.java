package io.triage.lab;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A network link with a round-trip time, in front of the lab's SSH port: every byte a client sends reaches the
 * lab half the round-trip time later, and every byte the lab answers reaches the client half of it later, like
 * a path through a datacentre network (netem's delay, without its loss). It is a delay line, not a queue of
 * turns: what is sent in a row stays in a row and several messages can be in flight, so SSH's own pipelining
 * is measured as it would be on a real link. Loopback only.
 */
final class LatencyLink implements AutoCloseable {
    /** One read's worth of bytes and when they are due at the other end. */
    private record Chunk(long dueNanos, byte[] bytes) {
        static final Chunk EOF = new Chunk(0, null);
    }

    private final ServerSocket listener;
    private final int target;
    private final long oneWayNanos;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger threadNo = new AtomicInteger();
    private volatile boolean closed;

    /**
     * @param port      where to listen on 127.0.0.1 (0: a free port)
     * @param target    the lab's own port on 127.0.0.1
     * @param roundTrip the delay a request and its answer add together
     */
    LatencyLink(int port, int target, Duration roundTrip) throws IOException {
        this.target = target;
        this.oneWayNanos = roundTrip.toNanos() / 2;
        this.listener = new ServerSocket();
        listener.setReuseAddress(true);
        listener.bind(new InetSocketAddress(InetAddress.getByName(LabServer.ADDRESS), port), 1024);
        thread("accept", this::accept).start();
    }

    int port() {
        return listener.getLocalPort();
    }

    private Thread thread(String what, Runnable r) {
        Thread t = new Thread(r, "triage-lab-link-" + what + "-" + threadNo.incrementAndGet());
        t.setDaemon(true);
        return t;
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            try {
                Socket lab = new Socket(LabServer.ADDRESS, target);
                client.setTcpNoDelay(true);
                lab.setTcpNoDelay(true);
                open.add(client);
                open.add(lab);
                AtomicInteger ended = new AtomicInteger();
                pipe(client, lab, ended);
                pipe(lab, client, ended);
            } catch (IOException e) {
                quietly(client);
            }
        }
    }

    /**
     * Copies {@code from} to {@code to}, each read delivered one way's delay after it arrived; when both
     * directions of the pair have ended ({@code ended} reaches 2), or either fails, both sockets are closed.
     */
    private void pipe(Socket from, Socket to, AtomicInteger ended) throws IOException {
        BlockingQueue<Chunk> line = new LinkedBlockingQueue<>();
        InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream();
        thread("read", () -> {
            byte[] buf = new byte[64 << 10];
            try {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    line.add(new Chunk(System.nanoTime() + oneWayNanos, Arrays.copyOf(buf, n)));
                }
            } catch (IOException e) {
                // the connection ended; the writer closes what is left
            }
            line.add(Chunk.EOF);
        }).start();
        thread("write", () -> {
            boolean clean = false;
            try {
                while (true) {
                    Chunk c = line.take();
                    if (c == Chunk.EOF) {
                        to.shutdownOutput();
                        clean = true;
                        break;
                    }
                    long wait;
                    while ((wait = c.dueNanos() - System.nanoTime()) > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    out.write(c.bytes());
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // a side went away: the pair is over
            }
            if (!clean || ended.incrementAndGet() >= 2) {
                quietly(from);
                quietly(to);
            }
        }).start();
    }

    private void quietly(Socket s) {
        open.remove(s);
        try {
            s.close();
        } catch (IOException e) {
            // closing
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException e) {
            // closing
        }
        for (Socket s : open) {
            quietly(s);
        }
    }
}
