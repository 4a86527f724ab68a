package dev.ratecache.suite.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.model.TraefikRateLimit;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.proc.Ports;
import dev.ratecache.proc.RedisServer;
import dev.ratecache.suite.edge.TraefikEdge;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.Required;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The Traefik RateLimit model against Traefik 3.7.15 itself, in memory and in Redis: one client's
 * bursts and streams go through a real Traefik whose limited router answers from its own ping
 * service (no origin), and the model, fed the times Traefik logged, must give every request
 * Traefik's decision, and a rejection the wait Traefik told it (X-Retry-In).
 *
 * <p>Times: the access log's StartUTC, in nanoseconds, is read when the request enters Traefik;
 * the limiter reads its own clock a few microseconds later, after the router and the access log's
 * own handler. The lines are put back in that order, by StartUTC. A mismatch is tolerated only
 * where deciding that one request up to {@value #LATEST_MS} ms later ({@value #LATEST_REDIS_MS} in
 * Redis) (never earlier: the limiter
 * cannot decide before the request came) gives Traefik's decision and leaves no more mismatches
 * overall, that time then kept for the rows after it: simultaneous requests of a burst may reach
 * the limiter in another order than they entered, a busy machine may hold one back, and in Redis
 * the scripts run in the order they reach Redis, each with the time Traefik read before sending it.
 * Nothing else is forgiven.
 */
@StackTest
@LongTest
class TraefikRateLimitAgainstTraefikTest {
    /** 2 r/s with a bucket of 8: a stream of 8/s and 3/s are both over it, and 2 s idle refill only 4. */
    static final long AVERAGE = 2;
    static final long BURST = 8;
    static final long LATEST_MS = 10;
    /**
     * In Redis: the time the script gets is read later in the request than the in-memory limiter
     * reads its own, and the first request's lag (the pool's first connections) stays in every
     * later wait, since each bucket's state counts from its last request: 14 ms seen here, on a
     * busy machine.
     */
    static final long LATEST_REDIS_MS = 40;
    /** In Redis, how many requests later a script may run than its time says (300 ms late seen under load). */
    static final int LATER_IN_REDIS = 12;
    static final String SOURCE = "127.16.0.6";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A Traefik running the test's config, and where it logs. */
    record Running(ManagedProcess process, int port, Path accessLog) implements AutoCloseable {
        @Override
        public void close() {
            process.close();
        }
    }

    /**
     * Traefik with one limited router on {@code port} answered by its ping service, a second one on
     * /zero whose limit has average 0, and the API on a status port for readiness; the buckets in
     * {@code redis} when given.
     */
    static Running start(Path dir, Optional<RedisServer> redis) throws IOException {
        int port = Ports.free();
        int status = Ports.free();
        Path dynamic = dir.resolve("dynamic.yml");
        Path log = dir.resolve("access.log");
        String store = redis.map(r -> "\n        redis:\n          endpoints: [\"" + r.host() + ":" + r.port() + "\"]")
                .orElse("");
        Files.writeString(dir.resolve("traefik.yml"), """
                entryPoints:
                  web:
                    address: "%s:%d"
                  status:
                    address: "%s:%d"
                ping:
                  entryPoint: status
                api:
                  dashboard: false
                providers:
                  file:
                    filename: "%s"
                accessLog:
                  filePath: "%s"
                  format: json
                  # The routers' service is Traefik's own ping: internal, unlogged unless asked.
                  addInternals: true
                  fields:
                    headers:
                      defaultMode: drop
                      names:
                        X-Id: keep
                        X-Retry-In: keep
                        Retry-After: keep
                global:
                  checkNewVersion: false
                  sendAnonymousUsage: false
                """.formatted(Ports.LOOPBACK, port, Ports.LOOPBACK, status, dynamic, log));
        Files.writeString(dynamic, """
                http:
                  routers:
                    status:
                      entryPoints: [status]
                      rule: "PathPrefix(`/api`)"
                      service: api@internal
                    limited:
                      entryPoints: [web]
                      rule: "PathPrefix(`/`)"
                      service: ping@internal
                      middlewares: [per-client]
                    zero:
                      entryPoints: [web]
                      rule: "PathPrefix(`/zero`)"
                      service: ping@internal
                      middlewares: [average-zero]
                  middlewares:
                    per-client:
                      rateLimit:
                        average: %d
                        period: 1s
                        burst: %d
                        sourceCriterion:
                          ipStrategy:
                            depth: 0%s
                    average-zero:
                      rateLimit:
                        average: 0
                        sourceCriterion:
                          ipStrategy:
                            depth: 0%s
                """.formatted(AVERAGE, BURST, store, store));
        ManagedProcess process = ManagedProcess.start("traefik", List.of(TraefikEdge.binary(),
                "--configFile=" + dir.resolve("traefik.yml")), dir, dir.resolve("traefik.log"));
        process.awaitReady("load its dynamic file", status, Duration.ofSeconds(20), () -> TraefikEdge.loaded(status),
                () -> process.logTail(5), process);
        return new Running(process, port, log);
    }

