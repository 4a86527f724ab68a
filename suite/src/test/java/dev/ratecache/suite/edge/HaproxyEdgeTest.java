package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Both HAProxy tiers in front of the suite's origin, one stack for the class: the HIT and the
 * bypasses every edge shares ({@link EdgeBehaviours}), the freshness and invalidation rules, and
 * this product's own, among them what it answers where it lacks a capability (stale content and a
 * cache lock, haproxy/haproxy#214; purge, haproxy/haproxy#452). Each test sends from its own
 * loopback address, so each has a per-client window of its own. The limits are windows no busy
 * machine can slide out of between two steps: the front's 1 a second, burst 4, is 5 requests per
 * 5 s. The back's limit, which every test's misses would share, is off here; the test of it starts
 * a stack of its own.
 */
@StackTest
@LongTest
class HaproxyEdgeTest extends EdgeBehaviours implements EdgeFreshness, EdgeInvalidation {
    private static final int BACK_THRESHOLD = 20;

    @Override
    Edge edge() {
        return new HaproxyEdge(Repo.haproxyTemplates());
    }

    @Override
    String subnet() {
        return "127.0.1";
    }

    @Override
    String pool() {
        return "127.6";
    }

    /** One request to each of {@code paths} at once from {@code source}. */
    private List<Http.Raw> burst(String source, List<String> paths) throws Exception {
        return atOnce(paths.stream().map(p -> (Callable<Http.Raw>) () -> getFrom(source, p)).toList());
    }

    @Test
    void aBurstOverTheThresholdFromOneClientIsRejectedWith429AndRetryAfter() throws Exception {
        List<Http.Raw> answers = burst("127.0.1.3",
                IntStream.range(0, 2 * FRONT_THRESHOLD).mapToObj(i -> Stacks.fresh("hare")).toList());

        assertThat(answers.stream().filter(a -> a.status() == 200)).hasSize(FRONT_THRESHOLD);
        List<Http.Raw> rejected = answers.stream().filter(a -> a.status() != 200).toList();
        assertThat(rejected).hasSize(FRONT_THRESHOLD)
                .allSatisfy(r -> {
                    assertThat(r.status()).isEqualTo(429);
                    assertThat(r.header("Retry-After")).isEqualTo("1");
                });
        assertThat(reached("hare")).isEqualTo(FRONT_THRESHOLD);
    }

    /**
     * A stack of its own with the back's limit alone (1 a second, burst 19: 20 per 20 s): the
     * other tests' misses would share its window, and its own would leave none for them.
     */
    @Test
    void theBacksLimitHoldsTheOriginsCountWhateverTheClients() throws Exception {
        StackPorts own = StackPorts.free().origin(origin.port(), origin.managementPort());
        StackSwitches switches = new StackSwitches().frontLimit(false).cache(false).backRate(1)
                .backBurst(BACK_THRESHOLD - 1).backMode(LimitMode.NODELAY);
        try (Edge.Running backLimited = new HaproxyEdge(Repo.haproxyTemplates()).start(switches.spec(own),
                TestDirs.fresh(HaproxyEdgeTest.class, "back-limit"))) {
            // Each from an address of its own, as many clients.
            List<Http.Raw> answers = IntStream.range(0, 2 * BACK_THRESHOLD)
                    .mapToObj(i -> Http.raw("127.0.2." + (i + 1), own.front(), "GET", Stacks.fresh("hare"))).toList();

            assertThat(answers.stream().filter(a -> a.status() == 200)).hasSize(BACK_THRESHOLD);
            assertThat(answers.stream().filter(a -> a.status() == 429)).hasSize(BACK_THRESHOLD);
            assertThat(reached("hare")).isEqualTo(BACK_THRESHOLD);
        }
    }

    /**
     * swr allows serving it stale for a minute while it is refreshed; HAProxy's cache serves
     * nothing stale and revalidates nothing (haproxy/haproxy#214): once expired it is a plain miss,
     * a whole answer the client waits for. --stale protective is refused (HaproxyRefusalTest).
     */
    @Test
    void anEntryTheOriginLetsBeServedStaleIsAMissOnceExpired() throws Exception {
        String url = stored("swr").url();
        long before = reached("swr");

        Http.Raw expired = firstAnswerNotAHit(url);

        assertThat(EdgeStack.cacheStatus(expired)).isEqualTo("MISS");
        assertThat(reached("swr")).isEqualTo(before + 1);
        assertThat(origin.counters().notModified("swr")).isZero();
    }

