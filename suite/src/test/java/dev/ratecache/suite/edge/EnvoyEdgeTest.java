package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratecache.suite.Http;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Both Envoy tiers in front of the suite's origin, one stack for the class: the HIT and the
 * bypasses every edge shares ({@link EdgeBehaviours}), the freshness rules, and this product's
 * own, among them what it answers where it lacks a capability (stale content, a cache lock,
 * purge). Each test sends from its own loopback address, so each has a per-client bucket of its
 * own: the front's 1 a second, burst 4, which no busy machine refills between two steps. The
 * back's limit, which every test's misses would share, is off here; the test of it starts a stack
 * of its own.
 */
@StackTest
@LongTest
class EnvoyEdgeTest extends EdgeBehaviours implements EdgeFreshness {
    private static final int BACK_THRESHOLD = 20;

    @Override
    Edge edge() {
        return EnvoyRenderTest.edge();
    }

    @Override
    String subnet() {
        return "127.0.21";
    }

    @Override
    String pool() {
        return "127.21";
    }

    @Test
    void aBurstOverTheBucketFromOneClientIsRejectedWith429RetryAfterAndEnvoysRateLimitHeaders() throws Exception {
        List<Http.Raw> answers = atOnce(IntStream.range(0, 2 * FRONT_THRESHOLD)
                .mapToObj(i -> (Callable<Http.Raw>) () -> getFrom("127.0.21.3", Stacks.fresh("hare"))).toList());

        assertThat(answers.stream().filter(a -> a.status() == 200)).hasSize(FRONT_THRESHOLD);
        List<Http.Raw> rejected = answers.stream().filter(a -> a.status() != 200).toList();
        assertThat(rejected).hasSize(FRONT_THRESHOLD).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo(429);
            assertThat(r.header("Retry-After")).isEqualTo("1");
            assertThat(r.header("X-RateLimit-Limit")).isEqualTo(String.valueOf(FRONT_THRESHOLD));
            assertThat(r.header("X-RateLimit-Remaining")).isEqualTo("0");
            assertThat(r.header("X-Cache-Status")).isNull();
        });
        assertThat(reached("hare")).isEqualTo(FRONT_THRESHOLD);
    }

    /**
     * A stack of its own with the back's limit alone (1 a second, burst 19: 20 at once): the
     * other tests' misses would share its bucket, and its own would leave none for them.
     */
    @Test
    void theBacksLimitHoldsTheOriginsCountWhateverTheClients() throws Exception {
        StackPorts own = StackPorts.free().origin(origin.port(), origin.managementPort());
        StackSwitches switches = new StackSwitches().frontLimit(false).cache(false).backRate(1)
                .backBurst(BACK_THRESHOLD - 1).backMode(LimitMode.NODELAY);
        try (Edge.Running backLimited = edge().start(switches.spec(own),
                TestDirs.fresh(EnvoyEdgeTest.class, "back-limit"))) {
            List<Http.Raw> answers = IntStream.range(0, 2 * BACK_THRESHOLD)
                    .mapToObj(i -> Http.raw("127.0.22." + (i + 1), own.front(), "GET", Stacks.fresh("hare"))).toList();

            // Sent one after another: a busy machine may take a second over them, and the bucket refills 1 a second.
            assertThat(answers.stream().filter(a -> a.status() == 200).count()).isBetween((long) BACK_THRESHOLD,
                    BACK_THRESHOLD + 5L);
            assertThat(answers.stream().filter(a -> a.status() != 200))
                    .allSatisfy(a -> assertThat(a.status()).isEqualTo(429));
            assertThat(reached("hare")).isEqualTo(answers.stream().filter(a -> a.status() == 200).count());
        }
    }

    /**
     * Asks for {@code url}, a stored answer of {@code endpoint} with an ETag, until the origin has
     * answered one conditional request for it with 304: Envoy's cache filter asks the back tier with
     * If-None-Match once the entry is past its lifetime, and serves the stored body on the 304 as
     * it serves a hit, with the response flag RFCF (Envoy's own logging calls it a
     * StaleHitWithSuccessfulValidation, a hit): the suite's X-Cache-Status says HIT for it too.
     * Every answer meanwhile is a HIT with the stored body; returns the one after the 304.
     */
    private Http.Raw revalidated(Stacks.Stored stored, String endpoint) {
        long before = notModified(endpoint);
        return await("a 304 from the origin for " + stored.url()).atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> get(stored.url()), answer -> {
                    assertThat(EdgeStack.cacheStatus(answer)).isEqualTo("HIT");
                    assertThat(answer.body()).isEqualTo(stored.body());
                    return notModified(endpoint) > before;
                });
    }

    private long notModified(String endpoint) {
        try {
            return origin.counters().notModified(endpoint);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * plain: public, max-age=1; smaxage: public, s-maxage=1, each with an ETag. Past its lifetime the
     * entry reaches the origin again, as everywhere, but as a conditional request whose 304 Envoy
     * answers from the entry: never a MISS (see {@link #revalidated}).
     */
    @Override
    @ParameterizedTest(name = "{0}: revalidated once expired")
    @ValueSource(strings = {"plain", "smaxage"})
    public void anEntryPastItsLifetimeIsAMissThatReachesTheOrigin(String endpoint) throws Exception {
        Stacks.Stored stored = stored(endpoint);

        revalidated(stored, endpoint);

        assertThat(reached(endpoint)).isEqualTo(2);
    }

    /**
     * badexpires: no Cache-Control, Expires "not a date" (already expired, RFC 9111 section 5.3),
     * and an ETag. Envoy stores it, already stale, and asks the origin with If-None-Match on every
     * later request (nginx's edge never stores it); bare: no Cache-Control and no Expires, never stored.
     */
    @Override
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"badexpires", "bare"})
    public void aResponseWithoutALifetimeIsNeverStored(String endpoint) throws Exception {
        String url = Stacks.fresh(endpoint);

        Http.Raw first = get(url);
        Http.Raw again = get(url);

        assertThat(EdgeStack.cacheStatus(first)).isEqualTo("MISS");
        assertThat(reached(endpoint)).isEqualTo(2);
        if (endpoint.equals("badexpires")) {
            assertThat(EdgeStack.cacheStatus(again)).isEqualTo("HIT");
            assertThat(origin.counters().notModified(endpoint)).isEqualTo(1);
        } else {
            assertThat(EdgeStack.cacheStatus(again)).isEqualTo("MISS");
        }
    }

    /**
     * zipped answers gzip to a request that accepts it and plain otherwise, with Vary:
     * Accept-Encoding. Envoy's cache never hands the stored gzip answer to a client that does not
     * accept it; but after the plain variant was fetched, the gzip one is fetched again too.
     */
    @Override
    public String variantAgainStatus() {
        return "MISS";
    }

    /**
     * swr allows serving it stale for a minute while it is refreshed; Envoy's cache filter serves
     * nothing stale: once expired the client waits while it is revalidated (see {@link #revalidated}).
     */
    @Test
    void anEntryTheOriginLetsBeServedStaleIsRevalidatedOnceExpiredNeverServedStale() throws Exception {
        Stacks.Stored stored = stored("swr");

        revalidated(stored, "swr");

        assertThat(reached("swr")).isEqualTo(2);
    }

    /** sie allows serving it stale for a minute while the origin fails; Envoy passes the origin's 500 on. */
    @Test
    void anEntryTheOriginLetsBeServedStaleOnErrorIsNotWhileTheOriginFails() throws Exception {
        String url = stored("sie").url();
        origin.fail("sie", 500);

        Http.Raw whileFailing = firstAnswerNotAHit(url);

        assertThat(whileFailing.status()).isEqualTo(500);
        assertThat(EdgeStack.cacheStatus(whileFailing)).isEqualTo("MISS");
    }

    /**
     * Envoy's cache filter has no lock: misses of one URL at once each go to the origin. The origin
     * holds each 3 s, far longer than a busy machine takes to send the others.
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
    }

    /** Envoy's cache has no purge: the front answers PURGE itself, 501, and passes it to no one. */
    @Test
    void aPurgeIsAnsweredByTheFrontAloneWith501() throws Exception {
        String url = stored("board").url();

        Http.Raw purge = sendFrom("127.0.0.1", "PURGE", url);

        assertThat(purge.status()).isEqualTo(501);
        assertThat(EdgeStack.cacheStatus(get(url))).isEqualTo("HIT");
        assertThat(reached("board")).isEqualTo(1);
    }

    /**
     * Envoy's cache filter does not invalidate on a write (RFC 9111 section 4.4 says a cache MUST):
     * the GET after a successful PUT is still the stored answer, from before the write.
     */
    @Test
    void aSuccessfulWriteLeavesTheStoredGetAHit() throws Exception {
        String url = stored("board").url();

        assertThat(send("PUT", url, "Content-Length: 0").status()).isEqualTo(204);

        assertThat(EdgeStack.cacheStatus(get(url))).isEqualTo("HIT");
        assertThat(reached("board")).isEqualTo(2);
    }

    /**
     * aged58: max-age=60 with Age: 58. Envoy counts the Age it came with (RFC 9111 section 4.2.3),
     * which leaves about 2 s: the entry is revalidated within seconds, not a minute.
     */
    @Test
    void anAgeFromUpstreamIsTakenFromTheLifetime() throws Exception {
        revalidated(stored("aged58"), "aged58");

        assertThat(reached("aged58")).isEqualTo(2);
    }

    /**
     * up's status line: each tier's requests from its admin interface's counters, and what the front
     * answered from its access log, which Envoy writes each second: a HIT counted as one.
     */
    @Test
    void upReadsEachTiersCountersAndTheFrontsAnswers() throws Exception {
        LiveCounters counters = edge().liveCounters(stack, new StackSwitches().spec(ports),
                dev.ratecache.testkit.TestDirs.of(EnvoyEdgeTest.class, "stack"), 429);
        LiveCounters.Reading before = counters.read();
        String url = Stacks.fresh("hare");
        getFrom("127.0.21.41", url);
        getFrom("127.0.21.41", url);

        // Each read counts what was written since the one before: summed until both lines are in.
        long[] answered = new long[2];
        LiveCounters.Reading after = await("the front's log written").atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(250)).until(counters::read, r -> {
                    answered[0] += r.answered().responses();
                    answered[1] += r.answered().hits();
                    return answered[1] >= 1;
                });

        assertThat(after.front().orElseThrow()).isGreaterThanOrEqualTo(before.front().orElseThrow() + 2);
        assertThat(after.back().orElseThrow()).isGreaterThanOrEqualTo(before.back().orElseThrow() + 1);
        // At least: the previous test's last lines may be written after the tail began.
        assertThat(answered[0]).isGreaterThanOrEqualTo(2);
        assertThat(answered[1]).isGreaterThanOrEqualTo(1);
    }

    /**
     * The bare form peak sets beside the full edge: the cache filter alone in front of this class's
     * back tier, answering a repeat from its cache (with an Age, and no X-Cache-Status: nothing of the
     * full front's).
     */
    @Test
    void theBareFormCachesInFrontOfTheBackTierAndNothingMore() throws Exception {
        int port = dev.ratecache.proc.Ports.free();
        try (BareForm.Running bare = edge().bareForm().orElseThrow().start(new StackSwitches().spec(ports),
                TestDirs.fresh(EnvoyEdgeTest.class, "bare"), port)) {
            String url = Stacks.fresh("hare");
            Http.Raw first = Http.raw("127.0.21.40", port, "GET", url);
            Http.Raw again = Http.raw("127.0.21.40", port, "GET", url);

            assertThat(first.status()).isEqualTo(200);
            assertThat(again.body()).isEqualTo(first.body());
            assertThat(again.header("Age")).isNotNull();
            assertThat(again.header("X-Cache-Status")).isNull();
            assertThat(reached("hare")).isEqualTo(1);
        }
    }
}
