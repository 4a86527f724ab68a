package dev.ratecache.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RetryPolicyTest {
    private final RetryPolicy policy = RetryPolicy.builder().maxRetries(3).maxWait(Duration.ofSeconds(2))
            .budget(Duration.ofSeconds(5)).initialBackoff(Duration.ofMillis(200)).retryAfterJitter(0.1).build();

    @Test
    void retryAfterIsAMinimumWithAtMostTheJitterAdded() {
        assertThat(policy.nextWait(0, Duration.ofSeconds(1), Duration.ZERO, 0.0)).isEqualTo(Duration.ofSeconds(1));
        assertThat(policy.nextWait(0, Duration.ofSeconds(1), Duration.ZERO, 0.999)).isBetween(Duration.ofSeconds(1), Duration.ofMillis(1100));
    }

    @Test
    void noSingleWaitIsLongerThanTheCap() {
        assertThat(policy.nextWait(0, Duration.ofSeconds(3600), Duration.ZERO, 0.5)).isEqualTo(Duration.ofSeconds(2));
        assertThat(policy.nextWait(2, null, Duration.ZERO, 0.999)).isLessThanOrEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void backoffDoublesEachRetryWithHalfOfItJittered() {
        assertThat(policy.nextWait(0, null, Duration.ZERO, 0.0)).isEqualTo(Duration.ofMillis(100));
        assertThat(policy.nextWait(0, null, Duration.ZERO, 0.999)).isBetween(Duration.ofMillis(199), Duration.ofMillis(200));
        assertThat(policy.nextWait(1, null, Duration.ZERO, 0.0)).isEqualTo(Duration.ofMillis(200));
        assertThat(policy.nextWait(2, null, Duration.ZERO, 0.0)).isEqualTo(Duration.ofMillis(400));
    }

    @Test
    void noRetryPastTheMaximumOrTheBudget() {
        assertThat(policy.nextWait(3, Duration.ofSeconds(1), Duration.ZERO, 0.0)).isNull();
        assertThat(policy.nextWait(0, Duration.ofSeconds(1), Duration.ofMillis(4500), 0.0)).isNull();
        assertThat(policy.nextWait(0, Duration.ofSeconds(1), Duration.ofMillis(3900), 0.0)).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void quotaResetIsWaitedInFullOrNotAtAll() {
        assertThat(policy.nextQuotaWait(0, Duration.ofSeconds(1), Duration.ZERO, 0.0)).isEqualTo(Duration.ofSeconds(1));
        assertThat(policy.nextQuotaWait(0, Duration.ofSeconds(1), Duration.ZERO, 0.999)).isBetween(Duration.ofSeconds(1), Duration.ofMillis(1100));
        // The jitter is cut at maxWait; the reset itself never is.
        assertThat(policy.nextQuotaWait(0, Duration.ofMillis(1950), Duration.ZERO, 0.999)).isEqualTo(Duration.ofSeconds(2));
        assertThat(policy.nextQuotaWait(0, Duration.ofMillis(2001), Duration.ZERO, 0.0)).isNull();
        assertThat(policy.nextQuotaWait(0, Duration.ofSeconds(86400), Duration.ZERO, 0.0)).isNull();
        assertThat(policy.nextQuotaWait(0, null, Duration.ZERO, 0.0)).isNull();
        assertThat(policy.nextQuotaWait(0, Duration.ofSeconds(1), Duration.ofMillis(4500), 0.0)).isNull();
        assertThat(policy.nextQuotaWait(3, Duration.ofSeconds(1), Duration.ZERO, 0.0)).isNull();
        assertThat(policy.nextQuotaWait(0, Duration.ZERO, Duration.ZERO, 0.5)).isEqualTo(Duration.ZERO);
    }

    @ParameterizedTest(name = "{0} may be repeated: {1}")
    @CsvSource({"GET, true", "put, true", "POST, false", "PATCH, false"})
    void onlyIdempotentMethodsMayBeRepeated(String method, boolean idempotent) {
        assertThat(RetryPolicy.isIdempotent(method)).isEqualTo(idempotent);
    }
}
