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
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The edge cache model against nginx's proxy_cache in front of a tiny origin: MISS, HIT,
 * EXPIRED, STALE with its background refresh, UPDATING, and lock waiters that get their HIT on
 * the lock's 500 ms poll. The model is fed the times that were kept, not the ones planned: each
 * request's arrival as nginx logged it, and each fetch's time as the origin recorded answering
 * it. Its {@code $upstream_cache_status} must equal nginx's per request however slow the machine
 * ran, and the scenario's own time relations (a request after max-age ran out, one while the
 * refresh is out) are checked on those times with margins of hundreds of milliseconds.
 */
@StackTest
class EdgeCacheAgainstNginxTest {

    @TempDir
    Path prefix;

    /** The origin's paths: service time and Cache-Control. */
    static final Map<String, PathSpec> PATHS = new LinkedHashMap<>();

    static {
        PATHS.put("/fresh", new PathSpec(0, Freshness.maxAge(1)));
        PATHS.put("/swr", new PathSpec(600, new Freshness(1, 30)));
        PATHS.put("/lock", new PathSpec(300, Freshness.maxAge(5)));
    }

    /** When the origin answered a request: wall-clock ms after its answer was written, as nginx's $msec counts. */
    record Answer(String path, long receivedMs, long answeredMs) {}

