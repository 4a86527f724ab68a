package dev.ratecache.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RetryAfterTest {
    private static final Instant NOW = Instant.parse("2025-01-01T12:00:00Z");

    @ParameterizedTest(name = "Retry-After: [{0}] is a wait of {1} s")
    @CsvSource({"'1', 1", "' 120 ', 120"})
    void deltaSecondsIsAWaitOfThatManySeconds(String value, long seconds) {
        assertThat(RetryAfter.parse(value, null, NOW)).isEqualTo(Duration.ofSeconds(seconds));
    }

    @Test
    void httpDateIsAWaitUntilThenCountedFromTheResponsesDate() {
        String at = "Wed, 01 Jan 2025 12:00:30 GMT";
        assertThat(RetryAfter.parse(at, null, NOW)).isEqualTo(Duration.ofSeconds(30));
        // The server's clock says 12:00:20, ours 12:00:00: the server meant 10 s.
        assertThat(RetryAfter.parse(at, "Wed, 01 Jan 2025 12:00:20 GMT", NOW)).isEqualTo(Duration.ofSeconds(10));
        assertThat(RetryAfter.parse("Wed, 01 Jan 2025 11:00:00 GMT", null, NOW)).isEqualTo(Duration.ZERO);
    }

    @ParameterizedTest(name = "Retry-After: [{0}] is no wait at all")
    @ValueSource(strings = {"soon", "-5", ""})
    void unreadableValueIsNoWaitAtAll(String value) {
        assertThat(RetryAfter.parse(value, null, NOW)).isNull();
    }
}
