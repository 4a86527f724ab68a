package dev.ratecache.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class MedianTest {

    @Test
    void anOddCountGivesTheMiddleValueInAnyOrder() {
        assertThat(Median.of(new double[] {5, 1, 3})).isEqualTo(3);
        assertThat(Median.of(List.of(9.0, 2.0, 7.0, 1.0, 8.0))).isEqualTo(7);
    }

    @Test
    void anEvenCountGivesTheMeanOfTheTwoMiddleValues() {
        assertThat(Median.of(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
        assertThat(Median.of(List.of(10.0, 20.0))).isEqualTo(15);
        assertThat(Median.of(List.of(1, 2, 3, 100))).isEqualTo(2.5);
    }

    @Test
    void oneValueIsItsOwnMedianAndNoneHasNone() {
        assertThat(Median.of(new double[] {42})).isEqualTo(42);
        assertThat(Median.of(new double[0])).isNaN();
        assertThat(Median.of(List.<Double>of())).isNaN();
    }

    @Test
    void theCallersValuesAreLeftInTheirOrder() {
        double[] values = {3, 1, 2};
        Median.of(values);
        assertThat(values).containsExactly(3, 1, 2);
    }
}
