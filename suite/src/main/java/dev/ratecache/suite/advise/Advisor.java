package dev.ratecache.suite.advise;

import dev.ratecache.accesslog.LoggedRequest;
import dev.ratecache.accesslog.TimeResolution;
import dev.ratecache.accesslog.WithinSecond;
import dev.ratecache.model.Decision;
import dev.ratecache.model.LimitReq;
import dev.ratecache.model.LimitReqSpec;
import dev.ratecache.model.LimitReqStatus;
import dev.ratecache.model.Rate;
import dev.ratecache.stats.BusiestWindow;
import dev.ratecache.stats.NearestRank;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Sweeps candidate settings over a logged request stream through the model's {@link LimitReq}:
 * the front's per-client limit, the edge cache's lifetime per path, and the back's global limit.
 *
 * <p>Speed: a million requests, dozens of candidates. Requests become arrays of ids once; the
 * front's sweep runs client by client, because a limit_req key's decisions depend only on its own
 * requests (nginx only expires a key once its excess has drained, which is the state of a new
 * key), and candidates run in parallel.
 */
public final class Advisor {

    /** Front rates tried, requests/s per client. */
    static final int[] FRONT_RATES = {1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 500, 1000};
    /** Front bursts tried. */
    static final int[] FRONT_BURSTS = {5, 10, 20, 50, 100};
    /** Edge lifetimes tried, seconds. */
    static final int[] LIFETIMES = {1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600};
    /** Back bursts tried at the origin's capacity. */
    static final int[] BACK_BURSTS = {0, 10, 20, 50, 100, 200, 500};
    /** A longer lifetime that adds less than this many points of hit ratio is where the gain has flattened. */
    static final double FLAT_POINTS = 2.0;
    /** Peak rates are counted over sliding windows this long: long enough not to call one page load a flood. */
    static final long PEAK_WINDOW_MS = 10_000;
    /** A client whose peak is this many times the 95th percentile client's is an outlier (a scraper or a flood). */
    static final double OUTLIER_FACTOR = 5;
    /** ... and at least this many requests per second at its peak. */
    static final double OUTLIER_MIN_PER_SEC = 1;
    /** The least a log must hold to say anything. */
    public static final int MIN_REQUESTS = 100;
    public static final long MIN_SECONDS = 60;

    /**
     * What to advise for.
     *
     * @param originCapacity  requests/s the origin can serve; null when unknown (no back limit advised)
     * @param maxHurtPct      the share of (normal) clients a front limit may reject at least once
     * @param maxStalenessSec the oldest content a client may see; null for no cap
     * @param topPaths        how many paths (by requests) get a lifetime
     * @param nodelay         front limit in nodelay mode (requests inside the burst pass at once) instead of queue
     * @param withinSecond    for a log of whole seconds, where in its second a request is assumed to have come
     *                        for the figures and the recommendation (the other reading is worked out beside it)
     */
    public record Options(Double originCapacity, double maxHurtPct, Integer maxStalenessSec, int topPaths,
            boolean nodelay, WithinSecond withinSecond) {
        /** Whole seconds read as written: the same arrivals a replay of the log sends. */
        public Options(Double originCapacity, double maxHurtPct, Integer maxStalenessSec, int topPaths, boolean nodelay) {
            this(originCapacity, maxHurtPct, maxStalenessSec, topPaths, nodelay, WithinSecond.START);
        }
    }

    /**
     * What the figures assume about when each request came.
     *
     * @param assumed for a log of whole seconds, the reading the figures and the recommendation are made on;
     *                null when they take the times as logged
     * @param other   for a log of whole seconds, the same advice at the other reading; null otherwise
     */
    public record Timing(WithinSecond assumed, Advice other) {
        static final Timing AS_LOGGED = new Timing(null, null);

        /** True when the log's times are whole seconds, so two readings were worked out. */
        public boolean wholeSeconds() {
            return other != null;
        }
    }

    /** Bad input, one line. */
    public static final class BadLog extends Exception {
        public BadLog(String message) {
            super(message);
        }
    }

    public record ClientStat(String client, long requests, double peakPerSec, boolean outlier) {}

