package dev.ratecache.appserver.database;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import org.springframework.stereotype.Component;

/**
 * The connection pool as Micrometer's HikariCP meters see it (the same meters Prometheus scrapes as
 * {@code hikaricp_connections_*}): connections now, and the waits for one since the last reset.
 * Micrometer's counters never go back to zero, so a reset keeps their readings and later figures
 * are taken from there, as the origin's own counters are zeroed.
 */
@Component
public class PoolMeters {

    private static final String POOL_TAG = "pool";

    private final MeterRegistry registry;
    private Figures baseline = Figures.NONE;

    PoolMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    /**
     * @param max             the pool's size (hikaricp.connections.max)
     * @param active          connections lent to a request now
     * @param idle            connections open and free now
     * @param pending         requests waiting for a connection now
     * @param acquisitions    connections handed out since the reset (hikaricp.connections.acquire's count)
     * @param acquireMsTotal  the time those requests waited for them, in all
     * @param acquireMsMax    the longest wait in Micrometer's recent window (about two minutes), not since the reset
     * @param timeouts        waits that ended with no connection (hikaricp.connections.timeout)
     * @param usages          connections given back since the reset (hikaricp.connections.usage's count)
     * @param usageMsTotal    the time those were held, in all: a query's service time, as the pool sees it
     */
    public record Figures(long max, long active, long idle, long pending, long acquisitions, double acquireMsTotal,
            double acquireMsMax, long timeouts, long usages, double usageMsTotal) {
        static final Figures NONE = new Figures(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

        Figures since(Figures start) {
            return new Figures(max, active, idle, pending, acquisitions - start.acquisitions,
                    acquireMsTotal - start.acquireMsTotal, acquireMsMax, timeouts - start.timeouts,
                    usages - start.usages, usageMsTotal - start.usageMsTotal);
        }
    }

    /** Since the last {@link #reset()}. */
    public synchronized Figures figures() {
        return read().since(baseline);
    }

    public synchronized void reset() {
        baseline = read();
    }

    private Figures read() {
        Timer acquire = registry.find("hikaricp.connections.acquire").tag(POOL_TAG, OriginDataSource.POOL_NAME).timer();
        Counter timeouts = registry.find("hikaricp.connections.timeout").tag(POOL_TAG, OriginDataSource.POOL_NAME)
                .counter();
        Timer usage = registry.find("hikaricp.connections.usage").tag(POOL_TAG, OriginDataSource.POOL_NAME).timer();
        return new Figures(gauge("hikaricp.connections.max"), gauge("hikaricp.connections.active"),
                gauge("hikaricp.connections.idle"), gauge("hikaricp.connections.pending"),
                acquire == null ? 0 : acquire.count(),
                acquire == null ? 0 : acquire.totalTime(TimeUnit.MILLISECONDS),
                acquire == null ? 0 : acquire.max(TimeUnit.MILLISECONDS),
                timeouts == null ? 0 : (long) timeouts.count(),
                usage == null ? 0 : usage.count(),
                usage == null ? 0 : usage.totalTime(TimeUnit.MILLISECONDS));
    }

    private long gauge(String name) {
        Gauge gauge = registry.find(name).tag(POOL_TAG, OriginDataSource.POOL_NAME).gauge();
        return gauge == null ? 0 : Math.round(gauge.value());
    }
}
