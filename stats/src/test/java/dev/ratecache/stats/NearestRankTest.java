package dev.ratecache.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class NearestRankTest {

    private static final long[] ONE_TO_HUNDRED = LongStream.rangeClosed(1, 100).toArray();

    @Test
    void aPercentileOfOneToAHundredIsItsOwnNumber() {
        assertThat(NearestRank.percentile(ONE_TO_HUNDRED, 50)).isEqualTo(50);
        assertThat(NearestRank.percentile(ONE_TO_HUNDRED, 95)).isEqualTo(95);
        assertThat(NearestRank.percentile(ONE_TO_HUNDRED, 99)).isEqualTo(99);
        // 7 / 100.0 * 100 is 7.000000000000001 in doubles: the rank must still be 7.
        assertThat(NearestRank.percentile(ONE_TO_HUNDRED, 7)).isEqualTo(7);
    }

    @Test
    void zeroIsTheSmallestAndAHundredTheLargest() {
        long[] sorted = {3, 5, 8};
        assertThat(NearestRank.percentile(sorted, 0)).isEqualTo(3);
        assertThat(NearestRank.percentile(sorted, 100)).isEqualTo(8);
        assertThat(NearestRank.percentile(new double[] {0.5, 1.5}, 0)).isEqualTo(0.5);
        assertThat(NearestRank.percentile(new double[] {0.5, 1.5}, 100)).isEqualTo(1.5);
    }

    @Test
    void oneValueIsEveryPercentile() {
        assertThat(NearestRank.percentile(new long[] {7}, 0)).isEqualTo(7);
        assertThat(NearestRank.percentile(new long[] {7}, 1)).isEqualTo(7);
        assertThat(NearestRank.percentile(new long[] {7}, 100)).isEqualTo(7);
    }

    @Test
    void itIsAlwaysAMeasuredValueNeverOneInBetween() {
        // Even count: the p50 is the lower middle (rank 2 of 4), not the mean of 20 and 30.
        assertThat(NearestRank.percentile(new long[] {10, 20, 30, 40}, 50)).isEqualTo(20);
        // Odd count: the middle.
        assertThat(NearestRank.percentile(new long[] {10, 20, 30}, 50)).isEqualTo(20);
        // Just past a rank takes the next value: 51 % of 2 is rank 2.
        assertThat(NearestRank.percentile(new long[] {7, 9}, 51)).isEqualTo(9);
        assertThat(NearestRank.percentile(new long[] {7, 9}, 99)).isEqualTo(9);
        assertThat(NearestRank.percentile(new double[] {1.0, 2.0, 3.0, 4.0}, 95)).isEqualTo(4.0);
    }

    @Test
    void theRanksOfTheSuitesPercentilesAreThoseItsFormerCopiesTook() {
        // Each summary computed ceil(p / 100.0 * n); for the percentiles the suite takes the ranks are the same.
        for (int p : new int[] {0, 50, 90, 95, 99, 100}) {
            for (int n = 1; n <= 20_000; n++) {
                int former = Math.max(1, (int) Math.ceil(p / 100.0 * n));
                assertThat(NearestRank.rank(p, n)).as("p%d of %d", p, n).isEqualTo(former);
            }
        }
    }

    @Test
    void noValuesOrAPercentileOutsideZeroToAHundredIsAnError() {
        assertThatThrownBy(() -> NearestRank.percentile(new long[0], 50)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NearestRank.percentile(new double[0], 50)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NearestRank.rank(100.5, 3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NearestRank.rank(-1, 3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NearestRank.rank(Double.NaN, 3)).isInstanceOf(IllegalArgumentException.class);
    }
}
