package dev.ratecache.suite.up;

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
 * Reads a running stack's counters for {@link StatusLine}: both tiers' stub_status, the suite's
 * origin's counters on its management port (when the origin is the suite's), and the front end's
 * access log. Each call to {@link #next()} gives the line for the time since the previous call.
 */
public final class LiveStatus {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    private final int frontStatus;
    private final int backStatus;
    private final int management;
    private final AccessLogTail frontLog;
    private StatusLine.Reading last;
    private long lastNanos;

    /** {@code management} is 0 when the origin is the user's own: no counters to read. */
    public LiveStatus(int frontStatus, int backStatus, int management, Path frontAccessLog, int rejectStatus) {
        this.frontStatus = frontStatus;
        this.backStatus = backStatus;
        this.management = management;
        this.frontLog = new AccessLogTail(frontAccessLog, rejectStatus);
        this.last = read();
        this.lastNanos = System.nanoTime();
    }

    /** The status line for the time since the previous call (or since construction). */
    public String next() throws IOException {
        StatusLine.Reading now = read();
        long nanos = System.nanoTime();
        AccessLogTail.Counts log = frontLog.read();
        String line = StatusLine.format(LocalTime.now(), last, now, (nanos - lastNanos) / 1e9, log, 1);
        last = now;
        lastNanos = nanos;
        return line;
    }

    private StatusLine.Reading read() {
        OptionalLong front = stub(frontStatus);
        OptionalLong back = stub(backStatus);
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
        return new StatusLine.Reading(front, back, origin, inFlight);
    }

    private static OptionalLong stub(int port) {
        String body = get(port, "/nginx_status");
        return StubStatus.parse(body).map(s -> OptionalLong.of(s.requests())).orElse(OptionalLong.empty());
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
