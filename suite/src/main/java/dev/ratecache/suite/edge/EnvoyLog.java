package dev.ratecache.suite.edge;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * An Envoy tier's access log as events: one JSON object per request, in the json_format of
 * envoy/snippets/shared/access-log.yaml. Envoy writes null for a value it does not have (no
 * upstream, no cache outcome) and the start time as a string of epoch milliseconds.
 *
 * <p>Whether a request reached the next tier: not from the upstream host, which Envoy 1.40's cache
 * filter leaves unset when it fetches a miss itself, but from what answered it. The rate limit
 * answered it when its response flags hold RL (a local reply), the cache when they hold RFCF
 * (Response From Cache Filter); an answer neither made came from upstream, and so did a request
 * with no answer (status 0) that names the upstream host it had begun to send to.
 */
public final class EnvoyLog {
    private EnvoyLog() {}

    static List<EdgeEvent> read(Path file) throws IOException {
        return JsonLog.read(file, EnvoyLog::event);
    }

    /** One line's object as an event; throws IllegalArgumentException on a field it cannot read. */
    public static EdgeEvent event(JsonNode line) {
        String start = JsonLog.text(line, "start_ms");
        if (!start.matches("\\d{1,18}")) {
            throw new IllegalArgumentException("field start_ms is not epoch milliseconds: " + start);
        }
        long arrival = Long.parseLong(start);
        long duration = JsonLog.number(line, "duration_ms");
        int status = (int) JsonLog.number(line, "status");
        List<String> flags = List.of(JsonLog.text(line, "flags").split(","));
        boolean limited = flags.contains("RL");
        boolean fromCache = flags.contains("RFCF");
        // UC, UF, UH...: Envoy answered itself for want of an upstream; its status stands for the upstream's,
        // as nginx logs a 502 for an origin it could not reach. A request Envoy had begun to pass on when its
        // client broke it off (status 0, DC) did reach the upstream host it names.
        boolean upstream = !limited && !fromCache && (status != 0 || !JsonLog.text(line, "upstream").isEmpty());
        JsonNode upstreamMs = line.get("upstream_ms");
        long took = upstreamMs != null && upstreamMs.canConvertToLong() ? upstreamMs.asLong() : duration;
        return new EdgeEvent(arrival, arrival + duration, JsonLog.text(line, "address"), JsonLog.text(line, "method"),
                JsonLog.text(line, "uri"), status, JsonLog.number(line, "bytes"),
                limit(limited, JsonLog.text(line, "limited")), cache(JsonLog.text(line, "cache")),
                upstream ? String.valueOf(status) : "", upstream ? Math.max(0, Math.min(took, duration)) : 0, "");
    }

    /** Refused by the limit (RL), else passed where a limit counts the chain's requests. */
    private static EdgeEvent.Limit limit(boolean refused, String limited) {
        if (refused) {
            return EdgeEvent.Limit.REJECTED;
        }
        return switch (limited) {
            case "on" -> EdgeEvent.Limit.PASSED;
            case "off" -> EdgeEvent.Limit.NONE;
            default -> throw new IllegalArgumentException("field limited is not on or off: " + limited);
        };
    }

    private static EdgeEvent.Cache cache(String value) {
        return switch (value) {
            case "" -> EdgeEvent.Cache.NONE;
            case "HIT" -> EdgeEvent.Cache.HIT;
            case "MISS" -> EdgeEvent.Cache.MISS;
            case "BYPASS" -> EdgeEvent.Cache.BYPASS;
            default -> throw new IllegalArgumentException("field cache is not HIT, MISS, BYPASS or null: " + value);
        };
    }
}
