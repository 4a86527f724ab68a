package dev.ratecache.suite.kinds.faults;

import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.matrix.CellTrait;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What a cell of --matrix faults measured of its fault: when it fired, the requests that failed
 * (neither answered nor refused by a limit) and those of them that got no HTTP response at all (lost
 * in flight); for a reload, when the new limit took effect; for a worker killed, whether and when
 * the master started another; for the origin killed and started again, how long it was down, what
 * the edge answered stale meanwhile, and whether it went back to the new one.
 *
 * @param effectMs     a reload's: from the signal to the start of the first one-second window from
 *                     which every window admits at most {@code newLimit}; null when none did
 * @param beforePeak   a reload's: the most admitted in one second before the signal (the old limit's)
 * @param afterPeak    a reload's: the most admitted in one second from {@code effectMs} on
 * @param newLimit     a reload's: the new limit's rate + burst, the most it admits in any one second
 * @param respawnMs    a worker kill's: from the kill to its successor seen; null when none came
 * @param error        why the fault did not fire, or fired and could not be measured; null when it was
 * @param downMs       an origin restart's: from the kill to the new origin ready; null for other faults
 * @param servedStale  an origin restart's: requests in that time the edge answered from an expired
 *                     entry (X-Cache-Status STALE or UPDATING), as the origin's stale-* permit
 * @param originAfter  an origin restart's: requests the new origin answered, the edge's own way back
 *                     to it; null when not known
 * @param errorsMeanwhile a stale-refused restart's: answers with an HTTP 5xx status while the origin was
 *                     down (an expired entry that permits no stale, answered with an error); null for other faults
 * @param failedAfter  a stale-refused restart's: failed requests started once the new origin was ready;
 *                     null for other faults
 * @param cacheFill    a cache-full cell's: what its cache held and what the edge said; null for other faults
 * @param redisAfter   a Redis restart's: lookups (hits and misses) the new redis-server counted, the
 *                     origin's own way back to it; null for other faults, or when it did not answer
 * @param appCacheErrors a Redis restart's: the app-cache operations the origin counted as failed in the
 *                     cell (each answered from its database); null when not known
 * @param failedAs     the failed requests by what the client read (status or message), so that a
 *                     failure says what it was; empty when none failed
 */
