package dev.ratecache.suite.predict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ratecache.accesslog.ScheduledRequest;
import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.stats.NearestRank;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellMeasurement;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.Generator;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.matrix.Profile;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The predictor on shapes whose answer is known from the limits' arithmetic. */
class PredictorTest {

    private static Prediction predict(Cell cell, StackSwitches base, Map<String, String> props, Profile profile,
            Predictor.ReplayTraffic replay, long minMs) {
        return Predictor.predict(new Predictor.Input(cell, cell.apply(base), props, profile, 10, replay, minMs, 0));
    }

    @Test
    void aFloodIsModelledAtTheMomentsTheGeneratorSentIt() {
        List<dev.ratecache.model.Arrival> nominal = Predictor.flood(4, 1, 0, 2, "/hare");
        List<dev.ratecache.model.Arrival> offered = Predictor.offered(nominal, List.of(600L, 0L, 150L, 300L));

        assertThat(offered).extracting(dev.ratecache.model.Arrival::timeMs).containsExactly(0L, 150L, 300L, 600L);
        assertThat(offered).extracting(dev.ratecache.model.Arrival::client)
                .containsExactlyElementsOf(nominal.stream().map(dev.ratecache.model.Arrival::client).toList());
        assertThat(offered).extracting(dev.ratecache.model.Arrival::path).containsOnly("/hare");
    }

    @Test
    void aFloodTheGeneratorCouldNotKeepUpWithIsModelledAsTheRequestsItSent() {
        List<dev.ratecache.model.Arrival> nominal = Predictor.flood(4, 1, 0, 2, "/hare");
        List<dev.ratecache.model.Arrival> sent = Predictor.offered(nominal, List.of(0L, 400L, 900L));

        // A saturated machine sent three of the four: the limits answered those three, at those moments.
        assertThat(sent).extracting(dev.ratecache.model.Arrival::timeMs).containsExactly(0L, 400L, 900L);
        assertThat(sent).extracting(dev.ratecache.model.Arrival::client)
                .containsExactly(nominal.get(0).client(), nominal.get(1).client(), nominal.get(2).client());
        assertThat(Predictor.offered(nominal, null)).isEqualTo(nominal);
    }

    @Test
    void stressWithoutCacheIsBoundByTheBackLimitsBurstPlusRate() {
        Cell cell = Cell.of(Plan.STRESS, Cell.NO_CACHING).build();
        Prediction p = predict(cell, new StackSwitches(), Plan.STRESS.sizes(Profile.DEFAULT), Profile.DEFAULT, null, 0);
        assertThat(p.predicted()).isTrue();
        // 1000 requests; the back (10 r/s, burst 50, queue) admits its burst and then 10 per second while
        // users that were rejected come straight back: most requests end rejected (SimulationTest: 73 %).
        assertThat(p.value(Metric.REJECTED_PCT)).isBetween(60.0, 90.0);
        double admitted = 1000 * (1 - p.value(Metric.REJECTED_PCT) / 100);
        assertThat(p.value(Metric.ORIGIN_REQUESTS)).isEqualTo(admitted, within(0.5));
        assertThat(p.value(Metric.EDGE_HIT_PCT)).isNull();
    }

    @Test
    void stressWithTheEdgeCacheRejectsNothingAndReachesTheOriginAboutOncePerLifetime() {
        Cell cell = Cell.of(Plan.STRESS, Cell.SERVER_CACHE).serverCache().build();
        Prediction p = predict(cell, new StackSwitches(), Plan.STRESS.sizes(Profile.DEFAULT), Profile.DEFAULT, null, 0);
        assertThat(p.value(Metric.REJECTED_PCT)).isZero();
        // /hare is fresh 3 s: one fetch, then a background refresh per lifetime at most.
        assertThat(p.value(Metric.ORIGIN_REQUESTS)).isBetween(1.0, 10.0);
        assertThat(p.value(Metric.EDGE_HIT_PCT)).isGreaterThan(90.0);
    }

    @Test
    void theRoundTripOverheadComesFromTheCellsFastestSample() {
        Cell cell = Cell.of(Plan.STRESS, Cell.DIRECT).direct().build();
        Prediction none = predict(cell, new StackSwitches(), Plan.STRESS.sizes(Profile.QUICK), Profile.QUICK, null, -1);
        Prediction some = predict(cell, new StackSwitches(), Plan.STRESS.sizes(Profile.QUICK), Profile.QUICK, null, 15);
        // The fastest direct answer is /hare's 10 ms in the quick profile: 15 ms measured leaves 5 ms.
        assertThat(none.overheadMs()).isZero();
        assertThat(some.overheadMs()).isEqualTo(5);
        assertThat(some.value(Metric.P50_MS)).isGreaterThan(none.value(Metric.P50_MS));
        // 100 users on 10 threads of 10 ms: about 1000 responses/s without overhead.
        assertThat(none.value(Metric.THROUGHPUT)).isBetween(150.0, 1100.0);
        assertThat(none.value(Metric.ORIGIN_REQUESTS)).isEqualTo(200.0);
    }

