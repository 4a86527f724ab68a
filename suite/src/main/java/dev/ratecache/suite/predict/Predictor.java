package dev.ratecache.suite.predict;

import dev.ratecache.accesslog.ScheduledRequest;
import dev.ratecache.model.Arrival;
import dev.ratecache.model.CacheStatus;
import dev.ratecache.model.EdgeCacheSpec;
import dev.ratecache.model.Freshness;
import dev.ratecache.model.LimitSpec;
import dev.ratecache.model.OriginSpec;
import dev.ratecache.model.PathSpec;
import dev.ratecache.model.RequestOutcome;
import dev.ratecache.model.Simulation;
import dev.ratecache.model.SimulationResult;
import dev.ratecache.model.SimulationSpec;
import dev.ratecache.model.Workload;
import dev.ratecache.stats.Median;
import dev.ratecache.stats.NearestRank;
import dev.ratecache.suite.edge.Edge;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.KeyedTraffic;
import dev.ratecache.suite.matrix.LibraryDriver;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.matrix.Profile;
import dev.ratecache.suite.origin.Endpoint;
import dev.ratecache.suite.origin.OriginDefaults;
import dev.ratecache.suite.origin.OriginDelays;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.LimitTier;
import dev.ratecache.suite.switches.StackSwitches;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a cell, the switches it ran with and the JMeter properties that sized it into the model's
 * {@link SimulationSpec} and {@link Workload}, and runs it: what the cell should have measured if
 * nginx, the origin and the client behaved as the model says.
 *
 * <p>The model has no network and no CPU: the only client cost of a closed workload is one
 * round-trip overhead per request. It is taken from the cell itself: the measured fastest sample
 * minus the model's fastest answer (both are the cheapest request the run made, usually a
 * rejection or a cache hit), so nothing machine-specific is baked in.
 */
public final class Predictor {

    /** The metrics a prediction covers. */
    public static final List<Metric> METRICS = List.of(Metric.THROUGHPUT, Metric.REJECTED_PCT,
            Metric.ORIGIN_REQUESTS, Metric.EDGE_HIT_PCT, Metric.P50_MS, Metric.P95_MS);

    private Predictor() {}

    /**
     * A replayed log as the model needs it.
     *
     * @param schedule      the rows JMeter sent, each at its offset from its own address
     * @param delayMsByPath the origin's delay per path (paths.csv); a path without one gets the origin's
     *                      {@link OriginDefaults#replayDefaultDelay()}
     * @param maxAgeSec     the freshness the origin gives every replayed path (replay --max-age)
     */
    public record ReplayTraffic(List<ScheduledRequest> schedule, Map<String, Long> delayMsByPath, long maxAgeSec) {
        public ReplayTraffic {
            schedule = List.copyOf(schedule);
            delayMsByPath = Map.copyOf(delayMsByPath);
        }
    }

    /**
     * How long the origin took to answer one path's requests in a cell, as the back tier timed them.
     *
     * @param p10Ms the 10th percentile
     * @param p50Ms the median
     * @param p90Ms the 90th percentile
     */
    public record OriginTimes(long p10Ms, long p50Ms, long p90Ms) {}

    /**
     * A closed plan's users as a run measured them.
     *
     * @param startsMs when each user sent its first request, ms after the cell's first
     *                 ({@link Workload.Closed#startsMs}): a generator starting its threads on a busy machine
     *                 bunches them
     * @param paceMs   each user's pace ({@link Workload.Closed#paceMs}): the users of a busy machine slow each
     *                 other down, most when a cache fill releases them all at once
     */
    public record UserPace(List<Long> startsMs, List<List<Long>> paceMs) {}

