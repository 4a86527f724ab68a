package dev.ratecache.suite.peak;

import dev.ratecache.proc.RedisServer;
import dev.ratecache.suite.origin.OriginCounters;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * One hot item served by the edge cache (an nginx HIT) against served by the origin from its Redis
 * app cache, with wrk at the write-up's load (2 threads, 10 connections). The write-up compared an
 * nginx proxy cache with a Flask app caching in Redis and measured 428 against 170 requests/s; those
 * figures are printed beside ours as context: a different machine, app and stack, not a target.
 */
public final class AppCacheComparison {
    /** The write-up's figures: nginx proxy cache, and a Flask app caching in Redis (requests/s). */
    public static final double WRITE_UP_EDGE = 428;
    public static final double WRITE_UP_APP = 170;
    public static final int THREADS = 2;
    public static final int CONNECTIONS = 10;

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /**
     * @param edge        wrk through the front end, every response an edge HIT
     * @param app         wrk straight to the origin, every read answered from Redis
     * @param redisHits   Redis's keyspace_hits during the app run
     * @param databaseReads the origin's database reads during the app run (the item is in Redis: ~0)
     */
    public record Outcome(String path, Wrk.Result edge, Wrk.Result app, long redisHits, long databaseReads) {
        public double ratio() {
            return app.requestsPerSecond() == 0 ? 0 : edge.requestsPerSecond() / app.requestsPerSecond();
        }

        public String table() {
            StringBuilder s = new StringBuilder();
            s.append(String.format(Locale.ROOT, "one hot item (%s), wrk -t%d -c%d: the edge cache against the app's"
                    + " Redis cache%n", path, THREADS, CONNECTIONS));
            s.append(String.format(Locale.ROOT, "%-34s %12s %8s %8s %14s%n", "served by", "requests/s", "p50 ms",
                    "p99 ms", "write-up req/s"));
            s.append(String.format(Locale.ROOT, "%-34s %12.0f %8.3f %8.3f %14.0f%n", "edge (nginx proxy cache, HIT)",
                    edge.requestsPerSecond(), edge.latencyP50(), edge.latencyP99(), WRITE_UP_EDGE));
            s.append(String.format(Locale.ROOT, "%-34s %12.0f %8.3f %8.3f %14.0f%n", "app (origin + Redis app cache)",
                    app.requestsPerSecond(), app.latencyP50(), app.latencyP99(), WRITE_UP_APP));
            s.append(String.format(Locale.ROOT, "edge / app: %.1fx here; %.1fx in the write-up (nginx vs a Flask app"
                    + " caching in Redis, another machine: context, not a target). App run: %d Redis hits, %d database"
                    + " reads.%n", ratio(), WRITE_UP_EDGE / WRITE_UP_APP, redisHits, databaseReads));
            return s.toString();
        }
    }

    private AppCacheComparison() {}

    /**
     * Starts Redis, the suite's origin with its app cache on and the tiers (limits not binding), warms
     * both caches with the item, then runs wrk on each. Both caches keep the item for the whole run (a
     * day's max-age, an hour in Redis), so every request is a hit on each side. Everything is stopped
     * on the way out, whatever happens.
     */
    public static Outcome run(StackSwitches switches, StackPorts ports, String path, Duration duration, Path dir,
            PrintWriter progress) throws IOException, InterruptedException {
        Wrk wrk = new Wrk(new Wrk.Load(duration, CONNECTIONS, THREADS));
        try (RedisServer redis = RedisServer.start(dir.resolve("redis"), 0)) {
            List<String> args = new java.util.ArrayList<>(redis.originArgs());
            args.addAll(List.of("--origin.items.max-age=86400", "--origin.app-cache-ttl=1h"));
            progress.println("starting redis-server (port " + redis.port() + ") and the origin with its app cache on");
            progress.flush();
            try (OriginServer origin = OriginServer.start(ports.origin(), ports.management(), 10,
                    dir.resolve("origin.log"), args);
                    Stack stack = Stack.around(origin, PeakRun.open(switches), ports, dir.resolve("edge"))) {
                URI edgeUrl = stack.frontUri().resolve(path);
                URI appUrl = origin.uri().resolve(path);
                PeakHarness.warm(edgeUrl);
                warmApp(appUrl, redis);
                progress.println("edge: " + wrk.describe(edgeUrl));
                progress.flush();
                Wrk.Result edge = wrk.run(edgeUrl, null, dir.resolve("wrk"), "edge-hit");
                origin.reset();
                redis.resetStats();
                progress.println("app:  " + wrk.describe(appUrl));
                progress.flush();
                Wrk.Result app = wrk.run(appUrl, null, dir.resolve("wrk"), "app-redis");
                OriginCounters counters = origin.counters();
                return new Outcome(path, edge, app, redis.stats().keyspaceHits(),
                        counters.items() == null ? 0 : counters.items().database().reads());
            }
        }
    }

    /** GETs the item from the origin until Redis answers it (a keyspace hit): the app's cache is warm. */
    private static void warmApp(URI url, RedisServer redis) throws IOException, InterruptedException {
        for (int attempt = 0; attempt < 5; attempt++) {
            long before = redis.stats().keyspaceHits();
            HttpResponse<Void> response = HTTP.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.discarding());
            if (response.statusCode() != 200) {
                throw new IOException("the origin answered " + url + " with " + response.statusCode()
                        + ": give --app-path an item that exists, e.g. /items/1");
            }
            if (redis.stats().keyspaceHits() > before) {
                return;
            }
        }
        throw new IOException(url + " is not answered from Redis: is it an /items path?");
    }
}
