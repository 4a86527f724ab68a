package dev.ratecache.accesslog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The two readings of a whole-second log: its times as written, or each second's requests spread over it. */
class WithinSecondTest {
    @Test
    void startKeepsTheTimesAsWritten() {
        long[] logged = {0, 0, 0, 1000, 3000, 3000};

        assertThat(WithinSecond.START.place(logged)).containsExactly(0, 0, 0, 1000, 3000, 3000);
    }

    @Test
    void spreadPutsEachOfASecondsRequestsInTheMiddleOfItsShareOfTheSecond() {
        // A page and three assets in one second, a lone request, then two in a second.
        long[] logged = {0, 0, 0, 0, 1000, 3000, 3000};

        assertThat(WithinSecond.SPREAD.place(logged)).containsExactly(125, 375, 625, 875, 1500, 3250, 3750);
    }

    @Test
    void spreadKeepsTheOrderAndTheSecondOfEveryRequest() {
        long[] logged = new long[2500];
        for (int i = 0; i < logged.length; i++) {
            logged[i] = i < 2000 ? 7000 : 8000;
        }

        long[] placed = WithinSecond.SPREAD.place(logged);

        for (int i = 0; i < placed.length; i++) {
            assertThat(placed[i] / 1000).isEqualTo(logged[i] / 1000);
            if (i > 0) {
                assertThat(placed[i]).isGreaterThanOrEqualTo(placed[i - 1]);
            }
        }
    }

    @Test
    void spreadLeavesTheGivenArrayAsItWas() {
        long[] logged = {0, 0};

        WithinSecond.SPREAD.place(logged);

        assertThat(logged).containsExactly(0, 0);
    }

    @Test
    void spreadRefusesTimesOutOfOrder() {
        assertThatThrownBy(() -> WithinSecond.SPREAD.place(new long[] {2000, 1000}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("out of order");
    }

    @Test
    void eachReadingNamesTheOther() {
        assertThat(WithinSecond.START.other()).isEqualTo(WithinSecond.SPREAD);
        assertThat(WithinSecond.SPREAD.other()).isEqualTo(WithinSecond.START);
    }
}
