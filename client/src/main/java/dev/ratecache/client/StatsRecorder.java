package dev.ratecache.client;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** The live counters behind {@link ClientStats}; LongAdders, as many threads share one client. */
final class StatsRecorder {
    final LongAdder requests = new LongAdder();
    final LongAdder network = new LongAdder();
    final LongAdder hits = new LongAdder();
    final LongAdder validations = new LongAdder();
    final LongAdder staleWhileRevalidating = new LongAdder();
    final LongAdder staleIfError = new LongAdder();
    final LongAdder backgroundRevalidations = new LongAdder();
    final LongAdder misses = new LongAdder();
    final LongAdder failures = new LongAdder();
    final LongAdder rejected = new LongAdder();
    final LongAdder quotaRejected = new LongAdder();
    final LongAdder retryWaitNanos = new LongAdder();
    final LongAdder throttleWaitNanos = new LongAdder();
    private final Map<Integer, LongAdder> retries = new ConcurrentHashMap<>();

    void answered(ResponseSource source, boolean rejection) {
        answered(source, rejection, false);
    }

    void answered(ResponseSource source, boolean rejection, boolean quotaExceeded) {
        requests.increment();
        switch (source) {
            case CACHE -> hits.increment();
            case VALIDATED -> validations.increment();
            case STALE_WHILE_REVALIDATING -> staleWhileRevalidating.increment();
            case STALE_IF_ERROR -> staleIfError.increment();
            case NETWORK -> misses.increment();
            case GENERATED -> failures.increment();
        }
        if (rejection) {
            rejected.increment();
        }
        if (quotaExceeded) {
            quotaRejected.increment();
        }
    }

    void failed() {
        requests.increment();
        failures.increment();
    }

    void retried(int status, long waitedNanos) {
        retries.computeIfAbsent(status, s -> new LongAdder()).increment();
        retryWaitNanos.add(waitedNanos);
    }

    long retries(int status) {
        LongAdder a = retries.get(status);
        return a == null ? 0 : a.sum();
    }

    ClientStats snapshot() {
        Map<Integer, Long> byStatus = new TreeMap<>();
        retries.forEach((k, v) -> byStatus.put(k, v.sum()));
        return new ClientStats(requests.sum(), network.sum(), hits.sum(), validations.sum(),
                staleWhileRevalidating.sum(), staleIfError.sum(), misses.sum(), failures.sum(), rejected.sum(), quotaRejected.sum(), byStatus,
                backgroundRevalidations.sum(), Duration.ofNanos(retryWaitNanos.sum()), Duration.ofNanos(throttleWaitNanos.sum()));
    }
}
