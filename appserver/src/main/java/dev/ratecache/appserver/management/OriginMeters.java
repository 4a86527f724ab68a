package dev.ratecache.appserver.management;

import dev.ratecache.appserver.accounting.AppCacheCounters;
import dev.ratecache.appserver.accounting.DatabaseCounters;
import dev.ratecache.appserver.accounting.OriginAccounting;
import dev.ratecache.appserver.accounting.RequestCounters;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.stereotype.Component;

/**
 * Publishes the accounting as meters that read the same counters as {@code /actuator/origin}, so
 * the two views never disagree and a reset shows in both.
 */
@Component
class OriginMeters implements MeterBinder {

    private final OriginAccounting accounting;
    private final DatabaseCounters database;
    private final AppCacheCounters appCache;

    OriginMeters(OriginAccounting accounting, DatabaseCounters database, AppCacheCounters appCache) {
        this.accounting = accounting;
        this.database = database;
        this.appCache = appCache;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        accounting.endpoints().forEach((endpoint, counters) -> {
            FunctionCounter.builder("origin.requests", counters, RequestCounters::requests)
                    .description("Requests that reached the endpoint, whatever the answer")
                    .tag("endpoint", endpoint)
                    .register(registry);
            FunctionCounter.builder("origin.not.modified", counters, RequestCounters::notModified)
                    .description("304 Not Modified answers")
                    .tag("endpoint", endpoint)
                    .register(registry);
            Gauge.builder("origin.in.flight", counters, RequestCounters::inFlight)
                    .description("Requests being served now")
                    .tag("endpoint", endpoint)
                    .register(registry);
            Gauge.builder("origin.in.flight.peak", counters, RequestCounters::peakInFlight)
                    .description("Most requests served at once since the last reset")
                    .tag("endpoint", endpoint)
                    .register(registry);
        });
        FunctionCounter.builder("origin.other.requests", accounting.other(), RequestCounters::requests)
                .description("Requests no endpoint took (unknown paths, methods an endpoint does not take)")
                .register(registry);
        FunctionCounter.builder("origin.database.queries", database, DatabaseCounters::reads)
                .description("Statements sent to the database behind /items")
                .tag("operation", "read")
                .register(registry);
        FunctionCounter.builder("origin.database.queries", database, DatabaseCounters::writes)
                .description("Statements sent to the database behind /items")
                .tag("operation", "write")
                .register(registry);
        FunctionCounter.builder("origin.database.queries", database, DatabaseCounters::places)
                .description("Statements sent to the database behind /places")
                .tag("operation", "places")
                .register(registry);
        FunctionCounter.builder("origin.database.unanswered", database, DatabaseCounters::timeouts)
                .description("Requests the database could not serve: 504, no pooled connection within the acquire"
                        + " timeout; 502, the database failed or could not be reached")
                .tag("status", "504")
                .register(registry);
        FunctionCounter.builder("origin.database.unanswered", database, DatabaseCounters::failures)
                .description("Requests the database could not serve: 504, no pooled connection within the acquire"
                        + " timeout; 502, the database failed or could not be reached")
                .tag("status", "502")
                .register(registry);
        FunctionCounter.builder("origin.app.cache.lookups", appCache, AppCacheCounters::hits)
                .description("App cache lookups for /items, as the origin saw them")
                .tag("result", "hit")
                .register(registry);
        FunctionCounter.builder("origin.app.cache.lookups", appCache, AppCacheCounters::misses)
                .description("App cache lookups for /items, as the origin saw them")
                .tag("result", "miss")
                .register(registry);
        FunctionCounter.builder("origin.app.cache.errors", appCache, AppCacheCounters::errors)
                .description("App cache operations that failed and were passed over to the database")
                .register(registry);
    }
}
