package dev.ratecache.appserver.accounting;

import dev.ratecache.appserver.config.OriginProperties;
import dev.ratecache.appserver.database.Database;
import dev.ratecache.appserver.database.PoolMeters;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * What reached the origin, per endpoint and in total.
 *
 * <p>The total counts every request that reached the origin's port ({@link #arrived()}, from a
 * filter in front of every handler), so it holds what no endpoint took as well: unknown paths
 * (404), methods an endpoint does not take (405). Those are counted as {@code other} too, so that
 * the total is the endpoints' requests and other's, and a tier in front that passes requests to
 * the origin sees them arrive. The total keeps its own counters because its peak is the highest
 * number of requests in flight at once across endpoints, which no sum of per-endpoint peaks can give.
 *
 * <p>In replay mode every replayed path counts under the one endpoint {@value #REPLAY}: a log can
 * hold millions of distinct paths, and counters per path would grow without bound, in memory and
 * as Prometheus series alike. A configured endpoint of that name shares the counters.
 *
 * <p>Every item is counted under the one endpoint {@value #ITEMS}, and every /places query under
 * {@value #PLACES}, for the same reason.
 */
@Component
public class OriginAccounting {

    public static final String REPLAY = "replay";

    /** The database-backed resource {@code /items/{id}}, counted like an endpoint. */
    public static final String ITEMS = "items";

    /** The database queries {@code /places?code=} and {@code /places?region=}, counted like an endpoint. */
    public static final String PLACES = "places";

    private final RequestCounters total = new RequestCounters();
    /** Requests no endpoint took, counted when they are answered: they are never in flight for long. */
    private final RequestCounters other = new RequestCounters();
    /** The request this thread is serving: servlet requests keep their thread until answered. */
    private final ThreadLocal<Arrival> serving = new ThreadLocal<>();
    private final Map<String, RequestCounters> endpoints;
    private final ItemsAccounting items;
    private final DatabaseCounters database;
    private final Database product;
    private final PoolMeters pool;

    public OriginAccounting(OriginProperties properties, ItemsAccounting items, DatabaseCounters database,
            Database product, PoolMeters pool) {
        this.items = items;
        this.database = database;
        this.product = product;
        this.pool = pool;
        Map<String, RequestCounters> counters = new LinkedHashMap<>();
        properties.endpoints().keySet().forEach(name -> counters.put(name, new RequestCounters()));
        if (properties.replay().enabled()) {
            counters.putIfAbsent(REPLAY, new RequestCounters());
        }
        // Always there, like the resource; an endpoint configured with this name shares the counters.
        counters.putIfAbsent(ITEMS, new RequestCounters());
        counters.putIfAbsent(PLACES, new RequestCounters());
        this.endpoints = Collections.unmodifiableMap(counters);
    }

    /** Starts accounting one request that reached the origin, whatever it asks for; close it once answered. */
    public Arrival arrived() {
        total.started();
        Arrival arrival = new Arrival();
        serving.set(arrival);
        return arrival;
    }

    /** Starts accounting one request at an endpoint (within its arrival); close the visit when the response is decided. */
    public Visit start(String endpoint) {
        RequestCounters counters = countersOf(endpoint);
        counters.started();
        Arrival arrival = serving.get();
        if (arrival != null) {
            arrival.taken = true;
        }
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

    /** Requests no endpoint took; only their count means anything. */
    public RequestCounters other() {
        return other;
    }

    public OriginSnapshot snapshot() {
        Map<String, Counts> perEndpoint = new LinkedHashMap<>();
        endpoints.forEach((name, counters) -> perEndpoint.put(name, counters.snapshot()));
        return new OriginSnapshot(total.snapshot(), perEndpoint, new OriginSnapshot.Other(other.requests()),
                items.snapshot(), new OriginSnapshot.DatabasePart(product.product(),
                        database.reads() + database.writes() + database.places(), database.timeouts(),
                        database.failures(), database.lastFailure(), pool.figures()));
    }

    public void reset() {
        endpoints.values().forEach(RequestCounters::reset);
        total.reset();
        other.reset();
        items.reset();
        pool.reset();
    }

    /** One request in progress at the origin, from its arrival to its answer. */
    public final class Arrival implements AutoCloseable {

        private boolean taken;

        private Arrival() {
        }

        @Override
        public void close() {
            serving.remove();
            total.finished();
            if (!taken) {
                other.answered();
            }
        }
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
        }
    }
}
