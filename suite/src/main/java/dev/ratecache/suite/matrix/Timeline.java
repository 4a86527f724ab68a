package dev.ratecache.suite.matrix;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ratecache.jtl.Jtl;
import dev.ratecache.jtl.Sample;
import dev.ratecache.stats.NearestRank;
import dev.ratecache.suite.edge.EdgeEvent;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One run of a cell, second by second from the second its first request started: what the client
 * offered, how it was answered, what reached the origin, what the edge cache did, and latency.
 * Read from the client's JTL and the tiers' events (whichever edge product logged them), written
 * as the cell's timeline.json, which index.html draws.
 *
 * <p>A request is counted at the second it started when offered, and at the second it ended
 * otherwise, because that is when nginx logs it (its $time_iso8601 is the end of the request).
 */
public final class Timeline {
    /** Requests the client started. */
    public static final String OFFERED = "offered";
    /** Answered with success and not by a rate limit: 2xx (JMeter also counts a 304 as success); client-cache hits included. */
    public static final String ANSWERED_2XX = "answered_2xx";
    /** Answered 429 or 503 by a rate limit. */
    public static final String REJECTED = "rejected";
    /** Failed for any other reason (timeouts, 5xx other than 503, connection errors). */
    public static final String OTHER_ERRORS = "other_errors";
    /** Answered by the client's own cache (part of answered_2xx). */
    public static final String CLIENT_CACHE_HITS = "client_cache_hits";
    /** Passed upstream by the back end (or, with no nginx, every request the client sent). */
    public static final String ORIGIN = "origin";
    /** The front end's cache outcomes: HIT, MISS, and any other (EXPIRED, STALE, UPDATING, REVALIDATED, BYPASS). */
    public static final String EDGE_HIT = "edge_hit";
    public static final String EDGE_MISS = "edge_miss";
    public static final String EDGE_OTHER = "edge_other";
    /** Latency of the requests that ended in the second (null for a second in which none did). */
    public static final String P50_MS = "p50_ms";
    public static final String P95_MS = "p95_ms";
    /** The origin's database pool, read once a second: connections lent to requests, and requests waiting for one. */
    public static final String DB_ACTIVE = "db_active";
    public static final String DB_PENDING = "db_pending";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final long startEpochSecond;
    private final Map<String, List<Long>> series;

    /**
     * @param startEpochSecond second 0 of every series
     * @param series           each series by its key (the constants above), a value per second
     */
    public Timeline(long startEpochSecond, Map<String, List<Long>> series) {
        this.startEpochSecond = startEpochSecond;
        this.series = series;
    }

    /**
     * The timeline of one run.
     *
     * @param front the front tier's events; null when the client talked to the origin directly
     * @param back  the back tier's events; null likewise
     */
    public static Timeline of(Path jtl, List<EdgeEvent> front, List<EdgeEvent> back) throws IOException {
        return of(Jtl.read(jtl), front, back);
    }

