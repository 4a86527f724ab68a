package dev.ratecache.suite.origin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.matrix.Profile;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** --origin-delay: one endpoint's delay set over the profile's, for the origin and for the model alike. */
class OriginDelaysTest {
    private static final OriginDelays HARE_150 = new OriginDelays(Map.of("hare", Duration.ofMillis(150)));

    @Test
    void aDelayReplacesTheProfilesForItsEndpointAlone() {
        List<Endpoint> endpoints = HARE_150.apply(Profile.QUICK.endpoints());

        assertThat(endpoints).extracting(Endpoint::name, Endpoint::delay).containsExactly(
                org.assertj.core.groups.Tuple.tuple("hare", Duration.ofMillis(150)),
                org.assertj.core.groups.Tuple.tuple("tortoise", Duration.ofMillis(200)),
                org.assertj.core.groups.Tuple.tuple("snail", Duration.ofMillis(500)));
        assertThat(endpoints.get(0).maxAge()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void theOriginsArgumentsOverrideTheProfilesInsteadOfFollowingThem() {
        List<String> args = new java.util.ArrayList<>(Profile.QUICK.originArgs());
        args.addAll(HARE_150.originArgs());

        List<String> merged = OriginDelays.lastWins(args);

        // Spring would join two values of one property with a comma, which no duration binds.
        assertThat(merged).contains("--origin.endpoints.hare.delay=150ms")
                .doesNotContain("--origin.endpoints.hare.delay=10ms")
                .contains("--origin.endpoints.hare.max-age=1s", "--origin.endpoints.tortoise.delay=200ms");
        assertThat(merged).hasSize(Profile.QUICK.originArgs().size());
    }

    @Test
    void itIsSaidInTheRunsDescription() {
        assertThat(HARE_150.describe()).isEqualTo("/hare 150 ms");
        assertThat(OriginDelays.NONE.isEmpty()).isTrue();
    }
}
