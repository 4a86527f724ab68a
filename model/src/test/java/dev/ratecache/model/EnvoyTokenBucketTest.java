package dev.ratecache.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Envoy 1.40's local rate limit bucket (AtomicTokenBucketImpl), on hand-computed arrivals. */
class EnvoyTokenBucketTest {

    /** Passed or not, for each time in seconds, all from key "a". */
    static List<Boolean> passes(EnvoyTokenBucket bucket, double... times) {
        List<Boolean> got = new ArrayList<>();
        for (double t : times) {
            got.add(bucket.consume("a", t));
        }
        return got;
    }

    @Test
    void aNewKeyStartsWithAFullBucketThenIsRefused() {
        EnvoyTokenBucket bucket = new EnvoyTokenBucket(3, 1, 1000, 10);
        assertThat(passes(bucket, 10, 10, 10, 10)).containsExactly(true, true, true, false);
    }

    @Test
    void theRefillIsContinuousAndTheFractionIsKept() {
        // Ten a second, drained at 0: 60 ms earns 0.6 (refused, nothing charged), 120 ms 1.2 (one
        // passes, 0.2 kept), 200 ms 0.2 + 0.8 = 1.0 (passes): no tick, no fraction lost.
        EnvoyTokenBucket bucket = new EnvoyTokenBucket(10, 10, 1000, 10);
        for (int i = 0; i < 10; i++) {
            assertThat(bucket.consume("a", 0)).isTrue();
        }
        assertThat(passes(bucket, 0.06, 0.12, 0.2)).containsExactly(false, true, true);
    }

    @Test
    void aStreamOverTheRatePassesExactlyTheRate() {
        // A request every 60 ms against ten a second, after the bucket drained: 10 pass in the next
        // second (vsthrottle 0.20 lets 8 through the same stream: VsthrottleTest).
        EnvoyTokenBucket bucket = new EnvoyTokenBucket(10, 10, 1000, 10);
        for (int i = 0; i < 10; i++) {
            bucket.consume("a", 0);
        }
        int passed = 0;
        for (int ms = 60; ms <= 1020; ms += 60) {
            passed += bucket.decide("a", ms).accepted() ? 1 : 0;
        }
        assertThat(passed).isEqualTo(10);
    }

    @Test
    void tokensPerFillOverTheIntervalIsTheRateWhateverTheInterval() {
        // 5 per 500 ms is 10 a second: drained, 100 ms later there is one token.
        EnvoyTokenBucket bucket = new EnvoyTokenBucket(5, 5, 500, 10);
        for (int i = 0; i < 5; i++) {
            bucket.consume("a", 0);
        }
        assertThat(passes(bucket, 0.099, 0.1)).containsExactly(false, true);
    }

    @Test
    void theBucketNeverHoldsMoreThanItsMaximum() {
        EnvoyTokenBucket bucket = new EnvoyTokenBucket(2, 1, 1000, 10);
        bucket.consume("a", 0);
        assertThat(bucket.tokens("a", 3600)).isEqualTo(2.0);
        assertThat(passes(bucket, 3600, 3600, 3600)).containsExactly(true, true, false);
    }

    @Test
    void aLastTokenLostToDoubleRoundingIsRefused() {
        // Two tokens at ten a second, both taken at the same 3600 s: the first moves t to
        // 3600 - 0.1, which is not exactly representable, and (3600 - t) * 10 comes out a hair
        // under 1: the second is refused, as in Envoy, whose clock is in doubles of seconds too.
        EnvoyTokenBucket bucket = new EnvoyTokenBucket(2, 10, 1000, 10);
        bucket.consume("a", 0);
        assertThat(passes(bucket, 3600, 3600)).containsExactly(true, false);
        assertThat(bucket.tokens("a", 3600)).isLessThan(1.0).isGreaterThan(0.999_999);
    }

    @Test
    void eachKeyHasItsOwnBucketAndTheLeastRecentlyUsedIsDroppedAndComesBackFull() {
        EnvoyTokenBucket bucket = new EnvoyTokenBucket(1, 1, 1000, 2);
        assertThat(bucket.consume("a", 0)).isTrue();
        assertThat(bucket.consume("b", 0)).isTrue();
        assertThat(bucket.consume("a", 0)).isFalse();
        // a was used after b: c pushes b out, not a.
        assertThat(bucket.consume("c", 0)).isTrue();
        assertThat(bucket.consume("a", 0)).isFalse();
        assertThat(bucket.consume("b", 0)).isTrue();
    }

    @Test
    void envoysFactoryIsTheSuitesRendering() {
        EnvoyTokenBucketSpec spec = LimitSpec.envoy(100, 200, 429);
        assertThat(spec).isEqualTo(new EnvoyTokenBucketSpec(201, 100, 1000, 80_000, 429));
        assertThat(spec.limiter().decide("x", 0).accepted()).isTrue();
    }

    @Test
    void aFillIntervalUnderEnvoysMinimumIsRefused() {
        assertThatThrownBy(() -> new EnvoyTokenBucket(1, 1, 49, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 50 ms");
    }
}
