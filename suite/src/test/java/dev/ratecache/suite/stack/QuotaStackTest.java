package dev.ratecache.suite.stack;

import dev.ratecache.suite.edge.NginxEdge;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.spec.FleetLimit;
import dev.ratecache.suite.spec.Quota;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * --quota at the edge: a client's requests a window counted in Redis beside its burst limit, the
 * quota's RateLimit on every answer, and an exhausted quota answered 429 with Retry-After and a
 * problem+json body, across a fleet of edges as on one; and a tiers file's quota per tier, each
 * key at its tier's quota and told its tier's policy. Windows of an hour or a day: nothing slides
 * out while a test runs, however slow the machine.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class QuotaStackTest {
    private static final int QUOTA = 5;
    private static final Pattern RATELIMIT = Pattern.compile("\"(\\w+)\";r=(\\d+);t=(\\d+)");
    /**
     * Keys in X-Api-Key: gold at a quota of its own, silver at another with another window, partner
     * at none, and every other client (keyless ones by address) in the anonymous tier at --quota.
     */
    private static final String TIERS = """
            gold    100 200 nodelay quota=2/h   k-gold
            silver  100 200 nodelay quota=4/d   k-silver
            partner 100 200 nodelay quota=none  k-partner
            """;

    private static OriginServer origin;
    /** --quota 5/h in fixed windows, keyed by X-Api-Key, with the tiers above: the two tests below share it. */
    private static Stack keyed;

    @BeforeAll
    static void origin(OriginServer shared) throws Exception {
        FleetLog.requireSharedLimit();
        origin = shared;
        Path tiers = Files.writeString(TestDirs.fresh(QuotaStackTest.class, "tiers").resolve("tiers.txt"), TIERS);
        keyed = Stacks.around(origin, TestDirs.fresh(QuotaStackTest.class, "fixed"), quota(Quota.Window.FIXED)
                .limitKey(LimitKey.parse("header:X-Api-Key")).tiers(tiers));
    }

    @AfterAll
    static void stop() {
        Stacks.closeAll(keyed);
    }

    private static StackSwitches quota(Quota.Window window) {
        return new StackSwitches().quota(QUOTA + "/h", window).backLimit(false);
    }

    private static List<Http.Raw> send(Stack stack, String client, int n, String... headers) {
        List<Http.Raw> answers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            answers.add(Http.raw(client, stack.ports().front(), "GET", Stacks.fresh("hare"), headers));
        }
        return answers;
    }

    /** The quota's RateLimit: the policy it names and what is left, "hourly r=4". */
    private static String remaining(Http.Raw answer) {
        Matcher m = RATELIMIT.matcher(String.join(", ", answer.allValues("RateLimit")));
        assertThat(m.find()).as(answer.headers().toString()).isTrue();
        return m.group(1) + " r=" + m.group(2);
    }

    @Test
    void aClientGetsItsQuotaThenA429WithRetryAfterAndAProblem() throws Exception {
        // Without a key: by address, in the anonymous tier, at --quota.
        List<Http.Raw> answers = send(keyed, "127.0.0.31", QUOTA + 2);
        assertThat(answers).extracting(Http.Raw::status).containsExactly(200, 200, 200, 200, 200, 429, 429);
        // What is left counts down on every answer, to 0 on the rejections.
        assertThat(answers).extracting(QuotaStackTest::remaining).containsExactly("hourly r=4", "hourly r=3", "hourly r=2",
                "hourly r=1", "hourly r=0", "hourly r=0", "hourly r=0");
        Http.Raw refused = answers.get(QUOTA);
        int retry = Integer.parseInt(refused.header("Retry-After"));
        assertThat(retry).isBetween(1, 3600);
        assertThat(refused.header("Content-Type")).isEqualTo("application/problem+json");
        assertThat(refused.header("Cache-Control")).isEqualTo("no-store");
        JsonNode problem = new ObjectMapper().readTree(refused.body());
        assertThat(problem.get("type").asText()).isEqualTo("https://iana.org/assignments/http-problem-types#quota-exceeded");
        assertThat(problem.get("violated-policies").get(0).asText()).isEqualTo("hourly");
        // Both policies, on every answer (and the address ceiling beside a key's).
        assertThat(refused.header("RateLimit-Policy")).isEqualTo("\"anonymous\";q=100;w=1;ratecache-burst=200,"
                + " \"hourly\";q=5;w=3600, \"address-ceiling\";q=1000;w=1;ratecache-burst=2000");
        // Another client has its own quota.
        assertThat(send(keyed, "127.0.0.32", 1)).extracting(Http.Raw::status).containsExactly(200);
        // The log tells a quota's rejection from the burst limit's (which passed or queued these, never refused).
        List<JsonNode> logged = await("the edge's buffered log").atMost(Duration.ofSeconds(30))
                .until(() -> FleetLog.clientLines(keyed.tiers().frontAccessLogs(), "127.0.0.31"), l -> l.size() == QUOTA + 2);
        List<JsonNode> lines = FleetLog.inSendOrder(logged);
        assertThat(lines).extracting(l -> l.get("quota").asText())
                .containsExactly("PASSED", "PASSED", "PASSED", "PASSED", "PASSED", "REJECTED", "REJECTED");
        assertThat(lines).extracting(l -> l.get("limit_req").asText()).doesNotContain("REJECTED");
    }

    @Test
    void eachTierHasItsOwnQuotaOnTheWireAndNamesItsOwnPolicy() {
        List<Http.Raw> gold = send(keyed, "127.0.0.35", 4, "X-Api-Key: k-gold");
        List<Http.Raw> silver = send(keyed, "127.0.0.36", 6, "X-Api-Key: k-silver");
        List<Http.Raw> partner = send(keyed, "127.0.0.37", QUOTA + 3, "X-Api-Key: k-partner");

        // gold: 2 an hour.
        assertThat(gold).extracting(Http.Raw::status).containsExactly(200, 200, 429, 429);
        assertThat(gold).extracting(QuotaStackTest::remaining).containsExactly("hourly r=1", "hourly r=0", "hourly r=0",
                "hourly r=0");
        assertThat(gold).allSatisfy(a -> assertThat(a.header("RateLimit-Policy")).isEqualTo(
                "\"gold\";q=100;w=1;ratecache-burst=200, \"hourly\";q=2;w=3600, \"address-ceiling\";q=1000;w=1;ratecache-burst=2000"));
        assertThat(gold.get(2).header("Content-Type")).isEqualTo("application/problem+json");
        // silver: 4 a day, its policy named daily, in its body too.
        assertThat(silver).extracting(Http.Raw::status).containsExactly(200, 200, 200, 200, 429, 429);
        assertThat(silver).extracting(QuotaStackTest::remaining).containsExactly("daily r=3", "daily r=2", "daily r=1",
                "daily r=0", "daily r=0", "daily r=0");
        assertThat(silver.get(0).header("RateLimit-Policy")).startsWith("\"silver\";q=100;w=1;ratecache-burst=200,"
                + " \"daily\";q=4;w=86400, ");
        assertThat(silver.get(4).body()).contains("\"violated-policies\":[\"daily\"]");
        assertThat(Integer.parseInt(silver.get(4).header("Retry-After"))).isBetween(1, 86_400);
        // partner: no quota at all, past what --quota would allow; no RateLimit, one policy.
        assertThat(partner).extracting(Http.Raw::status).containsOnly(200);
        assertThat(partner).allSatisfy(a -> assertThat(a.allValues("RateLimit")).isEmpty());
        assertThat(partner.get(0).header("RateLimit-Policy"))
                .isEqualTo("\"partner\";q=100;w=1;ratecache-burst=200, \"address-ceiling\";q=1000;w=1;ratecache-burst=2000");
    }

    @Test
    void aSlidingQuotaHoldsAcrossThreeEdgesAndFallsBackToEachEdgesShareWithoutRedis() throws Exception {
        StackSwitches switches = quota(Quota.Window.SLIDING).edges(3).fleetLimit(FleetLimit.SHARED);
        try (Stack stack = Stacks.around(origin, TestDirs.fresh(QuotaStackTest.class, "fleet"), switches)) {
            // Round robin over three edges: one count in Redis for all of them.
            List<Http.Raw> answers = send(stack, "127.0.0.33", QUOTA + 3);
            assertThat(answers.stream().filter(a -> a.status() == 200).count()).isEqualTo(QUOTA);
            // Redis gone: each edge counts alone, at its share (5 / 3 edges, rounded down: 1).
            stack.tiers(NginxEdge.Tiers.class).fleetRedis().orElseThrow().close();
            List<Http.Raw> alone = send(stack, "127.0.0.34", 6);
            assertThat(alone.stream().filter(a -> a.status() == 200).count()).isEqualTo(3);
            stack.close();
            assertThat(FleetLog.clientLines(stack.tiers().frontAccessLogs(), "127.0.0.34"))
                    .extracting(l -> l.get("quota").asText()).containsOnly("FALLBACK", "FALLBACK_REJECTED");
        }
    }
}
