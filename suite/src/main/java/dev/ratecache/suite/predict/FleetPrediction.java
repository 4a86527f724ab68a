package dev.ratecache.suite.predict;

import dev.ratecache.model.Arrival;
import dev.ratecache.model.LimitReq;
import dev.ratecache.model.Rate;
import dev.ratecache.stats.BusiestWindow;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.FleetFigures;
import dev.ratecache.suite.matrix.KeyedTraffic;
import dev.ratecache.suite.nginx.NginxRenderer;
import dev.ratecache.suite.spec.EdgeBalance;
import dev.ratecache.suite.spec.FleetLimit;
import dev.ratecache.suite.switches.LimitTier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the model says a fleet cell's heavy key gets: its effective per-client limit and its admitted
 * rate. Each strategy is limit_req's own bucket, per edge where the edges count alone:
 * <ul>
 * <li>per-edge: N buckets at the full rate and burst behind the balancer's spread;</li>
 * <li>split: N buckets at rate/N (r/m when it does not divide, as NginxRenderer renders it) and
 * burst/N rounded down;</li>
 * <li>shared and client-hash: one bucket, as one limit_req (shared's script is limit_req's
 * arithmetic; client-hash sends every request of a key to one edge).</li>
 * </ul>
 * The spread: round robin gives each edge 1/N of a key's requests, the key's own in turn (the
 * balancer's turn is over every key's requests, and its worker processes each keep their own, so no
 * key follows a pattern that lands it on one edge); URI hash sends them all to one edge, for the plan
 * asks one URL.
 *
 * @param effectiveLimit    the heavy key's admissions in its busiest second over its rate plus burst
 * @param admittedPerSecond its admissions over the plan's hold
 * @param busiest           its admissions in that second
 */
public record FleetPrediction(double effectiveLimit, double admittedPerSecond, int busiest) {
    /** What the simulation of one edge leaves out of a fleet cell: this model predicts its per-client figures instead. */
    public static final String GAP = "the model has one edge and one cache: of a fleet it predicts the heavy key's"
            + " effective limit and admitted rate (the fleet's table), not the edges' caches and latencies";

    /** --matrix fleet's model of its cells: the one-edge simulation's gap, with the fleet's figures beside it. */
    public static final Predictor.Model MODEL = in -> Prediction.gap(GAP).withFleet(of(in.cell(), in.properties()));

    /** The prediction for a fleet cell; null for any other. */
    static FleetPrediction of(Cell cell, Map<String, String> properties) {
        Cell.Fleet fleet = cell.trait(Cell.Fleet.class);
        KeyedTraffic keys = cell.trait(KeyedTraffic.class);
        if (fleet == null || keys == null || keys.noisyKey() == null) {
            return null;
        }
        LimitTier heavyTier = keys.tierOf(keys.noisyKey());
        int hold = Predictor.count(properties, "hold");
        List<Arrival> arrivals = Predictor.keys(properties.get("keys"), hold, "/", true);
        boolean oneBucket = fleet.strategy() == FleetLimit.SHARED || fleet.strategy() == FleetLimit.CLIENT_HASH;
        int edges = oneBucket ? 1 : fleet.edges();
        int share = fleet.strategy() == FleetLimit.SPLIT ? fleet.edges() : 1;
        List<Map<String, LimitReq>> zones = new ArrayList<>();
        for (int e = 0; e < edges; e++) {
            Map<String, LimitReq> byTier = new HashMap<>();
            for (LimitTier t : keys.tiers()) {
                byTier.put(t.name(), new LimitReq(t.mode().limitReq(rate(t.rate(), share), t.burst() / share, 429)));
            }
            zones.add(byTier);
        }
        boolean oneEdge = cell.edgeBalance() == EdgeBalance.URI_HASH;
        List<Long> admitted = new ArrayList<>();
        Map<String, Integer> turns = new HashMap<>();
        for (Arrival a : arrivals) {
            LimitTier tier = keys.tierOf(a.client());
            if (tier == null) {
                continue;
            }
            int turn = turns.merge(a.client(), 1, Integer::sum) - 1;
            int edge = oneEdge ? 0 : turn % edges;
            boolean accepted = zones.get(edge).get(tier.name()).decide(a.client(), a.timeMs()).accepted();
            if (accepted && a.client().equals(keys.noisyKey())) {
                admitted.add(a.timeMs());
            }
        }
        int busiest = BusiestWindow.in(admitted.stream().mapToLong(Long::longValue).toArray(), 1000).count();
        return new FleetPrediction((double) busiest / (heavyTier.rate() + heavyTier.burst()),
                admitted.size() / (double) Math.max(1, hold), busiest);
    }

    /** A tier's rate shared by {@code share} edges, exactly as nginx is given it. */
    static Rate rate(int rate, int share) {
        String argument = NginxRenderer.rateArgument(rate, share);
        long n = Long.parseLong(argument.substring(0, argument.length() - 3));
        return argument.endsWith("r/s") ? Rate.perSecond(n) : Rate.perMinute(n);
    }

    /**
     * The prediction beside the measurement: each figure within ±{@link Predictions#TOLERANCE} of
     * its prediction, or the likely reason it is not.
     */
    public record Comparison(double measuredLimit, double predictedLimit, double measuredRate, double predictedRate,
            String reason) {
        public boolean flagged() {
            return reason != null;
        }

        /** "measured / predicted" of the effective limit, "!" when outside the tolerance. */
        public String limitText() {
            return String.format(Locale.ROOT, "%.2f / %.2f%s", measuredLimit, predictedLimit, flagged() ? " !" : "");
        }

        public String rateText() {
            return String.format(Locale.ROOT, "%.1f / %.1f", measuredRate, predictedRate);
        }
    }

    /** This prediction against a cell's measured figures. */
    public Comparison against(Cell cell, FleetFigures measured) {
        boolean limitOff = off(measured.effectiveLimit(), effectiveLimit);
        boolean rateOff = off(measured.admittedPerSecond(), admittedPerSecond);
        String reason = limitOff || rateOff ? reason(cell, measured.effectiveLimit() > effectiveLimit
                || measured.admittedPerSecond() > admittedPerSecond) : null;
        return new Comparison(measured.effectiveLimit(), effectiveLimit, measured.admittedPerSecond(), admittedPerSecond,
                reason);
    }

    private static boolean off(double measured, double predicted) {
        return predicted == 0 ? measured > 0 : Math.abs(measured / predicted - 1) > Predictions.TOLERANCE;
    }

    /** The likely cause of a figure outside the tolerance, by what the strategy depends on. */
    static String reason(Cell cell, boolean more) {
        FleetLimit strategy = cell.trait(Cell.Fleet.class).strategy();
        boolean roundRobin = cell.edgeBalance() != EdgeBalance.URI_HASH && strategy != FleetLimit.CLIENT_HASH;
        if (roundRobin && (strategy == FleetLimit.SPLIT || strategy == FleetLimit.PER_EDGE)) {
            return "the model gives each edge exactly 1/N of the key's requests, in turn; the balancer's turn is over"
                    + " every key's requests, its worker processes each keep their own and the arrivals jitter, so the"
                    + " heavy key's share of each edge varies"
                    + (strategy == FleetLimit.SPLIT && !more ? ", and an edge it reaches more often rejects it first" : "");
        }
        if (strategy == FleetLimit.SHARED) {
            return "each admission waits on a Redis round trip the model does not have, and a request that fell back was"
                    + " counted by its edge's split limit instead";
        }
        return CellPrediction.UNEXPLAINED;
    }
}
