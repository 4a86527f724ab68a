package dev.ratecache.suite.advise;

import dev.ratecache.suite.advise.WhatIf.Outcome;
import dev.ratecache.suite.advise.WhatIf.Verdict;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The what-if's figures: how many of the log's requests the user's config would reject and delay,
 * per key, per path and per minute, and the clients it would hit hardest.
 *
 * @param requests     every request of the log
 * @param verdicts     how many got each verdict
 * @param notPredicted why requests were not predicted, with how many each
 * @param perKey       per key of the deciding limit (usually the client's address), most hit first
 * @param perPath      per path (with the location that answered it), most hit first
 * @param perMinute    per minute (UTC), in time order
 * @param hardestHit   the clients (logged addresses) with the most requests rejected, then delayed
 */
public record WhatIfFigures(long requests, Map<Verdict, Long> verdicts, Map<String, Long> notPredicted,
                            List<Tally> perKey, List<Tally> perPath, List<Tally> perMinute, List<Tally> hardestHit) {

    /** How many clients {@link #hardestHit} names. */
    public static final int HARDEST = 10;

    /**
     * One row of a table.
     *
     * @param name           the key, path, minute or client
     * @param detail         the location, for a path; "" otherwise
     * @param longestDelayMs the longest delay the model gives one of its requests
     */
    public record Tally(String name, String detail, long requests, long rejected, long delayed, long longestDelayMs) {
        public double rejectedPct() {
            return requests == 0 ? 0 : 100.0 * rejected / requests;
        }

        Tally plus(Outcome o) {
            return new Tally(name, detail, requests + 1, rejected + (o.verdict() == Verdict.REJECTED ? 1 : 0),
                    delayed + (o.verdict() == Verdict.DELAYED ? 1 : 0), Math.max(longestDelayMs, o.delayMs()));
        }
    }

    public long count(Verdict v) {
        return verdicts.getOrDefault(v, 0L);
    }

    /** The figures of {@code outcomes}. */
    public static WhatIfFigures of(List<Outcome> outcomes) {
        Map<Verdict, Long> verdicts = new EnumMap<>(Verdict.class);
        Map<String, Long> notPredicted = new LinkedHashMap<>();
        for (Outcome o : outcomes) {
            verdicts.merge(o.verdict(), 1L, Long::sum);
            if (o.verdict() == Verdict.NOT_PREDICTED) {
                notPredicted.merge(o.why(), 1L, Long::sum);
            }
        }
        List<Outcome> limited = outcomes.stream().filter(o -> o.verdict() == Verdict.PASSED
                || o.verdict() == Verdict.DELAYED || o.verdict() == Verdict.REJECTED).toList();
        List<Tally> perKey = mostHit(tally(limited, o -> o.key(), o -> ""));
        List<Tally> perPath = mostHit(tally(limited, o -> o.request().path(), Outcome::location));
        List<Tally> perMinute = new ArrayList<>(new TreeMap<>(tally(limited, WhatIfFigures::minute, o -> "")).values());
        List<Tally> hardest = mostHit(tally(limited, o -> o.request().client(), o -> "")).stream()
                .filter(t -> t.rejected() + t.delayed() > 0).limit(HARDEST).toList();
        return new WhatIfFigures(outcomes.size(), verdicts, notPredicted, perKey, perPath, perMinute, hardest);
    }

    /** The minute a request reached limit_req, UTC: "2026-11-20T10:04Z". */
    static String minute(Outcome o) {
        return Instant.ofEpochMilli(o.atMs()).truncatedTo(ChronoUnit.MINUTES).atOffset(ZoneOffset.UTC).toString();
    }

    private static Map<String, Tally> tally(List<Outcome> outcomes, Function<Outcome, String> name,
            Function<Outcome, String> detail) {
        Map<String, Tally> rows = new LinkedHashMap<>();
        for (Outcome o : outcomes) {
            String n = name.apply(o);
            rows.put(n, rows.getOrDefault(n, new Tally(n, detail.apply(o), 0, 0, 0, 0)).plus(o));
        }
        return rows;
    }

    private static List<Tally> mostHit(Map<String, Tally> rows) {
        List<Tally> sorted = new ArrayList<>(rows.values());
        sorted.sort(Comparator.comparingLong(Tally::rejected).reversed().thenComparing(Comparator.comparingLong(Tally::delayed)
                .reversed()).thenComparing(Comparator.comparingLong(Tally::requests).reversed()).thenComparing(Tally::name));
        return sorted;
    }
}
