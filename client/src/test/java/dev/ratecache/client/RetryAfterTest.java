package dev.ratecache.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RetryAfterTest {
    private static final Instant NOW = Instant.parse("2025-01-01T12:00:00Z");

    @Test
    void deltaSecondsIsAWaitOfThatManySeconds() {
        assertThat(RetryAfter.parse("1", null, NOW)).isEqualTo(Duration.ofSeconds(1));
        assertThat(RetryAfter.parse(" 120 ", null, NOW)).isEqualTo(Duration.ofSeconds(120));
    }

    @Test
    void httpDateIsAWaitUntilThenCountedFromTheResponsesDate() {
        String at = "Wed, 01 Jan 2025 12:00:30 GMT";
        assertThat(RetryAfter.parse(at, null, NOW)).isEqualTo(Duration.ofSeconds(30));
        // The server's clock says 12:00:20, ours 12:00:00: the server meant 10 s.
        assertThat(RetryAfter.parse(at, "Wed, 01 Jan 2025 12:00:20 GMT", NOW)).isEqualTo(Duration.ofSeconds(10));
        assertThat(RetryAfter.parse("Wed, 01 Jan 2025 11:00:00 GMT", null, NOW)).isEqualTo(Duration.ZERO);
    }

    @Test
    void unreadableValueIsNoWaitAtAll() {
        assertThat(RetryAfter.parse("soon", null, NOW)).isNull();
        assertThat(RetryAfter.parse("-5", null, NOW)).isNull();
        assertThat(RetryAfter.parse("", null, NOW)).isNull();
    }
}