    /** The same, of samples already read; none (a generator without a JTL) gives an empty timeline. */
    public static Timeline of(List<Sample> samples, List<EdgeEvent> front, List<EdgeEvent> back) {
        if (samples.isEmpty()) {
            return new Timeline(0, new LinkedHashMap<>());
        }
        long start = samples.stream().mapToLong(s -> s.timeStamp() / 1000).min().orElseThrow();
        boolean direct = front == null && back == null;
        boolean withFront = front != null;
        boolean withBack = back != null;
        front = withFront ? front : List.of();
        back = withBack ? back : List.of();

        long last = samples.stream().mapToLong(s -> s.end() / 1000).max().orElseThrow();
        for (EdgeEvent e : front) {
            last = Math.max(last, second(e));
        }
        for (EdgeEvent e : back) {
            last = Math.max(last, second(e));
        }
        int length = (int) (last - start + 1);
        // Every series this run has a source for is present, zeros included; the others are absent.
        Map<String, long[]> counts = new LinkedHashMap<>();
        for (String key : List.of(OFFERED, ANSWERED_2XX, REJECTED, OTHER_ERRORS, CLIENT_CACHE_HITS)) {
            counts.put(key, new long[length]);
        }
        if (direct || withBack) {
            counts.put(ORIGIN, new long[length]);
        }
        if (withFront) {
            for (String key : List.of(EDGE_HIT, EDGE_MISS, EDGE_OTHER)) {
                counts.put(key, new long[length]);
            }
        }

        List<List<Long>> latencies = new ArrayList<>();
        for (int i = 0; i < length; i++) {
            latencies.add(new ArrayList<>());
        }
        for (Sample s : samples) {
            counts.get(OFFERED)[(int) (s.timeStamp() / 1000 - start)]++;
            int ended = (int) (s.end() / 1000 - start);
            counts.get(s.rejected() ? REJECTED : s.success() ? ANSWERED_2XX : OTHER_ERRORS)[ended]++;
            if (s.clientCacheHit()) {
                counts.get(CLIENT_CACHE_HITS)[ended]++;
            }
            if (direct && !s.clientCacheHit()) {
                counts.get(ORIGIN)[ended]++;
            }
            latencies.get(ended).add(s.elapsed());
        }
        // Log entries from before the first request (the stack's readiness probes) are not the run's.
        for (EdgeEvent e : back) {
            int at = (int) (second(e) - start);
            if (at >= 0 && e.wentUpstream()) {
                counts.get(ORIGIN)[at]++;
            }
        }
        for (EdgeEvent e : front) {
            int at = (int) (second(e) - start);
            if (at >= 0 && e.cache() != EdgeEvent.Cache.NONE) {
                counts.get(e.cache() == EdgeEvent.Cache.HIT ? EDGE_HIT : e.cache() == EdgeEvent.Cache.MISS ? EDGE_MISS
                        : EDGE_OTHER)[at]++;
            }
        }

        Map<String, List<Long>> series = new LinkedHashMap<>();
        counts.forEach((key, c) -> series.put(key, Arrays.stream(c).boxed().toList()));
        series.put(P50_MS, percentiles(latencies, 50));
        series.put(P95_MS, percentiles(latencies, 95));
        return new Timeline(start, series);
    }

    /** The epoch second of the first request's start: second 0 of every series. */
    public long startEpochSecond() {
        return startEpochSecond;
    }

    /** How many seconds every series holds. */
    public int seconds() {
        return series.values().stream().mapToInt(List::size).max().orElse(0);
    }

    /** One series by its key (the constants above); null when this run has no source for it (edge with no nginx). */
    public List<Long> series(String key) {
        return series.get(key);
    }

    /** What timeline.json holds, and index.html draws: {@code start_epoch_s}, {@code seconds} and {@code series}. */
    public Map<String, Object> json() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("start_epoch_s", startEpochSecond);
        out.put("seconds", seconds());
        out.put("series", series);
        return out;
    }

    public void write(Path json) throws IOException {
        JSON.writer().without(SerializationFeature.INDENT_OUTPUT).writeValue(json.toFile(), json());
    }

    /**
     * This timeline with one more series, from values by epoch second: a second before the first
     * request's or past the last is left out, one without a value is null.
     */
    public Timeline with(String key, Map<Long, Long> byEpochSecond) {
        List<Long> values = new ArrayList<>();
        for (int i = 0; i < seconds(); i++) {
            values.add(byEpochSecond.get(startEpochSecond + i));
        }
        Map<String, List<Long>> all = new LinkedHashMap<>(series);
        all.put(key, Collections.unmodifiableList(values));
        return new Timeline(startEpochSecond, all);
    }

    /** The epoch second a tier's event ended in: when the tier logged it. */
    private static long second(EdgeEvent e) {
        return Math.floorDiv(e.endMs(), 1000L);
    }

    /** Each second's percentile, computed as the run's is (JtlSummary); null for a second with no response. */
    private static List<Long> percentiles(List<List<Long>> perSecond, int p) {
        List<Long> out = new ArrayList<>();
        for (List<Long> values : perSecond) {
            long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
            out.add(sorted.length == 0 ? null : NearestRank.percentile(sorted, p));
        }
        return Collections.unmodifiableList(out);
    }
}