public record FaultFigures(InjectedFault fault, long firedMs, String error, long failed, long lost, Long effectMs,
        long beforePeak, long afterPeak, int newLimit, Long respawnMs, Long downMs, long servedStale,
        Long originAfter, Long errorsMeanwhile, Long failedAfter, CacheFill cacheFill, Long redisAfter,
        Long appCacheErrors, Map<String, Long> failedAs) implements CellTrait.Figure {

    public FaultFigures {
        failedAs = failedAs == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(failedAs));
    }

    public FaultFigures(InjectedFault fault, long firedMs, String error, long failed, long lost, Long effectMs,
            long beforePeak, long afterPeak, int newLimit, Long respawnMs, Long downMs, long servedStale,
            Long originAfter, Long errorsMeanwhile, Long failedAfter, CacheFill cacheFill, Long redisAfter,
            Long appCacheErrors) {
        this(fault, firedMs, error, failed, lost, effectMs, beforePeak, afterPeak, newLimit, respawnMs, downMs,
                servedStale, originAfter, errorsMeanwhile, failedAfter, cacheFill, redisAfter, appCacheErrors, null);
    }

    public FaultFigures(InjectedFault fault, long firedMs, String error, long failed, long lost, Long effectMs,
            long beforePeak, long afterPeak, int newLimit, Long respawnMs, Long downMs, long servedStale,
            Long originAfter, Long errorsMeanwhile, Long failedAfter, CacheFill cacheFill) {
        this(fault, firedMs, error, failed, lost, effectMs, beforePeak, afterPeak, newLimit, respawnMs, downMs,
                servedStale, originAfter, errorsMeanwhile, failedAfter, cacheFill, null, null);
    }

    public FaultFigures(InjectedFault fault, long firedMs, String error, long failed, long lost, Long effectMs,
            long beforePeak, long afterPeak, int newLimit, Long respawnMs) {
        this(fault, firedMs, error, failed, lost, effectMs, beforePeak, afterPeak, newLimit, respawnMs, null, 0, null);
    }

    public FaultFigures(InjectedFault fault, long firedMs, String error, long failed, long lost, Long effectMs,
            long beforePeak, long afterPeak, int newLimit, Long respawnMs, Long downMs, long servedStale,
            Long originAfter) {
        this(fault, firedMs, error, failed, lost, effectMs, beforePeak, afterPeak, newLimit, respawnMs, downMs,
                servedStale, originAfter, null, null, null);
    }

    /**
     * The edge cache of a cache-full cell: how full it got, how many entries the flood stored and the
     * cache manager removed again to keep it within max_size, and the X-Cache-Status of every answer
     * after it was full.
     *
     * @param fullAfterMs   from the first answer to the moment the folder reached max_size
     * @param maxBytes      the cell's max_size
     * @param peakBytes     the most the folder held at any poll (20 ms apart), in whole 4 KB blocks
     * @param stored        answers that stored an entry (X-Cache-Status MISS or EXPIRED)
     * @param held          entries left in the folder once the traffic ended
     * @param evictedAfterMs from the moment to the cache manager's first eviction; null when it never evicted
     * @param statusesAfter answers (2xx) after the moment, by X-Cache-Status ("none" when it had none)
     */
    public record CacheFill(long fullAfterMs, long maxBytes, long peakBytes, long stored, long held,
            Long evictedAfterMs, Map<String, Long> statusesAfter) {
        public CacheFill {
            statusesAfter = Collections.unmodifiableMap(new TreeMap<>(statusesAfter));
        }

        /** Entries stored and gone again: the cache manager's evictions (the flood's URLs never repeat). */
        public long evicted() {
            return Math.max(0, stored - held);
        }

        /** Answers after the fill that did not say what the cache did. */
        public long unsaid() {
            return statusesAfter.getOrDefault(NONE, 0L);
        }

        /** The answers after the fill, as "MISS 120" pairs. */
        public String statusesText() {
            return statusesAfter.isEmpty() ? "none answered" : statusesAfter.entrySet().stream()
                    .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
        }
    }

    /** The X-Cache-Status of an answer that carried none. */
    static final String NONE = "none";

    /** X-Cache-Status of an answer from an expired entry. */
    private static final List<String> STALE = List.of("STALE", "UPDATING");

    /**
     * The samples less those JMeter aborted itself ({@link Sample#abortedByJMeter}): the generator's,
     * not the edge's, so no fault's figure counts them.
     */
    public static List<Sample> withoutJMetersOwnAborts(List<Sample> samples) {
        return samples.stream().filter(s -> !s.abortedByJMeter()).toList();
    }

    /** Windows slide by this much: the precision of when a reload took effect. */
    public static final long STEP_MS = 100;

    static FaultFigures of(FaultInjector.Happened h, List<Sample> samples, int newLimit) {
        return of(h, samples, newLimit, null);
    }

    /** @param originRequests what the cell's origin (the one running at its end) counted; null when unknown */
    static FaultFigures of(FaultInjector.Happened h, List<Sample> samples, int newLimit, Long originRequests) {
        return of(h, samples, newLimit, originRequests, null, null);
    }

    /**
     * @param redisLookups   what the cell's redis-server (the one running at its end) counted; null when unknown
     * @param appCacheErrors the origin's failed app-cache operations in the cell; null when unknown
     */
    static FaultFigures of(FaultInjector.Happened h, List<Sample> samples, int newLimit, Long originRequests,
            Long redisLookups, Long appCacheErrors) {
        List<Sample> sent = withoutJMetersOwnAborts(samples.stream().filter(s -> !s.clientCacheHit()).toList());
        Map<String, Long> failedAs = sent.stream().filter(s -> !s.success() && !s.rejected())
                .collect(Collectors.groupingBy(FaultFigures::whatFailed, Collectors.counting()));
        FaultFigures f = measured(h, sent, newLimit, originRequests, redisLookups, appCacheErrors);
        return new FaultFigures(f.fault, f.firedMs, f.error, f.failed, f.lost, f.effectMs, f.beforePeak, f.afterPeak,
                f.newLimit, f.respawnMs, f.downMs, f.servedStale, f.originAfter, f.errorsMeanwhile, f.failedAfter,
                f.cacheFill, f.redisAfter, f.appCacheErrors, failedAs);
    }

    /** A failure as the client read it: its status and reason, or JMeter's message less its prefix. */
    private static String whatFailed(Sample s) {
        String message = s.responseMessage().replace("Non HTTP response message: ", "").strip();
        String code = s.responseCode().replace("Non HTTP response code: ", "").strip();
        return Character.isDigit(code.isEmpty() ? ' ' : code.charAt(0)) ? (code + " " + message).strip()
                : message.isEmpty() ? code : message;
    }

    private static FaultFigures measured(FaultInjector.Happened h, List<Sample> sent, int newLimit,
            Long originRequests, Long redisLookups, Long appCacheErrors) {
        long failed = sent.stream().filter(s -> !s.success() && !s.rejected()).count();
        long lost = sent.stream().filter(s -> !s.success() && !s.rejected())
                .filter(s -> s.responseCode().isEmpty() || !Character.isDigit(s.responseCode().charAt(0))).count();
        if (h.firedMs() == 0) {
            return new FaultFigures(h.fault(), 0, h.error(), failed, lost, null, 0, 0, newLimit, null);
        }
        Long respawn = h.respawnedPid() != 0 ? h.doneMs() - h.firedMs() : null;
        InjectedFault.Kind kind = h.fault().kind();
        if (kind == InjectedFault.Kind.ORIGIN_RESTART || kind == InjectedFault.Kind.STALE_REFUSED) {
            boolean refused = kind == InjectedFault.Kind.STALE_REFUSED;
            if (h.doneMs() == 0) {
                return new FaultFigures(h.fault(), h.firedMs(), "the origin was not ready again before the cell ended",
                        failed, lost, null, 0, 0, newLimit, null, null, 0, originRequests, null, null, null);
            }
            List<Sample> meanwhile = sent.stream().filter(s -> s.timeStamp() >= h.firedMs() && s.timeStamp() < h.doneMs())
                    .toList();
            long stale = meanwhile.stream().filter(s -> STALE.contains(s.cacheStatus())).count();
            Long errors = refused ? meanwhile.stream().filter(s -> s.responseCode().startsWith("5") && !s.rejected())
                    .count() : null;
            Long failedAfter = refused ? sent.stream().filter(s -> s.timeStamp() >= h.doneMs())
                    .filter(s -> !s.success() && !s.rejected()).count() : null;
            return new FaultFigures(h.fault(), h.firedMs(), null, failed, lost, null, 0, 0, newLimit, null,
                    h.doneMs() - h.firedMs(), stale, originRequests, errors, failedAfter, null);
        }
        if (kind == InjectedFault.Kind.REDIS_RESTART) {
            if (h.doneMs() == 0) {
                return new FaultFigures(h.fault(), h.firedMs(), "redis-server was not answering again before the cell"
                        + " ended", failed, lost, null, 0, 0, newLimit, null, null, 0, null, null, null, null,
                        redisLookups, appCacheErrors);
            }
            return new FaultFigures(h.fault(), h.firedMs(), null, failed, lost, null, 0, 0, newLimit, null,
                    h.doneMs() - h.firedMs(), 0, null, null, null, null, redisLookups, appCacheErrors);
        }
        if (kind == InjectedFault.Kind.CACHE_FULL) {
            return new FaultFigures(h.fault(), h.firedMs(), null, failed, lost, null, 0, 0, newLimit, null, null, 0,
                    null, null, null, cacheFill(h, sent));
        }
        if (h.fault().kind() != InjectedFault.Kind.RELOAD) {
            return new FaultFigures(h.fault(), h.firedMs(), null, failed, lost, null, 0, 0, newLimit, respawn);
        }
        long[] admitted = sent.stream().filter(Sample::success).mapToLong(Sample::timeStamp).sorted().toArray();
        long first = sent.stream().mapToLong(Sample::timeStamp).min().orElse(0);
        long last = sent.stream().mapToLong(Sample::timeStamp).max().orElse(0);
        long beforePeak = 0;
        for (long t = first; t + 1000 <= h.firedMs(); t += STEP_MS) {
            beforePeak = Math.max(beforePeak, count(admitted, t));
        }
        // The latest window over the new limit: the limit took effect at the step after its start.
        if (h.firedMs() + 1000 > last) {
            return new FaultFigures(h.fault(), h.firedMs(), "the traffic ended less than a second after the signal",
                    failed, lost, null, beforePeak, 0, newLimit, null);
        }
        Long effect = null;
        long afterPeak = 0;
        for (long t = h.firedMs(); t + 1000 <= last; t += STEP_MS) {
            long n = count(admitted, t);
            if (n > newLimit) {
                effect = null;
                afterPeak = 0;
            } else {
                if (effect == null) {
                    effect = t - h.firedMs();
                }
                afterPeak = Math.max(afterPeak, n);
            }
        }
        return new FaultFigures(h.fault(), h.firedMs(), null, failed, lost, effect, beforePeak, afterPeak, newLimit,
                null);
    }

    private static CacheFill cacheFill(FaultInjector.Happened h, List<Sample> sent) {
        long first = sent.stream().mapToLong(Sample::timeStamp).min().orElse(h.firedMs());
        long stored = sent.stream().filter(Sample::success)
                .filter(s -> s.cacheStatus().equals("MISS") || s.cacheStatus().equals("EXPIRED")).count();
        Map<String, Long> after = sent.stream().filter(Sample::success).filter(s -> s.timeStamp() >= h.firedMs())
                .collect(Collectors.groupingBy(s -> s.cacheStatus().isEmpty() ? NONE : s.cacheStatus(),
                        Collectors.counting()));
        FaultInjector.CacheSeen seen = h.cache() != null ? h.cache() : new FaultInjector.CacheSeen(0, 0, 0, 0);
        return new CacheFill(Math.max(0, h.firedMs() - first), seen.maxBytes(), seen.peakBytes(), stored, seen.held(),
                seen.evictedMs() == 0 ? null : Math.max(0, seen.evictedMs() - h.firedMs()), after);
    }

    /** Admissions (start times, sorted) in [from, from + 1 s). */
    private static long count(long[] admitted, long from) {
        return lowerBound(admitted, from + 1000) - lowerBound(admitted, from);
    }

    private static int lowerBound(long[] sorted, long value) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < value) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    public boolean fired() {
        return firedMs != 0;
    }

    /** Whether the edge reached the origin again by itself once it was back. */
    public boolean recovered() {
        return originAfter != null && originAfter > 0;
    }

    /** Whether the origin used the new redis-server by itself once it was back. */
    public boolean backOnRedis() {
        return redisAfter != null && redisAfter > 0;
    }

    /** Whether the master started a worker in place of the one killed. */
    public boolean respawned() {
        return respawnMs != null;
    }

    /** The failures as the client read them, as "502 Bad Gateway 1, Connection reset 4". */
    public String failedAsText() {
        return failedAs.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", "));
    }

    @Override
    public String terminalLine() {
        return failedAs.isEmpty() ? line() : line() + " (failed: " + failedAsText() + ")";
    }

    private String line() {
        if (!fired()) {
            return "fault " + fault.kind() + " did not happen: " + error;
        }
        if (error != null) {
            return fault.kind() + ": " + failed + " failed requests; not measured: " + error;
        }
        return switch (fault.kind()) {
            case RELOAD -> String.format(Locale.ROOT, "reload: %d failed requests; %s (at most %d/s before, %d/s after;"
                    + " the new limit's rate + burst %d)", failed,
                    effectMs == null ? "the new limit never held" : "the new limit held from " + effectMs
                            + " ms after the signal", beforePeak, afterPeak, newLimit);
            case ORIGIN_RESTART -> String.format(Locale.ROOT, "origin restart: down %d ms, %d requests answered"
                    + " stale meanwhile; %d failed; %s", downMs, servedStale, failed, originAfter == null
                    ? "whether the edge went back to it is unknown" : recovered() ? "the edge went back to the new origin"
                    + " by itself (" + originAfter + " requests)" : "THE EDGE NEVER WENT BACK to the new origin");
            case WORKER_KILL -> String.format(Locale.ROOT, "worker kill: %s; %d requests lost in flight (%d failed in all)",
                    respawnMs == null ? "NO WORKER STARTED in its place" : "the master started another in " + respawnMs
                            + " ms", lost, failed);
            case STALE_REFUSED -> String.format(Locale.ROOT, "stale refused: down %d ms, %d requests answered %s"
                    + " meanwhile, %d with an error (5xx); %d failed after it was back; %s", downMs, servedStale,
                    servedStale == 0 ? "stale" : "STALE THOUGH NOT PERMITTED", errorsMeanwhile, failedAfter,
                    originAfter == null ? "whether the edge went back to it is unknown" : recovered()
                            ? "the edge went back to the new origin by itself (" + originAfter + " requests)"
                            : "THE EDGE NEVER WENT BACK to the new origin");
            case REDIS_RESTART -> String.format(Locale.ROOT, "redis restart: down %d ms, %d failed; %s; %s", downMs,
                    failed, appCacheErrors == null ? "the origin's app-cache errors unknown" : "the origin counted "
                            + appCacheErrors + " app-cache errors (each answered from its database)",
                    redisAfter == null ? "whether the origin went back to it is unknown" : backOnRedis()
                            ? "the origin went back to the new Redis by itself (" + redisAfter + " lookups)"
                            : "THE ORIGIN NEVER WENT BACK to the new Redis");
            case CACHE_FULL -> String.format(Locale.ROOT, "cache full: max_size %d KB reached %d ms after the first"
                    + " request; %s; %d entries stored, %d evicted, %d held at the end (peak %d KB); %d failed;"
                    + " answers once full: %s", cacheFill.maxBytes() / 1024, cacheFill.fullAfterMs(),
                    cacheFill.evictedAfterMs() == null ? "THE CACHE MANAGER NEVER EVICTED"
                            : "the cache manager first evicted " + cacheFill.evictedAfterMs() + " ms later",
                    cacheFill.stored(), cacheFill.evicted(), cacheFill.held(), cacheFill.peakBytes() / 1024, failed,
                    cacheFill.statusesText());
        };
    }
}