    @Test
    void anOriginDelayTheRunSetIsTheDelayTheModelServesAt() {
        Cell cell = Cell.of(Plan.STRESS, Cell.DIRECT).direct().build();
        Predictor.Input profiles = new Predictor.Input(cell, cell.apply(new StackSwitches()),
                Plan.STRESS.sizes(Profile.QUICK), Profile.QUICK, 10, null, -1, 0);
        Predictor.Input slower = profiles.withOriginDelays(new dev.ratecache.suite.origin.OriginDelays(
                Map.of("hare", java.time.Duration.ofMillis(15))));

        // Straight to the origin, with threads to spare: a median answer is the endpoint's delay.
        assertThat(Predictor.predict(profiles).value(Metric.P50_MS)).isEqualTo(10.0);
        assertThat(Predictor.predict(slower).value(Metric.P50_MS)).isEqualTo(15.0);
    }

    @Test
    void jmetersClientCacheKeepsEachUsersRepeatsFromTheStack() {
        // The load plan, client cache on, no edge cache: each of the 5 users fetches each path once per
        // lifetime, so the origin sees far fewer requests than the 60 the plan sends.
        StackSwitches s = new StackSwitches().cache(false);
        Prediction cached = predict(Cell.of(Plan.LOAD, Cell.CLIENT_CACHE).clientCache().build(), s,
                Plan.LOAD.sizes(Profile.QUICK), Profile.QUICK, null, 0);
        Prediction plain = predict(Cell.of(Plan.LOAD, Cell.NO_CACHING).build(), s, Plan.LOAD.sizes(Profile.QUICK),
                Profile.QUICK, null, 0);

        assertThat(cached.gap()).isNull();
        assertThat(plain.value(Metric.ORIGIN_REQUESTS)).isEqualTo(60.0);
        assertThat(cached.value(Metric.ORIGIN_REQUESTS)).isBetween(15.0, 30.0);
    }

    @Test
    void aPlanThatShufflesItsPathsIsPredictedAsTheMedianOverOrdersWithTheirRange() {
        Prediction load = predict(Cell.of(Plan.LOAD, Cell.SERVER_CACHE).serverCache().build(), new StackSwitches(),
                Plan.LOAD.sizes(Profile.QUICK), Profile.QUICK, null, 3);
        Prediction stress = predict(Cell.of(Plan.STRESS, Cell.SERVER_CACHE).serverCache().build(), new StackSwitches(),
                Plan.STRESS.sizes(Profile.QUICK), Profile.QUICK, null, 3);

        assertThat(load.orders()).isEqualTo(Predictor.ORDERS);
        Prediction.Range throughput = load.range(Metric.THROUGHPUT);
        assertThat(throughput.contains(load.value(Metric.THROUGHPUT))).isTrue();
        // Who asks /snail first decides who waits on the lock and when the last user ends: a CI run
        // measured 57.4/s where the model's first order gave 45.7.
        assertThat(throughput.high()).isGreaterThan(throughput.low() * 1.1);
        assertThat(throughput.contains(57.4)).isTrue();
        assertThat(stress.orders()).isEqualTo(1);
        assertThat(stress.range(Metric.THROUGHPUT)).isNull();
    }

