package dev.ratecache.suite.advise;

import dev.ratecache.accesslog.LoggedRequest;
import dev.ratecache.model.QuotaLimiter;
import dev.ratecache.model.QuotaSpec;
import dev.ratecache.model.QuotaWindow;
import dev.ratecache.stats.NearestRank;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A daily quota per tier from a log that spans UTC days: the tightest N a UTC day that cuts at
 * most a given share of the tier's normal key-days.
 *
 * <p>Only the log's whole UTC days are counted: the first day when the log starts within its first
 * hour, the last when it ends within its last; a day the log enters late or leaves early would pass
 * for a quiet one. A <i>key-day</i> is a key and a whole UTC day on which it sent at least one
 * request; it is <i>cut</i> by N when the key sent more than N that day. A key is an <i>outlier</i>
 * when its busiest whole day is over {@link Advisor#OUTLIER_FACTOR} times the tier's 95th-percentile
 * key's busiest day (nearest rank), the per-client rule's factor on days instead of peaks: heavy
 * keys a quota is meant to stop, which do not count against the share. The tightest N cutting at
 * most ⌊D · share⌋ of the D normal key-days is then the nearest-rank (100 - share) percentile of
 * their daily counts.
 *
 * <p>The requests rejected are the model's {@link QuotaLimiter} over the tier's requests, calendar
 * (the daily count over N, the same as fixed for a day) and sliding (the default, whose estimate
 * carries the previous day over, so a heavy day costs part of the next), counted on the whole days.
 */
public final class QuotaAdvisor {
    private QuotaAdvisor() {}

    /** A log must cover at least this many whole UTC days, and touch two dates, for a daily quota. */
    static final int MIN_WHOLE_DAYS = 1;
    static final long HOUR_MS = 3_600_000L;
    /** The round quotas shown beside the pick: 1, 2, 5 times each power of ten. */
    static final long[] STEPS = {1, 2, 5};

    /**
     * One daily quota tried on a tier.
     *
     * @param limit           N a UTC day
     * @param keyDaysCut      normal key-days over N
     * @param keyDaysCutPct   their share of the normal key-days
     * @param keysCut         normal keys with at least one day over N
     * @param outlierKeysCut  outlier keys with at least one day over N
     * @param rejected        requests the model's calendar quota rejects on whole days, outliers' included
     * @param rejectedSliding the same with the sliding window (the default)
     * @param rejectedPct     {@code rejected}'s share of the tier's requests on whole days
     */
    public record Candidate(long limit, int keyDaysCut, double keyDaysCutPct, int keysCut, int outlierKeysCut,
            long rejected, long rejectedSliding, double rejectedPct) {}

    /** An outlier key: its busiest whole day. */
    public record OutlierKey(String key, long busiestDay) {}

    /**
     * One tier's daily quota.
     *
     * @param tier        the tier's name
     * @param keys        identities with a request on a whole day
     * @param requests    their requests on whole days
     * @param normalKeys  those that are not outliers
     * @param keyDays     the normal keys' key-days
     * @param allowedCut  how many of those the pick may cut
     * @param medianDay   the normal key-days' median count (nearest rank); 0 without any
     * @param candidates  the quotas tried, ascending, the pick among them
     * @param pick        the recommendation; null when the tier has no request on a whole day
     * @param outliers    outlier keys, busiest first
     */
    public record TierQuota(String tier, int keys, long requests, int normalKeys, int keyDays, int allowedCut,
            long medianDay, List<Candidate> candidates, Candidate pick, List<OutlierKey> outliers) {}

    /**
     * The daily quotas of a log, or why there are none.
     *
     * @param firstDay  the first whole UTC day counted; null when none
     * @param lastDay   the last
     * @param maxCutPct the share of normal key-days a pick may cut
     * @param tiers     per tier, in the order asked; empty when {@code none}
     * @param none      why no quota is advised, one line; null when one is
     */
    public record QuotaAdvice(LocalDate firstDay, LocalDate lastDay, double maxCutPct, List<TierQuota> tiers,
            String none) {
        public QuotaAdvice {
            tiers = List.copyOf(tiers);
        }

        public boolean advised() {
            return none == null;
        }

        public long wholeDays() {
            return firstDay == null ? 0 : lastDay.toEpochDay() - firstDay.toEpochDay() + 1;
        }
    }

    /**
     * Per tier, the tightest daily quota cutting at most {@code maxCutPct} of its normal key-days. A
     * request's identity is its key, or for one without a key its address, in {@code keylessTier}
     * (as nginx does with {@code --missing-key addr}); its tier is {@code tierOf} its key.
     *
     * @param requests the log's requests, ordered by time
     */
    public static QuotaAdvice advise(List<LoggedRequest> requests, double maxCutPct, List<String> tiers,
            Function<String, String> tierOf, String keylessTier) {
        if (requests.isEmpty()) {
            return new QuotaAdvice(null, null, maxCutPct, List.of(), "no requests");
        }
        long first = millis(requests.get(0));
        long last = millis(requests.get(requests.size() - 1));
        long firstDay = Math.floorDiv(first, QuotaSpec.DAY_MS);
        long lastDay = Math.floorDiv(last, QuotaSpec.DAY_MS);
        if (firstDay == lastDay) {
            return new QuotaAdvice(null, null, maxCutPct, List.of(), "the log spans one UTC day (" + date(firstDay)
                    + "): a daily quota needs a log of two days or more");
        }
        long from = first - firstDay * QuotaSpec.DAY_MS < HOUR_MS ? firstDay : firstDay + 1;
        long to = (lastDay + 1) * QuotaSpec.DAY_MS - last <= HOUR_MS ? lastDay : lastDay - 1;
        if (to - from + 1 < MIN_WHOLE_DAYS) {
            return new QuotaAdvice(null, null, maxCutPct, List.of(), "the log (" + Instant.ofEpochMilli(first) + " to "
                    + Instant.ofEpochMilli(last) + ") covers no whole UTC day: a daily quota needs one at least");
        }
        Map<String, List<Integer>> byTier = new LinkedHashMap<>();
        tiers.forEach(t -> byTier.put(t, new ArrayList<>()));
        for (int i = 0; i < requests.size(); i++) {
            LoggedRequest r = requests.get(i);
            byTier.computeIfAbsent(r.hasKey() ? tierOf.apply(r.key()) : keylessTier, t -> new ArrayList<>()).add(i);
        }
        List<TierQuota> out = new ArrayList<>();
        byTier.forEach((tier, indices) -> out.add(tier(tier, requests, indices, from, to, maxCutPct)));
        return new QuotaAdvice(date(from), date(to), maxCutPct, out, null);
    }

    private static TierQuota tier(String tier, List<LoggedRequest> requests, List<Integer> indices, long from, long to,
            double maxCutPct) {
        // A keyless request is counted by its address: "a" and the address never equals "k" and a key.
        Map<String, Map<Long, Long>> daily = new LinkedHashMap<>();
        long onWholeDays = 0;
        for (int i : indices) {
            LoggedRequest r = requests.get(i);
            long day = Math.floorDiv(millis(r), QuotaSpec.DAY_MS);
            if (day < from || day > to) {
                continue;
            }
            onWholeDays++;
            daily.computeIfAbsent(identity(r), k -> new HashMap<>()).merge(day, 1L, Long::sum);
        }
        if (daily.isEmpty()) {
            return new TierQuota(tier, 0, 0, 0, 0, 0, 0, List.of(), null, List.of());
        }
        List<String> keys = new ArrayList<>(daily.keySet());
        long[] busiest = keys.stream().mapToLong(k -> daily.get(k).values().stream().mapToLong(Long::longValue).max()
                .orElse(0)).toArray();
        long[] sortedBusiest = busiest.clone();
        Arrays.sort(sortedBusiest);
        double bar = Advisor.OUTLIER_FACTOR * NearestRank.percentile(sortedBusiest, 95);
        Map<String, Boolean> outlier = new HashMap<>();
        List<OutlierKey> outliers = new ArrayList<>();
        List<Long> normalDays = new ArrayList<>();
        for (int k = 0; k < keys.size(); k++) {
            boolean o = busiest[k] > bar;
            outlier.put(keys.get(k), o);
            if (o) {
                outliers.add(new OutlierKey(unprefixed(keys.get(k)), busiest[k]));
            } else {
                normalDays.addAll(daily.get(keys.get(k)).values());
            }
        }
        outliers.sort((a, b) -> Long.compare(b.busiestDay(), a.busiestDay()));
        long[] counts = normalDays.stream().mapToLong(Long::longValue).sorted().toArray();
        int d = counts.length;
        int normalKeys = (int) outlier.values().stream().filter(o -> !o).count();
        if (d == 0) {
            // Not reached while the bar is a multiple of a key's own busiest day; kept so that another
            // outlier rule could not leave a tier with nothing to take a percentile of.
            return new TierQuota(tier, keys.size(), onWholeDays, 0, 0, 0, 0, List.of(), null, outliers);
        }
        int allowed = (int) Math.floor(d * maxCutPct / 100.0);
        long pick = Math.max(1, counts[Math.max(0, d - allowed - 1)]);
        long median = NearestRank.percentile(counts, 50);
        long most = Arrays.stream(busiest).max().orElse(1);
        TreeSet<Long> limits = new TreeSet<>(round(median, most));
        limits.add(pick);
        List<Candidate> candidates = new ArrayList<>();
        Candidate picked = null;
        Counted counted = Counted.of(requests, indices, to);
        for (long n : limits) {
            Candidate c = candidate(n, daily, outlier, d, counted, from, onWholeDays);
            candidates.add(c);
            if (n == pick) {
                picked = c;
            }
        }
        return new TierQuota(tier, keys.size(), onWholeDays, normalKeys, d, allowed, median, candidates, picked,
                outliers);
    }

    /** 1, 2, 5 times powers of ten from the one at or below {@code low} to the one at or above {@code high}. */
    static List<Long> round(long low, long high) {
        long lo = Math.max(1, low);
        long hi = Math.max(lo, high);
        List<Long> series = new ArrayList<>();
        for (long p = 1; series.isEmpty() || series.get(series.size() - 1) < hi; p *= 10) {
            for (long s : STEPS) {
                if (series.isEmpty() || series.get(series.size() - 1) < hi) {
                    series.add(s * p);
                }
            }
        }
        int start = 0;
        for (int i = 0; i < series.size(); i++) {
            if (series.get(i) <= lo) {
                start = i;
            }
        }
        return List.copyOf(series.subList(start, series.size()));
    }

    private static Candidate candidate(long n, Map<String, Map<Long, Long>> daily, Map<String, Boolean> outlier, int d,
            Counted counted, long from, long onWholeDays) {
        int cut = 0;
        int keysCut = 0;
        int outliersCut = 0;
        for (Map.Entry<String, Map<Long, Long>> e : daily.entrySet()) {
            long over = e.getValue().values().stream().filter(c -> c > n).count();
            if (outlier.get(e.getKey())) {
                outliersCut += over > 0 ? 1 : 0;
            } else {
                cut += (int) over;
                keysCut += over > 0 ? 1 : 0;
            }
        }
        long calendar = rejected(QuotaSpec.daily(n), counted, from);
        long sliding = rejected(QuotaSpec.of(n, QuotaSpec.DAY_MS, QuotaWindow.SLIDING), counted, from);
        return new Candidate(n, cut, 100.0 * cut / d, keysCut, outliersCut, calendar, sliding,
                onWholeDays == 0 ? 0 : 100.0 * calendar / onWholeDays);
    }

    /**
     * A tier's requests up to the end of the last whole day, as the quota sees them: times and
     * identities, the identities made once rather than once per candidate.
     */
    private record Counted(long[] times, String[] ids) {
        static Counted of(List<LoggedRequest> requests, List<Integer> indices, long to) {
            long end = (to + 1) * QuotaSpec.DAY_MS;
            int m = 0;
            long[] times = new long[indices.size()];
            String[] ids = new String[indices.size()];
            for (int i : indices) {
                LoggedRequest r = requests.get(i);
                long t = millis(r);
                if (t >= end) {
                    break;
                }
                times[m] = t;
                ids[m++] = identity(r);
            }
            return new Counted(Arrays.copyOf(times, m), Arrays.copyOf(ids, m));
        }
    }

    /** The model's quota over the tier's requests (a partial first day's feed sliding), counted on the whole days. */
    private static long rejected(QuotaSpec spec, Counted counted, long from) {
        QuotaLimiter quota = new QuotaLimiter(spec);
        long start = from * QuotaSpec.DAY_MS;
        long rejected = 0;
        for (int i = 0; i < counted.times().length; i++) {
            if (!quota.answer(counted.ids()[i], counted.times()[i]).admitted() && counted.times()[i] >= start) {
                rejected++;
            }
        }
        return rejected;
    }

    private static String identity(LoggedRequest r) {
        return r.hasKey() ? "k" + r.key() : "a" + r.client();
    }

    private static String unprefixed(String identity) {
        return identity.substring(1);
    }

    private static long millis(LoggedRequest r) {
        return r.time().toInstant().toEpochMilli();
    }

    private static LocalDate date(long epochDay) {
        return LocalDate.ofEpochDay(epochDay);
    }
}
