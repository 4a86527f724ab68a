package dev.ratecache.suite.origin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

class SpringDurationTest {

    @Test
    void theFormsOfTheOriginsSettingsParse() {
        assertThat(SpringDuration.parse("100ms", ChronoUnit.SECONDS)).isEqualTo(Duration.ofMillis(100));
        assertThat(SpringDuration.parse("3s", ChronoUnit.MILLIS)).isEqualTo(Duration.ofSeconds(3));
        assertThat(SpringDuration.parse("2s", ChronoUnit.MILLIS)).isEqualTo(Duration.ofSeconds(2));
        assertThat(SpringDuration.parse("60s", ChronoUnit.MILLIS)).isEqualTo(Duration.ofSeconds(60));
        assertThat(SpringDuration.parse("10m", ChronoUnit.SECONDS)).isEqualTo(Duration.ofMinutes(10));
        assertThat(SpringDuration.parse("1h", ChronoUnit.SECONDS)).isEqualTo(Duration.ofHours(1));
        assertThat(SpringDuration.parse("1d", ChronoUnit.SECONDS)).isEqualTo(Duration.ofDays(1));
        assertThat(SpringDuration.parse("250us", ChronoUnit.SECONDS)).isEqualTo(Duration.ofNanos(250_000));
        assertThat(SpringDuration.parse(" 5MS ", ChronoUnit.SECONDS)).isEqualTo(Duration.ofMillis(5));
        assertThat(SpringDuration.parse("PT2S", ChronoUnit.MILLIS)).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void aBareNumberIsInThePropertysOwnUnit() {
        assertThat(SpringDuration.parse("50", ChronoUnit.MILLIS)).isEqualTo(Duration.ofMillis(50));
        assertThat(SpringDuration.parse("10", ChronoUnit.SECONDS)).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void anythingElseIsRefused() {
        assertThatThrownBy(() -> SpringDuration.parse("3 s", ChronoUnit.SECONDS)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SpringDuration.parse("3w", ChronoUnit.SECONDS)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SpringDuration.parse("1.5s", ChronoUnit.SECONDS)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void itWritesWholeSecondsAsSecondsAndTheRestAsMilliseconds() {
        assertThat(SpringDuration.format(Duration.ofMillis(10))).isEqualTo("10ms");
        assertThat(SpringDuration.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(SpringDuration.format(Duration.ofSeconds(6))).isEqualTo("6s");
        assertThat(SpringDuration.format(Duration.ZERO)).isEqualTo("0s");
        assertThatThrownBy(() -> SpringDuration.format(Duration.ofNanos(10))).isInstanceOf(IllegalArgumentException.class);
    }
}
