package dev.ratecache.suite.reproduce;

import static dev.ratecache.suite.matrix.Metric.MEAN_MS;
import static dev.ratecache.suite.matrix.Metric.THROUGHPUT;

import dev.ratecache.suite.matrix.BombardierGenerator;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.Source;
import dev.ratecache.suite.matrix.Generator;
import dev.ratecache.suite.matrix.Plan;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Seed 002: a restaurant-profile API on PostgreSQL, scaled with Redis cache-aside and an nginx
 * balancer over 1, 2 and 5 app hosts, measured with k6 at a constant arrival rate. Here the API is
 * the suite's origin on its own PostgreSQL (/items, its pool on), with and without its Redis app
 * cache, behind the suite's nginx tiers (limits and edge cache off), the back tier balancing round
 * robin over 1, 2 or 5 origin instances on this machine, under JMeter's open-model flood plan.
 */
final class RedisBalancer implements Experiment {
    static final String NAME = "redis-balancer";
    static final String PATH = "/items/1";
    /** The rate their final setup sustained, offered to every cell: each shows how much of it ours answers. */
    static final String RATE = "2500";
    static final Plan PLAN = Plan.ofPath(NAME, PATH, 20);
    static final String NO_CACHE = NAME + "/no-cache-1";
    static final String REDIS_1 = NAME + "/redis-1";
    static final String REDIS_2 = NAME + "/redis-2";
    static final String REDIS_5 = NAME + "/redis-5";
    /**
     * k6's constant-arrival-rate starts iterations on a schedule from a pool of virtual users; bombardier's
     * -r starts requests on a schedule from its pool of connections: both fall behind only when every one
     * is busy. JMeter's open model (a thread per arrival) cannot start 2,500 a second on these 2 cores.
     */
    private static final Map<String, String> LOAD = Map.of(BombardierGenerator.CONNECTIONS, "250",
            BombardierGenerator.RATE, RATE, BombardierGenerator.DURATION, "10", "path", PATH);

    private static final String MACHINE = "Their hosts were AWS EC2 t2.micro instances (one vCPU each), the balancer"
            + " and PostgreSQL on instances of their own; here JMeter, both nginx tiers, every origin instance, Redis and"
            + " PostgreSQL share the 2 cores of one virtual machine, so more instances add no cores: they split the same"
            + " two.";
    private static final String APP = " Their app was Node.js (New Relic measured it), opening a new database connection"
            + " per request until step 5; ours is Spring Boot on Tomcat with a HikariCP pool of 10 from the start, its"
            + " database on loopback.";

    private static final List<PublishedRow> PUBLISHED = List.of(
            new PublishedRow("Step 2: PostgreSQL (indexed), no cache, one host", NO_CACHE, MACHINE + APP,
                    PublishedFigure.of(THROUGHPUT, "about 400 RPS"), PublishedFigure.of(MEAN_MS, "328 ms")),
            new PublishedRow("Step 3: Redis cache-aside in front of PostgreSQL, one host", REDIS_1, MACHINE + APP
                    + " A Redis hit spares our origin a pooled query that costs well under a millisecond on loopback,"
                    + " not a connection's handshake, so Redis gains less here.",
                    PublishedFigure.of(THROUGHPUT, "around 1050 RPS"), PublishedFigure.of(MEAN_MS, "187 ms")),
            new PublishedRow("Step 4: nginx balancer (round robin) over 5 hosts, Redis", REDIS_5, MACHINE + APP,
                    PublishedFigure.of(THROUGHPUT, "about 1.7 K RPS"), PublishedFigure.of(MEAN_MS, "about 12.5 ms")),
            new PublishedRow("Step 5: the database reached through a pool, 5 hosts, Redis", REDIS_5, MACHINE
                    + " Our origin pooled its connections in every cell: this step is in all of ours.",
                    PublishedFigure.of(THROUGHPUT, "~2.0 K RPS")),
            new PublishedRow("Final: 5 hosts, Redis, pool, after stress testing for optimal performance", REDIS_5,
                    MACHINE + " Their final figure is the best of their runs (New Relic's latency, the app's own);"
                            + " ours is JMeter's, end to end through both nginx tiers.",
                    PublishedFigure.of(THROUGHPUT, "+2.5 K RPS"), PublishedFigure.of(MEAN_MS, "3.56 ms")));

    private static final About ABOUT = new About(NAME, "002",
            "Redis cache-aside and an nginx balancer over 1, 2 and 5 app hosts",
            Source.REDIS_BALANCER.cite() + " (Node.js on PostgreSQL, Redis, an nginx round-robin"
                + " balancer, on AWS EC2 t2.micro instances), measured with k6 and New Relic",
            "k6 at a constant arrival rate (the write-up gives no rate or duration; its final setup sustained"
                + " +2.5 K RPS)",
            BombardierGenerator.describe(LOAD) + " (requests started on a schedule from 250 connections, as k6's"
                + " constant-arrival-rate starts them from its virtual users) on " + PATH + ", the suite's origin on"
                + " its PostgreSQL (a pool of 10), without and with its Redis app cache, behind the suite's nginx"
                + " tiers (limits and edge cache off), the back tier balancing round robin over 1, 2 or 5 origin"
                + " instances on this machine",
            "Redis took the API from about 400 RPS to around 1050 RPS (latency 328 ms, then 187 ms), five hosts"
                + " behind nginx to about 1.7 K RPS, a pool to ~2.0 K RPS, and the final setup to +2.5 K RPS at 3.56 ms.",
            PUBLISHED, List.of(), true);

    @Override
    public About about() {
        return ABOUT;
    }

    @Override
    public List<Cell> cells() {
        return List.of(cell("no-cache-1", 1, false).published(besideRow(NO_CACHE)).build(),
                cell("redis-1", 1, true).published(besideRow(REDIS_1)).build(),
                // The write-up showed its 2 hosts in a screenshot only: no published figure to stand beside.
                cell("redis-2", 2, true).build(),
                cell("redis-5", 5, true).published(besideRow(REDIS_5)).build());
    }

    private static Cell.Builder cell(String variant, int hosts, boolean redis) {
        Cell.Builder cell = Cell.of(PLAN, variant).frontLimit(false).backLimit(false).originHosts(hosts)
                .drivenBy(Generator.BOMBARDIER, LOAD);
        return redis ? cell.appCache() : cell;
    }

    @Override
    public List<String> foundHere(Measured m) {
        List<String> parts = new ArrayList<>();
        for (String cell : List.of(NO_CACHE, REDIS_1, REDIS_2, REDIS_5)) {
            var rate = m.median(cell, THROUGHPUT);
            if (rate.isEmpty()) {
                return List.of(m.notMeasured(cell));
            }
            parts.add(String.format(Locale.ROOT, "%s %.2f requests/s at %.2f ms", cell.substring(NAME.length() + 1),
                    rate.get(), m.median(cell, MEAN_MS).orElse(Double.NaN)));
        }
        return List.of("Offered " + RATE + " requests/s, ours answered: " + String.join("; ", parts) + ".",
                "On one machine, more origin instances split the same 2 cores rather than adding any: the balancer"
                        + " spreads the load but cannot add capacity, which the write-up's extra EC2 hosts did, and each"
                        + " instance started for the cell compiles its request path during it (a JVM of its own). The"
                        + " origin's CPU and counters in the tables are the first instance's.");
    }
}
