package dev.ratecache.suite.edge;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A HAProxy tier's access log as events: one JSON object per request, in the log-format of
 * haproxy/snippets/shared/logging.cfg. HAProxy writes a few notices of its own to the same output
 * in plain text (a proxy stopped); those are not requests.
 */
public final class HaproxyLog {
    private HaproxyLog() {}

    static List<EdgeEvent> read(Path file) throws IOException {
        return JsonLog.read(file, HaproxyLog::event);
    }

    /** One line's object as an event; throws IllegalArgumentException on a field it cannot read. */
    public static EdgeEvent event(JsonNode line) {
        // The accept date is the end of the previous response on a kept-alive connection: the request's
        // first byte came after the handshakes (Th) and the idle time (Ti); Ta runs from it to the end.
        long arrival = JsonLog.number(line, "accept_ms") + spent(line, "th") + spent(line, "ti");
        long active = spent(line, "ta");
        String method = JsonLog.text(line, "method");
        int status = (int) JsonLog.number(line, "status");
        // HAProxy names no server when it answered itself: <NOSRV> for a deny, <CACHE> for a hit.
        boolean upstream = !JsonLog.text(line, "server").startsWith("<");
        return new EdgeEvent(arrival, arrival + active, unset(JsonLog.text(line, "key")), method,
                JsonLog.text(line, "uri"), status, body(line, method, status),
                limit(JsonLog.text(line, "limit")), cache(JsonLog.text(line, "cache")),
                upstream ? String.valueOf(status) : "",
                // From sending the request on (Tc, Tr and the body's transfer): what nginx's
                // $upstream_response_time counts.
                upstream ? Math.max(0, active - spent(line, "treq") - spent(line, "tw")) : 0, "");
    }

    /** A timer in milliseconds; HAProxy logs -1 for a step never reached. */
    private static long spent(JsonNode line, String timer) {
        return Math.max(0, JsonLog.number(line, timer));
    }

    /**
     * The body's bytes: the answer's Content-Length, as HAProxy 2.6 counts only head and body together
     * (sent); that total for an answer without one (a chunked body), none where HTTP sends no body.
     */
    private static long body(JsonNode line, String method, int status) {
        if (method.equals("HEAD") || status == 204 || status == 304 || status < 200) {
            return 0;
        }
        String length = JsonLog.text(line, "length");
        return length.matches("\\d+") ? Long.parseLong(length) : JsonLog.number(line, "sent");
    }

    /** HAProxy logs "-" for a variable no rule set. */
    private static String unset(String value) {
        return value.equals("-") ? "" : value;
    }

    private static EdgeEvent.Limit limit(String value) {
        return value.equals("-") ? EdgeEvent.Limit.NONE : EdgeEvent.Limit.valueOf(value);
    }

    private static EdgeEvent.Cache cache(String value) {
        return value.equals("-") ? EdgeEvent.Cache.NONE : EdgeEvent.Cache.valueOf(value);
    }
}
