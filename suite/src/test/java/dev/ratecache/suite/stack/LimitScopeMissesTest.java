package dev.ratecache.suite.stack;

import static dev.ratecache.suite.stack.RateLimitTest.burst;
import static dev.ratecache.suite.stack.RateLimitTest.count;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.spec.Quota;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * --limit-scope misses with keys in X-Api-Key, 1 r/s per key with a burst of 1 (nodelay), and the
 * default address ceiling: the back end counts only what the edge cache missed. One tier, metered,
 * has a quota of 3 an hour (a tiers file's quota=, with no --quota, so no other key has one), which
 * the back end counts too, on misses only.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class LimitScopeMissesTest {
    private static final int QUOTA = 3;
    private static Stack stack;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        FleetLog.requireSharedLimit();
        Path tiers = Files.writeString(TestDirs.fresh(LimitScopeMissesTest.class, "tiers").resolve("tiers.txt"),
                "metered 100 100 nodelay quota=" + QUOTA + "/h k-metered\n");
        stack = Stacks.around(origin, LimitScopeMissesTest.class, new StackSwitches()
                .limitKey(LimitKey.parse("header:X-Api-Key")).limitScope(LimitScope.MISSES)
                .frontRate(1).frontBurst(1).frontMode(LimitMode.NODELAY).backRate(1000).backBurst(1000)
                .tiers(tiers).quota(null, Quota.Window.FIXED));
    }

    @AfterAll
    static void stop() {
        stack.close();
    }

    @Test
    void aThousandHitsFromOneKeyDoNotRejectThatKeysNextMiss() throws Exception {
        String cached = Stacks.fresh("lasting");
        HttpResponse<String> first = Http.get(stack.frontUri(), cached, "X-Api-Key", "hit-key");
        assertThat(first.statusCode()).isEqualTo(200);

        // Counted at the edge, at 1 r/s, nearly all of these would be rejected and the bucket would
        // be full when the miss below arrives; as it is, the first miss left room for one more.
        for (int i = 0; i < 1000; i++) {
            HttpResponse<String> hit = Http.get(stack.frontUri(), cached, "X-Api-Key", "hit-key");
            assertThat(hit.statusCode()).as("hit %d", i).isEqualTo(200);
            assertThat(Stacks.cacheStatus(hit)).as("hit %d", i).isEqualTo("HIT");
            assertThat(hit.headers().firstValue("RateLimit-Policy")).as("hit %d", i).isPresent();
        }
        HttpResponse<String> miss = Http.get(stack.frontUri(), Stacks.fresh("lasting"), "X-Api-Key", "hit-key");

        assertThat(Stacks.cacheStatus(miss)).isEqualTo("MISS");
        assertThat(miss.statusCode()).isEqualTo(200);
    }

    @Test
    void missesFromOneKeyAreLimitedBehindTheCache() throws Exception {
        stack.origin().reset();
        List<Http.Raw> responses = burst(stack, "127.0.9.1", 5, "/hare", "X-Api-Key: miss-key");

        assertThat(count(responses, 200)).isBetween(2L, 3L);
        assertThat(count(responses, 429)).isEqualTo(5 - count(responses, 200));
        assertThat(responses).filteredOn(r -> r.status() == 429)
                .allSatisfy(r -> assertThat(r.header("Retry-After")).isEqualTo("1"));
        assertThat(Stacks.reached(stack, "hare")).isEqualTo(count(responses, 200));
    }

    @Test
    void aHitCostsNoQuotaAndMissesPastItGetA429ThatIsNotStored() throws Exception {
        String key = "X-Api-Key: k-metered";
        String cached = Stacks.fresh("lasting");
        long reachedBefore = Stacks.reached(stack, "lasting");
        // The first ask is a miss, counted at the back end, which says what is left.
        Http.Raw miss = Http.raw("127.0.9.4", stack.ports().front(), "GET", cached, key);
        assertThat(miss.status()).isEqualTo(200);
        assertThat(miss.header("X-Cache-Status")).isEqualTo("MISS");
        assertThat(miss.header("RateLimit")).matches("\"hourly\";r=2;t=\\d+");
        // Five hits of it (fresh for 60 s) cost nothing: past the quota of 3, still 200. A hit carries
        // no RateLimit (the back end's, stored with the answer, is hidden), and both policies.
        List<Http.Raw> hits = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            hits.add(Http.raw("127.0.9.4", stack.ports().front(), "GET", cached, key));
        }
        assertThat(hits).allSatisfy(hit -> {
            assertThat(hit.status()).isEqualTo(200);
            assertThat(hit.header("X-Cache-Status")).isEqualTo("HIT");
            assertThat(hit.allValues("RateLimit")).isEmpty();
            assertThat(hit.header("RateLimit-Policy")).startsWith("\"metered\";q=100;w=1;ratecache-burst=100,"
                    + " \"hourly\";q=3;w=3600");
        });
        // The count moved by the one miss only: two more misses are admitted, then none.
        List<String> urls = List.of(Stacks.fresh("lasting"), Stacks.fresh("lasting"), Stacks.fresh("lasting"),
                Stacks.fresh("lasting"));
        List<Http.Raw> misses = urls.stream().map(url -> Http.raw("127.0.9.4", stack.ports().front(), "GET", url, key))
                .toList();
        assertThat(misses).extracting(Http.Raw::status).containsExactly(200, 200, 429, 429);
        assertThat(misses).extracting(r -> r.header("RateLimit").replaceAll(";t=\\d+", ""))
                .containsExactly("\"hourly\";r=1", "\"hourly\";r=0", "\"hourly\";r=0", "\"hourly\";r=0");
        Http.Raw refused = misses.get(2);
        assertThat(refused.header("Content-Type")).isEqualTo("application/problem+json");
        assertThat(refused.body()).contains("quota-exceeded", "\"violated-policies\":[\"hourly\"]");
        assertThat(Integer.parseInt(refused.header("Retry-After"))).isBetween(1, 3600);
        assertThat(refused.header("RateLimit-Policy")).startsWith("\"metered\";");
        // The rejection was not stored: asked again, the edge goes back (MISS) and gets another 429.
        Http.Raw again = Http.raw("127.0.9.4", stack.ports().front(), "GET", urls.get(2), key);
        assertThat(again.status()).isEqualTo(429);
        assertThat(again.header("X-Cache-Status")).isEqualTo("MISS");
        // The cached answer is still a free hit; the origin saw the three admitted misses only.
        Http.Raw stillCached = Http.raw("127.0.9.4", stack.ports().front(), "GET", cached, key);
        assertThat(stillCached.status()).isEqualTo(200);
        assertThat(stillCached.header("X-Cache-Status")).isEqualTo("HIT");
        assertThat(Stacks.reached(stack, "lasting") - reachedBefore).isEqualTo(3);
    }

    @Test
    void theBackEndTakesTheKeyOnlyFromTheEdge() throws Exception {
        // Straight to the back end, naming someone else's key: not believed, so counted by the
        // sender's address, not in that key's bucket, which the edge's request then finds full.
        List<Http.Raw> direct = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            direct.add(Http.raw("127.0.9.2", stack.ports().back(), "GET", Stacks.fresh("hare"), "X-Limit-Key: victim-key"));
        }
        Http.Raw viaEdge = Http.raw("127.0.9.3", stack.ports().front(), "GET", Stacks.fresh("hare"), "X-Api-Key: victim-key");

        assertThat(count(direct, 429)).as("the sender's own address bucket").isGreaterThanOrEqualTo(1);
        assertThat(viaEdge.status()).isEqualTo(200);
    }
}
