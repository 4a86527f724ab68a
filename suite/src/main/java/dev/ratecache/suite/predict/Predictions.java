package dev.ratecache.suite.predict;

import dev.ratecache.jtl.Jtl;
import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.matrix.Profile;
import dev.ratecache.suite.matrix.ReplayBreakdown;
import dev.ratecache.suite.matrix.Saturation;
import dev.ratecache.suite.origin.OriginDelays;
import dev.ratecache.suite.replay.ReplayCellReport;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every cell's prediction beside its measurement, with a likely cause for each figure outside
 * ±{@link #TOLERANCE}. The cause is chosen from what the run shows, in this order: the figure is
 * inside the range the model allows (its path orders, a percentile's ranks), so nothing is wrong;
 * the load generator or the machine was saturated ({@link Saturation}); the generator fell behind its
 * schedule; the origin's CPU was saturated; a difference in the direction of a known gap of the model (no CPU and network cost beyond one
 * constant round trip makes answers slower and loops slower than predicted). "Behind its
 * schedule" is a replay's p99 lateness over its --max-lateness, for the looping plans their users'
 * first requests off the ramp-up by more than {@link #RAMP_OFF_MS}, and for the keys plan its
 * requests off their even arrivals by as much. A flag none of
 * these explains says so ({@link CellPrediction#UNEXPLAINED}).
 */
public final class Predictions {

    /** A measured figure more than this far from its prediction (as a share of it) is flagged. */
    public static final double TOLERANCE = 0.20;

    /** A looping plan's users starting further than this off their ramp-up have bunched. */
    static final long RAMP_OFF_MS = 100;

    /** The origin's CPU at this share of all cores (one core is 100 %) counts as saturated. */
    static final double SATURATED = 0.90;

    private Predictions() {}

    /**
     * What the run was, beyond its cells: the same for every cell.
     *
     * @param switches      the switches given for the run (each cell applies its own on top)
     * @param jmeterProperties -J values given for every cell
     * @param replay        the replayed traffic, or null for the plans' runs
     * @param model         the kind of matrix's model of its cells
     */
    public record Run(StackSwitches switches, Profile profile, int originThreads, Map<String, String> jmeterProperties,
            Predictor.ReplayTraffic replay, Predictor.Model model, OriginDelays originDelays) {

        /** With the profile's origin. */
        public Run(StackSwitches switches, Profile profile, int originThreads, Map<String, String> jmeterProperties,
                Predictor.ReplayTraffic replay, Predictor.Model model) {
            this(switches, profile, originThreads, jmeterProperties, replay, model, OriginDelays.NONE);
        }

        /** Of cells the simulation models. */
        public Run(StackSwitches switches, Profile profile, int originThreads, Map<String, String> jmeterProperties,
                Predictor.ReplayTraffic replay) {
            this(switches, profile, originThreads, jmeterProperties, replay, Predictor.SIMULATION);
        }
    }

    /** Every finished cell's prediction, by cell name (failed cells have none). */
    public static Map<String, CellPrediction> of(List<CellResult> cells, Run run) {
        Map<String, CellPrediction> out = new LinkedHashMap<>();
        for (CellResult r : cells) {
            if (r.failed() || r.runs().isEmpty()) {
                continue;
            }
            // As MatrixRunner gave them to JMeter: the plan's sizes, the cell's own, then the user's -J.
            Map<String, String> props = new LinkedHashMap<>(r.cell().plan().sizes(run.profile()));
            props.putAll(r.cell().properties());
            props.putAll(run.jmeterProperties());
            props.put("client_cache", String.valueOf(r.cell().clientCache()));
            Double min = r.median(Metric.MIN_MS);
            Path dir = r.firstRunDir();
            List<Sample> samples = samples(dir.resolve(r.cell().generator().folder()).resolve("results.jtl"));
            // The model's clock starts at the first request: the cache counts whole seconds of the wall clock.
            long epoch = samples.stream().mapToLong(Sample::timeStamp).min().orElse(0);
            // The model needs the stack, not where it listened.
            StackSpec stack = r.cell().apply(run.switches()).spec(new StackPorts());
            // Read once: the users' pace and the front's own percentiles both come from them.
            List<dev.ratecache.suite.edge.EdgeEvent> front = frontEvents(dir);
            // A cell the CPU sets the pace of (wrk's, bombardier's) is the shared-CPU model's.
            boolean cpuBound = r.cell().generator().cpuBound();
            Prediction p = cpuBound ? CpuBoundCell.predict(r, props, stack)
                    : Predictor.predict(new Predictor.Input(r.cell(), stack, props,
                    run.profile(), run.originThreads(), run.replay(), min == null ? -1 : Math.round(min), epoch,
                    drawnOrders(samples), r.median(Metric.POOL_HOLD_MEAN_MS),
                    starts(samples, front, epoch), originMs(dir, front),
                    paces(samples, props, front)).withOriginDelays(run.originDelays()), run.model());
            Evidence evidence = Evidence.of(r, rampOffMs(samples, props), arrivalsOffMs(samples, props),
                    pauseMs(samples, props), front);
            out.put(r.cell().name(), cpuBound ? compare(r, p, (m, measured, predicted) -> CpuBoundCell.reason(
                    measured, predicted, p.range(m), evidence, r.median(Metric.POOL_ACTIVE_PEAK))) : compare(r, p, evidence));
        }
        return out;
    }

    /**
     * When each request started, ms after {@code epoch}: its arrival at the front, as the front
     * logged it, when the front logged every request the JTL holds; else its sample's start. The
     * front's clock is the one the limits decide by. JMeter's start includes opening the connection,
     * which under a flood's first burst takes hundreds of milliseconds: an idle run's HAProxy flood at
     * 10x sent its first 100 requests within 35 ms by the JTL, and they reached the edge over 523 ms,
     * so the first answer was stored while far more of them were still to come than their starts say.
     */
    static List<Long> starts(List<Sample> samples, List<dev.ratecache.suite.edge.EdgeEvent> front, long epoch) {
        if (!front.isEmpty() && front.size() == samples.size()) {
            return front.stream().map(e -> e.arrivalMs() - epoch).toList();
        }
        return samples.stream().map(s -> s.timeStamp() - epoch).toList();
    }

    /**
     * Per URI, how long the origin took to answer what reached it, as the back tier timed it (its
     * upstream time of each answered request, a revalidation's 304 among them); null when the cell kept
     * no back events. The p90 is the
     * slower of that and how long the front waited for its own fetches of the URI (its upstream time
     * of each miss answered 2xx): a fetch the cache waits for also crosses the back, and on a machine
     * the flood keeps busy that hop is no longer free (an idle quick run's Envoy flood at 10x: the
     * back timed its first fetches at 127 ms, the front waited 204 ms, and kept sending misses on).
     */
    static Map<String, Predictor.OriginTimes> originMs(Path cellRunDir, List<dev.ratecache.suite.edge.EdgeEvent> front) {
        List<dev.ratecache.suite.edge.EdgeEvent> back;
        try {
            back = dev.ratecache.suite.matrix.CellEvents.back(cellRunDir);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        Map<String, long[]> byUri = answeredIn(back, e -> true);
        if (byUri.isEmpty()) {
            return null;
        }
        Map<String, long[]> fetched = answeredIn(front,
                e -> e.cache() == dev.ratecache.suite.edge.EdgeEvent.Cache.MISS
                        || e.cache() == dev.ratecache.suite.edge.EdgeEvent.Cache.EXPIRED);
        Map<String, Predictor.OriginTimes> out = new LinkedHashMap<>();
        byUri.forEach((uri, sorted) -> {
            long p90 = dev.ratecache.stats.NearestRank.percentile(sorted, 90);
            long[] waited = fetched.get(uri);
            if (waited != null) {
                p90 = Math.max(p90, dev.ratecache.stats.NearestRank.percentile(waited, 90));
            }
            out.put(uri, new Predictor.OriginTimes(dev.ratecache.stats.NearestRank.percentile(sorted, 10),
                    dev.ratecache.stats.NearestRank.percentile(sorted, 50), p90));
        });
        return out;
    }

    /** Per URI, the sorted upstream times of the events {@code which} picks that their upstream answered (2xx, 304). */
    private static Map<String, long[]> answeredIn(List<dev.ratecache.suite.edge.EdgeEvent> events,
            java.util.function.Predicate<dev.ratecache.suite.edge.EdgeEvent> which) {
        Map<String, List<Long>> byUri = new LinkedHashMap<>();
        for (dev.ratecache.suite.edge.EdgeEvent e : events) {
            // A 304 answers a revalidation, which reached the origin and took its time as a fetch does.
            boolean answered = e.upstreamStatus() != null
                    && (e.upstreamStatus().startsWith("2") || e.upstreamStatus().equals("304"));
            if (which.test(e) && answered && e.upstreamMs() >= 0) {
                byUri.computeIfAbsent(e.uri(), u -> new ArrayList<>()).add(e.upstreamMs());
            }
        }
        Map<String, long[]> out = new LinkedHashMap<>();
        byUri.forEach((uri, times) -> out.put(uri, times.stream().mapToLong(Long::longValue).sorted().toArray()));
        return out;
    }

    private static List<Sample> samples(Path jtl) {
        if (!Files.isRegularFile(jtl)) {
            return List.of();
        }
        try {
            return Jtl.read(jtl);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /**
     * Each JMeter user's labels in the order it sent them, user {@code n-1} for the thread JMeter
     * names "Group 1-n" (the n-th it starts, as its ramp-up spaces them): for a plan that shuffles
     * its paths, the draws this run got. Null when a thread name does not say its number (the
     * model then takes the median over seeded orders).
     */
    static List<List<String>> drawnOrders(List<Sample> samples) {
        List<List<Sample>> users = byUser(samples);
        return users == null ? null : users.stream().map(u -> u.stream().map(Sample::label).toList()).toList();
    }

    /**
     * The samples of each JMeter user, user {@code n-1} for the thread JMeter names "Group 1-n" (the
     * n-th it starts), each in the order the file holds them: JMeter writes a thread's samples in the
     * order they ended, and a thread sends one at a time, so that is the user's own order, even for
     * two samples in one millisecond. Null when a thread name does not say its number, or the users
     * are not 1 to n.
     */
    private static List<List<Sample>> byUser(List<Sample> samples) {
        java.util.SortedMap<Integer, List<Sample>> byUser = new java.util.TreeMap<>();
        for (Sample s : samples) {
            int user;
            try {
                user = Integer.parseInt(s.threadName().substring(s.threadName().lastIndexOf('-') + 1).trim()) - 1;
            } catch (NumberFormatException e) {
                return null;
            }
            byUser.computeIfAbsent(user, u -> new ArrayList<>()).add(s);
        }
        if (byUser.isEmpty() || byUser.firstKey() != 0 || byUser.lastKey() != byUser.size() - 1) {
            return null;
        }
        return new ArrayList<>(byUser.values());
    }

    /** Every request the cell's front tier answered; none when its events cannot be read (a direct cell). */
    private static List<dev.ratecache.suite.edge.EdgeEvent> frontEvents(Path cellRunDir) {
        try {
            return dev.ratecache.suite.matrix.CellEvents.front(cellRunDir);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /**
     * Each JMeter user's start and pace ({@link dev.ratecache.model.Workload.Closed#paceMs}), user {@code n-1}
     * for the thread JMeter names "Group 1-n": after each answer left the front, how long until the
     * user sent its next request. That is the client's share of the sample (its time less the
     * front's time for the request, from the front's event of it) plus the gap JMeter left before
     * the next; a hit of JMeter's own cache is all the client's. A sample whose event is not found
     * takes the median share of those found. Null for an open plan, without the front's events
     * ({@code front} empty), or when a thread name does not say its number.
     */
    static Predictor.UserPace paces(List<Sample> samples, Map<String, String> props,
            List<dev.ratecache.suite.edge.EdgeEvent> front) {
        if (samples.isEmpty() || !props.containsKey("users") || props.containsKey("schedule") || front.isEmpty()) {
            return null;
        }
        List<List<Sample>> byUser = byUser(samples);
        if (byUser == null) {
            return null;
        }
        Map<Sample, dev.ratecache.suite.edge.EdgeEvent> matched = frontEventsOf(samples, front);
        Map<Sample, Long> share = new java.util.IdentityHashMap<>();
        matched.forEach((s, e) -> share.put(s, Math.max(0, s.elapsed() - (e.endMs() - e.arrivalMs()))));
        long[] found = share.values().stream().mapToLong(Long::longValue).sorted().toArray();
        long median = found.length == 0 ? 0 : dev.ratecache.stats.NearestRank.percentile(found, 50);
        long epoch = samples.stream().mapToLong(Sample::timeStamp).min().orElse(0);
        List<Long> starts = new ArrayList<>();
        List<List<Long>> out = new ArrayList<>();
        for (List<Sample> user : byUser) {
            // A user starts when its first request reached the front: opening its connection is no part of
            // the pace, and on a busy machine it took long enough (tens of ms) to reorder the users.
            Sample first = user.get(0);
            dev.ratecache.suite.edge.EdgeEvent firstAtFront = matched.get(first);
            long connecting = firstAtFront == null ? 0 : Math.max(0, firstAtFront.arrivalMs() - first.timeStamp());
            starts.add(first.timeStamp() + connecting - epoch);
            List<Long> pace = new ArrayList<>(user.size());
            for (int k = 0; k < user.size(); k++) {
                Sample s = user.get(k);
                long gap = k + 1 < user.size() ? Math.max(0, user.get(k + 1).timeStamp() - s.timeStamp() - s.elapsed()) : 0;
                // JMeter's own cache answered a client-cache hit: no request, no front, all of it the client's.
                long mine = dev.ratecache.jtl.JtlSummary.CLIENT_CACHE_HIT.equals(s.responseMessage()) ? s.elapsed()
                        : share.getOrDefault(s, median);
                pace.add(Math.max(0, mine - (k == 0 ? connecting : 0)) + gap);
            }
            out.add(pace);
        }
        return new Predictor.UserPace(starts, out);
    }

    /**
     * Per sample, the front's event of it: the first not yet taken of its path and status that arrived
     * within the sample's time (the two clocks are the machine's, in whole milliseconds, so a
     * millisecond either side). A sample none matches is left out.
     */
    private static Map<Sample, dev.ratecache.suite.edge.EdgeEvent> frontEventsOf(List<Sample> samples,
            List<dev.ratecache.suite.edge.EdgeEvent> front) {
        Map<String, List<dev.ratecache.suite.edge.EdgeEvent>> byKind = new java.util.HashMap<>();
        for (dev.ratecache.suite.edge.EdgeEvent e : front) {
            byKind.computeIfAbsent(Predictor.pathOf(e.uri()) + " " + e.status(), k -> new ArrayList<>()).add(e);
        }
        Map<String, boolean[]> taken = new java.util.HashMap<>();
        byKind.forEach((k, events) -> {
            events.sort(java.util.Comparator.comparingLong(dev.ratecache.suite.edge.EdgeEvent::arrivalMs));
            taken.put(k, new boolean[events.size()]);
        });
        Map<Sample, dev.ratecache.suite.edge.EdgeEvent> out = new java.util.IdentityHashMap<>();
        List<Sample> byStart = samples.stream().sorted(java.util.Comparator.comparingLong(Sample::timeStamp)).toList();
        for (Sample s : byStart) {
            String kind = Predictor.pathOf(s.label()) + " " + s.responseCode();
            List<dev.ratecache.suite.edge.EdgeEvent> events = byKind.get(kind);
            if (events == null) {
                continue;
            }
            boolean[] used = taken.get(kind);
            long from = s.timeStamp() - 1;
            long to = s.timeStamp() + s.elapsed() + 1;
            int lo = 0;
            int hi = events.size();
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (events.get(mid).arrivalMs() < from) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            for (int i = lo; i < events.size() && events.get(i).arrivalMs() <= to; i++) {
                if (!used[i] && events.get(i).endMs() <= to) {
                    used[i] = true;
                    out.put(s, events.get(i));
                    break;
                }
            }
        }
        return out;
    }


    /**
     * How far the closed plans' users started from their ramp-up: user i of n should start
     * i * rampup / n after the first. A JVM that starts its first threads late bunches them, which
     * the model (users exactly on schedule) cannot know. Null for the open plans.
     */
    static Long rampOffMs(List<Sample> samples, Map<String, String> props) {
        if (samples.isEmpty() || !props.containsKey("users") || props.containsKey("schedule")) {
            return null;
        }
        Map<String, Long> firstByThread = new LinkedHashMap<>();
        for (Sample s : samples) {
            firstByThread.merge(s.threadName(), s.timeStamp(), Math::min);
        }
        long[] starts = firstByThread.values().stream().mapToLong(Long::longValue).sorted().toArray();
        long rampMs;
        try {
            rampMs = Long.parseLong(props.getOrDefault("rampup", "0").trim()) * 1000;
        } catch (NumberFormatException e) {
            return null;
        }
        int users = starts.length;
        long worst = 0;
        for (int i = 0; i < users; i++) {
            worst = Math.max(worst, Math.abs(starts[i] - starts[0] - i * rampMs / users));
        }
        return worst;
    }

    /**
     * The longest any user of a closed plan without think time waited between an answer and its
     * next request. The model's users ask again a round trip later; a JMeter that stops its threads
     * (its first use of a class, a collection) holds them all, and a user held past a cache fill
     * finds the entry stored instead of waiting on the lock: an idle run's load/both held every user
     * until about 600 ms, one of them 233 ms after its answer, and measured 80.6 responses/s where the
     * model gave 56.6. Null for the open plans, and with think time.
     */
    static Long pauseMs(List<Sample> samples, Map<String, String> props) {
        if (samples.isEmpty() || !props.containsKey("users") || props.containsKey("schedule")
                || !"0".equals(props.getOrDefault("think_time", "0").trim())) {
            return null;
        }
        Map<String, List<Sample>> byThread = new LinkedHashMap<>();
        samples.forEach(s -> byThread.computeIfAbsent(s.threadName(), t -> new ArrayList<>()).add(s));
        long worst = 0;
        for (List<Sample> thread : byThread.values()) {
            for (int i = 1; i < thread.size(); i++) {
                Sample before = thread.get(i - 1);
                worst = Math.max(worst, thread.get(i).timeStamp() - (before.timeStamp() + before.elapsed()));
            }
        }
        return worst;
    }

    /**
     * How far the keys plan's requests started from their even arrivals: it sends its keys' summed
     * rate (the {@code keys} property, TIER:RATE:KEY;...) evenly (keys.jmx's even_arrivals), so
     * request i should start i / rate after the first. A generator that falls behind sends the
     * overdue ones at once, which the model (arrivals exactly on schedule) cannot know. Null for the
     * other plans.
     */
    static Long arrivalsOffMs(List<Sample> samples, Map<String, String> props) {
        if (samples.isEmpty() || !props.containsKey("keys")) {
            return null;
        }
        double total = 0;
        try {
            for (String entry : props.get("keys").split(";")) {
                total += Double.parseDouble(entry.trim().split(":", 3)[1]);
            }
        } catch (RuntimeException e) {
            return null;
        }
        // As keys.jmx rounds it.
        long rate = Math.max(1, Math.round(total));
        long[] starts = samples.stream().mapToLong(Sample::timeStamp).sorted().toArray();
        long worst = 0;
        for (int i = 0; i < starts.length; i++) {
            worst = Math.max(worst, Math.abs(starts[i] - starts[0] - i * 1000L / rate));
        }
        return worst;
    }

    /**
     * What the run shows that could explain a flag.
     *
     * @param replayLateP99Ms the replay's p99 lateness, null for a plan's cell
     * @param originCpuPct    the origin's CPU (100 = one core), null when unknown
     * @param generatorCpuPct the load generator's CPU over the samples' window (100 = one core), null when unknown
     * @param cores           the machine's cores
     * @param rampOffMs       how far the closed plans' users started from their ramp-up schedule, null when unknown
     * @param machineCpuPct   the machine's busy share of all its cores over the samples' window, null when unknown
     * @param arrivalsOffMs   how far the keys plan's requests started from their even arrivals, null when unknown
     * @param pauseMs         the longest a closed plan's user waited between an answer and its next request,
     *                        null when unknown
     */
    public record Evidence(Long replayLateP99Ms, Double originCpuPct, Double generatorCpuPct, int cores, Long rampOffMs,
            long maxLatenessMs, Double machineCpuPct, Long arrivalsOffMs, Long pauseMs, Map<Metric, Long> frontMs) {
        public Evidence(Long replayLateP99Ms, Double originCpuPct, Double generatorCpuPct, int cores, Long rampOffMs,
                long maxLatenessMs, Double machineCpuPct, Long arrivalsOffMs, Long pauseMs) {
            this(replayLateP99Ms, originCpuPct, generatorCpuPct, cores, rampOffMs, maxLatenessMs, machineCpuPct,
                    arrivalsOffMs, pauseMs, Map.of());
        }

        public Evidence(Long replayLateP99Ms, Double originCpuPct, Double generatorCpuPct, int cores, Long rampOffMs,
                long maxLatenessMs, Double machineCpuPct, Long arrivalsOffMs) {
            this(replayLateP99Ms, originCpuPct, generatorCpuPct, cores, rampOffMs, maxLatenessMs, machineCpuPct,
                    arrivalsOffMs, null);
        }

        public Evidence(Long replayLateP99Ms, Double originCpuPct, Double generatorCpuPct, int cores) {
            this(replayLateP99Ms, originCpuPct, generatorCpuPct, cores, null, ReplayCellReport.DEFAULT_MAX_LATENESS_MS, null);
        }

        public Evidence(Long replayLateP99Ms, Double originCpuPct, Double generatorCpuPct, int cores, Long rampOffMs,
                long maxLatenessMs, Double machineCpuPct) {
            this(replayLateP99Ms, originCpuPct, generatorCpuPct, cores, rampOffMs, maxLatenessMs, machineCpuPct, null);
        }

        /** The first run's schedule (whose samples the model's clock and ramp-up come from), the medians' CPU. */
        static Evidence of(CellResult r, Long rampOffMs, Long arrivalsOffMs, Long pauseMs,
                List<dev.ratecache.suite.edge.EdgeEvent> front) {
            ReplayBreakdown b = r.firstBreakdowns().figure(ReplayBreakdown.class);
            return new Evidence(b == null ? null : b.lateness().p99Ms(), r.median(Metric.CPU_ORIGIN_PCT),
                    r.median(Metric.GENERATOR_CPU_PCT), Runtime.getRuntime().availableProcessors(), rampOffMs,
                    b == null ? ReplayCellReport.DEFAULT_MAX_LATENESS_MS : b.maxLatenessMs(),
                    r.median(Metric.MACHINE_CPU_PCT), arrivalsOffMs, pauseMs, frontMs(front));
        }

        /**
         * The front's own p50 and p95, from its arrival to its answer as its events say: what of a
         * sample's time the tiers spent. Empty without the front's events.
         */
        static Map<Metric, Long> frontMs(List<dev.ratecache.suite.edge.EdgeEvent> front) {
            long[] took = front.stream().mapToLong(e -> e.endMs() - e.arrivalMs()).sorted().toArray();
            if (took.length == 0) {
                return Map.of();
            }
            return Map.of(Metric.P50_MS, dev.ratecache.stats.NearestRank.percentile(took, 50),
                    Metric.P95_MS, dev.ratecache.stats.NearestRank.percentile(took, 95));
        }
    }

    /** The prediction against the cell's medians. */
    public static CellPrediction compare(CellResult r, Prediction p, Evidence e) {
        return compare(r, p, (m, measured, predicted) -> reason(m, measured, predicted, p, e));
    }

    /** Why a flagged figure differs from its prediction. */
    interface Reason {
        String of(Metric m, double measured, double predicted);
    }

    static CellPrediction compare(CellResult r, Prediction p, Reason reason) {
        if (!p.predicted()) {
            return new CellPrediction(r.cell().name(), p, List.of(), List.of(p.gap()), true);
        }
        List<CellPrediction.Comparison> comparisons = new ArrayList<>();
        Set<String> reasons = new LinkedHashSet<>();
        boolean explained = true;
        for (Metric m : Predictor.METRICS) {
            Double predicted = p.value(m);
            Double measured = r.median(m);
            if (predicted == null || measured == null) {
                continue;
            }
            Double ratio = predicted == 0 ? null : measured / predicted;
            boolean flagged = Math.abs(measured - predicted) > floor(m)
                    && (ratio == null || Math.abs(ratio - 1) > TOLERANCE);
            comparisons.add(new CellPrediction.Comparison(m, measured, predicted, ratio, flagged, p.range(m)));
            if (flagged) {
                String why = reason.of(m, measured, predicted);
                explained &= !why.equals(CellPrediction.UNEXPLAINED);
                reasons.add(why);
            }
        }
        return new CellPrediction(r.cell().name(), p, comparisons, new ArrayList<>(reasons), explained);
    }

    /**
     * Differences too small to mean anything whatever the ratio: a percentage point of rejections
     * or hits, two origin requests (a refresh in flight as the run ends), 10 ms of latency (one
     * scheduler tick and a loopback round trip), 0.5 responses/s.
     */
    static double floor(Metric m) {
        return switch (m) {
            case REJECTED_PCT, EDGE_HIT_PCT -> 1.0;
            case ORIGIN_REQUESTS -> 2.0;
            case P50_MS, P95_MS -> 10.0;
            case THROUGHPUT -> 0.5;
            default -> 0;
        };
    }

    static String reason(Metric m, double measured, double predicted, Prediction p, Evidence e) {
        Prediction.Range range = p.range(m);
        if (range != null && range.contains(measured)) {
            // Nothing is wrong: one run of this traffic may measure this (see Prediction#ranges).
            boolean percentile = m == Metric.P50_MS || m == Metric.P95_MS;
            String over = p.orders() > 1
                    ? "over its " + p.orders() + " path orders" + (percentile ? " and the percentile's ranks" : "")
                    : percentile ? "over the ranks a sample of this size may put at the percentile" : "";
            if (p.slowOrigin() != null) {
                over += (over.isEmpty() ? "" : ", ") + "from the origin at its delay to the origin as slow as it answered"
                        + " here (" + p.slowOrigin() + "), which a cache without a lock sends every concurrent miss to";
            }
            if (p.paceRange()) {
                over += (over.isEmpty() ? "" : ", ") + "from its users at the pace this run measured to its users at"
                        + " their fastest";
            }
            if (p.revalidationRace()) {
                over += (over.isEmpty() ? "" : ", ") + "whether or not the background revalidations a user starts as"
                        + " its work ends reach the wire before its client closes";
            }
            return String.format(Locale.ROOT, "%s %.1f is inside the range the model allows, %.1f–%.1f %s",
                    m.id(), measured, range.low(), range.high(), over);
        }
        Long front = e.frontMs().get(m);
        if (front != null && measured > predicted && front <= predicted + floor(m)) {
            // The tiers were as quick as the model says: the time went before the front had the request or after
            // it answered, on the client's side of the wire.
            return String.format(Locale.ROOT, "the front itself answered its %s in %d ms, as the model says; the rest"
                    + " was the client's side (connecting, waiting for the edge to take the connection, the"
                    + " generator's threads), which the model does not include", m.id().replace("_ms", ""), front);
        }
        // Before the schedule: a generator or machine without a core to spare is why its users fall behind.
        Optional<Saturation> saturated = Saturation.of(e.generatorCpuPct(), e.machineCpuPct());
        if (saturated.isPresent()) {
            return saturated.get().describe() + ": the figures measure that, not the tiers";
        }
        if (e.replayLateP99Ms() != null && e.replayLateP99Ms() > e.maxLatenessMs()) {
            return "the generator fell behind its schedule (lateness p99 " + e.replayLateP99Ms() + " ms)";
        }
        if (e.rampOffMs() != null && e.rampOffMs() > RAMP_OFF_MS) {
            return "the generator fell behind its schedule (users started up to " + e.rampOffMs()
                    + " ms off their ramp-up)";
        }
        if (e.pauseMs() != null && e.pauseMs() > RAMP_OFF_MS) {
            return "the generator fell behind its schedule (a user waited up to " + e.pauseMs()
                    + " ms between an answer and its next request)";
        }
        if (e.arrivalsOffMs() != null && e.arrivalsOffMs() > RAMP_OFF_MS) {
            return "the generator fell behind its schedule (requests started up to " + e.arrivalsOffMs()
                    + " ms off their even arrivals)";
        }
        if (e.originCpuPct() != null && e.originCpuPct() >= 100.0 * e.cores() * SATURATED) {
            return String.format(Locale.ROOT, "the origin's CPU was saturated (%.0f %% of %d cores)", e.originCpuPct(), e.cores());
        }
        boolean slower = switch (m) {
            case P50_MS, P95_MS -> measured > predicted;
            case THROUGHPUT -> measured < predicted;
            default -> false;
        };
        if (slower) {
            return "the model does not include CPU and network costs beyond a constant round trip of "
                    + p.overheadMs() + " ms per request, so answers and loops are slower than it says";
        }
        return CellPrediction.UNEXPLAINED;
    }
}