    /**
     * What a cell ran with.
     *
     * @param cell          the cell
     * @param stack         the stack the cell ran through ({@link Cell#apply} applied to the run's switches)
     * @param properties    the JMeter properties of the cell (plan sizes, -J values)
     * @param profile       the profile (the origin's delays and freshness depend on it)
     * @param originThreads the origin's request threads
     * @param replay        the replayed traffic for a replay cell, else null
     * @param measuredMinMs the cell's fastest sample, for the round-trip overhead; negative when unknown
     * @param epochMs       wall-clock time of the cell's first request (the cache counts whole seconds); 0 when unknown
     * @param drawn         each user's paths in the order the run drew them (from its JTL), for a plan that
     *                      shuffles them; null when unknown (a prediction made before the run)
     * @param poolHoldMs    the mean time the cell's requests held a pooled database connection, as the
     *                      origin's pool measured it: a query's service time; null when the run has no pool
     * @param startsMs      when each of an open plan's requests started (ms after the first), as its JTL says:
     *                      the rate the generator offered, which runs ahead of the plan's nominal rate; null
     *                      when unknown (a prediction made before the run)
     * @param originMs      per path, how long the origin took to answer the cell's requests that reached it, as
     *                      the back tier timed them (its upstream time): under a flood, queueing and a busy
     *                      machine can make it many times the path's delay; null when unknown
     * @param pace          for a closed plan, when each user started and its pace, as its JTL shows them; null
     *                      when unknown
     * @param originDelays  the endpoints' delays the run set over the profile's (--origin-delay)
     */
    public record Input(Cell cell, StackSpec stack, Map<String, String> properties, Profile profile,
            int originThreads, ReplayTraffic replay, long measuredMinMs, long epochMs, List<List<String>> drawn,
            Double poolHoldMs, List<Long> startsMs, Map<String, OriginTimes> originMs, UserPace pace,
            OriginDelays originDelays) {

        public Input(Cell cell, StackSpec stack, Map<String, String> properties, Profile profile,
                int originThreads, ReplayTraffic replay, long measuredMinMs, long epochMs, List<List<String>> drawn,
                Double poolHoldMs, List<Long> startsMs, Map<String, OriginTimes> originMs, UserPace pace) {
            this(cell, stack, properties, profile, originThreads, replay, measuredMinMs, epochMs, drawn, poolHoldMs,
                    startsMs, originMs, pace, OriginDelays.NONE);
        }

        /** The same, with the origin's endpoints slowed or sped up as the run's --origin-delay says. */
        public Input withOriginDelays(OriginDelays delays) {
            return new Input(cell, stack, properties, profile, originThreads, replay, measuredMinMs, epochMs, drawn,
                    poolHoldMs, startsMs, originMs, pace, delays);
        }

        public Input(Cell cell, StackSpec stack, Map<String, String> properties, Profile profile,
                int originThreads, ReplayTraffic replay, long measuredMinMs, long epochMs, List<List<String>> drawn,
                Double poolHoldMs, List<Long> startsMs, Map<String, OriginTimes> originMs) {
            this(cell, stack, properties, profile, originThreads, replay, measuredMinMs, epochMs, drawn, poolHoldMs,
                    startsMs, originMs, null);
        }

        public Input(Cell cell, StackSpec stack, Map<String, String> properties, Profile profile,
                int originThreads, ReplayTraffic replay, long measuredMinMs, long epochMs, List<List<String>> drawn,
                Double poolHoldMs, List<Long> startsMs) {
            this(cell, stack, properties, profile, originThreads, replay, measuredMinMs, epochMs, drawn, poolHoldMs,
                    startsMs, null);
        }

        public Input(Cell cell, StackSpec stack, Map<String, String> properties, Profile profile,
                int originThreads, ReplayTraffic replay, long measuredMinMs, long epochMs, List<List<String>> drawn,
                Double poolHoldMs) {
            this(cell, stack, properties, profile, originThreads, replay, measuredMinMs, epochMs, drawn, poolHoldMs, null);
        }

        public Input(Cell cell, StackSpec stack, Map<String, String> properties, Profile profile,
                int originThreads, ReplayTraffic replay, long measuredMinMs, long epochMs, List<List<String>> drawn) {
            this(cell, stack, properties, profile, originThreads, replay, measuredMinMs, epochMs, drawn, null);
        }

        public Input(Cell cell, StackSpec stack, Map<String, String> properties, Profile profile,
                int originThreads, ReplayTraffic replay, long measuredMinMs, long epochMs) {
            this(cell, stack, properties, profile, originThreads, replay, measuredMinMs, epochMs, null, null);
        }

        /** The same, of the stack {@code switches} describe: the model needs no ports. */
        public Input(Cell cell, StackSwitches switches, Map<String, String> properties, Profile profile,
                int originThreads, ReplayTraffic replay, long measuredMinMs, long epochMs) {
            this(cell, switches.spec(new StackPorts()), properties, profile, originThreads, replay, measuredMinMs,
                    epochMs, null, null);
        }

        /** The same cell with its users at the constant round trip instead of their measured pace. */
        Input withoutPace() {
            return new Input(cell, stack, properties, profile, originThreads, replay, measuredMinMs, epochMs, drawn,
                    poolHoldMs, startsMs, originMs, null, originDelays);
        }

        /** The cell's properties over the defaults its plan's file declares: what JMeter ran with. */
        Input withPlanDefaults() throws IOException {
            Map<String, String> all = new LinkedHashMap<>(cell.plan().declaredDefaults());
            all.putAll(properties);
            return new Input(cell, stack, all, profile, originThreads, replay, measuredMinMs, epochMs, drawn, poolHoldMs,
                    startsMs, originMs, pace, originDelays);
        }
    }

    /**
     * A model of a cell's figures: the simulation of one edge and one cache ({@link #SIMULATION}), or
     * the model a kind of matrix brings for what the simulation cannot hold (a fleet's limit).
     */
    public interface Model {
        /** The prediction, or the model's gap, for the cell {@code in} describes with its plan's defaults. */
        Prediction predict(Input in);
    }

    /** No prediction for any cell, for {@code reason}: a kind of matrix whose cells the model cannot simulate. */
    public static Model none(String reason) {
        return in -> Prediction.gap(reason);
    }

    /** The simulation of the two tiers, the edge cache and the origin, for the cell's plan. */
    public static final Model SIMULATION = Predictor::simulate;

    /** The prediction for one cell by the simulation, or the model's gap for it. */
    public static Prediction predict(Input given) {
        return predict(given, SIMULATION);
    }

    /** The prediction for one cell by {@code model}, or the model's gap for it. */
    public static Prediction predict(Input given, Model model) {
        if (given.cell().generator().cpuBound()) {
            return Prediction.gap(given.cell().generator().cpuPace() + ": the simulation of the tiers has service"
                    + " times, limits and caches, not CPU; the shared-CPU model predicts such a cell from its measured"
                    + " CPU per request (Predictions, CpuBoundCell)");
        }
        Input in;
        try {
            in = given.withPlanDefaults();
        } catch (IOException e) {
            return Prediction.gap("the plan's file cannot be read (" + e.getMessage() + ")");
        }
        return model.predict(in);
    }