    /** sie allows serving it stale for a minute while the origin fails; HAProxy passes the origin's 500 on. */
    @Test
    void anEntryTheOriginLetsBeServedStaleOnErrorIsNotWhileTheOriginFails() throws Exception {
        String url = stored("sie").url();
        origin.fail("sie", 500);

        Http.Raw whileFailing = firstAnswerNotAHit(url);

        assertThat(whileFailing.status()).isEqualTo(500);
        assertThat(EdgeStack.cacheStatus(whileFailing)).isEqualTo("MISS");
    }

    /**
     * HAProxy's cache has no lock (haproxy/haproxy#214): misses of one URL at once each go to the
     * origin. The origin holds each 3 s, far longer than a busy machine takes to send the others,
     * so none arrives after the first answer was stored.
     */
    @Test
    void missesOfOneObjectAtOnceEachReachTheOrigin() throws Exception {
        int misses = 4;
        String url = Stacks.fresh("slow");
        origin.slow("slow", Duration.ofSeconds(3));

        List<Http.Raw> answers = atOnce(IntStream.range(0, misses)
                .mapToObj(i -> (Callable<Http.Raw>) () -> get(url)).toList());

        assertThat(answers).allSatisfy(a -> {
            assertThat(a.status()).isEqualTo(200);
            assertThat(EdgeStack.cacheStatus(a)).isEqualTo("MISS");
        });
        assertThat(reached("slow")).isEqualTo(misses);
        assertThat(origin.counters().endpoints().get("slow").peakInFlight()).isEqualTo(misses);
    }

    /**
     * HAProxy's cache has no purge (haproxy/haproxy#452). The front answers PURGE itself, 501,
     * whatever the address, and passes it to no one: at the origin a PURGE would be a write to the
     * URL (board takes writes), which would invalidate the entry as any write does.
     */
    @Test
    void aPurgeIsAnsweredByTheFrontAloneWith501() throws Exception {
        String url = stored("board").url();

        Http.Raw purge = sendFrom("127.0.0.1", "PURGE", url);

        assertThat(purge.status()).isEqualTo(501);
        assertThat(purge.header("Retry-After")).isNull();
        assertThat(EdgeStack.cacheStatus(get(url))).isEqualTo("HIT");
        assertThat(reached("board")).isEqualTo(1);
    }

    /**
     * aged58: max-age=60 with Age: 58. HAProxy 2.6 adds the Age to the one it sends, but gives the
     * entry the whole max-age from when it stored it (cache.c: expire = now + max-age): it is
     * still a HIT when its own Age says it is past its max-age (RFC 9111 section 4.2.3 leaves it 2 s).
     */
    @Test
    void anAgeFromUpstreamIsNotTakenFromTheLifetime() throws Exception {
        String url = stored("aged58").url();

        stillAHitAfter(url, 63);

        assertThat(reached("aged58")).isEqualTo(1);
    }

    /**
     * ahead: an origin clock an hour fast, no Cache-Control, and Expires its Date + 2 s. HAProxy
     * counts Expires against its own clock (cache.c's http_calc_maxage), not from the response's
     * Date (RFC 9111 section 4.2.1): the entry lives an hour.
     */
    @Test
    void anExpiresIsCountedAgainstHaproxysOwnClock() throws Exception {
        String url = stored("ahead").url();

        stillAHitAfter(url, 5);

        assertThat(reached("ahead")).isEqualTo(1);
    }

    /**
     * post answers a write 201 with Location /board?item=posted. HAProxy invalidates the written
     * URL only (cache.c, for a 2xx or 3xx to an unsafe method), not the Location, which RFC 9111
     * section 4.4 allows but does not require: that URL stays a HIT (nginx's and Varnish's edges
     * invalidate it).
     */
    @Test
    void aSuccessfulWriteLeavesItsLocationStored() {
        assertThat(locationAfterASuccessfulWrite()).isEqualTo("HIT");
    }
}
