package dev.ratecache.suite.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.model.Arrival;
import dev.ratecache.model.CacheStatus;
import dev.ratecache.model.EdgeCacheSpec;
import dev.ratecache.model.Freshness;
import dev.ratecache.model.OriginSpec;
import dev.ratecache.model.PathSpec;
import dev.ratecache.model.RequestOutcome;
import dev.ratecache.model.Simulation;
import dev.ratecache.model.SimulationResult;
import dev.ratecache.model.SimulationSpec;
import dev.ratecache.model.Workload;
import com.sun.net.httpserver.HttpServer;
import dev.ratecache.testkit.StackTest;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The edge cache model against nginx's proxy_cache in front of a tiny origin: MISS, HIT,
 * EXPIRED, STALE with its background refresh, UPDATING, and lock waiters that get their HIT on
 * the lock's 500 ms poll. The model is fed the arrival times nginx logged and the origin's
 * configured service times; its {@code $upstream_cache_status} must equal nginx's per request.
 */
@StackTest
class EdgeCacheAgainstNginxTest {

    @TempDir
    Path prefix;

    /** The origin's paths: service time and Cache-Control. */
    static final Map<String, PathSpec> PATHS = new LinkedHashMap<>();

    static {
        PATHS.put("/fresh", new PathSpec(0, Freshness.maxAge(1)));
        PATHS.put("/swr", new PathSpec(400, new Freshness(1, 30)));
        PATHS.put("/lock", new PathSpec(300, Freshness.maxAge(5)));
    }

