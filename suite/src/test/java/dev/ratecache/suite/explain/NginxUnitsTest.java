package dev.ratecache.suite.explain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.model.Rate;
import org.junit.jupiter.api.Test;

/** Sizes, times and rates read as nginx reads them, and refused where nginx would refuse them. */
class NginxUnitsTest {

    @Test
    void sizesTakeKMAndGInEitherCase() {
        assertThat(NginxUnits.size("10m")).hasValue(10L * 1024 * 1024);
        assertThat(NginxUnits.size("64K")).hasValue(64L * 1024);
        assertThat(NginxUnits.size("512")).hasValue(512);
        assertThat(NginxUnits.size("10mb")).isEmpty();
    }

    @Test
    void timesAddTheirPartsAndANumberAloneIsSeconds() {
        assertThat(NginxUnits.timeMs("1h30m")).hasValue(5_400_000);
        assertThat(NginxUnits.timeMs("1h 30m")).hasValue(5_400_000);
        assertThat(NginxUnits.timeMs("500ms")).hasValue(500);
        assertThat(NginxUnits.timeMs("10")).hasValue(10_000);
        assertThat(NginxUnits.timeMs("1d")).hasValue(86_400_000);
        assertThat(NginxUnits.timeMs("soon")).isEmpty();
    }

    @Test
    void ratesArePerSecondOrPerMinuteAndNothingElse() {
        assertThat(NginxUnits.rate("10r/s")).contains(Rate.perSecond(10));
        assertThat(NginxUnits.rate("6000r/m")).contains(new Rate(100_000));
        assertThat(NginxUnits.rate("10r/h")).isEmpty();
        assertThat(NginxUnits.rate("0r/s")).isEmpty();
    }
}