    /**
     * One front candidate.
     *
     * @param rejectedPct     share of all requests rejected
     * @param delayedPct      share of all requests delayed (queue mode)
     * @param hurtClients     normal clients with at least one rejected request
     * @param delayedClients  normal clients with at least one delayed request
     * @param outliersHurt    outlier clients with at least one rejected request
     * @param floodPerMinute  the most one client can push through in a minute: burst + 1 at once, then the rate
     */
    public record FrontCandidate(int rate, int burst, double rejectedPct, double delayedPct, int hurtClients,
            int delayedClients, int outliersHurt, long floodPerMinute) {}

    public record LifetimeCandidate(int seconds, double hitPct, double originPerSec, long oldestSeconds) {}

    public record PathAdvice(String path, long requests, List<LifetimeCandidate> candidates, int recommended,
            String why) {}

    public record BackCandidate(int rate, int burst, long rejected, long delayed, long maxDelayMs) {}

    /**
     * @param originBoundPeakPerSec the most requests reaching the origin in one second with the
     *                              recommended front limit and lifetimes and no back limit
     */
    public record BackAdvice(double capacity, long originBound, long originBoundPeakPerSec, List<BackCandidate> candidates,
            BackCandidate recommended) {}

    public record Advice(long requests, long clients, double seconds, double meanPerSec, long peakPerSec,
            List<ClientStat> outliers, List<ClientStat> topClients, List<FrontCandidate> front, FrontCandidate frontPick,
            int normalClients, int allowedHurt, List<PathAdvice> paths, BackAdvice back, Options options, Timing timing) {
        /** This advice's figures for the front candidate with {@code rate} and {@code burst}. */
        public FrontCandidate front(int rate, int burst) {
            return front.stream().filter(f -> f.rate() == rate && f.burst() == burst).findFirst().orElseThrow();
        }

        Advice withTiming(Timing t) {
            return new Advice(requests, clients, seconds, meanPerSec, peakPerSec, outliers, topClients, front, frontPick,
                    normalClients, allowedHurt, paths, back, options, t);
        }
    }

    private final List<LoggedRequest> log;
    private final Options options;
    private final int n;
    private final long[] time;
    private final int[] client;
    private final String[] clientNames;
    /** The logged span: the same whichever reading of a second, so the two readings' rates compare. */
    private final double seconds;

    /**
     * @param millis each request's time under the reading advised on, ascending, in the order of {@code requests}
     */
    private Advisor(List<LoggedRequest> requests, long[] millis, Options options) {
        this(requests, millis, options, LoggedRequest::client);
    }

    /**
     * @param identity what a limit counts a request as: its client, or its key for a tier's advice
     */
    private Advisor(List<LoggedRequest> requests, long[] millis, Options options,
            java.util.function.Function<LoggedRequest, String> identity) {
        this.log = requests;
        this.options = options;
        this.n = requests.size();
        this.time = new long[n];
        this.client = new int[n];
        Map<String, Integer> ids = new HashMap<>();
        List<String> names = new ArrayList<>();
        long first = n == 0 ? 0 : millis[0];
        this.seconds = n == 0 ? 0
                : (requests.get(n - 1).time().toInstant().toEpochMilli() - requests.get(0).time().toInstant().toEpochMilli()) / 1000.0;
        for (int i = 0; i < n; i++) {
            LoggedRequest r = requests.get(i);
            time[i] = millis[i] - first;
            client[i] = ids.computeIfAbsent(identity.apply(r), c -> {
                names.add(c);
                return names.size() - 1;
            });
        }
        this.clientNames = names.toArray(String[]::new);
    }

    /**
     * The advice for {@code requests} (ordered by time, as AccessLog.read gives them) at their times as
     * logged: what a replay of them sends.
     */
    public static Advice advise(List<LoggedRequest> requests, Options options) throws BadLog {
        return new Advisor(requests, logged(requests), options).run().withTiming(Timing.AS_LOGGED);
    }

    /**
     * The advice for {@code requests}, knowing how finely their times were logged. Whole seconds hide
     * where in its second a request came, and so whether a page and its assets came together or apart:
     * the advice is made on {@link Options#withinSecond()} and worked out again at the other reading,
     * so that what hangs on the assumption can be told ({@link Timing#other()}).
     */
    public static Advice advise(List<LoggedRequest> requests, TimeResolution resolution, Options options) throws BadLog {
        if (resolution == TimeResolution.SUB_SECOND) {
            return advise(requests, options);
        }
        long[] logged = logged(requests);
        WithinSecond assumed = options.withinSecond();
        Advice made = new Advisor(requests, assumed.place(logged), options).run();
        Advice other = new Advisor(requests, assumed.other().place(logged), options).run()
                .withTiming(new Timing(assumed.other(), null));
        return made.withTiming(new Timing(assumed, other));
    }

