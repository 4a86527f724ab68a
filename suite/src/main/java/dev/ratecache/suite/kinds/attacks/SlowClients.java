package dev.ratecache.suite.kinds.attacks;

import dev.ratecache.suite.edge.SlowClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The attacker of --matrix attacks: slow clients over raw sockets, one thread each, every one bound
 * to {@link #ADDRESS} so that the edge sees it as one client of its own, apart from the normal
 * clients (a per-client limit counts it alone, as it would a real attacker). slowhttptest, Debian's
 * tool for these attacks, cannot choose its source address and counts only connections per second;
 * this tells, for each connection, how long the edge let it live and how it ended.
 *
 * <p>Each of {@code count} slots holds one connection at a time, and opens another as soon as the
 * edge ends it, for as long as the attack lasts. Each connection sends its first bytes, then one
 * more a {@link #TRICKLE}, each wait a read that sees at once the edge answering or closing.
 */
final class SlowClients implements AutoCloseable {
    /** The attacker's own source address: any 127/8 address is local on Linux, with no setup. */
    static final String ADDRESS = "127.0.0.66";
    /** What a slow client sends (or reads) each time: under every timeout of a second or more. */
    static final Duration TRICKLE = Duration.ofSeconds(1);
    /**
     * Requests a slow reader pipelines at once. Their answers (a few hundred bytes each) fit in the
     * kernel's socket buffers, so an edge may hand them all over and be done (docs/attacks.md): more
     * would only swell the front's log, by one line each.
     */
    static final int PIPELINED = 50;
    /** Bytes a slow reader reads each time. */
    static final int READ_BYTES = 16;
    /** The slow reader's receive buffer (Linux doubles it, and keeps a minimum of its own). */
    static final int READ_WINDOW = 1024;
    /** How soon a slot opens another connection once the edge has closed its last. */
    static final long REOPEN_MS = 50;
    /** Connections opened a second: the attack is whole before the normal clients start. */
    static final int OPENED_PER_SECOND = 250;

    /** How one connection ended. */
    enum How {
        /** The edge took no connection (refused, or the connect timed out). */
        REFUSED,
        /** The edge answered with a status before the attack's request was whole. */
        ANSWERED,
        /** The edge closed the connection, with no answer (or, for a slow reader, mid-answers). */
        CLOSED,
        /** The edge reset the connection. */
        RESET,
        /** Still open when the attack ended: the edge never ended it. */
        HELD
    }

    /**
     * One connection: opened and ended in epoch ms ({@code openedMs} 0 when refused), the first
     * status the edge answered (0 when none).
     */
    record Connection(How how, int status, long openedMs, long endedMs) {
        double heldSeconds() {
            return openedMs == 0 ? 0 : (endedMs - openedMs) / 1000.0;
        }
    }

    private final SlowClient kind;
    private final int count;
    private final InetSocketAddress target;
    private final List<Connection> ended = java.util.Collections.synchronizedList(new ArrayList<>());
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final CountDownLatch opened;
    private final ExecutorService threads;
    private volatile boolean stopping;
    private long startedMs;

    SlowClients(SlowClient kind, int count, InetSocketAddress target) {
        this.kind = kind;
        this.count = count;
        this.target = target;
        this.opened = new CountDownLatch(count);
        this.threads = Executors.newFixedThreadPool(count, r -> {
            Thread t = new Thread(r, "slow-client");
            t.setDaemon(true);
            return t;
        });
    }

    /** Opens the connections, {@link #OPENED_PER_SECOND} a second, each on its own thread. */
    void start() {
        startedMs = System.currentTimeMillis();
        for (int i = 0; i < count; i++) {
            long at = startedMs + i * 1000L / OPENED_PER_SECOND;
            int n = i;
            threads.execute(() -> {
                pause(at - System.currentTimeMillis());
                boolean first = true;
                // As a real attacker does, each slot opens another connection once the edge has ended its last.
                while (!stopping) {
                    Connection c = attack(n, first);
                    first = false;
                    if (stopping) {
                        // However its socket's close reached the thread (an exception, or at times an end of
                        // stream), a connection open when the attack stopped was held to the end.
                        if (c.openedMs() != 0) {
                            ended.add(new Connection(How.HELD, c.status(), c.openedMs(), c.endedMs()));
                        }
                        break;
                    }
                    ended.add(c);
                    // Back at once after a timeout, as a slowloris is; a trickle's wait after a refusal or an
                    // answer, so that a limit's quick 429s do not turn the attack into a flood.
                    pause(c.how() == How.REFUSED || c.how() == How.ANSWERED ? TRICKLE.toMillis() : REOPEN_MS);
                }
            });
        }
    }

    /** Waits until each slot's first connection is open or refused, at most {@code limit}; returns how many are open. */
    int awaitOpened(Duration limit) throws InterruptedException {
        opened.await(limit.toMillis(), TimeUnit.MILLISECONDS);
        return open.size();
    }

    /** Ends the attack: what is open is closed (those count as held); returns every connection the attack made. */
    List<Connection> finish() {
        close();
        synchronized (ended) {
            return List.copyOf(ended);
        }
    }

    long startedMs() {
        return startedMs;
    }

    /** Stops the attack: every open socket closed, every thread ended. */
    @Override
    public void close() {
        stopping = true;
        open.forEach(SlowClients::quietly);
        threads.shutdownNow();
        try {
            threads.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Connection attack(int n, boolean first) {
        Socket socket = new Socket();
        long openedAt;
        try {
            if (kind == SlowClient.READ) {
                // Before connecting: the window it advertises is fixed in the handshake.
                socket.setReceiveBufferSize(READ_WINDOW);
            }
            socket.bind(new InetSocketAddress(ADDRESS, 0));
            socket.connect(target, 5000);
            openedAt = System.currentTimeMillis();
            open.add(socket);
        } catch (IOException e) {
            quietly(socket);
            return new Connection(How.REFUSED, 0, 0, System.currentTimeMillis());
        } finally {
            if (first) {
                opened.countDown();
            }
        }
        try {
            socket.setSoTimeout((int) TRICKLE.toMillis());
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write(firstBytes(n));
            out.flush();
            return kind == SlowClient.READ ? readSlowly(in, openedAt) : trickle(in, out, openedAt);
        } catch (IOException e) {
            return new Connection(stopping ? How.HELD : How.RESET, 0, openedAt, System.currentTimeMillis());
        } finally {
            open.remove(socket);
            quietly(socket);
        }
    }

    private byte[] firstBytes(int n) {
        String target = "/hare?attack=" + kind + "&n=" + n;
        String host = "Host: " + this.target.getHostString() + ":" + this.target.getPort() + "\r\n"
                + "User-Agent: ratecache-slow-client\r\n";
        return (switch (kind) {
            case HEADERS -> "GET " + target + " HTTP/1.1\r\n" + host;
            case BODY -> "POST " + target + " HTTP/1.1\r\n" + host + "Content-Type: application/octet-stream\r\n"
                    + "Content-Length: 65536\r\n\r\n";
            case READ -> ("GET " + target + " HTTP/1.1\r\n" + host + "\r\n").repeat(PIPELINED);
        }).getBytes(StandardCharsets.US_ASCII);
    }

    /** Slow headers and slow bodies: a byte more each time the edge has said nothing for a trickle. */
    private Connection trickle(InputStream in, OutputStream out, long openedAt) throws IOException {
        for (int sent = 0; ; sent++) {
            try {
                int first = in.read();
                long at = System.currentTimeMillis();
                return first < 0 ? new Connection(How.CLOSED, 0, openedAt, at)
                        : new Connection(How.ANSWERED, status(first, in), openedAt, at);
            } catch (SocketTimeoutException silent) {
                if (stopping) {
                    return new Connection(How.HELD, 0, openedAt, System.currentTimeMillis());
                }
                out.write(kind == SlowClient.HEADERS ? ("X-Slow-" + sent + ": 1\r\n").getBytes(StandardCharsets.US_ASCII)
                        : new byte[] {'a'});
                out.flush();
            }
        }
    }

    /** A slow reader: a few bytes each trickle, until the edge closes or the attack ends. */
    private Connection readSlowly(InputStream in, long openedAt) throws IOException {
        byte[] buffer = new byte[READ_BYTES];
        int status = 0;
        byte[] head = new byte[12];
        int headRead = 0;
        while (!stopping) {
            int n;
            try {
                n = in.read(buffer);
            } catch (SocketTimeoutException nothingYet) {
                continue;
            }
            if (n < 0) {
                return new Connection(How.CLOSED, status, openedAt, System.currentTimeMillis());
            }
            for (int i = 0; i < n && headRead < head.length; i++) {
                head[headRead++] = buffer[i];
            }
            if (status == 0 && headRead == head.length) {
                status = parseStatus(new String(head, StandardCharsets.US_ASCII));
            }
            pause(TRICKLE.toMillis());
        }
        return new Connection(How.HELD, status, openedAt, System.currentTimeMillis());
    }

    /** The status of an answer whose first byte is {@code first}: "HTTP/1.1 408 ...". */
    private static int status(int first, InputStream in) {
        byte[] rest = new byte[11];
        int got = 0;
        try {
            while (got < rest.length) {
                int n = in.read(rest, got, rest.length - got);
                if (n < 0) {
                    break;
                }
                got += n;
            }
        } catch (IOException e) {
            // What came is all there is.
        }
        return parseStatus((char) first + new String(rest, 0, got, StandardCharsets.US_ASCII));
    }

    static int parseStatus(String head) {
        if (!head.startsWith("HTTP/") || head.length() < 12) {
            return 0;
        }
        String code = head.substring(9, 12);
        return code.chars().allMatch(Character::isDigit) ? Integer.parseInt(code) : 0;
    }

    /**
     * A slow client's wait between bytes. Not Poll.pause: the attack's end interrupts these threads,
     * and each must then still record its connection as held rather than die with an exception.
     */
    private static void pause(long ms) {
        if (ms <= 0) {
            return;
        }
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void quietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // Closing is all that was wanted.
        }
    }
}
