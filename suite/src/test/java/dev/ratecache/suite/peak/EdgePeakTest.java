package dev.ratecache.suite.peak;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.edge.EdgeProduct;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/** peak --edge's bar and table, from figures made up here: no process runs. */
class EdgePeakTest {
    private static Figure<String> row(String label, double... rates) {
        List<Wrk.Result> runs = java.util.Arrays.stream(rates)
                .mapToObj(r -> new Wrk.Result(r, (long) r, 1, 0, 0, 0.3, 0.25, 1.5)).toList();
        return new Figure<>(label, runs, java.util.Arrays.stream(rates).map(r -> r / 100_000).boxed().toList(),
                java.util.Arrays.stream(rates).map(r -> 1e6 / r).boxed().toList(),
                java.util.Arrays.stream(rates).map(r -> r / 100_000).boxed().toList());
    }

    private static EdgePeak.Outcome outcome(double[] full, double[] bare) {
        double[] ceiling = new double[full.length];
        java.util.Arrays.fill(ceiling, 100_000);
        return new EdgePeak.Outcome(EdgeProduct.HAPROXY, "HIT", 78, row("ceiling: return 200", ceiling),
                row("HAProxy HIT, full edge", full), row("HAProxy HIT, bare form", bare), List.of());
    }

    @Test
    void theBarIsTheMedianOfEachRoundsFullOverItsBare() {
        // Rounds 0.90, 1.00 and 0.94 of the bare form: the median is 0.94, below the bar, although the
        // medians of the two rows (60k over 62k, 0.97) would pass: a round's drift falls on both forms.
        EdgePeak.Outcome below = outcome(new double[] {45_000, 60_000, 70_500}, new double[] {50_000, 60_000, 75_000});
        assertThat(below.fullOverBare()).containsExactly(0.9, 1.0, 0.94);
        assertThat(below.holds()).isFalse();
        assertThat(below.verdict()).isEqualTo("bar: HAProxy's full edge at 0.94 of its bare form's HIT rate (median of"
                + " 3 round(s), range 0.90-1.00; CPU per HIT 1.00 of the bare form's): BELOW, the bar is 0.95"
                + System.lineSeparator() + "the rounds' ratios (0.90-1.00) lie on both sides of 0.95: this run cannot"
                + " tell; run more rounds (8 or more) on an idle machine");

        EdgePeak.Outcome atTheBar = outcome(new double[] {47_500}, new double[] {50_000});
        assertThat(atTheBar.holds()).isTrue();
        assertThat(atTheBar.verdict()).contains("at 0.95 of its bare form's", ": PASS, the bar is 0.95");
    }

    @Test
    void aBareFormThatAnsweredNothingGivesZeroNotInfinity() {
        assertThat(outcome(new double[] {10}, new double[] {0}).fullOverBare()).containsExactly(0.0);
    }

    @Test
    void theTableHasTheCeilingBothFormsAndTheBarsLine() {
        String table = EdgePeak.table(outcome(new double[] {60_000}, new double[] {50_000}));
        assertThat(table).contains("body 78 bytes", "ceiling: return 200", "HAProxy HIT, full edge",
                "HAProxy HIT, bare form", "PASS");
        assertThat(table.lines().filter(l -> l.startsWith("HAProxy HIT, full edge") && l.contains(" 60000 ")
                && l.contains(" 0.60 ") && l.contains("0.60-0.60") && l.contains(" 16.7 "))).hasSize(1);
        assertThat(table.lines().reduce((a, b) -> b).orElseThrow()).startsWith("bar: HAProxy's full edge at 1.20");
    }

    @Test
    void wrkIsGivenTheHostJavasClientSends() {
        // The products key their caches by Host: the warm and wrk must send the same one.
        assertThat(EdgePeak.withoutDefaultPort(URI.create("http://127.0.0.1:80/peak?a=1%20b")))
                .isEqualTo(URI.create("http://127.0.0.1/peak?a=1%20b"));
        assertThat(EdgePeak.withoutDefaultPort(URI.create("http://127.0.0.1:8080/peak")))
                .isEqualTo(URI.create("http://127.0.0.1:8080/peak"));
    }
}
