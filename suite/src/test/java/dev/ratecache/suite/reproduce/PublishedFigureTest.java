package dev.ratecache.suite.reproduce;

import static dev.ratecache.suite.matrix.Metric.CPU_FRONT_PCT;
import static dev.ratecache.suite.matrix.Metric.CPU_ORIGIN_PCT;
import static dev.ratecache.suite.matrix.Metric.CPU_POSTGRES_PCT;
import static dev.ratecache.suite.matrix.Metric.MAX_MS;
import static dev.ratecache.suite.matrix.Metric.MEAN_MS;
import static dev.ratecache.suite.matrix.Metric.SAMPLES;
import static dev.ratecache.suite.matrix.Metric.THROUGHPUT;
import static dev.ratecache.suite.matrix.Metric.WALL_S;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.ratecache.suite.matrix.Metric;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A published figure, read as its write-up meant it and kept as it printed it. */
class PublishedFigureTest {

    @ParameterizedTest(name = "{1} is {2} for {0}")
    @CsvSource(delimiter = ';', value = {"THROUGHPUT; 124366.73; 124366.73", "THROUGHPUT; about 70K/sec; 70000",
            "THROUGHPUT; 32,179; 32179", "THROUGHPUT; about 1,050; 1050", "MEAN_MS; 354.85us; 0.35485",
            "MEAN_MS; 65.27ms; 65.27", "MAX_MS; 5.00s; 5000", "MEAN_MS; 6874; 6874", "REJECTED_PCT; 54%; 54",
            "SAMPLES; 1256199; 1256199", "WALL_S; 3 s; 3", "WALL_S; 22s; 22", "WALL_S; 2m24s; 144",
            "MEAN_MS; 2m24s; 144000", "CPU_ORIGIN_PCT; 310; 310", "THROUGHPUT; +2.5 K; 2500", "MEAN_MS; 400+ ms; 400"})
    void aFigureIsReadInItsMetricsUnit(Metric metric, String printed, double value) {
        PublishedFigure f = PublishedFigure.of(metric, printed);

        assertThat(f.value()).isCloseTo(value, within(1e-9));
        assertThat(f.printed()).isEqualTo(printed);
    }

    @Test
    void aTimeForAFigureThatIsNoTimeOrNoNumberAtAllIsRefused() {
        assertThatThrownBy(() -> PublishedFigure.of(THROUGHPUT, "5ms")).hasMessage("'5ms' is a time, and throughput is no time");
        assertThatThrownBy(() -> PublishedFigure.of(MEAN_MS, "fast")).hasMessage("no number in the published figure 'fast'");
    }

    /** The reference experiment's figures are numbers in Plan: printed as the write-up did, "23" not "23.0". */
    @Test
    void aFigureHeldAsANumberIsPrintedWithoutTrailingZeros() {
        assertThat(List.of(PublishedFigure.of(THROUGHPUT, 23.0), PublishedFigure.of(THROUGHPUT, 99.3), PublishedFigure.of(MEAN_MS, 6874.0),
                PublishedFigure.of(MEAN_MS, 0.0))).extracting(PublishedFigure::printed).containsExactly("23", "99.3", "6874", "0");
    }

    /** The write-ups' figures, quoted: a figure here that differs from its seed is a misquote. */
    @Test
    void thePublishedTablesQuoteTheSeeds() {
        assertThat(printed("redis-vs-nginx", THROUGHPUT)).containsExactly("169.76", "428.75");
        assertThat(printed("redis-vs-nginx", MEAN_MS)).containsExactly("65.27ms", "23.38ms");
        assertThat(printed("redis-vs-nginx", MAX_MS)).containsExactly("472.13ms", "71.50ms");
        assertThat(printed("redis-vs-nginx", SAMPLES)).containsExactly("1704", "4293");
        assertThat(printed("fast-origin", THROUGHPUT)).containsExactly("124366.73", "about 70K/sec", "18838.56",
                "30361.88");
        assertThat(printed("fast-origin", MEAN_MS)).containsExactly("354.85us", "1.11ms", "663.15us");
        assertThat(printed("fast-origin", MAX_MS)).containsExactly("47.24ms", "33.09ms", "9.87ms");
        assertThat(printed("fast-origin", SAMPLES)).containsExactly("1256199", "190319", "306649");
        assertThat(printed("haproxy-cache", THROUGHPUT)).containsExactly("32179.23", "4510.63", "9210.26", "1180");
        assertThat(printed("haproxy-cache", CPU_FRONT_PCT)).containsExactly("120", "0", "80", "0");
        assertThat(printed("haproxy-cache", CPU_POSTGRES_PCT)).containsExactly("0", "120", "0", "130");
        assertThat(printed("haproxy-cache", CPU_ORIGIN_PCT)).containsExactly("0", "310", "0", "310");
        assertThat(printed("haproxy-cache", WALL_S)).containsExactly("3 s", "22s", "10 s", "2m24s");
        assertThat(printed("redis-balancer", THROUGHPUT)).containsExactly("about 400 RPS", "around 1050 RPS",
                "about 1.7 K RPS", "~2.0 K RPS", "+2.5 K RPS");
        assertThat(printed("redis-balancer", MEAN_MS)).containsExactly("328 ms", "187 ms", "about 12.5 ms", "3.56 ms");
        assertThat(Reproductions.named("redis-balancer").published()).extracting(PublishedRow::throughput)
                .containsExactly(400.0, 1050.0, 1700.0, 2000.0, 2500.0);
    }

    private static List<String> printed(String experiment, Metric metric) {
        return Reproductions.named(experiment).published().stream().flatMap(r -> r.figure(metric).stream())
                .map(PublishedFigure::printed).toList();
    }
}