    private static Prediction simulate(Input in) {
        String gap = gap(in);
        if (gap != null) {
            return Prediction.gap(gap);
        }
        // The origin as this cell measured it (never faster than its delay): nginx's lock
        // waiters poll every 500 ms from their own arrival, so a fill that ends 15 ms after a waiter's
        // poll keeps it another half second.
        double measuredOrigin = in.originMs() == null ? -1 : AT_P10;
        Prediction p = predict(in, false, measuredOrigin);
        if (in.pace() != null && p.predicted()) {
            p = p.withFastestPaceOf(predict(in.withoutPace(), false, measuredOrigin));
        }
        String slow = slowOrigin(in);
        if (slow != null && p.predicted()) {
            // A cache without a lock sends on every miss that arrives while a fetch is under way, so how
            // many reach the back depends on how long the origin takes; a flood's queue and a busy
            // machine stretch that far past the path's delay, and a back limit that counts what it
            // denies (HAProxy's) then refuses every miss after its burst, so nothing is stored again.
            // The ranges take in the origin as slow as this cell measured it.
            // Where in its second the first answers land decides how long HAProxy keeps the entry (to the
            // next whole second for max-age=1), so one speed is no answer: every speed it showed, p10 to p90.
            // The fastest tenth of a few answers that reached the origin is no firm speed either: the range also takes in
            // the origin at its delay, where the first answers beat the misses piling up and nothing locks out.
            p = p.withSlowOriginOf(predict(in, false, -1), slow);
            for (int step = 0; step <= SLOW_ORIGIN_STEPS; step++) {
                p = p.withSlowOriginOf(predict(in, false, step / (double) SLOW_ORIGIN_STEPS), slow);
            }
        }
        if (in.cell().library() && p.predicted()) {
            // Whether a background revalidation started as a user's work ends reaches the wire before
            // the user closes its client is a race of threads the model cannot know: the ranges take
            // in both sides; the values are for "it does not".
            p = p.withRaceOf(predict(in, true, measuredOrigin));
        }
        return p;
    }

    /** How many speeds, evenly from the origin's p10 to its p90, the slow-origin range is taken over. */
    static final int SLOW_ORIGIN_STEPS = 24;
    /**
     * How much slower than its delay the origin must have answered a path (its p90) for the slow-origin
     * range: a scheduler tick and a loopback round trip are no slowness. Any more is: behind a cache
     * without a lock the counts swing with tens of milliseconds: a default run's HAProxy flood from one
     * address refused 91.7 %, and the model said 97.2 % at the median the back timed. The p90, not the
     * median: the fetches that matter are the ones under way when an entry runs out, and those are the
     * slow ones when the flood keeps the machine busy (a quick run's Envoy flood at 10x from one
     * address: its first five fetches took 15-25 ms, the five revalidations 2 s later 35-45 ms, and
     * five misses came in behind each, where the median of 25 ms would have let two).
     */
    static final long SLOW_ORIGIN_MARGIN_MS = 20;

    /**
     * The paths the origin answered slower than their delay, in words ("/hare in 512 ms, not its
     * 10 ms"), when that can change the counts: an edge cache without a lock sends every miss that
     * arrives during a fetch on, a flood's arrivals and the users a plan starts alike. Null otherwise,
     * or when the cell's origin times are unknown.
     */
    static String slowOrigin(Input in) {
        if (in.originMs() == null || in.cell().direct()) {
            return null;
        }
        SimulationSpec spec = spec(in);
        if (spec.cache() == null || spec.cache().lock()) {
            return null;
        }
        List<String> slow = new ArrayList<>();
        spec.origin().paths().forEach((path, p) -> {
            OriginTimes measured = in.originMs().get(path);
            if (measured != null && measured.p90Ms() - p.serviceMs() >= SLOW_ORIGIN_MARGIN_MS) {
                slow.add(path + " in " + measured.p10Ms() + "–" + measured.p90Ms() + " ms (p10–p90), not its "
                        + p.serviceMs() + " ms");
            }
        });
        return slow.isEmpty() ? null : String.join(", ", slow);
    }

    /**
     * @param originAt -1: the origin at its delays; {@link #AT_P10}: each path at its measured p10; 0 to 1:
     *                 each path as slowly as the cell measured it, from its p10 (0) to its p90 (1)
     */
    private static Prediction predict(Input in, boolean revalidationsSent, double originAt) {
        SimulationSpec spec = spec(in, originAt);
        Workload workload;
        try {
            workload = workload(in, 0, 1, revalidationsSent);
        } catch (IllegalArgumentException e) {
            return Prediction.gap("the model cannot take this plan's sizes (" + e.getMessage() + ")");
        }
        SimulationResult first = Simulation.run(spec, workload);
        if (first.requests().isEmpty()) {
            return Prediction.gap("the plan sends no requests at these sizes");
        }
        long modelMin = first.requests().stream().mapToLong(RequestOutcome::latencyMs).min().orElse(0);
        long overhead = in.measuredMinMs() < 0 ? 0 : Math.max(0, in.measuredMinMs() - modelMin);
        if (workload instanceof Workload.Closed closed && closed.randomOrder()) {
            return overOrders(in, spec, overhead, revalidationsSent);
        }
        if (workload instanceof Workload.Closed && overhead > 0) {
            // The overhead changes when each user sends its next request, so the run is a different one.
            return figures(in, Simulation.run(spec, workload(in, overhead, 1, revalidationsSent)), 0).prediction(overhead, 1);
        }
        // Open arrivals do not wait for answers: the overhead only adds to what the client sees.
        Prediction p = figures(in, first, workload instanceof Workload.Open ? overhead : 0).prediction(overhead, 1);
        return in.cell().plan().name().equals(Plan.KEYS.name()) ? p.withTiers(tierRejectedPct(in, first)) : p;
    }

