package dev.ratecache.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BusiestWindowTest {

    @Test
    void aBurstAcrossTwoClockSecondsIsSeenWhole() {
        // Six times from 900 to 1400: two clock seconds hold 3 each, the window from 900 holds all six.
        long[] times = {100, 900, 950, 999, 1000, 1200, 1400, 3000};
        assertThat(BusiestWindow.in(times, 1000)).isEqualTo(new BusiestWindow(6, 900));
    }

    @Test
    void aWindowIncludesItsStartAndExcludesItsEnd() {
        // [0, 1000) holds 0 and 999 only; 1000 starts the next.
        assertThat(BusiestWindow.in(new long[] {0, 999, 1000}, 1000)).isEqualTo(new BusiestWindow(2, 0));
        assertThat(BusiestWindow.in(new long[] {0, 1000, 2000}, 1000)).isEqualTo(new BusiestWindow(1, 0));
        assertThat(BusiestWindow.in(new long[] {0, 1000, 1999}, 1000)).isEqualTo(new BusiestWindow(2, 1000));
    }

    @Test
    void theFirstOfEquallyBusyWindowsIsNamed() {
        assertThat(BusiestWindow.in(new long[] {0, 10, 5000, 5010}, 1000)).isEqualTo(new BusiestWindow(2, 0));
    }

    @Test
    void equalTimesAllCount() {
        assertThat(BusiestWindow.in(new long[] {7, 7, 7}, 1)).isEqualTo(new BusiestWindow(3, 7));
    }

    @Test
    void oneTimeIsAWindowOfOneAndNoneOfNone() {
        assertThat(BusiestWindow.in(new long[] {-5}, 10_000)).isEqualTo(new BusiestWindow(1, -5));
        assertThat(BusiestWindow.in(new long[0], 1000)).isEqualTo(new BusiestWindow(0, 0));
    }

    @Test
    void timesOutOfOrderOrAnEmptyWidthAreErrors() {
        assertThatThrownBy(() -> BusiestWindow.in(new long[] {2, 1}, 1000)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BusiestWindow.in(new long[] {1}, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