    @Test
    void theOrdersARunDrewArePredictedInsteadOfTheMedianOverSeededOrders() {
        Cell cell = Cell.of(Plan.LOAD, Cell.SERVER_CACHE).serverCache().build();
        Map<String, String> sizes = Plan.LOAD.sizes(Profile.QUICK);
        int users = Integer.parseInt(sizes.get("users"));
        int loops = Integer.parseInt(sizes.get("loops"));
        // Every user asks /snail first each loop: the drawing that makes all of them wait on its lock together.
        List<List<String>> snailFirst = new ArrayList<>();
        List<List<String>> snailLast = new ArrayList<>();
        for (int u = 0; u < users; u++) {
            List<String> first = new ArrayList<>();
            List<String> last = new ArrayList<>();
            for (int l = 0; l < loops; l++) {
                first.addAll(List.of("/snail", "/tortoise", "/hare"));
                last.addAll(List.of("/hare", "/tortoise", "/snail"));
            }
            snailFirst.add(first);
            snailLast.add(last);
        }
        StackSwitches base = new StackSwitches();
        StackSpec stack = cell.apply(base).spec(new StackPorts());
        Prediction median = Predictor.predict(new Predictor.Input(cell, cell.apply(base), sizes, Profile.QUICK, 10,
                null, 3, 0));
        Prediction a = Predictor.predict(new Predictor.Input(cell, stack, sizes, Profile.QUICK, 10, null, 3, 0,
                snailFirst));
        Prediction b = Predictor.predict(new Predictor.Input(cell, stack, sizes, Profile.QUICK, 10, null, 3, 0,
                snailLast));

        assertThat(a.value(Metric.THROUGHPUT)).isNotEqualTo(b.value(Metric.THROUGHPUT));
        assertThat(a.value(Metric.P50_MS)).isNotEqualTo(median.value(Metric.P50_MS));
        // The range still spans the seeded orders, and now the drawn one too.
        assertThat(a.orders()).isEqualTo(Predictor.ORDERS);
        assertThat(a.range(Metric.THROUGHPUT).contains(a.value(Metric.THROUGHPUT))).isTrue();
        assertThat(b.range(Metric.THROUGHPUT).contains(b.value(Metric.THROUGHPUT))).isTrue();
    }

    @Test
    void drawnOrdersThatDoNotFitThePlanFallBackToTheMedian() {
        Cell cell = Cell.of(Plan.LOAD, Cell.SERVER_CACHE).serverCache().build();
        Map<String, String> sizes = Plan.LOAD.sizes(Profile.QUICK);
        StackSwitches base = new StackSwitches();
        StackSpec stack = cell.apply(base).spec(new StackPorts());
        Prediction median = Predictor.predict(new Predictor.Input(cell, cell.apply(base), sizes, Profile.QUICK, 10,
                null, 3, 0));
        Prediction oneUser = Predictor.predict(new Predictor.Input(cell, stack, sizes, Profile.QUICK, 10, null, 3,
                0, List.of(List.of("/hare", "/tortoise", "/snail"))));

        assertThat(oneUser.values()).isEqualTo(median.values());
    }

    @Test
    void aPercentileWhereTheLatenciesJumpIsPredictedOverTheRanksTheSampleAllows() {
        // 100 fast answers then 100 slow: the p50 of 200 samples is the 100th, but a sample of 200
        // may as well put the 87th or the 114th there (±1.96·√50 ranks), so anything between is predicted.
        long[] sorted = new long[200];
        for (int i = 0; i < 200; i++) {
            sorted[i] = i < 100 ? 100 + i : 5000 + i;
        }
        assertThat(NearestRank.percentile(sorted, 50)).isEqualTo(199);
        assertThat(Predictor.percentileRange(sorted, 50)).isEqualTo(new Prediction.Range(186, 5113));
        // p95 at rank 190: ±1.96·√9.5 ranks, 184th to 197th.
        assertThat(Predictor.percentileRange(sorted, 95)).isEqualTo(new Prediction.Range(5183, 5196));
    }

    @Test
    void aFlaggedFigureInsideTheRangeTheModelAllowsSaysSo() {
        Cell cell = Cell.of(Plan.LOAD, Cell.NO_CACHING).build();
        Prediction p = new Prediction(Map.of(Metric.REJECTED_PCT, 50.0, Metric.ORIGIN_REQUESTS, 100.0), null, 3,
                Map.of(Metric.ORIGIN_REQUESTS, new Prediction.Range(90, 140)), Predictor.ORDERS);
        CellPrediction inside = Predictions.compare(result(cell, 50.0, 130.0, 200), p,
                new Predictions.Evidence(null, 50.0, 50.0, 2));
        CellPrediction outside = Predictions.compare(result(cell, 50.0, 150.0, 200), p,
                new Predictions.Evidence(null, 50.0, 50.0, 2));

        assertThat(inside.comparison(Metric.ORIGIN_REQUESTS).flagged()).isTrue();
        assertThat(inside.comparison(Metric.ORIGIN_REQUESTS).text(0)).isEqualTo("130 / 100 ×1.30 [90–140] !");
        assertThat(inside.reasons()).containsExactly(
                "origin_requests 130.0 is inside the range the model allows, 90.0–140.0 over its 100 path orders");
        assertThat(inside.explained()).isTrue();
        assertThat(outside.reasons()).containsExactly(CellPrediction.UNEXPLAINED);
        assertThat(outside.explained()).isFalse();
    }