    /** Path orders the model tries for a plan whose users shuffle their paths each loop. */
    public static final int ORDERS = 100;

    /**
     * JMeter's Random Order Controller draws every user's order afresh each loop. In a small run the
     * draws move the figures far: who asks /snail first decides who waits on the cache lock and when
     * the last user ends (the quick load plan's throughput ranges over a third). The range runs from
     * the lowest to the highest any of {@link #ORDERS} seeded orders gives (a percentile's own range
     * included). The prediction is the run's own draws when its JTL shows them, so a comparison with
     * the measured figures is not one of luck; before a run, the median over the seeded orders.
     */
    static Prediction overOrders(Input in, SimulationSpec spec, long overhead, boolean revalidationsSent) {
        Map<Metric, List<Double>> byMetric = new LinkedHashMap<>();
        Map<Metric, Prediction.Range> range = new LinkedHashMap<>();
        for (int seed = 1; seed <= ORDERS; seed++) {
            Figures f = figures(in, Simulation.run(spec, workload(in, overhead, seed, revalidationsSent)), 0);
            f.values().forEach((m, v) -> {
                byMetric.computeIfAbsent(m, k -> new ArrayList<>()).add(v);
                range.merge(m, f.range(m), Prediction.Range::union);
            });
        }
        Map<Metric, Double> values = new LinkedHashMap<>();
        byMetric.forEach((m, all) -> values.put(m, Median.of(all)));
        Workload drawn = drawnWorkload(in, overhead, revalidationsSent);
        if (drawn != null) {
            Figures f = figures(in, Simulation.run(spec, drawn), 0);
            values.putAll(f.values());
            f.values().keySet().forEach(m -> range.merge(m, f.range(m), Prediction.Range::union));
        }
        return new Prediction(values, null, overhead, range, ORDERS);
    }

