package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.peak.Figure;
import dev.ratecache.suite.peak.PeakRun;
import dev.ratecache.suite.peak.PeakRun.Kind;
import dev.ratecache.suite.peak.Wrk;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** peak's table with --fleet and --quota, from figures made up here: no process runs. */
class PeakTableTest {
    /** One round: requests/s, CPU microseconds per request and p50, against a ceiling of 100,000 requests/s. */
    private static Figure<Kind> figure(Kind kind, double rate, double cpuMicros, double p50) {
        return new Figure<>(kind, List.of(new Wrk.Result(rate, (long) rate, 1, 0, 0, p50, p50, 2 * p50)),
                List.of(rate / 100_000), List.of(cpuMicros), List.of(7.0 / cpuMicros));
    }

    private static Map<Kind, Figure<Kind>> figures(Kind... kinds) {
        Map<Kind, Figure<Kind>> all = new TreeMap<>();
        all.put(Kind.CEILING, figure(Kind.CEILING, 100_000, 7, 0.5));
        all.put(Kind.HIT, figure(Kind.HIT, 60_000, 14, 1.0));
        all.put(Kind.MISS, figure(Kind.MISS, 1_000, 400, 50));
        all.put(Kind.REJECTION, figure(Kind.REJECTION, 70_000, 11, 0.9));
        Map<Kind, Figure<Kind>> more = Map.of(
                Kind.FLEET_SPLIT_MISS, figure(Kind.FLEET_SPLIT_MISS, 1_200, 410, 40),
                Kind.FLEET_SHARED_MISS, figure(Kind.FLEET_SHARED_MISS, 1_000, 460, 45),
                Kind.FLEET_SPLIT_REJECTION, figure(Kind.FLEET_SPLIT_REJECTION, 20_000, 40, 2.5),
                Kind.FLEET_SHARED_REJECTION, figure(Kind.FLEET_SHARED_REJECTION, 15_000, 70, 3.5),
                Kind.QUOTA_HIT, figure(Kind.QUOTA_HIT, 20_000, 50, 3.0),
                Kind.QUOTA_MISS, figure(Kind.QUOTA_MISS, 900, 440, 55));
        for (Kind kind : kinds) {
            all.put(kind, more.get(kind));
        }
        return all;
    }

    @Test
    void eachRowSetsTheModelsRateBesideItsOwnAndHowFarTheyAre() {
        Figure<Kind> predicted = new Figure<>(Kind.HIT, List.of(new Wrk.Result(55_000, 55_000, 1, 0, 0, 1, 1, 2)),
                List.of(0.55), List.of(14.0), List.of(0.5), List.of(50_000.0));
        Map<Kind, Figure<Kind>> all = figures();
        all.put(Kind.HIT, predicted);

        assertThat(predicted.predictionError()).isCloseTo(0.10, org.assertj.core.api.Assertions.within(1e-9));
        String table = PeakCommand.table(new PeakRun.Outcome(78, all, List.of(), Map.of()));
        assertThat(table.lines().filter(l -> l.startsWith("edge-cache HIT")).findFirst().orElseThrow())
                .endsWith("     50000    +10%");
        // A row without a prediction says so with dashes, not a zero.
        assertThat(table.lines().filter(l -> l.startsWith("MISS to origin")).findFirst().orElseThrow())
                .endsWith("         -       -");
    }

    @Test
    void withoutFleetOrQuotaNothingIsSaidOfRedis() {
        String table = PeakCommand.table(new PeakRun.Outcome(78, figures(), List.of(), Map.of()));
        assertThat(table).contains("edge-cache HIT", "MISS to origin").doesNotContain("Redis", "quota");
    }

    @Test
    void theQuotasCostIsSetBesideTheFleetsEachAgainstTheSamePathWithoutRedis() {
        PeakRun.Outcome outcome = new PeakRun.Outcome(78, figures(Kind.FLEET_SPLIT_MISS, Kind.FLEET_SHARED_MISS,
                Kind.FLEET_SPLIT_REJECTION, Kind.FLEET_SHARED_REJECTION, Kind.QUOTA_HIT, Kind.QUOTA_MISS), List.of(),
                Map.of("PASSED", 20_905L));

        assertThat(outcome.redisCosts()).extracting(c -> c.without().key() + " " + c.with().key()).containsExactly(
                "FLEET_SPLIT_MISS FLEET_SHARED_MISS", "FLEET_SPLIT_REJECTION FLEET_SHARED_REJECTION",
                "HIT QUOTA_HIT", "MISS QUOTA_MISS");
        String table = PeakCommand.table(outcome);
        // The quota's rows in the same columns as every other path's.
        assertThat(table.lines().filter(l -> l.startsWith("HIT, quota in Redis") && l.contains(" 20000 ")
                && l.contains(" 0.20 ") && l.contains(" 50.0 ") && l.contains(" 3.000 "))).hasSize(1);
        assertThat(table).contains("what Redis adds",
                "  MISS, fleet shared          +50.0 cpu us,  +5.000 ms p50, ratio 0.01 -> 0.01 (against MISS, fleet split)",
                "  rejection, fleet shared     +30.0 cpu us,  +1.000 ms p50, ratio 0.20 -> 0.15 (against rejection, fleet split)",
                "  HIT, quota in Redis         +36.0 cpu us,  +2.000 ms p50, ratio 0.60 -> 0.20 (against edge-cache HIT)",
                "  MISS, quota in Redis        +40.0 cpu us,  +5.000 ms p50, ratio 0.01 -> 0.01 (against MISS to origin)",
                "the quota's edge logged: PASSED 20905 (no request rejected)");
    }

    @Test
    void aQuotaThatRejectedIsNotSaidToHaveRejectedNone() {
        PeakRun.Outcome outcome = new PeakRun.Outcome(78, figures(Kind.QUOTA_HIT, Kind.QUOTA_MISS), List.of(),
                Map.of("FALLBACK", 3L, "PASSED", 100L, "REJECTED", 2L));
        assertThat(PeakCommand.table(outcome)).contains("the quota's edge logged: FALLBACK 3, PASSED 100, REJECTED 2")
                .doesNotContain("no request rejected");
    }

    /** Another product's cache HIT row sits after the edge's HIT, each in the products' registration order. */
    @Test
    void eachOtherProductsCacheHitFollowsTheEdgesHitInRegistrationOrder() {
        Map<Kind, Figure<Kind>> all = figures();
        all.put(Kind.cacheHit(EdgeProduct.VARNISH), figure(Kind.cacheHit(EdgeProduct.VARNISH), 50_000, 20, 1.0));
        all.put(Kind.cacheHit(EdgeProduct.HAPROXY), figure(Kind.cacheHit(EdgeProduct.HAPROXY), 80_000, 10, 0.6));

        String table = PeakCommand.table(new PeakRun.Outcome(78, all, List.of(), Map.of()));

        assertThat(table.lines().map(l -> l.split(" {2,}")[0]).toList()).containsSubsequence("ceiling: return 200",
                "edge-cache HIT", "HAProxy cache HIT", "Varnish cache HIT", "MISS to origin", "rejection (limit)");
        // The name the wrk files of HAProxy's row had when it was a fixed row: haproxy_hit-ROUND.
        assertThat(Kind.cacheHit(EdgeProduct.HAPROXY)).extracting(Kind::name, Kind::label)
                .containsExactly("HAPROXY_HIT", "HAProxy cache HIT");
    }
}
