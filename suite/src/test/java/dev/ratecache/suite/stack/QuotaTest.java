package dev.ratecache.suite.stack;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.spec.FleetLimit;
import dev.ratecache.suite.spec.Quota;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * --quota at the edge: a client's requests a window counted in Redis beside its burst limit, the
 * quota's RateLimit on every answer, and an exhausted quota answered 429 with Retry-After and a
 * problem+json body, across a fleet of edges as on one. Windows of an hour: nothing slides out
 * while a test runs, however slow the machine.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class QuotaTest {
    private static final int QUOTA = 5;
    private static final Pattern RATELIMIT = Pattern.compile("\"hourly\";r=(\\d+);t=(\\d+)");

    private static OriginServer origin;

    @BeforeAll
    static void origin(OriginServer shared) {
        FleetLog.requireSharedLimit();
        origin = shared;
    }

    private static StackSwitches quota(Quota.Window window) {
        return new StackSwitches().quota(QUOTA + "/h", window).backLimit(false);
    }

    private static List<Http.Raw> send(Stack stack, String client, int n) {
        List<Http.Raw> answers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            answers.add(Http.raw(client, stack.ports().front(), "GET", "/hare?q=" + i));
        }
        return answers;
    }

    private static int remaining(Http.Raw answer) {
        Matcher m = RATELIMIT.matcher(String.join(", ", answer.allValues("RateLimit")));
        assertThat(m.find()).as(answer.headers().toString()).isTrue();
        return Integer.parseInt(m.group(1));
    }

    @Test
    void aClientGetsItsQuotaThenA429WithRetryAfterAndAProblem() throws Exception {
        try (Stack stack = Stacks.around(origin, TestDirs.fresh(QuotaTest.class, "fixed"), quota(Quota.Window.FIXED))) {
            List<Http.Raw> answers = send(stack, "127.0.0.31", QUOTA + 2);
            assertThat(answers).extracting(Http.Raw::status).containsExactly(200, 200, 200, 200, 200, 429, 429);
            // What is left counts down on every answer, to 0 on the rejections.
            assertThat(answers).extracting(QuotaTest::remaining).containsExactly(4, 3, 2, 1, 0, 0, 0);
            Http.Raw refused = answers.get(QUOTA);
            int retry = Integer.parseInt(refused.header("Retry-After"));
            assertThat(retry).isBetween(1, 3600);
            assertThat(refused.header("Content-Type")).isEqualTo("application/problem+json");
            JsonNode problem = new ObjectMapper().readTree(refused.body());
            assertThat(problem.get("type").asText()).isEqualTo("https://iana.org/assignments/http-problem-types#quota-exceeded");
            assertThat(problem.get("violated-policies").get(0).asText()).isEqualTo("hourly");
            // Both policies, on every answer.
            assertThat(refused.header("RateLimit-Policy")).isEqualTo("\"per-address\";q=100;w=1;ratecache-burst=200,"
                    + " \"hourly\";q=5;w=3600");
            // Another client has its own quota.
            assertThat(send(stack, "127.0.0.32", 1)).extracting(Http.Raw::status).containsExactly(200);
            stack.close();
            List<JsonNode> lines = FleetLog.clientLines(stack.frontAccessLogs(), "127.0.0.31");
            // The log tells a quota's rejection from the burst limit's (which passed or queued these, never refused).
            assertThat(lines).extracting(l -> l.get("quota").asText())
                    .containsExactly("PASSED", "PASSED", "PASSED", "PASSED", "PASSED", "REJECTED", "REJECTED");
            assertThat(lines).extracting(l -> l.get("limit_req").asText()).doesNotContain("REJECTED");
        }
    }

    @Test
    void aSlidingQuotaHoldsAcrossThreeEdgesAndFallsBackToEachEdgesShareWithoutRedis() throws Exception {
        StackSwitches switches = quota(Quota.Window.SLIDING).edges(3).fleetLimit(FleetLimit.SHARED);
        try (Stack stack = Stacks.around(origin, TestDirs.fresh(QuotaTest.class, "fleet"), switches)) {
            // Round robin over three edges: one count in Redis for all of them.
            List<Http.Raw> answers = send(stack, "127.0.0.33", QUOTA + 3);
            assertThat(answers.stream().filter(a -> a.status() == 200).count()).isEqualTo(QUOTA);
            // Redis gone: each edge counts alone, at its share (5 / 3 edges, rounded down: 1).
            stack.fleetRedis().orElseThrow().close();
            List<Http.Raw> alone = send(stack, "127.0.0.34", 6);
            assertThat(alone.stream().filter(a -> a.status() == 200).count()).isEqualTo(3);
            stack.close();
            assertThat(FleetLog.clientLines(stack.frontAccessLogs(), "127.0.0.34"))
                    .extracting(l -> l.get("quota").asText()).containsOnly("FALLBACK", "FALLBACK_REJECTED");
        }
    }
}