    private static long[] logged(List<LoggedRequest> requests) {
        return requests.stream().mapToLong(r -> r.time().toInstant().toEpochMilli()).toArray();
    }

    private Advice run() throws BadLog {
        if (n < MIN_REQUESTS || seconds < MIN_SECONDS) {
            throw new BadLog(String.format(java.util.Locale.ROOT,
                    "%d %s over %.0f s: too short to say anything (advise needs at least %d requests over %d s)",
                    n, n == 1 ? "request" : "requests", seconds, MIN_REQUESTS, MIN_SECONDS));
        }
        double mean = n / seconds;
        if (options.originCapacity() != null && options.originCapacity() < mean) {
            throw new BadLog(String.format(java.util.Locale.ROOT,
                    "--origin-capacity %s r/s is below the log's mean rate of %.1f r/s: no limit keeps the origin under"
                            + " it without rejecting traffic for good; give the origin's real capacity",
                    plain(options.originCapacity()), mean));
        }
        boolean[] cacheable = new boolean[n];
        boolean anyCacheable = cacheablePaths(cacheable);
        if (!anyCacheable) {
            throw new BadLog("no cacheable path: no GET or HEAD path answered 200 was requested twice, so there is no"
                    + " cache lifetime to advise");
        }

        int clients = clientNames.length;
        Front f = front();
        List<ClientStat> stats = f.stats();
        List<FrontCandidate> swept = f.swept();
        FrontCandidate pick = f.pick();
        int normal = f.normal();
        int allowed = f.allowed();
        boolean[] accepted = new boolean[n];
        sweepFront(pick, f.byClient(), f.outlier(), accepted);

        List<PathAdvice> paths = lifetimes(cacheable, accepted, seconds);
        BackAdvice back = back(cacheable, accepted, paths);

        long peak = BusiestWindow.in(time, 1000).count();
        List<ClientStat> outliers = stats.stream().filter(ClientStat::outlier)
                .sorted(Comparator.comparingDouble(ClientStat::peakPerSec).reversed()).toList();
        List<ClientStat> top = stats.stream().sorted(Comparator.comparingLong(ClientStat::requests).reversed())
                .limit(10).toList();
        return new Advice(n, clients, seconds, mean, peak, outliers, top, swept, pick, normal, allowed, paths, back,
                options, null);
    }

    /** The front limit's search over this advisor's identities (clients, or a tier's keys). */
    private record Front(int[][] byClient, List<ClientStat> stats, boolean[] outlier, int normal, int allowed,
            List<FrontCandidate> swept, FrontCandidate pick) {}

    /**
     * Every front candidate, and the tightest (least flood a minute) that hurts at most
     * {@link Options#maxHurtPct()} of the normal identities (outliers apart); the loosest when none does.
     */
    private Front front() {
        int clients = clientNames.length;
        int[][] byClient = byClient(clients);
        List<ClientStat> stats = clientStats(byClient);
        boolean[] outlier = new boolean[clients];
        for (int c = 0; c < clients; c++) {
            outlier[c] = stats.get(c).outlier();
        }
        int normal = (int) IntStream.range(0, clients).filter(c -> !outlier[c]).count();
        int allowed = (int) Math.floor(normal * options.maxHurtPct() / 100.0);

        List<FrontCandidate> front = new ArrayList<>();
        for (int rate : FRONT_RATES) {
            for (int burst : FRONT_BURSTS) {
                front.add(new FrontCandidate(rate, burst, 0, 0, 0, 0, 0, burst + 1 + 60L * rate - 1));
            }
        }
        List<FrontCandidate> swept = front.parallelStream().map(f -> sweepFront(f, byClient, outlier, null)).toList();
        FrontCandidate pick = swept.stream().filter(f -> f.hurtClients() <= allowed)
                .min(Comparator.comparingLong(FrontCandidate::floodPerMinute).thenComparingInt(FrontCandidate::rate))
                .orElse(swept.get(swept.size() - 1));
        return new Front(byClient, stats, outlier, normal, allowed, swept, pick);
    }

