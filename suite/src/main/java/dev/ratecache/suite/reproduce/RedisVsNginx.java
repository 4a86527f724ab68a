package dev.ratecache.suite.reproduce;

import static dev.ratecache.suite.matrix.Metric.CPU_FRONT_S;
import static dev.ratecache.suite.matrix.Metric.CPU_ORIGIN_S;
import static dev.ratecache.suite.matrix.Metric.CPU_REDIS_S;
import static dev.ratecache.suite.matrix.Metric.MAX_MS;
import static dev.ratecache.suite.matrix.Metric.MEAN_MS;
import static dev.ratecache.suite.matrix.Metric.SAMPLES;
import static dev.ratecache.suite.matrix.Metric.THROUGHPUT;

import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.Source;
import dev.ratecache.suite.matrix.Generator;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.matrix.WrkGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Seed 001: nginx's proxy cache against an app that caches its answer in Redis, each under wrk's
 * defaults (2 threads, 10 connections, 10 s). Here the app is the suite's origin with its Redis app
 * cache on /items/1, straight; the edge is the suite's front tier, limits off, its cache on.
 */
final class RedisVsNginx implements Experiment {
    static final String NAME = "redis-vs-nginx";
    static final Plan PLAN = Plan.ofPath(NAME, "/items/1", 16);
    static final String APP = NAME + "/app-redis";
    static final String EDGE = NAME + "/nginx-cache";
    private static final Map<String, String> WRK = Map.of(WrkGenerator.THREADS, "2", WrkGenerator.CONNECTIONS, "10",
            WrkGenerator.DURATION, "10");

    private static final List<PublishedRow> PUBLISHED = List.of(
            new PublishedRow("Redis cache: wrk straight to the Flask API, which answers from Redis (flask-caching)",
                    APP, "Their API was Flask on Werkzeug 1.0.1 and Python 3.6.8 (the Server header in their cache"
                            + " file) in a docker container behind docker's published port, pickling each answer in and"
                            + " out of Redis; ours is Spring Boot on Tomcat (JIT-compiled Java, 10 request threads) on"
                            + " loopback with no container in the way, and a Redis hit costs it well under a millisecond."
                            + " With 10 connections in a closed loop, throughput is 10 over the latency: the faster app"
                            + " answers many times more.",
                    PublishedFigure.of(THROUGHPUT, "169.76"), PublishedFigure.of(MEAN_MS, "65.27ms"), PublishedFigure.of(MAX_MS, "472.13ms"),
                    PublishedFigure.of(SAMPLES, "1704")),
            new PublishedRow("Nginx cache: wrk through nginx's proxy_cache, the API's Redis caching commented out",
                    EDGE, "Their nginx ran in docker-compose, its cache in files under /tmp/cache, reached through"
                            + " docker's published port 80, and averaged 23.38 ms for a 4-byte cached answer, far above"
                            + " what a HIT costs nginx itself (ours beside it): most of that was their setup. Ours is nginx on loopback on this machine, every answer a HIT from"
                            + " its cache (the file's pages in memory), wrk beside it on the same 2 cores.",
                    PublishedFigure.of(THROUGHPUT, "428.75"), PublishedFigure.of(MEAN_MS, "23.38ms"), PublishedFigure.of(MAX_MS, "71.50ms"),
                    PublishedFigure.of(SAMPLES, "4293")));

    private static final About ABOUT = new About(NAME, "001", "nginx's cache against an app-level Redis cache",
            Source.REDIS_VS_NGINX.cite() + ": two Flask APIs with flask-caching, Redis 6.0.8 and nginx in"
                + " docker-compose, on a machine the write-up does not name",
            WrkGenerator.describe(WRK) + " (wrk's defaults), once against the API and once through nginx",
            "the suite's origin (Spring Boot) answering " + PLAN.paths().get("path") + " from its Redis app cache,"
                + " straight; then the same item through the suite's edge (front and back nginx, limits off, edge"
                + " cache on), every answer after the first a HIT",
            "nginx's cache answered 2.5 times what the app did from Redis (428.75 against 169.76 requests/s; mean"
                + " latency 23.38 against 65.27 ms): the request no longer reaches the Python code.",
            // Both caches keep the item through the run: a day at the edge (the origin's 5 s would refresh it twice).
            PUBLISHED, List.of("--origin.items.max-age=86400"), false);

    @Override
    public About about() {
        return ABOUT;
    }

    @Override
    public List<Cell> cells() {
        return List.of(
                Cell.of(PLAN, "app-redis").direct().appCache().drivenBy(Generator.WRK, WRK).published(besideRow(APP))
                        .build(),
                Cell.of(PLAN, "nginx-cache").frontLimit(false).backLimit(false).serverCache().drivenBy(Generator.WRK, WRK)
                        .published(besideRow(EDGE)).build());
    }

    @Override
    public List<String> foundHere(Measured m) {
        var ratio = m.ratio(EDGE, APP, THROUGHPUT);
        if (ratio.isEmpty()) {
            return List.of(m.notMeasured(APP, EDGE));
        }
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "nginx's cache answered %.1f times what the app did from Redis (%.2f"
                        + " against %.2f requests/s; mean latency %.2f against %.2f ms).", ratio.get(),
                m.median(EDGE, THROUGHPUT).get(), m.median(APP, THROUGHPUT).get(),
                m.median(EDGE, MEAN_MS).orElse(Double.NaN), m.median(APP, MEAN_MS).orElse(Double.NaN)));
        var app = m.cpuMicrosPerAnswer(APP, CPU_ORIGIN_S, CPU_REDIS_S);
        var edge = m.cpuMicrosPerAnswer(EDGE, CPU_FRONT_S);
        if (app.isPresent() && edge.isPresent()) {
            lines.add(String.format(Locale.ROOT, "Each answer cost %.0f µs of CPU in the app and Redis, against %.0f µs"
                    + " in the edge: a Redis hit still runs the app's whole request path (its servlet, JSON, a Redis"
                    + " round trip), a HIT runs nginx's alone. The write-up put its gap down to the Python code the"
                    + " cache spared; here the JVM's request path is what the edge spares, on 2 cores that wrk shares.",
                    app.get(), edge.get()));
        }
        return lines;
    }
}