    @Test
    void cacheStatusesMatchNginx() throws Exception {
        // By X-Id: nginx passes the client's headers upstream, and a background refresh, a
        // subrequest, carries those of the request that started it.
        Map<String, Answer> answers = new ConcurrentHashMap<>();
        Map<String, Integer> fetchesById = new ConcurrentHashMap<>();
        HttpServer origin = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 50);
        origin.setExecutor(Executors.newFixedThreadPool(8));
        origin.createContext("/", exchange -> {
            long received = System.currentTimeMillis();
            String id = exchange.getRequestHeaders().getFirst("X-Id");
            String path = exchange.getRequestURI().getPath();
            PathSpec p = PATHS.get(path);
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
            answers.put(id, new Answer(path, received, System.currentTimeMillis()));
            fetchesById.merge(id, 1, Integer::sum);
        });
        origin.start();
        // A first request to a fresh JDK HttpServer took over a second beside two busy loops (its
        // classes, its first thread): spent here, outside the plan, so the scenario's margins are
        // for the machine's pace alone. The model is fed the times kept either way.
        assertThat(Nginx.get("127.0.0.1", origin.getAddress().getPort(), "/fresh", "warm-up")).isEqualTo(200);
        // The handler records an answer after writing it, so the client can have it first.
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5)).until(() -> answers.containsKey("warm-up"));
        answers.clear();
        fetchesById.clear();
        int edgePort = Nginx.freePort();
        String http = """
                log_format edge '$msec $request_time $remote_addr $limit_req_status $status $http_x_id '
                                '$upstream_cache_status $upstream_response_time $upstream_header_time';
                proxy_cache_path cache levels=1:2 keys_zone=edge:1m inactive=10m use_temp_path=off;
                server { listen 127.0.0.1:%d; access_log logs/edge.log edge;
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
            // Freshness counts whole seconds of the wall clock. Starting 200 ms into a second puts the
            // plan's requests well inside their seconds when it is kept; when it is not, the model,
            // fed the times that were kept, still decides as nginx did, and the scenario's
            // preconditions below say which relation the machine did not keep.
            long now = System.currentTimeMillis();
            long start = (now / 1000 + 2) * 1000 + 200;
            List<Traffic.Planned> plan = new ArrayList<>();
            int[] id = {0};
            BiConsumer<Long, String> add = (t, path) -> plan.add(new Traffic.Planned(t, "127.0.0.1", path, "c-" + id[0]++));
            add.accept(0L, "/fresh");     // MISS: stored in second S, fresh through S+1
            add.accept(0L, "/swr");       // MISS (600 ms): stored in S, fresh through S+1
            add.accept(300L, "/fresh");   // HIT
            add.accept(1000L, "/swr");    // HIT (or, if the MISS is still out, a lock waiter's HIT)
            add.accept(3000L, "/fresh");  // EXPIRED: S+3 is past S+1, with a second of slack
            add.accept(3300L, "/fresh");  // HIT again: refetched in S+3
            add.accept(3600L, "/swr");    // STALE: within stale-while-revalidate; background refresh (600 ms)
            add.accept(3800L, "/swr");    // UPDATING: the refresh is still at the origin
            add.accept(5000L, "/swr");    // HIT: refreshed near 4200, so fresh through S+5 at least
            for (int i = 0; i < 4; i++) {
                add.accept(5500L, "/lock"); // one MISS holds the lock; the others wait, then HIT
            }
            add.accept(5600L, "/lock");     // arrives while locked: waits too
            plan.sort(Comparator.comparingLong(Traffic.Planned::offsetMs));
            Map<String, Integer> wire = Traffic.send(edgePort, plan, start);
            List<Nginx.LogLine> lines = nginx.awaitLog("edge.log", plan.size());

            List<Nginx.LogLine> ordered = new ArrayList<>(lines);
            ordered.sort(Comparator.comparingLong(Nginx.LogLine::startMs));
            long t0 = ordered.get(0).startMs();
            Map<String, String> pathById = new LinkedHashMap<>();
            plan.forEach(p -> pathById.put(p.id(), p.path()));
            assertThat(fetchesById).as("one fetch at most per request id").allSatisfy((k, n) -> assertThat(n).isEqualTo(1));
            Map<String, Long> storedAt = storedAtByNginx(nginx.logFile("edge.log"));
            List<Arrival> arrivals = new ArrayList<>();
            for (Nginx.LogLine l : ordered) {
                Arrival a = new Arrival(l.startMs() - t0, "127.0.0.1", pathById.get(l.id()));
                // The fetch this request made or started, from its cache lookup (its logged start) to
                // when the edge had the answer: the model's service time for it, with no hop of its
                // own. Its own fetch's end is in nginx's log; a background refresh, a subrequest, is
                // not logged, so its end is the origin's record of answering it.
                Long fetched = storedAt.get(l.id());
                Answer answer = answers.get(l.id());
                Long end = fetched != null ? fetched : answer != null ? Long.valueOf(answer.answeredMs()) : null;
                arrivals.add(end == null ? a : a.withServiceMs(Math.max(0, end - l.startMs())));
            }
            SimulationSpec spec = new SimulationSpec(null, cacheSpec, null, new OriginSpec(8, PATHS), 0, t0);
            SimulationResult sim = Simulation.run(spec, new Workload.Open(arrivals));

            StringBuilder table = new StringBuilder();
            for (RequestOutcome o : sim.requests()) {
                Nginx.LogLine l = ordered.get(o.index());
                Answer answer = answers.get(l.id());
                boolean same = o.cache().name().equals(l.cacheStatus());
                table.append(String.format("%6d S+%d %-6s nginx=%-8s model=%-8s rt=%4d model-latency=%4d %s%s%n",
                        o.arrivalMs(), second(l.startMs()) - second(start), o.path(), l.cacheStatus(), o.cache(), l.requestTimeMs(),
                        o.latencyMs(), (answer == null ? "" : "origin answered at " + (answer.answeredMs() - t0)
                                + " (took " + (answer.answeredMs() - answer.receivedMs()) + ") ")
                                + (storedAt.containsKey(l.id()) ? "edge had it at " + (storedAt.get(l.id()) - t0) + " " : ""),
                        same ? "" : "MISMATCH"));
            }
            System.out.println("edge cache (ms from the first start; S is the plan's first wall-clock second):\n" + table
                    + "origin requests nginx=" + answers.size() + " model=" + sim.aggregates().originRequests());

            for (RequestOutcome o : sim.requests()) {
                Nginx.LogLine l = ordered.get(o.index());
                assertThat(o.cache().name()).as(table.toString()).isEqualTo(l.cacheStatus());
                assertThat(wire.get(l.id())).isEqualTo(200);
                // A lock waiter is answered on the lock's poll, not woken when the entry is stored
                // (the MISS took ~300 ms; the first poll is at 500): no earlier than the model's poll,
                // 2 ms for the clocks. No upper bound: a busy machine fires nginx's timer late.
                if (o.path().equals("/lock") && o.cache() == CacheStatus.HIT && o.latencyMs() > 0) {
                    assertThat(o.latencyMs()).as(table.toString()).isGreaterThanOrEqualTo(500);
                    assertThat(l.requestTimeMs()).as(table.toString()).isGreaterThanOrEqualTo(o.latencyMs() - 2);
                }
            }
            assertThat(answers.size()).isEqualTo(sim.aggregates().originRequests());

            // The scenario reached every status only if the machine kept its time relations. Each
            // is checked on the kept times, so a failure says which one a slow machine broke.
            Map<String, Nginx.LogLine> byId = new LinkedHashMap<>();
            lines.forEach(l -> byId.put(l.id(), l));
            long freshStored = storedAt.get("c-0");
            long swrStored = storedAt.get("c-1");
            Nginx.LogLine expired = byId.get("c-4");
            Nginx.LogLine stale = byId.get("c-6");
            Nginx.LogLine updating = byId.get("c-7");
            Nginx.LogLine refreshed = byId.get("c-8");
            assertThat(second(expired.startMs())).as("the /fresh planned EXPIRED came after its max-age (1 s) ran out\n"
                    + table).isGreaterThan(second(freshStored) + 1);
            assertThat(second(stale.startMs())).as("the /swr planned STALE came after its max-age (1 s) ran out\n"
                    + table).isGreaterThan(second(swrStored) + 1);
            Answer refresh = answers.get(stale.id());
            assertThat(refresh).as("the STALE request's background refresh reached the origin").isNotNull();
            assertThat(updating.startMs()).as("the /swr planned UPDATING came while the refresh was out\n" + table)
                    .isLessThan(refresh.answeredMs());
            assertThat(refreshed.startMs()).as("the /swr planned HIT came after the refresh and within its max-age\n"
                    + table).isGreaterThan(refresh.answeredMs());
            assertThat(second(refreshed.startMs())).as("...within its max-age\n" + table)
                    .isLessThanOrEqualTo(second(refresh.answeredMs()) + 1);
            assertThat(sim.requests().stream().map(RequestOutcome::cache).distinct())
                    .containsExactlyInAnyOrder(CacheStatus.values());
        } finally {
            origin.stop(0);
        }
    }

    /**
     * When nginx had the upstream's answer, for each request id that went upstream itself: the
     * answer's header (where nginx counts max-age from, ngx_http_upstream_process_cache_control)
     * came $upstream_response_time less $upstream_header_time before the line's $msec; both
     * times are nginx's own, in seconds with milliseconds.
     */
    private static Map<String, Long> storedAtByNginx(Path log) throws java.io.IOException {
        Map<String, Long> stored = new LinkedHashMap<>();
        for (String line : java.nio.file.Files.readAllLines(log)) {
            String[] f = line.split(" ");
            if (!f[7].equals("-")) {
                long endMs = new java.math.BigDecimal(f[0]).movePointRight(3).longValueExact();
                long bodyMs = new java.math.BigDecimal(f[7]).subtract(new java.math.BigDecimal(f[8]))
                        .movePointRight(3).longValueExact();
                stored.put(f[5], endMs - bodyMs);
            }
        }
        return stored;
    }

    /** The wall-clock second of {@code ms}, as nginx's ngx_time() counts freshness. */
    private static long second(long ms) {
        return Math.floorDiv(ms, 1000);
    }
}
