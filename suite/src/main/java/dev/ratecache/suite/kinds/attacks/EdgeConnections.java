package dev.ratecache.suite.kinds.attacks;

import dev.ratecache.suite.nginx.StubStatus;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The front tier's own count of its connections while an attack runs, from nginx's stub_status
 * every {@link #EVERY}: the edge's side of what the attacker holds. A slow reader's connection may
 * still be open at the attacker's end while the edge, its answers handed to the kernel, has closed
 * its own; only the edge can say which.
 */
public final class EdgeConnections implements AutoCloseable {
    static final Duration EVERY = Duration.ofMillis(200);

    /**
     * The most of each count seen, and the last sample's.
     *
     * @param active  open client connections, the status request's own among them
     * @param reading reading a request's header
     * @param writing with a request under way (its body read, or its answer written)
     * @param waiting idle between requests (keep-alive)
     */
    public record Counts(int active, int reading, int writing, int waiting) {
        Counts max(Counts o) {
            return new Counts(Math.max(active, o.active), Math.max(reading, o.reading), Math.max(writing, o.writing),
                    Math.max(waiting, o.waiting));
        }
    }

    /** @param last the last sample before the attack stopped: what the edge still held at its end */
    public record Seen(Counts peak, Counts last) {}

    private final int statusPort;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "edge-connections");
        t.setDaemon(true);
        return t;
    });
    private volatile Counts peak;
    private volatile Counts last;

    private EdgeConnections(int statusPort) {
        this.statusPort = statusPort;
    }

    /** Samples from now on, until closed. */
    static EdgeConnections start(int statusPort) {
        EdgeConnections c = new EdgeConnections(statusPort);
        c.thread.scheduleWithFixedDelay(c::sample, 0, EVERY.toMillis(), TimeUnit.MILLISECONDS);
        return c;
    }

    private void sample() {
        // A missed sample is skipped: the next one counts.
        StubStatus.fetch(statusPort).map(EdgeConnections::counts).ifPresent(now -> {
            last = now;
            peak = peak == null ? now : peak.max(now);
        });
    }

    static Counts counts(StubStatus s) {
        return new Counts((int) s.active(), (int) s.reading(), (int) s.writing(), (int) s.waiting());
    }

    /** What was seen; null when no sample came. */
    Seen seen() {
        return peak == null ? null : new Seen(peak, last);
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