    @Test
    void theLibrarysRetriesEndFewerRequestsRejectedAndItsStaleAnswersSpareTheOrigin() {
        // The stress plan through both limits, sent by the library: a 429 is retried after
        // Retry-After, so fewer requests end rejected than JMeter's. Its responses queued past their
        // max-age arrive stale, but inside the origin's stale-while-revalidate they answer the next
        // loop at once; their background revalidations, queued behind the back's limit, are given
        // up as each user ends (the model gives 18 % rejected and 92 origin requests, JMeter 45.5 % and 109).
        StackSwitches s = new StackSwitches().cache(false);
        Prediction library = predict(Cell.of(Plan.STRESS, "library").clientCache().generator(Generator.LIBRARY).build(),
                s, Plan.STRESS.sizes(Profile.QUICK), Profile.QUICK, null, 0);
        Prediction jmeter = predict(Cell.of(Plan.STRESS, Cell.NO_CACHING).build(), s, Plan.STRESS.sizes(Profile.QUICK),
                Profile.QUICK, null, 0);

        assertThat(library.gap()).isNull();
        assertThat(library.value(Metric.REJECTED_PCT)).isLessThan(jmeter.value(Metric.REJECTED_PCT));
        assertThat(library.value(Metric.ORIGIN_REQUESTS)).isLessThan(jmeter.value(Metric.ORIGIN_REQUESTS));
    }

    @Test
    void aLibraryCellsRangesSpanTheRaceOfItsRevalidationsWithTheClose() {
        // Quick stress: a user whose first answer came stale after its retries starts a revalidation
        // with its last sample; whether it reaches the back's queue before the client closes decides
        // how many later retries that queue rejects.
        Prediction library = predict(Cell.of(Plan.STRESS, "library").clientCache().generator(Generator.LIBRARY).build(),
                new StackSwitches().cache(false), Plan.STRESS.sizes(Profile.QUICK), Profile.QUICK, null, 0);

        assertThat(library.revalidationRace()).isTrue();
        Prediction.Range rejected = library.range(Metric.REJECTED_PCT);
        assertThat(rejected.contains(library.value(Metric.REJECTED_PCT))).isTrue();
        assertThat(rejected.high()).isGreaterThan(rejected.low());
    }

    @Test
    void cellsTheModelCannotTakeSayWhy() {
        StackSwitches s = new StackSwitches();
        assertThat(predict(Cell.of(Plan.STRESS, Cell.NO_CACHING).build(), new StackSwitches().limitConn(5),
                Plan.STRESS.sizes(Profile.QUICK), Profile.QUICK, null, 0).gap()).isEqualTo("the model does not include limit_conn");
    }

    @Test
    void aReplayIsOpenArrivalsPerClientAtTheirLoggedTimes() {
        // Two clients over 10 s: one at 2 r/s, one sending 40 at once. Front 5 r/s burst 10 per client.
        List<ScheduledRequest> schedule = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            schedule.add(new ScheduledRequest(i * 500L, "127.16.0.1", "GET", "/a?i=" + (i % 2), "10.0.0.1"));
        }
        for (int i = 0; i < 40; i++) {
            schedule.add(new ScheduledRequest(5000, "127.16.0.2", "GET", "/b", "10.0.0.2"));
        }
        schedule.sort(java.util.Comparator.comparingLong(ScheduledRequest::offsetMs));
        Plan plan = Plan.replay(Path.of("schedule.csv"), schedule.size(), 10, 200);
        StackSwitches s = new StackSwitches().frontRate(5).frontBurst(10).backRate(1000).backBurst(1000);
        Predictor.ReplayTraffic traffic = new Predictor.ReplayTraffic(schedule, Map.of("/a", 20L, "/b", 30L), 10);

        Prediction noCache = predict(Cell.of(plan, Cell.NO_CACHING).build(), s, plan.sizes(Profile.DEFAULT),
                Profile.DEFAULT, traffic, 1);
        // burst=10 admits 11 of the 40 at once (a new key starts at excess 0): 29 of 60 rejected.
        assertThat(noCache.value(Metric.REJECTED_PCT)).isEqualTo(100.0 * 29 / 60, within(1e-9));
        assertThat(noCache.value(Metric.ORIGIN_REQUESTS)).isEqualTo(31.0);