    /** The closed workload with the run's own draws, or null when they are unknown or do not fit the plan. */
    private static Workload drawnWorkload(Input in, long overhead, boolean revalidationsSent) {
        if (in.drawn() == null || !(workload(in, overhead, 1, revalidationsSent) instanceof Workload.Closed closed)) {
            return null;
        }
        try {
            return closed.withDrawn(in.drawn());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The model's known gap for this cell, or null when it can predict it. */
    static String gap(Input in) {
        Cell cell = in.cell();
        if (!in.stack().ownOrigin()) {
            return "the model does not know your origin (--origin): its service times and freshness";
        }
        if (cell.clientCache() && (cell.plan().name().equals(Plan.FLOOD.name()) || cell.plan().samples() > 0)) {
            return "the model's client cache is JMeter's per user of a thread group, not of an open model";
        }
        if (cell.plan().userFile() != null) {
            return "the model does not know the shape of your own plan";
        }
        if (!cell.direct() && own(in).isPresent() && cell.plan().name().equals(Plan.KEYS.name())) {
            return "your config: the model does not send the keys plan's keys through your config's zones, nor evict"
                    + " a full zone's states in a run (--matrix tiers predicts the keys plan through the suite's own front)";
        }
        if (!cell.direct() && own(in).isPresent()) {
            java.util.Optional<String> ownGap = own(in).get().gap(in.stack().front().isPresent(), in.stack().cache().on());
            if (ownGap.isPresent()) {
                return "your config: " + ownGap.get();
            }
        }
        if (!cell.direct() && in.stack().limitConn() > 0) {
            return "the model does not include limit_conn";
        }
        String thinkTime = in.properties().get("think_time");
        if (thinkTime != null && !"0".equals(thinkTime.trim())) {
            return "the model does not include think time";
        }
        if (isReplay(cell.plan()) && in.replay() == null) {
            return "the replay's schedule is not at hand";
        }
        if (cell.trait(KeyedTraffic.class) != null && !cell.trait(KeyedTraffic.class).limitKey().byAddress()) {
            // The model keys the front limit by key, one zone per tier; the address ceiling beside them is
            // left out, which is exact only while one address sends less than the ceiling's rate, evenly.
            // The ceiling the tiers run, resolved against the cell's tiers as the renderer renders it.
            StackSpec.Limit ceiling = in.stack().ceiling().orElse(null);
            if (ceiling != null && cell.trait(KeyedTraffic.class).offeredRate() >= ceiling.rate()) {
                return "the model does not include the address ceiling (" + ceiling.rate() + " r/s) beside the key"
                        + " limits, and this cell's one address sends " + Math.round(cell.trait(KeyedTraffic.class).offeredRate())
                        + " r/s, enough to reach it";
            }
        }
        if (!in.stack().allow().isEmpty() && cell.frontLimit() && !cell.direct()) {
            List<String> sources = sourceAddresses(in);
            long allowed = sources.stream().filter(a -> allowed(in.stack(), a)).count();
            if (!isReplay(cell.plan()) && allowed > 0 && allowed < sources.size()) {
                return "the model does not tell which of the flood's " + sources.size() + " source addresses --allow"
                        + " exempts from the per-client limit";
            }
        }
        // The replay's arrivals carry only their address: a prediction by address would be of other limits.
        if (isReplay(cell.plan()) && cell.frontLimit() && !in.stack().key().byAddress()
                && in.replay().schedule().stream().anyMatch(r -> !r.key().isEmpty())) {
            return "the model counts a replay's requests by address; this one sends keys (--key-field), counted per"
                    + " key and tier";
        }
        return null;
    }

    /** The model of a user's own config in the front's place (--nginx-conf); empty for the suite's rendered front. */
    static java.util.Optional<dev.ratecache.suite.ownconfig.OwnFrontModel> own(Input in) {
        // The paths this cell's plan sends: a stress or flood cell meets only the first path's location.
        // A replay's, its log's paths, each to the location nginx would search out for it.
        List<String> sent = new ArrayList<>();
        if (isReplay(in.cell().plan()) && in.replay() != null) {
            in.replay().schedule().stream().map(r -> pathOf(r.uri())).distinct().forEach(sent::add);
        } else {
            in.cell().plan().paths().forEach((property, path) -> sent.add(in.properties().getOrDefault(property, path)));
        }
        return in.stack().ownFront().filter(f -> f instanceof dev.ratecache.suite.ownconfig.OwnFront)
                .map(f -> new dev.ratecache.suite.ownconfig.OwnFrontModel((dev.ratecache.suite.ownconfig.OwnFront) f, sent));
    }

    static boolean isReplay(Plan plan) {
        return plan.name().equals("replay") && plan.samples() > 0;
    }

    /** The two tiers and the origin as the cell's stack and the profile make them. */
    static SimulationSpec spec(Input in) {
        return spec(in, -1);
    }

    /** The same, with the origin answering each path as {@link #origin(Input, double)} says. */
    static SimulationSpec spec(Input in, double originAt) {
        StackSpec s = in.stack();
        // Whichever product: the tiers are there unless the cell goes straight to the origin.
        boolean tiers = !in.cell().direct();
        Edge product = in.cell().edge().declared();
        LimitSpec front = tiers ? s.front().map(l -> limit(product, l, s.rejectStatus())).orElse(null) : null;
        LimitSpec back = tiers ? s.back().map(l -> limit(product, l, s.rejectStatus())).orElse(null) : null;
        EdgeCacheSpec cache = tiers && s.cache().on() ? product.cacheModel(s) : null;
        if (own(in).isPresent()) {
            // The user's config decides the edge: its limit and cache where the plans' paths go, when the cell keeps them.
            front = tiers && s.front().isPresent() ? own(in).get().front().orElse(null) : null;
            cache = tiers && s.cache().on() ? own(in).get().cache().orElse(null) : null;
        }
        // --limit-scope misses: the per-client limits count behind the edge cache, at the back.
        SimulationSpec spec = new SimulationSpec(front, cache, back, origin(in, originAt), 0, in.epochMs())
                .withPerClientAtBack(s.scope() == dev.ratecache.suite.spec.LimitScope.MISSES);
        if (tiers && s.front().isPresent() && !s.allow().isEmpty()) {
            // nginx's geo gives an --allow network's requests an empty key in every per-client zone.
            List<String> sources = sourceAddresses(in);
            List<String> exempt = sources.stream().filter(a -> allowed(s, a)).toList();
            if (!exempt.isEmpty() && exempt.size() == sources.size()) {
                return new SimulationSpec(null, cache, back, origin(in, originAt), 0, in.epochMs());
            }
            // A replay's clients are its addresses: each allowed one is counted by no per-client limit.
            spec = spec.withUnlimitedClients(java.util.Set.copyOf(exempt));
        }
        KeyedTraffic keys = in.cell().trait(KeyedTraffic.class);
        if (tiers && s.front().isPresent() && keys != null && !keys.limitKey().byAddress()) {
            // By key: each key its tier's limit, as the cell's product limits; the workload's clients are the keys.
            Map<String, LimitSpec> byKey = new LinkedHashMap<>();
            for (LimitTier t : keys.tiers()) {
                LimitSpec tier = product.limiterModel(t.rate(), t.burst(), t.mode(), s.rejectStatus());
                t.keys().forEach(k -> byKey.put(k, tier));
            }
            spec = spec.withFrontByClient(byKey);
        }
        return spec;
    }

    /** A tier's limit as the cell's product renders the spec's rate and burst (HAProxy's and Varnish's only nodelay). */
    static LimitSpec limit(Edge product, StackSpec.Limit limit, int status) {
        return product.limiterModel(limit.rate(), limit.burst(), LimitMode.parse(limit.modeFlag()), status);
    }

    /**
     * The addresses a cell's requests come from, as nginx sees them: a replay's clients each their own,
     * the flood's sources from 127.16.0.1 on, every other plan the machine's own loopback address.
     */
    static List<String> sourceAddresses(Input in) {
        if (isReplay(in.cell().plan()) && in.replay() != null) {
            return in.replay().schedule().stream().map(ScheduledRequest::address).distinct().toList();
        }
        int sources = in.cell().plan().name().equals(Plan.FLOOD.name()) ? Math.max(1, count(in.properties(), "sources")) : 1;
        if (sources == 1) {
            return List.of("127.0.0.1");
        }
        List<String> addresses = new ArrayList<>();
        for (int i = 1; i <= sources; i++) {
            addresses.add("127.16." + (i / 256) + "." + (i % 256));
        }
        return addresses;
    }

    private static boolean allowed(StackSpec s, String address) {
        return s.allow().stream().anyMatch(cidr -> dev.ratecache.suite.switches.Cidr.contains(cidr, address));
    }

    /** The suite's origin as the profile runs it ({@link Profile#endpoints()}), or the replay's. */
    static OriginSpec origin(Input in) {
        OriginDefaults defaults = OriginDefaults.get();
        // Every endpoint and replayed path sends the origin's stale-while-revalidate: the edge may answer STALE while refreshing.
        long staleSec = defaults.staleWhileRevalidate().toSeconds();
        // Varnish keeps an object in grace as long as the longer of the two permissions (varnish/snippets/front/grace.vcl).
        long staleIfErrorSec = defaults.staleIfError().toSeconds();
        Map<String, PathSpec> paths = new LinkedHashMap<>();
        if (in.replay() != null && isReplay(in.cell().plan())) {
            Freshness fresh = new Freshness(in.replay().maxAgeSec(), staleSec, staleIfErrorSec);
            long defaultDelayMs = defaults.replayDefaultDelay().toMillis();
            // The edge's cache key is the whole URI, so the model's "path" is the URI, served at its path's delay.
            for (ScheduledRequest r : in.replay().schedule()) {
                paths.computeIfAbsent(r.uri(), uri -> new PathSpec(
                        in.replay().delayMsByPath().getOrDefault(pathOf(uri), defaultDelayMs), fresh));
            }
        } else {
            for (Endpoint e : in.originDelays().apply(in.profile().endpoints())) {
                paths.put(e.path(), new PathSpec(e.delay().toMillis(), new Freshness(e.maxAge().toSeconds(), staleSec,
                        staleIfErrorSec)));
            }
            // A user's config's paths, each answered by the origin as the endpoint it stands for, and kept by its
            // cache as the config says (its own proxy_cache_valid when it ignores the origin's Cache-Control).
            in.stack().ownFront().ifPresent(own -> own.paths().forEach(p -> {
                PathSpec as = paths.get("/" + p.endpoint());
                if (as != null) {
                    Freshness fresh = own(in).map(m -> m.freshness(as.freshness())).orElse(as.freshness());
                    paths.put(p.path(), new PathSpec(as.serviceMs(), fresh));
                }
            }));
        }
        return new OriginSpec(in.originThreads(), paths);
    }

    /**
     * For {@link #origin(Input, double)}: each path at the p10 of the answers the back tier timed for it, the
     * least queued of them: the model queues requests at the origin's threads itself, and a median of a
     * flood's answers has that queue in it already.
     */
    static final double AT_P10 = -2;

    /**
     * The same, each path measured in the cell served at {@code originAt} of the way from its p10 to its p90
     * (never faster than its delay), at its p10 with {@link #AT_P10}; at its delays when {@code originAt}
     * is otherwise negative.
     */
    static OriginSpec origin(Input in, double originAt) {
        OriginSpec origin = origin(in);
        if ((originAt < 0 && originAt != AT_P10) || in.originMs() == null) {
            return origin;
        }
        Map<String, PathSpec> paths = new LinkedHashMap<>();
        origin.paths().forEach((path, p) -> {
            OriginTimes t = in.originMs().get(path);
            long ms = t == null ? p.serviceMs()
                    : originAt == AT_P10 ? t.p10Ms() : Math.round(t.p10Ms() + originAt * (t.p90Ms() - t.p10Ms()));
            paths.put(path, new PathSpec(Math.max(p.serviceMs(), ms), p.freshness()));
        });
        return new OriginSpec(origin.threads(), paths);
    }

    static String pathOf(String uri) {
        int q = uri.indexOf('?');
        return q < 0 ? uri : uri.substring(0, q);
    }

    /** The plan's traffic: a closed model for the looping plans, open arrivals for flood and replay. */
    static Workload workload(Input in, long overheadMs, long seed) {
        return workload(in, overheadMs, seed, false);
    }

    /**
     * @param revalidationsSent for a library cell: a background revalidation reaches the wire in the
     *                          millisecond it starts, before a user whose work ends then closes its client
     */
    static Workload workload(Input in, long overheadMs, long seed, boolean revalidationsSent) {
        Plan plan = in.cell().plan();
        Map<String, String> p = in.properties();
        if (isReplay(plan)) {
            List<Arrival> arrivals = new ArrayList<>(in.replay().schedule().size());
            for (ScheduledRequest r : in.replay().schedule()) {
                arrivals.add(new Arrival(r.offsetMs(), r.address(), r.uri()));
            }
            return new Workload.Open(arrivals);
        }
        if (plan.name().equals(Plan.KEYS.name())) {
            KeyedTraffic traffic = in.cell().trait(KeyedTraffic.class);
            boolean byKey = traffic != null && !traffic.limitKey().byAddress();
            return new Workload.Open(keys(p.get("keys"), count(p, "hold"), p.getOrDefault("path", plan.paths().get("path")),
                    byKey));
        }
        if (plan.name().equals(Plan.FLOOD.name())) {
            List<Arrival> nominal = flood(count(p, "rate"), count(p, "ramp"), count(p, "hold"),
                    Math.max(1, count(p, "sources")), p.getOrDefault("path", plan.paths().get("path")));
            return new Workload.Open(offered(nominal, in.startsMs()));
        }
        List<String> paths = new ArrayList<>();
        plan.paths().forEach((property, path) -> paths.add(p.getOrDefault(property, path)));
        if (in.cell().library()) {
            // The driver draws the paths' order each loop as JMeter does; its retries wait Retry-After plus
            // a jitter of up to a tenth (the mean, 5 %, here), and each user revalidates in the background
            // on its threads, as LibraryDriver configures it.
            Workload.Library library = new Workload.Library(LibraryDriver.RETRIES,
                    Math.round(in.stack().retryAfter() * 1000 * 1.05), LibraryDriver.BUDGET.toMillis(),
                    LibraryDriver.REVALIDATION_THREADS, revalidationsSent);
            return new Workload.Closed(count(p, "users"), count(p, "loops"), count(p, "rampup") * 1000L,
                    paths, LibraryDriver.shuffles(plan), seed, overheadMs, false, false, library);
        }
        Workload.Closed closed = new Workload.Closed(count(p, "users"), count(p, "loops"), count(p, "rampup") * 1000L,
                paths, plan.paths().size() > 1, seed, overheadMs, false, in.cell().clientCache());
        if (in.pace() == null) {
            return closed;
        }
        try {
            return closed.withPace(in.pace().paceMs(), in.pace().startsMs());
        } catch (IllegalArgumentException e) {
            // A run whose users did not all finish their loops: the constant overhead stands.
            return closed;
        }
    }

    /**
     * flood.jmx's arrivals: {@code ramp} one-second steps of {@code rate/ramp} more arrivals per
     * second each, then {@code hold} seconds at {@code rate}, evenly spaced within each second,
     * taking {@code sources} addresses in turn.
     */
    /**
     * The plan's arrivals at the moments the run's generator sent them: JMeter's open model sends
     * ahead of its nominal schedule (a tenth faster in the default profile, a third in the quick
     * one), and the limits answer the rate offered, not the one asked. Each arrival keeps its client
     * and path. A generator that could not keep up (a saturated machine) sent fewer than the plan
     * asks, and the limits answered those: the model takes the requests it sent, the sources still
     * in turn. The nominal schedule stands only when the starts are unknown.
     */
    static List<Arrival> offered(List<Arrival> nominal, List<Long> startsMs) {
        if (startsMs == null || startsMs.isEmpty() || nominal.isEmpty()) {
            return nominal;
        }
        List<Long> sorted = startsMs.stream().sorted().toList();
        List<Arrival> out = new ArrayList<>(sorted.size());
        for (int i = 0; i < sorted.size(); i++) {
            // The flood takes its sources in turn from the first arrival on, as the nominal schedule does.
            Arrival as = nominal.get(i % nominal.size());
            out.add(new Arrival(sorted.get(i), as.client(), as.path()));
        }
        return out;
    }

    static List<Arrival> flood(int rate, int ramp, int hold, int sources, String path) {
        List<Arrival> arrivals = new ArrayList<>();
        int second = 0;
        for (int step = 1; step <= ramp + hold; step++, second++) {
            double perSecond = step <= ramp ? (double) rate * step / ramp : rate;
            int n = (int) Math.round(perSecond);
            for (int i = 0; i < n; i++) {
                String client = sources == 1 ? "client" : "source-" + (arrivals.size() % sources);
                arrivals.add(new Arrival(second * 1000L + (long) i * 1000 / n, client, path));
            }
        }
        return arrivals;
    }

    /**
     * keys.jmx's arrivals: the keys' summed rate, rounded to whole requests/s as its schedule does,
     * evenly spaced for {@code hold} seconds, each given to the key due first on the plan's virtual
     * clock (each key half a period in, staggered). The model's client is what the front limit
     * counts: the key when {@code byKey}, else the one address every key comes from.
     */
    static List<Arrival> keys(String keys, int hold, String path, boolean byKey) {
        if (keys == null || keys.isBlank()) {
            throw new IllegalArgumentException("the plan sets no keys");
        }
        String[] entries = keys.trim().split(";");
        int n = entries.length;
        String[] names = new String[n];
        double[] period = new double[n];
        double[] due = new double[n];
        double total = 0;
        for (int i = 0; i < n; i++) {
            String[] f = entries[i].trim().split(":", 3);
            double rate = Double.parseDouble(f[1]);
            names[i] = f[2];
            total += rate;
            period[i] = 1 / rate;
            due[i] = (0.5 + i / (double) n) / rate;
        }
        long perSecond = Math.max(1, Math.round(total));
        List<Arrival> arrivals = new ArrayList<>();
        for (long a = 0; a < perSecond * hold; a++) {
            int pick = 0;
            for (int i = 1; i < n; i++) {
                if (due[i] < due[pick]) {
                    pick = i;
                }
            }
            due[pick] += period[pick];
            arrivals.add(new Arrival(a * 1000 / perSecond, byKey ? names[pick] : "client", path));
        }
        return arrivals;
    }

    /**
     * The rejected share per tier of a keys cell's simulated run. The arrivals are in the order
     * {@link #keys} made them, so each outcome's index names its key, and the keys property its tier,
     * whether the model's client was the key or the one address.
     */
    static Map<String, Double> tierRejectedPct(Input in, SimulationResult result) {
        String keys = in.properties().get("keys");
        List<String> tierOfArrival = new ArrayList<>();
        for (Arrival a : keys(keys, count(in.properties(), "hold"), "/", true)) {
            tierOfArrival.add(tierOfKey(keys, a.client()));
        }
        Map<String, long[]> counts = new LinkedHashMap<>();
        for (RequestOutcome o : result.requests()) {
            if (o.index() < 0 || o.index() >= tierOfArrival.size()) {
                continue; // not one of the plan's arrivals
            }
            long[] c = counts.computeIfAbsent(tierOfArrival.get(o.index()), t -> new long[2]);
            c[0]++;
            if (o.rejected()) {
                c[1]++;
            }
        }
        Map<String, Double> pct = new LinkedHashMap<>();
        counts.forEach((tier, c) -> pct.put(tier, 100.0 * c[1] / c[0]));
        return pct;
    }

    private static String tierOfKey(String keys, String key) {
        for (String entry : keys.trim().split(";")) {
            String[] f = entry.trim().split(":", 3);
            if (f[2].equals(key)) {
                return f[0];
            }
        }
        throw new IllegalArgumentException("no tier lists key " + key);
    }

    /** A whole-number property; the plan's file declares a default for each one the model reads. */
    static int count(Map<String, String> p, String name) {
        String value = p.get(name);
        if (value == null) {
            throw new IllegalArgumentException("the plan sets no " + name);
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " is not a whole number: " + value);
        }
    }

    /**
     * One simulated run's figures, and for the percentiles the range a sample of its size allows: the
     * rank of a measured p50 or p95 is itself uncertain (a distribution-free 95 % interval of
     * ±1.96·√(n·q·(1−q)) ranks), and where the latencies jump (the p50 between fast rejections
     * and queued admissions) a few ranks move it by seconds.
     */
    record Figures(Map<Metric, Double> values, Map<Metric, Prediction.Range> ranges) {
        /** The metric's range: its percentile range, or the value itself. */
        Prediction.Range range(Metric m) {
            Prediction.Range r = ranges.get(m);
            return r != null ? r : new Prediction.Range(values.get(m), values.get(m));
        }

        Prediction prediction(long overheadMs, int orders) {
            return new Prediction(values, null, overheadMs, ranges, orders);
        }
    }

    /** The predicted figures of one run; {@code shiftMs} is added to every client-side time (open workloads' overhead). */
    static Figures figures(Input in, SimulationResult result, long shiftMs) {
        List<RequestOutcome> all = result.requests();
        long[] latency = new long[all.size()];
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        int rejected = 0;
        int hits = 0;
        int atFront = 0;
        for (int i = 0; i < all.size(); i++) {
            RequestOutcome o = all.get(i);
            latency[i] = o.latencyMs() + shiftMs;
            first = Math.min(first, o.issueMs());
            last = Math.max(last, o.clientEndMs() + shiftMs);
            rejected += o.rejected() ? 1 : 0;
            hits += o.cache() == CacheStatus.HIT ? 1 : 0;
            // A client-cache hit never left the client, so the front never logged it.
            atFront += o.clientCacheHit() ? 0 : 1;
        }
        Arrays.sort(latency);
        Map<Metric, Double> values = new LinkedHashMap<>();
        // As JtlSummary counts it: samples over first start to last end.
        values.put(Metric.THROUGHPUT, all.size() / (Math.max(1, last - first) / 1000.0));
        values.put(Metric.REJECTED_PCT, 100.0 * rejected / all.size());
        values.put(Metric.ORIGIN_REQUESTS, (double) result.aggregates().originRequests());
        if (!in.cell().direct() && in.stack().cache().on()) {
            // As EdgeHitShare counts it: HITs among every response the front logged, rejections included.
            values.put(Metric.EDGE_HIT_PCT, atFront == 0 ? 0 : 100.0 * hits / atFront);
        }
        // Nearest rank, as the JTL's summary takes the measured ones.
        values.put(Metric.P50_MS, (double) NearestRank.percentile(latency, 50));
        values.put(Metric.P95_MS, (double) NearestRank.percentile(latency, 95));
        Map<Metric, Prediction.Range> ranges = new LinkedHashMap<>();
        ranges.put(Metric.P50_MS, percentileRange(latency, 50));
        ranges.put(Metric.P95_MS, percentileRange(latency, 95));
        return new Figures(values, ranges);
    }

    /** The latencies at the ends of the 95 % interval of the p-th percentile's rank (normal approximation to the binomial). */
    static Prediction.Range percentileRange(long[] sorted, int p) {
        int n = sorted.length;
        double q = p / 100.0;
        double half = 1.96 * Math.sqrt(n * q * (1 - q));
        int low = (int) Math.max(1, Math.ceil(q * n - half));
        int high = (int) Math.min(n, Math.ceil(q * n + half));
        return new Prediction.Range(sorted[low - 1], sorted[high - 1]);
    }
}