    /**
     * One tier's advice: the front search with the tier's keys as the clients.
     *
     * @param tier        the tier's name
     * @param keys        distinct identities counted in it (keys; for anonymous also the addresses of keyless requests)
     * @param requests    its requests in the log
     * @param normalKeys  its keys that are not outliers
     * @param allowedHurt how many of them the recommendation may hurt
     * @param candidates  every candidate, as for the per-client limit
     * @param pick        the recommendation; null when the log has no request in the tier
     * @param outliers    its outlier keys, by peak rate
     */
    public record TierAdvice(String tier, long keys, long requests, int normalKeys, int allowedHurt,
            List<FrontCandidate> candidates, FrontCandidate pick, List<ClientStat> outliers) {}

    /**
     * Per tier, the tightest rate and burst that hurts at most {@link Options#maxHurtPct()} of the
     * tier's normal keys, by the same search as the per-client limit with each key as a client. A
     * request's tier is its key's ({@code tierOf}); a request without a key is counted by its address
     * in {@code keylessTier}, as nginx does with {@code --missing-key addr}.
     *
     * @param requests    the log's requests, ordered by time, with their keys
     * @param resolution  how finely their times were logged: whole seconds are read as {@link Options#withinSecond()}
     * @param tiers       the tiers' names in the order to advise them
     * @param tierOf      a key's tier
     * @param keylessTier the tier of requests without a key
     */
    public static List<TierAdvice> adviseTiers(List<LoggedRequest> requests, TimeResolution resolution, Options options,
            List<String> tiers, java.util.function.Function<String, String> tierOf, String keylessTier) {
        long[] logged = logged(requests);
        long[] millis = resolution == TimeResolution.WHOLE_SECONDS ? options.withinSecond().place(logged) : logged;
        Map<String, List<Integer>> byTier = new java.util.LinkedHashMap<>();
        tiers.forEach(t -> byTier.put(t, new ArrayList<>()));
        for (int i = 0; i < requests.size(); i++) {
            LoggedRequest r = requests.get(i);
            String tier = r.hasKey() ? tierOf.apply(r.key()) : keylessTier;
            byTier.computeIfAbsent(tier, t -> new ArrayList<>()).add(i);
        }
        List<TierAdvice> out = new ArrayList<>();
        byTier.forEach((tier, indices) -> {
            if (indices.isEmpty()) {
                out.add(new TierAdvice(tier, 0, 0, 0, 0, List.of(), null, List.of()));
                return;
            }
            List<LoggedRequest> in = indices.stream().map(requests::get).toList();
            long[] times = indices.stream().mapToLong(i -> millis[i]).toArray();
            // A keyless request is counted by its address: "a" and the address never equals "k" and a key.
            Advisor a = new Advisor(in, times, options, r -> r.hasKey() ? "k" + r.key() : "a" + r.client());
            Front f = a.front();
            List<ClientStat> outliers = f.stats().stream().filter(ClientStat::outlier)
                    .map(c -> new ClientStat(c.client().substring(1), c.requests(), c.peakPerSec(), true))
                    .sorted(Comparator.comparingDouble(ClientStat::peakPerSec).reversed()).toList();
            out.add(new TierAdvice(tier, a.clientNames.length, in.size(), f.normal(), f.allowed(), f.swept(), f.pick(),
                    outliers));
        });
        return out;
    }

    /** GET/HEAD requests answered 200 (or with no status logged) of a path requested at least twice. */
    private boolean cacheablePaths(boolean[] cacheable) {
        Map<String, Integer> count = new HashMap<>();
        for (int i = 0; i < n; i++) {
            LoggedRequest r = log.get(i);
            if (candidate(r)) {
                count.merge(r.path(), 1, Integer::sum);
            }
        }
        boolean any = false;
        for (int i = 0; i < n; i++) {
            LoggedRequest r = log.get(i);
            cacheable[i] = candidate(r) && count.get(r.path()) >= 2;
            any |= cacheable[i];
        }
        return any;
    }

