package dev.ratecache.suite.up;

import dev.ratecache.suite.nginx.StubStatus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.proc.Ports;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.OptionalLong;

/**
 * Reads a running stack's counters for {@link StatusLine}: the tiers' (for nginx its stub_status
 * and front access log; for another product {@link Tiers} of its own), and the suite's origin's
 * counters on its management port (when the origin is the suite's). Each call to {@link #next()}
 * gives the line for the time since the previous call.
 */
public final class LiveStatus {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    /** The tiers' side of the line, whichever product they are. */
    public interface Tiers {
        /** Each tier's requests so far, and what the front answered since the previous call. */
        Reading read() throws IOException;

        /** Requests each read itself adds to a tier's counter (nginx's GET of its status page). */
        default int polls() {
            return 0;
        }

        /**
         * @param front    requests the front tier has had, empty when it could not be read
         * @param back     the back tier's
         * @param answered what the front answered since the previous read
         */
        record Reading(OptionalLong front, OptionalLong back, AccessLogTail.Counts answered) {}
    }

    private final Tiers tiers;
    private final int management;
    private StatusLine.Reading last;
    private long lastNanos;

    /** {@code management} is 0 when the origin is the user's own: no counters to read. */
    public LiveStatus(Tiers tiers, int management) throws IOException {
        this.tiers = tiers;
        this.management = management;
        this.last = reading(tiers.read());
        this.lastNanos = System.nanoTime();
    }

    /** nginx's tiers: both stub_status pages, and the front end's access log. */
    public static Tiers nginx(int frontStatus, int backStatus, Path frontAccessLog, int rejectStatus) {
        AccessLogTail frontLog = new AccessLogTail(frontAccessLog, rejectStatus);
        return new Tiers() {
            @Override public Tiers.Reading read() throws IOException {
                return new Tiers.Reading(stub(frontStatus), stub(backStatus), frontLog.read());
            }

            @Override public int polls() {
                return 1;
            }
        };
    }

    /**
     * HAProxy's tiers, which have no status page: each tier's access log, which HAProxy writes as
     * each request ends. A tier's count is then of requests that ended, where nginx's stub_status
     * counts them as they are read: a slow request counts a line later than nginx's would.
     */
    public static Tiers haproxy(Path frontAccessLog, Path backAccessLog, int rejectStatus) {
        AccessLogTail frontLog = new AccessLogTail(frontAccessLog, rejectStatus, AccessLogTail.HAPROXY);
        AccessLogTail backLog = new AccessLogTail(backAccessLog, rejectStatus, AccessLogTail.HAPROXY);
        long[] totals = new long[2];
        return () -> {
            AccessLogTail.Counts front = frontLog.read();
            totals[0] += front.responses();
            totals[1] += backLog.read().responses();
            return new Tiers.Reading(OptionalLong.of(totals[0]), OptionalLong.of(totals[1]), front);
        };
    }

    /** The status line for the time since the previous call (or since construction). */
    public String next() throws IOException {
        Tiers.Reading tierReading = tiers.read();
        StatusLine.Reading now = reading(tierReading);
        long nanos = System.nanoTime();
        String line = StatusLine.format(LocalTime.now(), last, now, (nanos - lastNanos) / 1e9, tierReading.answered(),
                tiers.polls());
        last = now;
        lastNanos = nanos;
        return line;
    }

    private StatusLine.Reading reading(Tiers.Reading tierReading) {
        OptionalLong origin = OptionalLong.empty();
        OptionalLong inFlight = OptionalLong.empty();
        if (management > 0) {
            // The origin's actuator endpoint (OriginCounters): total.requests and total.inFlight.
            String body = get(management, "/actuator/origin");
            if (body != null) {
                try {
                    JsonNode total = JSON.readTree(body).path("total");
                    if (total.has("requests")) {
                        origin = OptionalLong.of(total.path("requests").asLong());
                    }
                    if (total.has("inFlight")) {
                        inFlight = OptionalLong.of(total.path("inFlight").asLong());
                    }
                } catch (IOException notJson) {
                    // Left empty: the line shows "-" for it.
                }
            }
        }
        return new StatusLine.Reading(tierReading.front(), tierReading.back(), origin, inFlight);
    }

    private static OptionalLong stub(int port) {
        return StubStatus.fetch(port).map(s -> OptionalLong.of(s.requests())).orElse(OptionalLong.empty());
    }

    private static String get(int port, String path) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(
                    URI.create("http://" + Ports.LOOPBACK + ":" + port + path)).timeout(Duration.ofSeconds(1)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? r.body() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
