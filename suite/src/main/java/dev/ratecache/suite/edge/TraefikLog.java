package dev.ratecache.suite.edge;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * A Traefik tier's access log as events: one JSON object per request, as Traefik 3.7 writes it
 * with {@code accessLog.format: json} (traefik/snippets/shared/static.yml). Traefik keeps no
 * outcome of a limit in its log: the suite names the routers a limit decides "limited-..."
 * (traefik/front/dynamic.yml, back/dynamic.yml), and the RateLimit middleware's own 429 is the one
 * answer with the response header X-Retry-In, which the log keeps, that went to no upstream.
 */
public final class TraefikLog {
    private static final long MS = 1_000_000L;

    private TraefikLog() {}

    static List<EdgeEvent> read(Path file) throws IOException {
        return JsonLog.read(file, TraefikLog::event);
    }

    /** One line's object as an event; throws IllegalArgumentException on a field it cannot read. */
    public static EdgeEvent event(JsonNode line) {
        long startNs = startNs(JsonLog.text(line, "StartUTC"));
        // Duration runs from the request's arrival at Traefik to the end of its response, in ns.
        long durationNs = JsonLog.number(line, "Duration");
        int status = (int) JsonLog.number(line, "DownstreamStatus");
        String method = JsonLog.text(line, "RequestMethod");
        // OriginStatus is 0 when the request never left this tier (a rejection, an internal answer).
        long originStatus = JsonLog.number(line, "OriginStatus");
        boolean upstream = originStatus > 0;
        long arrivalMs = Math.floorDiv(startNs, MS);
        return new EdgeEvent(arrivalMs, Math.floorDiv(startNs + durationNs, MS), client(JsonLog.text(line, "ClientHost")),
                method, JsonLog.text(line, "RequestPath"), status, body(line, method, status),
                limit(line, upstream), EdgeEvent.Cache.NONE, upstream ? String.valueOf(originStatus) : "",
                upstream ? JsonLog.number(line, "OriginDuration") / MS : 0, "");
    }

    /**
     * The client of a ClientHost: Traefik writes the X-Forwarded-For it trusted there whole, and behind
     * the fleet's balancer the back's reads "client, edge" (the balancer set the first, each edge
     * appended its peer); the first is the client, since every tier in front replaced what the
     * client itself sent.
     */
    static String client(String clientHost) {
        int comma = clientHost.indexOf(',');
        return comma < 0 ? clientHost : clientHost.substring(0, comma).strip();
    }

    /** StartUTC: RFC 3339 with nanoseconds, e.g. 2026-11-29T18:02:40.876250382Z, as epoch ns. */
    static long startNs(String startUtc) {
        try {
            Instant at = Instant.parse(startUtc);
            return Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000_000L), at.getNano());
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new IllegalArgumentException("StartUTC is not an RFC 3339 time: " + startUtc, e);
        }
    }

    /**
     * A limited router's request: REJECTED when this tier's RateLimit middleware answered it
     * (X-Retry-In, and nothing forwarded: the next tier's own 429 carries X-Retry-In too), else PASSED.
     */
    private static EdgeEvent.Limit limit(JsonNode line, boolean upstream) {
        // No RouterName when no router matched (Traefik's own 404).
        if (!line.path("RouterName").asText().startsWith("limited")) {
            return EdgeEvent.Limit.NONE;
        }
        // Traefik logs a kept response header as downstream_NAME. A request held for its token
        // (at most half a token's time) is logged like any other: PASSED.
        JsonNode retryIn = line.get("downstream_X-Retry-In");
        return !upstream && retryIn != null && !retryIn.asText().isEmpty() ? EdgeEvent.Limit.REJECTED
                : EdgeEvent.Limit.PASSED;
    }

    /** DownstreamContentSize: the body's bytes as sent; none where HTTP sends no body. */
    private static long body(JsonNode line, String method, int status) {
        if (method.equals("HEAD") || status == 204 || status == 304 || status < 200) {
            return 0;
        }
        return JsonLog.number(line, "DownstreamContentSize");
    }
}
