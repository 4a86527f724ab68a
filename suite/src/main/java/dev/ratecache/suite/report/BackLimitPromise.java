package dev.ratecache.suite.report;

import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.matrix.OriginWindows;
import dev.ratecache.suite.spec.StackSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the back end's limit promises: however hard the edge is hit, from one client or many, the
 * origin never sees more than the limit's rate plus its burst in any one second. nginx lets
 * burst + 1 through at once (a new key starts with no excess) and then one per 1/rate, so a
 * window [t, t + 1 s) holds at most burst + rate: at t the burst and the request that found the
 * bucket empty, then rate - 1 more. Checked per cell on every run's arrivals at the origin, with
 * the window that broke it named.
 *
 * @param limit rate (per second) plus burst of the back end's limit as switched, whether it is on
 *              or not: with it off, the promise is what it would have kept
 */
public record BackLimitPromise(int limit) {
    /** The time of day a promise's check names its busiest window by, in UTC: every kind's promise says it alike. */
    public static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    /** @param limits the stack as switched with both limits on: the limits the cells turn on and off */
    public static BackLimitPromise of(StackSpec limits) {
        StackSpec.Limit back = limits.back().orElseThrow();
        return new BackLimitPromise(back.rate() + back.burst());
    }

    /** One check per cell: passed when no run had a one-second window at the origin above the limit. */
    public List<Check.Outcome> check(List<CellResult> cells) {
        List<Check.Outcome> outcomes = new ArrayList<>();
        for (CellResult r : cells) {
            String name = r.cell().name();
            Check check = new Check(name + "." + Metric.ORIGIN_PEAK_1S.id() + " <= " + limit, name,
                    Metric.ORIGIN_PEAK_1S, "<=", limit);
            if (r.failed()) {
                outcomes.add(new Check.Outcome(check, false, "cell " + name + " failed: " + r.failure()));
                continue;
            }
            outcomes.add(evaluate(check, r.runDirs()));
        }
        return outcomes;
    }

    Check.Outcome evaluate(Check check, List<Path> runDirs) {
        OriginWindows.Peak worst = null;
        int run = 0;
        int worstRun = 0;
        for (Path dir : runDirs) {
            run++;
            OriginWindows.Peak peak;
            try {
                // A window two resolutions short of a second: nginx's limit admits its last of rate + burst + 1
                // at t + 1 s exactly (the first request of an empty bucket costs nothing), which arrivals known to
                // a millisecond either way could otherwise put inside [t, t + 1 s).
                peak = OriginWindows.ofCell(dir).peak(OriginWindows.WINDOW_MS - 2 * OriginWindows.RESOLUTION_MS);
            } catch (IOException e) {
                return new Check.Outcome(check, false, "the back tier's events of " + dir + " cannot be read: "
                        + e.getMessage());
            }
            if (peak != null && (worst == null || peak.count() > worst.count())) {
                worst = peak;
                worstRun = run;
            }
        }
        if (worst == null) {
            return new Check.Outcome(check, true, "no request reached the origin");
        }
        String window = String.format(Locale.ROOT, "the busiest second at the origin: %d requests from %s UTC%s"
                + " (back limit's rate + burst: %d)", worst.count(), CLOCK.format(Instant.ofEpochMilli(worst.startMs())),
                runDirs.size() > 1 ? " in run " + worstRun : "", limit);
        return new Check.Outcome(check, worst.count() <= limit, window);
    }
}
