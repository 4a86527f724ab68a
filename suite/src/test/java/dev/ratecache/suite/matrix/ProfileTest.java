package dev.ratecache.suite.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.origin.Endpoint;
import dev.ratecache.suite.origin.OriginDefaults;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ProfileTest {

    @Test
    void theQuickProfileGivesTheOriginItsOwnDelaysAndLifetimes() {
        assertThat(Profile.QUICK.originArgs()).containsExactly(
                "--origin.endpoints.hare.delay=10ms", "--origin.endpoints.hare.max-age=1s",
                "--origin.endpoints.tortoise.delay=200ms", "--origin.endpoints.tortoise.max-age=1s",
                "--origin.endpoints.snail.delay=500ms", "--origin.endpoints.snail.max-age=6s");
        assertThat(Profile.QUICK.endpoints()).contains(new Endpoint("tortoise", Duration.ofMillis(200), Duration.ofSeconds(1)));
    }

    @Test
    void theDefaultProfilesRunTheOriginAsItsApplicationYmlSays() {
        assertThat(Profile.DEFAULT.originArgs()).isEmpty();
        assertThat(Profile.FULL.originArgs()).isEmpty();
        assertThat(Profile.DEFAULT.endpoints()).isEqualTo(OriginDefaults.get().endpoints());
        assertThat(Profile.FULL.endpoints()).isEqualTo(OriginDefaults.get().endpoints());
    }
}
