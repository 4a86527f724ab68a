package dev.ratecache.suite.up;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.proc.Ports;
import dev.ratecache.suite.edge.LiveCounters;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.LocalTime;
import java.util.OptionalLong;

/**
 * Reads a running stack's counters for {@link StatusLine}: the tiers', as their product tells them
 * ({@link LiveCounters}), and the suite's origin's counters on its management port (when the
 * origin is the suite's). Each call to {@link #next()} gives the line for the time since the
 * previous call.
 */
public final class LiveStatus {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    private final LiveCounters tiers;
    private final int management;
    private StatusLine.Reading last;
    private long lastNanos;

    /** {@code management} is 0 when the origin is the user's own: no counters to read. */
    public LiveStatus(LiveCounters tiers, int management) throws IOException {
        this.tiers = tiers;
        this.management = management;
        this.last = reading(tiers.read());
        this.lastNanos = System.nanoTime();
    }

    /** The status line for the time since the previous call (or since construction). */
    public String next() throws IOException {
        LiveCounters.Reading tierReading = tiers.read();
        StatusLine.Reading now = reading(tierReading);
        long nanos = System.nanoTime();
        String line = StatusLine.format(LocalTime.now(), last, now, (nanos - lastNanos) / 1e9, tierReading.answered(),
                tiers.polls());
        last = now;
        lastNanos = nanos;
        return line;
    }

    private StatusLine.Reading reading(LiveCounters.Reading tierReading) {
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
