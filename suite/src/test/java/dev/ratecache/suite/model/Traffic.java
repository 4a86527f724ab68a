package dev.ratecache.suite.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends planned requests, each on its own connection and thread so that nginx's delays do not
 * hold back later sends, and records the status each one got on the wire.
 */
final class Traffic {

    /** One planned request, {@code offsetMs} after the start. */
    record Planned(long offsetMs, String source, String path, String id) {
    }

    private Traffic() {
    }

    /**
     * Sends {@code plan} starting at wall-clock {@code startMs}; returns id → HTTP status.
     */
    static Map<String, Integer> send(int port, List<Planned> plan, long startMs) throws Exception {
        Map<String, Integer> statuses = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            List<Future<?>> sent = new ArrayList<>();
            for (Planned p : plan) {
                long wait = startMs + p.offsetMs() - System.currentTimeMillis();
                if (wait > 0) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(wait));
                }
                sent.add(pool.submit(() -> {
                    statuses.put(p.id(), Nginx.get(p.source(), port, p.path(), p.id()));
                    return null;
                }));
            }
            for (Future<?> f : sent) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        return statuses;
    }

    /**
     * A burst of eight at once from {@code source}, then a stream at 8 a second for two seconds,
     * then one at 3 a second for two more: over a limit of 5 a second, under it, and the move
     * between the two, which is where the limiters of the products differ.
     */
    static List<Planned> burstThenStreams(String source, String idPrefix) {
        List<Planned> plan = new java.util.ArrayList<>();
        int id = 0;
        for (int i = 0; i < 8; i++) {
            plan.add(new Planned(0, source, "/", idPrefix + id++));
        }
        for (long t = 300; t < 2300; t += 125) {
            plan.add(new Planned(t, source, "/", idPrefix + id++));
        }
        for (long t = 2400; t < 4400; t += 333) {
            plan.add(new Planned(t, source, "/", idPrefix + id++));
        }
        return plan;
    }
}