    /** One logged request: Traefik's time, status, the request's id and client, the wait it told a rejection. */
    record Line(long startNs, int status, String id, String client, long retryInNs) {
        static Line parse(JsonNode j) {
            return new Line(TraefikRateLimitAgainstTraefikTest.startNs(j.path("StartUTC").asText()), j.path("DownstreamStatus").asInt(),
                    j.path("request_X-Id").asText(), j.path("ClientHost").asText(),
                    retryIn(j.path("downstream_X-Retry-In").asText()));
        }

        boolean passed() {
            return status == 200;
        }
    }

    static long startNs(String utc) {
        Instant at = Instant.parse(utc);
        return at.getEpochSecond() * 1_000_000_000L + at.getNano();
    }

    /** Go's Duration.String as X-Retry-In carries it: "166.074359ms", "1.2s", "850µs"; -1 when absent. */
    static long retryIn(String text) {
        if (text.isEmpty()) {
            return -1;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9.]+)(ns|µs|us|ms|s)").matcher(text);
        double ns = 0;
        while (m.find()) {
            double v = Double.parseDouble(m.group(1));
            ns += v * switch (m.group(2)) {
                case "ns" -> 1;
                case "µs", "us" -> 1e3;
                case "ms" -> 1e6;
                default -> 1e9;
            };
        }
        return Math.round(ns);
    }

    /** One compared request: what the model decided at the time it was given. */
    record Row(Line line, TraefikRateLimit.Outcome model, boolean matched, boolean tolerated) {}

    /** The model's outcomes for {@code lines} decided at {@code times}, one after the other in {@code order}. */
    static List<Row> replay(List<Line> lines, long[] times, List<Integer> order, TraefikRateLimit.Store store) {
        TraefikRateLimit model = new TraefikRateLimit(AVERAGE, 1_000_000_000L, BURST, store);
        Row[] rows = new Row[lines.size()];
        for (int i : order) {
            Line l = lines.get(i);
            TraefikRateLimit.Outcome o = model.outcome(l.client(), times[i]);
            rows[i] = new Row(l, o, o.passed() == l.passed(), false);
        }
        return List.of(rows);
    }

    static long mismatches(List<Row> rows) {
        return rows.stream().filter(r -> !r.matched()).count();
    }

    static long latestNs(TraefikRateLimit.Store store) {
        return (store == TraefikRateLimit.Store.REDIS ? LATEST_REDIS_MS : LATEST_MS) * 1_000_000;
    }

    /** {@code order} with {@code i} put back where its time {@code times[i]} now falls, the others kept as they are. */
    static List<Integer> retimed(List<Integer> order, long[] times, int i) {
        List<Integer> o = new ArrayList<>(order);
        o.remove((Integer) i);
        int at = 0;
        while (at < o.size() && times[o.get(at)] <= times[i]) {
            at++;
        }
        o.add(at, i);
        return o;
    }

    /** {@code order} with {@code i} decided {@code later} places later, its time unchanged. */
    static List<Integer> later(List<Integer> order, int i, int later) {
        List<Integer> o = new ArrayList<>(order);
        int at = o.indexOf(i);
        o.remove(at);
        o.add(Math.max(0, Math.min(o.size(), at + later)), i);
        return o;
    }

    /**
     * Every request compared, in StartUTC order; a mismatch tolerated as the class says. In Redis
     * a request may also be decided up to {@value #LATER_IN_REDIS} requests later or earlier with the
     * time it read: Traefik reads it before its script's round trip, and the scripts run in the order they
     * reach Redis (a script whose time is older than the key's last runs on the key's state as it
     * is, refilling nothing).
     */
    static List<Row> compare(List<Line> log, TraefikRateLimit.Store store) {
        List<Line> lines = new ArrayList<>(log);
        lines.sort(Comparator.comparingLong(Line::startNs));
        long[] times = lines.stream().mapToLong(Line::startNs).toArray();
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            order.add(i);
        }
        List<Row> rows = new ArrayList<>(replay(lines, times, order, store));
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).matched()) {
                continue;
            }
            List<long[]> tryTimes = new ArrayList<>();
            List<List<Integer>> tryOrders = new ArrayList<>();
            for (long shift = 100_000; shift <= latestNs(store); shift *= 2) {
                long[] moved = times.clone();
                moved[i] += shift;
                tryTimes.add(moved);
                tryOrders.add(retimed(order, moved, i));
            }
            if (store == TraefikRateLimit.Store.REDIS) {
                // Either way: a script run ahead of k others that entered before it is those k delayed on their
                // way to Redis (Traefik passed the 15th request of a burst and refused the 11th to 14th).
                for (int k = 1; k <= LATER_IN_REDIS; k++) {
                    tryTimes.add(times);
                    tryOrders.add(later(order, i, k));
                    tryTimes.add(times);
                    tryOrders.add(later(order, i, -k));
                }
            }
            for (int t = 0; t < tryTimes.size(); t++) {
                List<Row> tried = replay(lines, tryTimes.get(t), tryOrders.get(t), store);
                // No more mismatches than before, not fewer: two requests of a burst decided after a third
                // (Traefik passed the tenth and refused the fifth and ninth) are each moved in turn, and the
                // first move alone only trades its mismatch for the ninth's. Each row is moved once at most.
                if (tried.get(i).matched() && mismatches(tried) <= mismatches(rows)) {
                    // Kept for the rows after it, which are decided after the moved one too.
                    times = tryTimes.get(t);
                    order = tryOrders.get(t);
                    for (int j = 0; j < rows.size(); j++) {
                        Row r = tried.get(j);
                        boolean before = j < i && rows.get(j).tolerated();
                        rows.set(j, j == i || before ? new Row(r.line(), r.model(), false, true) : r);
                    }
                    break;
                }
            }
        }
        return rows;
    }

    static String describe(List<Row> rows) {
        StringBuilder b = new StringBuilder();
        long t0 = rows.isEmpty() ? 0 : rows.get(0).line().startNs();
        for (Row r : rows) {
            b.append(String.format("%10.3f ms %-6s traefik=%d retry-in=%8.3f model=%-6s wait=%8.3f %s%n",
                    (r.line().startNs() - t0) / 1e6, r.line().id(), r.line().status(), r.line().retryInNs() / 1e6,
                    r.model().passed() ? "PASS" : "REJECT", r.model().waitNs() / 1e6,
                    r.matched() ? "" : r.tolerated() ? "(reordered or late)" : "MISMATCH"));
        }
        return b.toString();
    }

    /**
     * A burst of twelve at once, a stream at 8 a second for two seconds and one at 3 a second for
     * two more (both over 2 r/s: some held for their token, some rejected), then after 2.6 s idle
     * another burst of twelve: Traefik's ttlmap has dropped the bucket (kept 2 s), so a full 8 pass
     * where 2.6 s of refill would give 5.
     */
    static List<Traffic.Planned> plan() {
        List<Traffic.Planned> plan = new ArrayList<>();
        int id = 0;
        for (int i = 0; i < 12; i++) {
            plan.add(new Traffic.Planned(0, SOURCE, "/", "t-" + id++));
        }
        for (long t = 300; t < 2300; t += 125) {
            plan.add(new Traffic.Planned(t, SOURCE, "/", "t-" + id++));
        }
        for (long t = 2400; t < 4400; t += 333) {
            plan.add(new Traffic.Planned(t, SOURCE, "/", "t-" + id++));
        }
        for (int i = 0; i < 12; i++) {
            plan.add(new Traffic.Planned(7000, SOURCE, "/", "t-" + id++));
        }
        return plan;
    }

    /**
     * The lines of requests to the web entry point, once there are {@code count}: the readiness
     * poll of the API is logged too (addInternals), on the status entry point.
     */
    List<JsonNode> awaitLog(Path file, int count) throws IOException {
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(50))
                .until(() -> Files.exists(file) && web(file).size() >= count);
        return web(file);
    }

    static List<JsonNode> web(Path file) throws IOException {
        List<JsonNode> lines = new ArrayList<>();
        for (String l : Files.readAllLines(file)) {
            JsonNode j = JSON.readTree(l);
            if (j.path("entryPointName").asText().equals("web")) {
                lines.add(j);
            }
        }
        return lines;
    }

    void matchesTraefik(TraefikRateLimit.Store store, Optional<RedisServer> redis, Path dir) throws Exception {
        try (Running traefik = start(dir, redis)) {
            List<Traffic.Planned> plan = plan();
            Map<String, Integer> wire = Traffic.send(traefik.port(), plan, System.currentTimeMillis() + 50);
            List<JsonNode> logged = awaitLog(traefik.accessLog(), plan.size());
            List<Line> log = logged.stream().map(Line::parse).toList();
            List<Row> rows = compare(log, store);
            String table = describe(rows);
            System.out.println("traefik (" + store + "):\n" + table);

            assertThat(rows).as(table).allMatch(r -> r.matched() || r.tolerated());
            // What the client got is what Traefik logged: 429 for a rejection, 200 otherwise.
            for (Row r : rows) {
                assertThat(wire.get(r.line().id())).as(r.line().id()).isEqualTo(r.line().status());
            }
            // A rejection's X-Retry-In is the model's wait, but for the moments between StartUTC and
            // the limiter's own clock (in Redis, the first request's too: its connection opens first).
            assertThat(rows).filteredOn(r -> r.matched() && !r.line().passed()).isNotEmpty().allSatisfy(r ->
                    assertThat(r.line().retryInNs()).as(table).isBetween(r.model().waitNs() - latestNs(store),
                            r.model().waitNs() + latestNs(store)));
            // Each of the model's three answers happened: passed at once, held for a token, rejected.
            assertThat(rows.stream().map(r -> !r.model().passed() ? "rejected" : r.model().waitNs() > 0 ? "held"
                    : "passed").collect(Collectors.toSet())).containsExactlyInAnyOrder("passed", "held", "rejected");
            // The last burst, after 2.6 s idle, passed a full bucket: the ttlmap's reset (memory), or
            // the refill capped at the burst (Redis keeps the key 2 s too, and then it is gone).
            // Only when the burst came at once: a machine busy enough to spread it over 100 ms lets
            // the refill in too (every decision is compared above either way).
            List<Row> last = rows.subList(rows.size() - 12, rows.size());
            if (last.get(11).line().startNs() - last.get(0).line().startNs() < 100_000_000L) {
                assertThat(last.stream().filter(r -> r.line().passed()).count()).as(table).isEqualTo(BURST);
            }
        }
    }

    @Test
    void inMemoryEveryDecisionIsTraefiks() throws Exception {
        matchesTraefik(TraefikRateLimit.Store.MEMORY, Optional.empty(), TestDirs.fresh(getClass(), "memory"));
    }

    @Test
    void inRedisEveryDecisionIsTraefiks() throws Exception {
        Required.that(RedisServer.notInstalled().isEmpty(), RedisServer.notInstalled().orElse(""));
        Path dir = TestDirs.fresh(getClass(), "redis");
        try (RedisServer redis = RedisServer.start(dir.resolve("redis"), 0)) {
            matchesTraefik(TraefikRateLimit.Store.REDIS, Optional.of(redis), dir);
        }
    }

    @Test
    void averageZeroPassesEverythingInMemoryAndRejectsEverythingInRedis() throws Exception {
        Required.that(RedisServer.notInstalled().isEmpty(), RedisServer.notInstalled().orElse(""));
        Path dir = TestDirs.fresh(getClass(), "zero");
        Files.createDirectories(dir.resolve("memory"));
        try (RedisServer redis = RedisServer.start(dir.resolve("redis"), 0);
                Running memory = start(dir.resolve("memory"), Optional.empty());
                Running shared = start(dir, Optional.of(redis))) {
            for (int i = 0; i < 3; i++) {
                assertThat(Nginx.get("127.16.0.7", memory.port(), "/zero", "m-" + i)).isEqualTo(200);
                assertThat(Nginx.get("127.16.0.7", shared.port(), "/zero", "r-" + i)).isEqualTo(429);
            }
            // "No bursty traffic allowed": no Retry-After, no X-Retry-In, as the model says.
            List<JsonNode> lines = awaitLog(shared.accessLog(), 3);
            assertThat(lines).allSatisfy(j -> {
                assertThat(j.has("downstream_X-Retry-In")).isFalse();
                assertThat(j.has("downstream_Retry-After")).isFalse();
            });
            TraefikRateLimit model = new TraefikRateLimit(0, 0, 1, TraefikRateLimit.Store.REDIS);
            assertThat(model.outcome("127.16.0.7", System.nanoTime()).passed()).isFalse();
        }
    }
}