    private static boolean candidate(LoggedRequest r) {
        return (r.method().equals("GET") || r.method().equals("HEAD")) && (r.status() == 200 || r.status() == 0);
    }

    private int[][] byClient(int clients) {
        int[] counts = new int[clients];
        for (int c : client) {
            counts[c]++;
        }
        int[][] out = new int[clients][];
        for (int c = 0; c < clients; c++) {
            out[c] = new int[counts[c]];
        }
        int[] fill = new int[clients];
        for (int i = 0; i < n; i++) {
            out[client[i]][fill[client[i]]++] = i;
        }
        return out;
    }

    /** Requests and peak rate per client (over {@link #PEAK_WINDOW_MS}), and which are outliers. */
    private List<ClientStat> clientStats(int[][] byClient) {
        double[] peak = new double[byClient.length];
        for (int c = 0; c < byClient.length; c++) {
            long[] times = Arrays.stream(byClient[c]).mapToLong(i -> time[i]).toArray();
            peak[c] = BusiestWindow.in(times, PEAK_WINDOW_MS).count() * 1000.0 / PEAK_WINDOW_MS;
        }
        double[] sorted = peak.clone();
        Arrays.sort(sorted);
        double p95 = NearestRank.percentile(sorted, 95);
        double bar = Math.max(OUTLIER_FACTOR * p95, OUTLIER_MIN_PER_SEC);
        List<ClientStat> stats = new ArrayList<>();
        for (int c = 0; c < byClient.length; c++) {
            stats.add(new ClientStat(clientNames[c], byClient[c].length, peak[c], peak[c] > bar));
        }
        return stats;
    }

    /** One front candidate through the model's limit_req, client by client; marks accepted requests when asked. */
    private FrontCandidate sweepFront(FrontCandidate f, int[][] byClient, boolean[] outlier, boolean[] accepted) {
        LimitReqSpec spec = options.nodelay() ? LimitReqSpec.nodelay(Rate.perSecond(f.rate()), f.burst())
                : LimitReqSpec.queue(Rate.perSecond(f.rate()), f.burst());
        long rejected = 0;
        long delayed = 0;
        int hurt = 0;
        int delayedClients = 0;
        int outliersHurt = 0;
        for (int c = 0; c < byClient.length; c++) {
            LimitReq zone = new LimitReq(spec);
            boolean anyRejected = false;
            boolean anyDelayed = false;
            for (int i : byClient[c]) {
                Decision d = zone.decide("k", time[i]);
                if (d.status() == LimitReqStatus.REJECTED) {
                    rejected++;
                    anyRejected = true;
                } else {
                    if (d.delayMs() > 0) {
                        delayed++;
                        anyDelayed = true;
                    }
                    if (accepted != null) {
                        accepted[i] = true;
                    }
                }
            }
            if (outlier[c]) {
                outliersHurt += anyRejected ? 1 : 0;
            } else {
                hurt += anyRejected ? 1 : 0;
                delayedClients += anyDelayed ? 1 : 0;
            }
        }
        return new FrontCandidate(f.rate(), f.burst(), 100.0 * rejected / n, 100.0 * delayed / n, hurt, delayedClients,
                outliersHurt, f.floodPerMinute());
    }

    /**
     * Per top path and lifetime: a request is a hit while its URI's copy is fresh, else it goes to
     * the origin and refreshes the copy (no lock, no origin time: the cache's best case, which the
     * lock only approaches).
     */
    private List<PathAdvice> lifetimes(boolean[] cacheable, boolean[] accepted, double seconds) {
        Map<String, List<Integer>> byPath = new HashMap<>();
        for (int i = 0; i < n; i++) {
            if (cacheable[i] && accepted[i]) {
                byPath.computeIfAbsent(log.get(i).path(), p -> new ArrayList<>()).add(i);
            }
        }
        List<Map.Entry<String, List<Integer>>> top = byPath.entrySet().stream()
                .sorted(Comparator.comparingInt((Map.Entry<String, List<Integer>> e) -> e.getValue().size()).reversed()
                        .thenComparing(Map.Entry::getKey))
                .limit(options.topPaths()).toList();
        return top.parallelStream().map(e -> pathAdvice(e.getKey(), e.getValue(), seconds)).toList();
    }

