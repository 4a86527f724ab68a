package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.model.HaproxyReqRateSpec;
import dev.ratecache.model.LimitSpec;
import dev.ratecache.model.VsthrottleSpec;
import dev.ratecache.suite.spec.StackSpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The model predicts a HAProxy or Varnish cell with the same numbers the adapter renders: nginx's
 * rate and burst become one window or bucket in one place each (HaproxyEdge.Window,
 * VarnishEdge.Bucket), and the model's LimitSpec must agree, or a prediction is of another limit.
 */
class LimitMappingTest {
    @ParameterizedTest(name = "rate {0} burst {1}")
    @CsvSource({"100, 200", "10, 50", "1, 4", "3, 0", "7, 13", "1000, 1", "333, 999"})
    void theModelsHaproxyWindowIsTheOneRendered(int rate, int burst) {
        HaproxyEdge.Window rendered = HaproxyEdge.Window.of(new StackSpec.Limit(rate, burst, StackSpec.Mode.NODELAY, 0));
        HaproxyReqRateSpec modelled = (HaproxyReqRateSpec) LimitSpec.haproxy(rate, burst, 429);

        assertThat(modelled.periodMs()).isEqualTo(rendered.periodMs());
        assertThat(modelled.threshold()).isEqualTo(rendered.threshold());
        assertThat(modelled.expireMs()).isEqualTo(rendered.expireMs());
    }

    @ParameterizedTest(name = "rate {0} burst {1}")
    @CsvSource({"100, 200", "10, 50", "1, 4", "3, 0", "7, 13", "1000, 1", "333, 999"})
    void theModelsVsthrottleBucketIsTheOneRendered(int rate, int burst) {
        VarnishEdge.Bucket rendered = VarnishEdge.Bucket.of(new StackSpec.Limit(rate, burst, StackSpec.Mode.NODELAY, 0));
        VsthrottleSpec modelled = (VsthrottleSpec) LimitSpec.vsthrottle(rate, burst, 429);

        assertThat(modelled.limit()).isEqualTo(rendered.limit());
        assertThat(modelled.periodMs()).isEqualTo(rendered.periodMs());
    }
}
