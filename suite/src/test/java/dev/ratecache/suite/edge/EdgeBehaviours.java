package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.suite.switches.AddressCeiling;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.TestDirs;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What every edge product's two tiers do alike in front of the suite's origin, one stack per
 * class: a repeat is a HIT, and a request with Authorization or a Cookie never is. Each product's
 * class extends this, runs the behaviours of what its product can do by implementing their
 * interfaces ({@link EdgeFreshness}, {@link EdgeInvalidation}, and per capability
 * {@link EdgeStale}, {@link EdgeCoalescing}, {@link EdgePurge}: {@code BehavioursPerCapabilityTest}
 * checks which), and adds its own. One instance per class, so that the stack is the subclass's own
 * (a static @BeforeAll here would run once per subclass into shared fields).
 * The tests here send from an address each, so each has a per-client limit of its own: the
 * front's is 1 a second with burst {@value #FRONT_BURST}, which no busy machine refills between
 * two steps, keyed by the header {@value #KEY_HEADER} that only the keyed tests send, with the
 * address ceiling of auto beside it, and {@value #ALLOWED}.0/24 never limited per client. The interfaces' requests each come from an address of their own
 * ({@link #get(String, String...)}). The back has no limit: every test's misses would share it.
 */
@ExtendWith(SharedOrigin.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class EdgeBehaviours implements EdgeStack {
    static final int FRONT_BURST = 4;
    /** What a request from one address may pass at once: burst + 1. */
    static final int FRONT_THRESHOLD = FRONT_BURST + 1;
    static final String KEY_HEADER = "X-Api-Key";
    /** The --address-ceiling auto of the front's numbers: ten times its rate and burst. */
    static final int CEILING_THRESHOLD = AddressCeiling.AUTO_FACTOR * FRONT_BURST + 1;
    /** The first three parts of the --allow network, which no other test sends from. */
    static final String ALLOWED = "127.0.12";

    Edge.Running stack;
    StackPorts ports;
    OriginServer origin;
    private final AtomicInteger sent = new AtomicInteger();

    /** The product under test. */
    abstract Edge edge();

    /**
     * The first three parts of the addresses this class's tests send from; the shared tests here
     * take .201 to .206, the subclass's own any other.
     */
    abstract String subnet();

    /**
     * The first two parts of the addresses the behaviour interfaces' requests come from, one each,
     * apart from {@link #subnet()}'s.
     */
    abstract String pool();

    @BeforeAll
    void start(OriginServer shared) throws Exception {
        origin = shared;
        ports = StackPorts.free().origin(origin.port(), origin.managementPort());
        // Keyed, with the address ceiling auto makes of it, and one allowed network: a request without
        // the key, as every test's but the keyed ones', is counted by its address as if unkeyed.
        StackSwitches switches = new StackSwitches().frontRate(1).frontBurst(FRONT_BURST)
                .frontMode(LimitMode.NODELAY).backLimit(false).limitKey(LimitKey.parse("header:" + KEY_HEADER))
                .allow(List.of(ALLOWED + ".0/24"));
        stack = edge().start(switches.spec(ports), TestDirs.fresh(getClass(), "stack"));
    }

    @AfterAll
    void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    Http.Raw getFrom(String source, String path, String... headers) {
        return sendFrom(source, "GET", path, headers);
    }

    @Override
    public Http.Raw sendFrom(String source, String method, String url, String... headers) {
        return Http.raw(source, ports.front(), method, url, headers);
    }

    @Override
    public String nextAddress() {
        int n = sent.incrementAndGet();
        return pool() + "." + n / 250 + "." + (n % 250 + 1);
    }

    /** Every request at once, each on a thread of its own. */
    static List<Http.Raw> atOnce(List<Callable<Http.Raw>> requests) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(requests.size());
        try {
            List<Http.Raw> all = new ArrayList<>();
            for (Future<Http.Raw> a : pool.invokeAll(requests)) {
                all.add(a.get());
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }

    @Override
    public OriginServer origin() {
        return origin;
    }

    @Test
    void aRepeatIsAHitThatNeverReachesTheOrigin() throws Exception {
        String url = Stacks.fresh("hare");
        String client = subnet() + ".201";

        Http.Raw first = getFrom(client, url);
        Http.Raw again = getFrom(client, url);

        assertThat(first.header("X-Cache-Status")).isEqualTo("MISS");
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.header("X-Cache-Status")).isEqualTo("HIT");
        assertThat(again.body()).isEqualTo(first.body());
        assertThat(reached("hare")).isEqualTo(1);
    }

    @Test
    void aRequestWithAuthorizationIsNeverAHit() throws Exception {
        assertNeverAHit(subnet() + ".202", "Authorization: Bearer one");
    }

    @Test
    void aRequestWithACookieIsNeverAHit() throws Exception {
        assertNeverAHit(subnet() + ".203", "Cookie: session=one");
    }

    /**
     * Twice with {@code header}, then without: each reaches the origin, and nothing asked with it
     * is stored for anyone.
     */
    private void assertNeverAHit(String client, String header) throws Exception {
        String url = Stacks.fresh("hare");

        Http.Raw first = getFrom(client, url, header);
        Http.Raw again = getFrom(client, url, header);
        Http.Raw anonymous = getFrom(client, url);

        assertThat(List.of(first.header("X-Cache-Status"), again.header("X-Cache-Status")))
                .containsExactly("BYPASS", "BYPASS");
        assertThat(anonymous.header("X-Cache-Status")).isEqualTo("MISS");
        assertThat(reached("hare")).isEqualTo(3);
    }

    /** {@code keys.get(i)} sends request i, all at once from {@code client}, each to a URL of its own. */
    private List<Http.Raw> atOnceWithKeys(String client, List<String> keys) throws Exception {
        return atOnce(keys.stream().map(k -> (Callable<Http.Raw>) () ->
                getFrom(client, Stacks.fresh("hare"), KEY_HEADER + ": " + k)).toList());
    }

    private static long passed(List<Http.Raw> answers) {
        return answers.stream().filter(a -> a.status() == 200).count();
    }

    @Test
    void twoKeysFromOneAddressEachGetTheirOwnBurst() throws Exception {
        List<String> keys = new ArrayList<>(Collections.nCopies(FRONT_THRESHOLD, "alice"));
        keys.addAll(Collections.nCopies(FRONT_THRESHOLD, "bob"));

        // By address alone, one burst: half of them would be rejected.
        assertThat(atOnceWithKeys(subnet() + ".204", keys)).allSatisfy(a -> assertThat(a.status()).isEqualTo(200));
    }

    @Test
    void aKeyOverItsBurstIsRejectedWhileAnotherKeyFromTheSameAddressPasses() throws Exception {
        String client = subnet() + ".205";

        List<Http.Raw> flood = atOnceWithKeys(client, Collections.nCopies(2 * FRONT_THRESHOLD, "carol"));
        Http.Raw other = getFrom(client, Stacks.fresh("hare"), KEY_HEADER + ": dave");

        assertThat(passed(flood)).isEqualTo(FRONT_THRESHOLD);
        assertThat(flood.stream().filter(a -> a.status() != 200)).allSatisfy(a -> assertThat(a.status()).isEqualTo(429));
        assertThat(other.status()).isEqualTo(200);
    }

    /**
     * A new key per request from one address: the ceiling (auto: 10 r/s, burst 40, so 41 at once)
     * stops it. Sent at once, but on a busy machine the last may come a moment after the first,
     * while the ceiling refills 10 a second: a second's refill is allowed.
     */
    @Test
    void anAddressMakingUpAKeyPerRequestMeetsTheAddressCeiling() throws Exception {
        List<Http.Raw> answers = atOnceWithKeys(subnet() + ".206",
                IntStream.range(0, 2 * CEILING_THRESHOLD).mapToObj(i -> "key-" + i).toList());

        assertThat(passed(answers)).isBetween((long) CEILING_THRESHOLD,
                CEILING_THRESHOLD + (long) AddressCeiling.AUTO_FACTOR);
        assertThat(answers.stream().filter(a -> a.status() != 200)).allSatisfy(a -> assertThat(a.status()).isEqualTo(429));
    }

    @Test
    void anAllowedNetworksClientIsNeverRejectedByThePerClientLimit() throws Exception {
        List<Http.Raw> answers = atOnce(IntStream.range(0, 2 * FRONT_THRESHOLD)
                .mapToObj(i -> (Callable<Http.Raw>) () -> getFrom(ALLOWED + ".1", Stacks.fresh("hare"))).toList());

        assertThat(answers).allSatisfy(a -> assertThat(a.status()).isEqualTo(200));
    }
}
