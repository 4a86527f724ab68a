package dev.ratecache.proc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Test JVMs that run side by side share the free ports out by stripe, so none hands out another's. */
class PortStripeTest {

    @Test
    void stripesOfOneCountSplitEveryPortExactlyOnce() {
        Ports.Stripe first = Ports.Stripe.of("1/2");
        Ports.Stripe second = Ports.Stripe.of("2/2");
        IntStream.range(10_000, 10_100).forEach(port ->
                assertThat(first.holds(port) ^ second.holds(port)).as("port %d", port).isTrue());
    }

    @Test
    void noStripeHoldsEveryPort() {
        assertThat(IntStream.range(10_000, 10_100).allMatch(Ports.Stripe.of(null)::holds)).isTrue();
        assertThat(IntStream.range(10_000, 10_100).allMatch(Ports.Stripe.of(" ")::holds)).isTrue();
    }

    @Test
    void aStripeOutsideItsCountIsRefused() {
        assertThatThrownBy(() -> Ports.Stripe.of("3/2")).hasMessageContaining("K/N");
        assertThatThrownBy(() -> Ports.Stripe.of("0/2")).hasMessageContaining("K/N");
    }
}