    private PathAdvice pathAdvice(String path, List<Integer> requests, double seconds) {
        Map<String, Integer> uriIds = new HashMap<>();
        int[] uri = new int[requests.size()];
        for (int k = 0; k < uri.length; k++) {
            uri[k] = uriIds.computeIfAbsent(log.get(requests.get(k)).uri(), u -> uriIds.size());
        }
        List<LifetimeCandidate> candidates = new ArrayList<>();
        for (int life : LIFETIMES) {
            long[] freshUntil = new long[uriIds.size()];
            Arrays.fill(freshUntil, Long.MIN_VALUE);
            long misses = 0;
            for (int k = 0; k < uri.length; k++) {
                long t = time[requests.get(k)];
                if (t >= freshUntil[uri[k]]) {
                    misses++;
                    freshUntil[uri[k]] = t + life * 1000L;
                }
            }
            candidates.add(new LifetimeCandidate(life, 100.0 * (uri.length - misses) / uri.length, misses / seconds, life));
        }
        int pick = candidates.size() - 1;
        String why = "the gain never flattened within the lifetimes tried";
        for (int k = 0; k + 1 < candidates.size(); k++) {
            if (candidates.get(k + 1).hitPct() - candidates.get(k).hitPct() < FLAT_POINTS) {
                pick = k;
                why = String.format(java.util.Locale.ROOT, "the next lifetime adds under %.0f points of hit ratio", FLAT_POINTS);
                break;
            }
        }
        if (options.maxStalenessSec() != null && candidates.get(pick).seconds() > options.maxStalenessSec()) {
            int cap = -1;
            for (int k = 0; k < candidates.size(); k++) {
                if (candidates.get(k).seconds() <= options.maxStalenessSec()) {
                    cap = k;
                }
            }
            pick = Math.max(0, cap);
            why = "capped by --max-staleness " + options.maxStalenessSec() + " s";
        }
        return new PathAdvice(path, uri.length, candidates, candidates.get(pick).seconds(), why);
    }

    /**
     * The stream that would reach the back: every front-accepted request that the cache (at the
     * recommended lifetimes) would not answer. Paths outside the top ones are not cached.
     */
    private BackAdvice back(boolean[] cacheable, boolean[] accepted, List<PathAdvice> paths) {
        Map<String, Integer> lifetime = new HashMap<>();
        paths.forEach(p -> lifetime.put(p.path(), p.recommended()));
        Map<String, Long> freshUntil = new HashMap<>();
        long[] bound = new long[n];
        int m = 0;
        for (int i = 0; i < n; i++) {
            if (!accepted[i]) {
                continue;
            }
            LoggedRequest r = log.get(i);
            Integer life = cacheable[i] ? lifetime.get(r.path()) : null;
            if (life != null) {
                Long until = freshUntil.get(r.uri());
                if (until != null && time[i] < until) {
                    continue;
                }
                freshUntil.put(r.uri(), time[i] + life * 1000L);
            }
            bound[m++] = time[i];
        }
        long[] stream = Arrays.copyOf(bound, m);
        long peak = BusiestWindow.in(stream, 1000).count();
        if (options.originCapacity() == null) {
            return new BackAdvice(0, m, peak, List.of(), null);
        }
        int rate = (int) Math.max(1, Math.floor(options.originCapacity()));
        List<BackCandidate> candidates = new ArrayList<>();
        for (int burst : BACK_BURSTS) {
            // Queue mode: the origin never gets more than the rate; the burst is how many may wait.
            LimitReq zone = new LimitReq(LimitReqSpec.queue(Rate.perSecond(rate), burst));
            long rejected = 0;
            long delayed = 0;
            long maxDelay = 0;
            for (long t : stream) {
                Decision d = zone.decide("origin", t);
                if (d.status() == LimitReqStatus.REJECTED) {
                    rejected++;
                } else if (d.delayMs() > 0) {
                    delayed++;
                    maxDelay = Math.max(maxDelay, d.delayMs());
                }
            }
            candidates.add(new BackCandidate(rate, burst, rejected, delayed, maxDelay));
        }
        BackCandidate pick = candidates.stream().filter(c -> c.rejected() == 0).findFirst()
                .orElse(candidates.get(candidates.size() - 1));
        return new BackAdvice(options.originCapacity(), m, peak, candidates, pick);
    }

    static String plain(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
