package dev.ratecache.client.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The many-clients driver's arithmetic: Jain's index and what it reads of Retry-After. */
class ManyClientsTest {
    @Test
    void jainsIndexIsOneForEqualSharesAndOneOverNForOneClientTakingAll() {
        assertThat(ManyClients.jain(new double[] {2, 2, 2, 2})).isEqualTo(1);
        assertThat(ManyClients.jain(new double[] {8, 0, 0, 0})).isCloseTo(0.25, within(1e-9));
        assertThat(ManyClients.jain(new double[] {3, 1})).isCloseTo(16.0 / 20, within(1e-9));
        assertThat(ManyClients.jain(new double[] {0, 0})).isEqualTo(1);
    }

    @Test
    void retryAfterIsReadAsSecondsAndOneWhenMissingOrUnreadable() {
        assertThat(ManyClients.retryAfterSeconds("2")).isEqualTo(2);
        assertThat(ManyClients.retryAfterSeconds(null)).isEqualTo(1);
        assertThat(ManyClients.retryAfterSeconds("Wed, 21 Oct 2015 07:28:00 GMT")).isEqualTo(1);
        assertThat(ManyClients.retryAfterSeconds("-5")).isZero();
    }
}
