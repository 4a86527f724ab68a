package dev.ratecache.suite.matrix;

import dev.ratecache.suite.origin.OriginCounters;
import dev.ratecache.suite.origin.OriginServer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The origin's database pool, read from its management port once a second while a cell's
 * generator runs: the connections lent to requests and the requests waiting for one, for the
 * cell's over-time chart. PostgreSQL's CPU is read five times as often, on a thread of its own, so
 * that a database killed mid-cell still has what it used until then. A reading of the pool that
 * fails (the origin busy past its client's timeout) is a second without one.
 */
final class PoolSampler implements AutoCloseable {
    static final long INTERVAL_MS = 1000;
    static final long CPU_INTERVAL_MS = 200;

    /** One reading: the epoch second it was taken in, and the pool then. */
    record Reading(long epochSecond, long active, long pending) {}

    private final OriginServer origin;
    private final TierCpu cpu;
    private final List<Reading> readings = new ArrayList<>();
    private final ScheduledExecutorService sampler = Executors.newScheduledThreadPool(2, r -> {
        Thread t = new Thread(r, "pool-sampler");
        t.setDaemon(true);
        return t;
    });

    private PoolSampler(OriginServer origin, TierCpu cpu) {
        this.origin = origin;
        this.cpu = cpu;
        sampler.scheduleWithFixedDelay(this::read, 0, INTERVAL_MS, TimeUnit.MILLISECONDS);
        sampler.scheduleAtFixedRate(cpu::sample, 0, CPU_INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    /** Starts reading, just before the generator starts. */
    static PoolSampler start(OriginServer origin, TierCpu cpu) {
        return new PoolSampler(origin, cpu);
    }

    private void read() {
        try {
            OriginCounters.DatabasePart database = origin.counters().database();
            if (database != null && database.pool() != null) {
                synchronized (readings) {
                    readings.add(new Reading(System.currentTimeMillis() / 1000, database.pool().active(),
                            database.pool().pending()));
                }
            }
        } catch (IOException | RuntimeException e) {
            // A second without a reading.
        }
    }

    List<Reading> readings() {
        synchronized (readings) {
            return List.copyOf(readings);
        }
    }

    /** The most connections seen lent at once, or null without a reading. */
    Long activePeak() {
        return readings().stream().mapToLong(Reading::active).boxed().max(Long::compare).orElse(null);
    }

    /** The timeline with the pool's series: per second, its last reading in that second. */
    Timeline addTo(Timeline timeline) {
        Map<Long, Long> active = new TreeMap<>();
        Map<Long, Long> pending = new TreeMap<>();
        for (Reading r : readings()) {
            active.put(r.epochSecond(), r.active());
            pending.put(r.epochSecond(), r.pending());
        }
        return timeline.with(Timeline.DB_ACTIVE, active).with(Timeline.DB_PENDING, pending);
    }

    @Override
    public void close() {
        sampler.shutdownNow();
        try {
            sampler.awaitTermination(3, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
