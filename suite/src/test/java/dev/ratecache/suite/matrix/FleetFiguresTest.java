package dev.ratecache.suite.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.kinds.fleet.FleetCells;
import dev.ratecache.suite.spec.FleetLimit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A fleet cell's figures on made-up samples: the effective limit, each key's second, what it means. */
class FleetFiguresTest {
    private static final long T0 = 1_700_000_000_000L;
    /** The suite's fleet tiers: free is 20 r/s with a burst of 4, so rate + burst is 24. */
    private static final List<Cell> CELLS = FleetCells.of(KeyedTraffic.fleetTiers(), null, "X-Api-Key", 3);

    static Sample sample(long offsetMs, long elapsed, String label, String code) {
        boolean ok = code.startsWith("2");
        return new Sample(T0 + offsetMs, elapsed, label, code, ok ? "OK" : "Too Many Requests", "t", ok, 100, 1,
                "http://x/hare", "HIT", ok ? "" : "1");
    }

    static Cell cell(String name) {
        return CELLS.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    /** The heavy key at 40 r/s for 3 s, every request admitted (as behind three edges of 20 r/s each), 2 ms each. */
    static List<Sample> everyHeavyRequestAdmitted() {
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            samples.add(sample(i * 25L, 2, "free/" + KeyedTraffic.NOISY, "200"));
        }
        for (int i = 0; i < 30; i++) {
            samples.add(sample(i * 100L, 2, "free/free-1", i % 10 == 0 ? "429" : "200"));
        }
        return samples;
    }

    @Test
    void theCellsAreEachStrategyOverTheEdgesWithTheHeavyKeyAtTwiceItsRate() {
        assertThat(CELLS).extracting(Cell::name).containsExactly("fleet/per-edge", "fleet/client-hash", "fleet/split",
                "fleet/split.uri-hash", "fleet/shared");
        assertThat(cell("fleet/split.uri-hash").trait(Cell.Fleet.class)).isEqualTo(new Cell.Fleet(3, FleetLimit.SPLIT));
        assertThat(cell("fleet/shared").properties().get("keys")).contains("free:40:" + KeyedTraffic.NOISY)
                .contains("free:10:free-1");
        var s = cell("fleet/split").apply(new dev.ratecache.suite.switches.StackSwitches());
        assertThat(s.edges()).isEqualTo(3);
        assertThat(s.fleetLimit()).isEqualTo(FleetLimit.SPLIT);
        assertThat(s.problems()).isEmpty();
    }

    @Test
    void theEffectiveLimitIsTheBusiestSecondOverRatePlusBurst() {
        FleetFigures f = FleetFigures.of(everyHeavyRequestAdmitted(), cell("fleet/per-edge").trait(KeyedTraffic.class), null);

        assertThat(f.heavyKey()).isEqualTo(KeyedTraffic.NOISY);
        assertThat(f.limit()).isEqualTo(24);
        assertThat(f.busiest()).isEqualTo(40);
        assertThat(f.effectiveLimit()).isCloseTo(40 / 24.0, within(1e-9));
        assertThat(f.crowdRejectedPct()).isCloseTo(10.0, within(1e-9));
        assertThat(f.fallbacks()).isNull();
        assertThat(f.worst().key()).isEqualTo(KeyedTraffic.NOISY);
        assertThat(f.worst().broken()).isTrue();
        assertThat(f.meaning(cell("fleet/per-edge"))).startsWith("Behind 3 edges in round robin (per-edge),"
                + " key free-noisy got 1.7x its limit (40 admitted in its busiest second against rate + burst 24)");
    }

    @Test
    void aSecondIsChargedOnlyTheRequestsWhollyInsideIt() {
        List<Sample> samples = new ArrayList<>();
        // 25 admitted starts in one second: the last two took 100 ms (a slow Redis round trip) and ended after it.
        for (int i = 0; i < 25; i++) {
            samples.add(sample(i * 40L, i >= 23 ? 100 : 2, "free/" + KeyedTraffic.NOISY, "200"));
        }
        FleetFigures f = FleetFigures.of(samples, cell("fleet/shared").trait(KeyedTraffic.class), 0L);

        assertThat(f.busiest()).isEqualTo(25);
        FleetFigures.KeyWindow w = f.worst();
        assertThat(w.inside()).isEqualTo(23);
        assertThat(w.straddling()).isEqualTo(2);
        assertThat(w.startMs()).isEqualTo(T0);
        assertThat(w.broken()).isFalse();
        assertThat(f.fallbacks()).isZero();
    }

    @Test
    void anUnderAdmittedKeySaysSo() {
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            samples.add(sample(i * 25L, 2, "free/" + KeyedTraffic.NOISY, i % 5 == 0 ? "200" : "429"));
        }
        FleetFigures f = FleetFigures.of(samples, cell("fleet/split.uri-hash").trait(KeyedTraffic.class), null);

        assertThat(f.busiest()).isEqualTo(8);
        assertThat(f.meaning(cell("fleet/split.uri-hash"))).contains("sharded by URI (split), key")
                .contains("only 0.3x its limit: under-admitted");
    }
}
