package dev.ratecache.client;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.concurrent.atomic.LongAdder;

/**
 * Publishes a client's statistics to Micrometer (an optional dependency: add micrometer-core
 * to use this class).
 *
 * <pre>{@code
 * new RateCacheMetrics(client, Tags.of("api", "billing")).bindTo(registry);
 * }</pre>
 *
 * Meters: {@code ratecache.client.requests} tagged {@code outcome} = hit, validated, stale,
 * miss or failure; {@code ratecache.client.network.requests}; {@code ratecache.client.rejected};
 * {@code ratecache.client.quota.rejected};
 * {@code ratecache.client.retries} tagged {@code status}; {@code ratecache.client.retry.wait}
 * and {@code ratecache.client.throttle.wait} (seconds); gauges {@code ratecache.client.cache.size}
 * (bytes) and {@code ratecache.client.cache.entries}.
 */
public final class RateCacheMetrics implements MeterBinder {
    private final RateCacheClient client;
    private final Iterable<Tag> tags;

    /** Meters for {@code client}, with no tags of their own. */
    public RateCacheMetrics(RateCacheClient client) {
        this(client, Tags.empty());
    }

    /** Meters for {@code client}, each with {@code tags} (to tell several clients apart). */
    public RateCacheMetrics(RateCacheClient client, Iterable<Tag> tags) {
        this.client = client;
        this.tags = tags;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        StatsRecorder s = client.stats;
        requests(registry, "hit", s.hits);
        requests(registry, "validated", s.validations);
        requests(registry, "stale_while_revalidating", s.staleWhileRevalidating);
        requests(registry, "stale_if_error", s.staleIfError);
        requests(registry, "miss", s.misses);
        requests(registry, "failure", s.failures);
        counter(registry, "ratecache.client.network.requests", "Exchanges on the wire, retries and revalidations included", s.network, Tags.empty());
        counter(registry, "ratecache.client.background.revalidations", "Revalidations started in the background for stale-while-revalidate", s.backgroundRevalidations, Tags.empty());
        counter(registry, "ratecache.client.rejected", "Requests whose final answer was a rate-limit rejection", s.rejected, Tags.empty());
        counter(registry, "ratecache.client.quota.rejected", "Requests whose final answer was a 429 for an exhausted quota", s.quotaRejected, Tags.empty());
        for (int status : client.retryPolicy().statuses()) {
            FunctionCounter.builder("ratecache.client.retries", s, r -> r.retries(status))
                    .description("Retries after a rejection with this status")
                    .tags(tags).tag("status", Integer.toString(status))
                    .register(registry);
        }
        FunctionCounter.builder("ratecache.client.retry.wait", s.retryWaitNanos, a -> a.sum() / 1e9)
                .description("Time spent waiting before retries").baseUnit("seconds").tags(tags).register(registry);
        FunctionCounter.builder("ratecache.client.throttle.wait", s.throttleWaitNanos, a -> a.sum() / 1e9)
                .description("Time spent waiting for the client-side throttle and the server's policy").baseUnit("seconds").tags(tags).register(registry);
        Gauge.builder("ratecache.client.cache.size", client, RateCacheClient::cacheSize)
                .description("Bytes held by the cache, roughly").baseUnit("bytes").tags(tags).register(registry);
        Gauge.builder("ratecache.client.cache.entries", client, RateCacheClient::cacheEntryCount)
                .description("Entries in the cache").tags(tags).register(registry);
    }

    private void requests(MeterRegistry registry, String outcome, LongAdder adder) {
        counter(registry, "ratecache.client.requests", "Requests by how they were answered", adder, Tags.of("outcome", outcome));
    }

    private void counter(MeterRegistry registry, String name, String description, LongAdder adder, Tags extra) {
        FunctionCounter.builder(name, adder, LongAdder::sum)
                .description(description).tags(tags).tags(extra).register(registry);
    }
}
