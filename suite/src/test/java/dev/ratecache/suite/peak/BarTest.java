package dev.ratecache.suite.peak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The bar's verdict: PASS or BELOW by the rounds' median, and a run that cannot tell said so. */
class BarTest {
    private final Bar bar = new Bar(0.90);

    @Test
    void theMedianOfTheRoundsDecidesPassOrBelow() {
        assertThat(bar.holds(new Spread(List.of(0.91, 0.95, 0.99)))).isTrue();
        assertThat(bar.holds(new Spread(List.of(0.70, 0.73, 0.95)))).isFalse();
    }

    @Test
    void roundsOnBothSidesOfTheBarAreUndecidedWhateverTheirMedian() {
        assertThat(bar.undecided(new Spread(List.of(0.77, 0.93, 0.96)))).isTrue();
        assertThat(bar.undecided(new Spread(List.of(0.70, 0.73, 0.80)))).isFalse();
        assertThat(bar.undecided(new Spread(List.of(0.90, 0.93)))).isFalse();
    }

    @Test
    void theVerdictNamesTheFigureItsRangeAndTheCpuRatio() {
        String line = bar.verdict("the production front", "the bare proxy_cache", "the bare cache", "HIT",
                new Spread(List.of(0.70, 0.73, 0.80)), 1.37);

        assertThat(line).isEqualTo("bar: the production front at 0.73 of the bare proxy_cache's HIT rate (median of 3"
                + " round(s), range 0.70-0.80; CPU per HIT 1.37 of the bare cache's): BELOW, the bar is 0.90");
    }

    @Test
    void aRunThatCannotTellSaysSoOnALineOfItsOwn() {
        String verdict = bar.verdict("HAProxy's full edge", "its bare form", "the bare form", "HIT",
                new Spread(List.of(0.77, 0.93, 0.96)), 1.1);

        assertThat(verdict.lines()).hasSize(2);
        assertThat(verdict.lines().findFirst().orElseThrow()).endsWith("PASS, the bar is 0.90");
        assertThat(verdict).contains("the rounds' ratios (0.77-0.96) lie on both sides of 0.90: this run cannot tell");
    }
}
