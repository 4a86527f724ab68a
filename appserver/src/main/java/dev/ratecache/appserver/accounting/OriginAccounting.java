package dev.ratecache.appserver.accounting;

import dev.ratecache.appserver.config.OriginProperties;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * What reached the origin, per endpoint and in total.
 *
 * <p>The total keeps its own counters because its peak is the highest number of requests in
 * flight at once across endpoints, which no sum of per-endpoint peaks can give.
 *
 * <p>In replay mode every replayed path counts under the one endpoint {@value #REPLAY}: a log can
 * hold millions of distinct paths, and counters per path would grow without bound, in memory and
 * as Prometheus series alike. A configured endpoint of that name shares the counters.
 *
 * <p>Every item is counted under the one endpoint {@value #ITEMS}, for the same reason.
 */
@Component
public class OriginAccounting {

    public static final String REPLAY = "replay";

    /** The database-backed resource {@code /items/{id}}, counted like an endpoint. */
    public static final String ITEMS = "items";

    private final RequestCounters total = new RequestCounters();
    private final Map<String, RequestCounters> endpoints;
    private final ItemsAccounting items;

    public OriginAccounting(OriginProperties properties, ItemsAccounting items) {
        this.items = items;
        Map<String, RequestCounters> counters = new LinkedHashMap<>();
        properties.endpoints().keySet().forEach(name -> counters.put(name, new RequestCounters()));
        if (properties.replay().enabled()) {
            counters.putIfAbsent(REPLAY, new RequestCounters());
        }
        // Always there, like the resource; an endpoint configured with this name shares the counters.
        counters.putIfAbsent(ITEMS, new RequestCounters());
        this.endpoints = Collections.unmodifiableMap(counters);
    }

    /** Starts accounting one request; close the visit when the response is decided. */
    public Visit start(String endpoint) {
        RequestCounters counters = countersOf(endpoint);
        counters.started();
        total.started();
        return new Visit(counters);
    }

    public RequestCounters countersOf(String endpoint) {
        RequestCounters counters = endpoints.get(endpoint);
        if (counters == null) {
            throw new IllegalArgumentException("unknown endpoint: " + endpoint);
        }
        return counters;
    }

    public Map<String, RequestCounters> endpoints() {
        return endpoints;
    }

    public OriginSnapshot snapshot() {
        Map<String, Counts> perEndpoint = new LinkedHashMap<>();
        endpoints.forEach((name, counters) -> perEndpoint.put(name, counters.snapshot()));
        return new OriginSnapshot(total.snapshot(), perEndpoint, items.snapshot());
    }

    public void reset() {
        endpoints.values().forEach(RequestCounters::reset);
        total.reset();
        items.reset();
    }

    /** One request in progress at one endpoint. */
    public final class Visit implements AutoCloseable {

        private final RequestCounters counters;

        private Visit(RequestCounters counters) {
            this.counters = counters;
        }

        public void answeredNotModified() {
            counters.answeredNotModified();
            total.answeredNotModified();
        }

        @Override
        public void close() {
            counters.finished();
            total.finished();
        }
    }
}