    @Test
    void cacheStatusesMatchNginx() throws Exception {
        AtomicInteger originHits = new AtomicInteger();
        HttpServer origin = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 50);
        origin.setExecutor(Executors.newFixedThreadPool(8));
        origin.createContext("/", exchange -> {
            originHits.incrementAndGet();
            PathSpec p = PATHS.get(exchange.getRequestURI().getPath());
            try {
                Thread.sleep(p.serviceMs());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Freshness f = p.freshness();
            exchange.getResponseHeaders().add("Cache-Control", "max-age=" + f.maxAgeSec()
                    + (f.staleWhileRevalidateSec() > 0 ? ", stale-while-revalidate=" + f.staleWhileRevalidateSec() : ""));
            byte[] body = "ok\n".getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        origin.start();
        int edgePort = Nginx.freePort();
        String http = """
                proxy_cache_path cache levels=1:2 keys_zone=edge:1m inactive=10m use_temp_path=off;
                server { listen 127.0.0.1:%d; access_log logs/edge.log model;
                  location / {
                    proxy_pass http://127.0.0.1:%d;
                    proxy_cache edge;
                    proxy_cache_key $request_uri;
                    proxy_cache_lock on;
                    proxy_cache_lock_timeout 5s;
                    proxy_cache_lock_age 5s;
                    proxy_cache_background_update on;
                  } }
                """.formatted(edgePort, origin.getAddress().getPort());
        EdgeCacheSpec cacheSpec = new EdgeCacheSpec(true, 5000, 5000, false, true, 600_000);
        try (Nginx nginx = Nginx.start(prefix, http, edgePort)) {
            // Freshness counts whole seconds of the wall clock, so start 200 ms into a second:
            // every planned request is then at least 200 ms away from a second boundary.
            long now = System.currentTimeMillis();
            long start = (now / 1000 + 2) * 1000 + 200;
            List<Traffic.Planned> plan = new ArrayList<>();
            int[] id = {0};
            java.util.function.BiConsumer<Long, String> add =
                    (t, path) -> plan.add(new Traffic.Planned(t, "127.0.0.1", path, "c-" + id[0]++));
            add.accept(0L, "/fresh");     // MISS
            add.accept(0L, "/swr");       // MISS (400 ms)
            add.accept(300L, "/fresh");   // HIT
            add.accept(700L, "/swr");     // HIT
            add.accept(2500L, "/fresh");  // EXPIRED: stored in second S, fresh through S+1
            add.accept(2600L, "/swr");    // STALE: stale-while-revalidate allows it; background refresh
            add.accept(2700L, "/fresh");  // HIT again
            add.accept(2750L, "/swr");    // UPDATING: the refresh is still at the origin
            add.accept(3300L, "/swr");    // HIT: refreshed
            for (int i = 0; i < 4; i++) {
                add.accept(3400L, "/lock"); // one MISS holds the lock; the others wait, then HIT
            }
            add.accept(3500L, "/lock");     // arrives while locked: waits too
            plan.sort(java.util.Comparator.comparingLong(Traffic.Planned::offsetMs));
            Map<String, Integer> wire = Traffic.send(edgePort, plan, start);
            List<Nginx.LogLine> lines = nginx.awaitLog("edge.log", plan.size());

            long t0 = start;
            List<Nginx.LogLine> ordered = new ArrayList<>(lines);
            ordered.sort(java.util.Comparator.comparingLong(Nginx.LogLine::startMs));
            List<Arrival> arrivals = new ArrayList<>();
            Map<String, String> pathById = new LinkedHashMap<>();
            plan.forEach(p -> pathById.put(p.id(), p.path()));
            for (Nginx.LogLine l : ordered) {
                arrivals.add(new Arrival(l.startMs() - t0, "127.0.0.1", pathById.get(l.id())));
            }
            SimulationSpec spec = new SimulationSpec(null, cacheSpec, null, new OriginSpec(8, PATHS), 0, t0);
            SimulationResult sim = Simulation.run(spec, new Workload.Open(arrivals));

            StringBuilder table = new StringBuilder();
            int agree = 0;
            for (RequestOutcome o : sim.requests()) {
                Nginx.LogLine l = ordered.get(o.index());
                boolean same = o.cache().name().equals(l.cacheStatus());
                agree += same ? 1 : 0;
                table.append(String.format("%6d %-7s nginx=%-8s model=%-8s rt=%4d model-latency=%4d %s%n",
                        o.arrivalMs(), o.path(), l.cacheStatus(), o.cache(), l.requestTimeMs(), o.latencyMs(),
                        same ? "" : "MISMATCH"));
            }
            System.out.println("edge cache:\n" + table + "agree " + agree + " of " + sim.requests().size()
                    + "; origin requests nginx=" + originHits.get() + " model=" + sim.aggregates().originRequests());
            // How long nginx's own fetch of /lock took: on a busy machine more than the origin's delay.
            long lockFetchMs = sim.requests().stream().filter(o -> o.path().equals("/lock") && o.cache() == CacheStatus.MISS)
                    .mapToLong(o -> ordered.get(o.index()).requestTimeMs()).max().orElse(0);
            for (RequestOutcome o : sim.requests()) {
                Nginx.LogLine l = ordered.get(o.index());
                assertThat(o.cache().name()).as(table.toString()).isEqualTo(l.cacheStatus());
                assertThat(wire.get(l.id())).isEqualTo(200);
                // Lock waiters answer on the lock's poll (every 500 ms), not when the entry is
                // stored: the first poll after nginx's fetch ended, whenever that was. The model,
                // which fetched in the origin's delay, says the first poll (500 ms) when that fits.
                if (o.path().equals("/lock") && o.cache() == CacheStatus.HIT && l.requestTimeMs() > 50) {
                    long firstPollAfterFetch = Math.max(500, (lockFetchMs + 499) / 500 * 500);
                    assertThat(l.requestTimeMs()).as(table.toString())
                            .isBetween(Math.min(o.latencyMs(), 500) - 5, firstPollAfterFetch + 400);
                }
            }
            assertThat(originHits.get()).isEqualTo(sim.aggregates().originRequests());
            assertThat(sim.requests().stream().map(RequestOutcome::cache).distinct())
                    .containsExactlyInAnyOrder(CacheStatus.values());
        } finally {
            origin.stop(0);
        }
    }
}