        Prediction cached = predict(Cell.of(plan, Cell.SERVER_CACHE).serverCache().build(), s, plan.sizes(Profile.DEFAULT),
                Profile.DEFAULT, traffic, 1);
        // Fresh 10 s: one fetch per URI (/a?i=0, /a?i=1, /b); the 11 /b's in one millisecond wait on the lock.
        assertThat(cached.value(Metric.ORIGIN_REQUESTS)).isEqualTo(3.0);
        assertThat(cached.value(Metric.REJECTED_PCT)).isEqualTo(100.0 * 29 / 60, within(1e-9));
    }

    @Test
    void aReplayThatSendsKeysIsAGapNotAPredictionByAddress() {
        List<ScheduledRequest> schedule = List.of(new ScheduledRequest(0, "127.16.0.1", "GET", "/a", "10.0.0.1", "k1"),
                new ScheduledRequest(500, "127.16.0.1", "GET", "/a", "10.0.0.1", ""));
        Plan plan = Plan.replay(Path.of("schedule.csv"), schedule.size(), 1, 10, "X-Api-Key");
        Predictor.ReplayTraffic traffic = new Predictor.ReplayTraffic(schedule, Map.of("/a", 20L), 10);
        StackSwitches keyed = new StackSwitches().limitKey(dev.ratecache.suite.switches.LimitKey.parse("header:X-Api-Key"));

        assertThat(predict(Cell.of(plan, Cell.NO_CACHING).build(), keyed, plan.sizes(Profile.DEFAULT), Profile.DEFAULT,
                traffic, 1).gap()).startsWith("the model counts a replay's requests by address; this one sends keys");
        // By address the keys mean nothing to nginx: predicted as before.
        assertThat(predict(Cell.of(plan, Cell.NO_CACHING).build(), new StackSwitches(), plan.sizes(Profile.DEFAULT),
                Profile.DEFAULT, traffic, 1).gap()).isNull();
    }

    @Test
    void aFigureOutsideTwentyPercentIsFlaggedWithTheRunsLikelyCause() {
        Cell cell = Cell.of(Plan.STRESS, Cell.NO_CACHING).build();
        Prediction p = new Prediction(Map.of(Metric.REJECTED_PCT, 50.0, Metric.ORIGIN_REQUESTS, 100.0, Metric.P95_MS, 100.0),
                null, 3);
        CellResult r = result(cell, 45.0, 130.0, 200);
        CellPrediction ok = Predictions.compare(r, p, new Predictions.Evidence(null, 50.0, 50.0, 2));
        assertThat(ok.comparison(Metric.REJECTED_PCT).flagged()).isFalse();
        assertThat(ok.comparison(Metric.REJECTED_PCT).ratio()).isEqualTo(0.9, within(1e-9));
        assertThat(ok.comparison(Metric.ORIGIN_REQUESTS).flagged()).isTrue();
        assertThat(ok.comparison(Metric.P95_MS).flagged()).isTrue();
        // Origin requests 30 % over with nothing in the run to explain it: said so, and not "explained".
        assertThat(ok.reasons()).contains(CellPrediction.UNEXPLAINED);
        assertThat(ok.explained()).isFalse();
        // Latency over the prediction is what the model's missing costs do.
        assertThat(ok.reasons()).anyMatch(s -> s.startsWith("the model does not include CPU and network costs"));

        CellPrediction saturated = Predictions.compare(r, p, new Predictions.Evidence(null, 195.0, 50.0, 2));
        assertThat(saturated.reasons()).containsExactly("the origin's CPU was saturated (195 % of 2 cores)");
        assertThat(saturated.explained()).isTrue();

        CellPrediction late = Predictions.compare(r, p, new Predictions.Evidence(450L, 10.0, 10.0, 2));
        assertThat(late.reasons()).containsExactly("the generator fell behind its schedule (lateness p99 450 ms)");
    }

    /** wrk asks again the moment an answer comes: a cell with no delay anywhere is bound by CPU, which the model has not. */
    @Test
    void aCellWrkDrivesIsNotTheSimulationsButTheSharedCpuModels() {
        Cell cell = Cell.of(Plan.ofPath("fast-origin", "/fast", 14), "edge").frontLimit(false).backLimit(false)
                .serverCache().generator(Generator.WRK).property("threads", "10").property("connections", "20")
                .property("duration", "10").build();

        Prediction p = predict(cell, new StackSwitches(), cell.properties(), Profile.DEFAULT, null, 0);

        assertThat(p.predicted()).isFalse();
        assertThat(p.gap()).startsWith(Generator.WRK.cpuPace()).contains("the shared-CPU model predicts such a cell");
    }

    private static CellResult result(Cell cell, double rejectedPct, double origin, long p95) {
        JtlSummary jtl = new JtlSummary(100, Math.round(rejectedPct), 0, 0, 10, 50, 1, 300, 40, 80, p95, 250, 10_000);
        CellMeasurement m = new CellMeasurement(jtl, origin, null, new CellMeasurement.Cpu(null, null, null, null), 10);
        return new CellResult(cell, List.of(m), null, Path.of("."), Path.of("."));
    }
}
