package dev.ratecache.suite.kinds.edges;

import dev.ratecache.stats.BusiestWindow;
import dev.ratecache.suite.edge.EdgeEvent;
import dev.ratecache.suite.matrix.CellEvents;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.report.BackLimitPromise;
import dev.ratecache.suite.report.Check;
import dev.ratecache.suite.spec.StackSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The per-client promise at the edge, whatever the product: no client is admitted more than the
 * front limit's rate plus burst in any one second. nginx's leaky bucket keeps it by construction
 * (burst + 1 at once, then one per 1/rate); a sliding window or a token bucket set to the same
 * numbers may not, and the check says which edge kept it in which cell.
 *
 * <p>A client is an address: every product logs the address as an event's key, never a key the
 * client sends (a credential), and the edges matrix limits by address.
 *
 * <p>Judged on the front tier's own arrival times (its events), not the client's. The tiers log a
 * request's arrival to the millisecond, and the limit decides it a moment after; so a window is
 * {@value #WINDOW_MS} ms, one second less that millisecond at each end, and no other slack is given.
 */
public final class EdgePromise {
    static final long WINDOW_MS = 998;

    private EdgePromise() {}

    /** The check's line for one cell, as the report and checks.xml name it. */
    public static String text(String cell, int limit) {
        return cell + ": no client admitted more than the front's rate + burst (" + limit + ") in any one second";
    }

    /** One check per cell through the tiers with the front limit on. */
    public static List<Check.Outcome> check(List<CellResult> cells, StackSpec limits) {
        StackSpec.Limit front = limits.front().orElseThrow();
        int limit = front.rate() + front.burst();
        List<Check.Outcome> outcomes = new ArrayList<>();
        for (CellResult r : cells) {
            if (r.cell().direct() || !r.cell().frontLimit()) {
                continue;
            }
            String name = r.cell().name();
            Check check = new Check(text(name, limit), name, null, "<=", limit);
            if (r.failed()) {
                outcomes.add(new Check.Outcome(check, false, "cell " + name + " failed: " + r.failure()));
                continue;
            }
            outcomes.add(withCaveat(evaluate(check, r.runDirs(), limit), r.cell().edge().declared().promiseCaveat()));
        }
        return outcomes;
    }

    /** A broken promise with what in the product's own code explains it, when it says. */
    static Check.Outcome withCaveat(Check.Outcome outcome, java.util.Optional<String> caveat) {
        return outcome.passed() || caveat.isEmpty() ? outcome
                : new Check.Outcome(outcome.check(), false, outcome.detail() + "; " + caveat.get());
    }

    /** The busiest client's busiest window of admitted arrivals. */
    record Window(String key, int count, long startMs) {}

    static Check.Outcome evaluate(Check check, List<Path> runDirs, int limit) {
        Window worst = null;
        int worstRun = 0;
        for (int run = 1; run <= runDirs.size(); run++) {
            Window w;
            try {
                w = busiest(CellEvents.front(runDirs.get(run - 1)));
            } catch (IOException e) {
                return new Check.Outcome(check, false, "the front tier's events of " + runDirs.get(run - 1)
                        + " cannot be read: " + e.getMessage());
            }
            if (w != null && (worst == null || w.count() > worst.count())) {
                worst = w;
                worstRun = run;
            }
        }
        if (worst == null) {
            return new Check.Outcome(check, false, "the front admitted no request: nothing to judge the promise on");
        }
        boolean kept = worst.count() <= limit;
        return new Check.Outcome(check, kept, String.format(Locale.ROOT, "%s client %s: %d admitted in the second from"
                + " %s UTC%s (rate + burst %d)", kept ? "held; busiest," : "broken by", worst.key(), worst.count(),
                BackLimitPromise.CLOCK.format(Instant.ofEpochMilli(worst.startMs())),
                runDirs.size() > 1 ? " in run " + worstRun : "", limit));
    }

    /** Over every client: the window with the most of its admitted arrivals; null when none was admitted. */
    static Window busiest(List<EdgeEvent> front) {
        Map<String, List<Long>> admitted = new HashMap<>();
        for (EdgeEvent e : front) {
            if (e.limit() != EdgeEvent.Limit.REJECTED) {
                admitted.computeIfAbsent(e.key(), k -> new ArrayList<>()).add(e.arrivalMs());
            }
        }
        Window worst = null;
        for (Map.Entry<String, List<Long>> k : admitted.entrySet()) {
            long[] times = k.getValue().stream().mapToLong(Long::longValue).sorted().toArray();
            BusiestWindow w = BusiestWindow.in(times, WINDOW_MS);
            if (worst == null || w.count() > worst.count()) {
                worst = new Window(k.getKey(), w.count(), w.start());
            }
        }
        return worst;
    }
}
