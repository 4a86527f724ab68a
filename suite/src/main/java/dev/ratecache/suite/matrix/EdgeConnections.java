package dev.ratecache.suite.matrix;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The front tier's own count of its connections while an attack runs, from nginx's stub_status
 * every {@link #EVERY}: the edge's side of what the attacker holds. A slow reader's connection may
 * still be open at the attacker's end while the edge, its answers handed to the kernel, has closed
 * its own; only the edge can say which.
 */
public final class EdgeConnections implements AutoCloseable {
    static final Duration EVERY = Duration.ofMillis(200);
    private static final Pattern ACTIVE = Pattern.compile("Active connections:\\s*(\\d+)");
    private static final Pattern STATES = Pattern.compile("Reading:\\s*(\\d+)\\s+Writing:\\s*(\\d+)\\s+Waiting:\\s*(\\d+)");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

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

    private final URI status;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "edge-connections");
        t.setDaemon(true);
        return t;
    });
    private volatile Counts peak;
    private volatile Counts last;

    private EdgeConnections(int statusPort) {
        this.status = URI.create("http://127.0.0.1:" + statusPort + "/nginx_status");
    }

    /** Samples from now on, until closed. */
    static EdgeConnections start(int statusPort) {
        EdgeConnections c = new EdgeConnections(statusPort);
        c.thread.scheduleWithFixedDelay(c::sample, 0, EVERY.toMillis(), TimeUnit.MILLISECONDS);
        return c;
    }

    private void sample() {
        try {
            Counts now = parse(HTTP.send(HttpRequest.newBuilder(status).timeout(Duration.ofSeconds(1)).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            if (now != null) {
                last = now;
                peak = peak == null ? now : peak.max(now);
            }
        } catch (IOException e) {
            // A missed sample: the next one counts.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static Counts parse(String body) {
        Matcher a = ACTIVE.matcher(body);
        Matcher s = STATES.matcher(body);
        if (!a.find() || !s.find()) {
            return null;
        }
        return new Counts(Integer.parseInt(a.group(1)), Integer.parseInt(s.group(1)), Integer.parseInt(s.group(2)),
                Integer.parseInt(s.group(3)));
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
