package dev.ratecache.suite.kinds.fleet;

import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.FleetFigures;
import dev.ratecache.suite.report.BackLimitPromise;
import dev.ratecache.suite.report.Check;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * The per-client promise on a fleet (--matrix fleet): however many edges, no key is admitted more
 * than its tier's rate plus burst in any one second, fleet-wide (the same bound as the back limit's,
 * {@link BackLimitPromise}, for one client). per-edge breaks it behind round robin, and the check
 * says so, naming the key and the second.
 *
 * <p>The tolerance, derived: admissions are timed by the client, and a request was admitted
 * somewhere between its start and its end: at the edge, after the Redis round trip under shared.
 * So a second is charged only the requests wholly inside it; those that started in it and ended
 * after it may have been admitted in the next, by up to their round trip, and are counted apart
 * ({@link FleetFigures.KeyWindow}). nginx's own limit_req and the shared script both admit at most
 * rate + burst in a second, so no further slack is given: a second charged more is a broken promise.
 */
public final class FleetPromise {
    private FleetPromise() {}

    /** The check's line for one cell, as the report and checks.xml name it. */
    public static String text(String cell) {
        return cell + ": no key admitted more than its rate + burst in any one second, fleet-wide";
    }

    /** One check per fleet cell (cells without fleet figures have none). */
    public static List<Check.Outcome> check(List<CellResult> cells) {
        // The metric is none of the cells' medians: the window is the worst key's of the worst run.
        return Check.perCell(cells, Cell.Fleet.class, FleetFigures.class,
                (r, fleet) -> new Check(text(r.cell().name()), r.cell().name(), null, "<=", 1), FleetPromise::evaluate);
    }

    /** The worst key's second over every run's figures (a run without them is skipped). */
    static Check.Outcome evaluate(Check check, List<FleetFigures> runs) {
        FleetFigures.KeyWindow worst = null;
        int worstRun = 0;
        for (int run = 1; run <= runs.size(); run++) {
            FleetFigures f = runs.get(run - 1);
            FleetFigures.KeyWindow w = f == null ? null : f.worst();
            if (w != null && (worst == null || (double) w.inside() / w.limit() > (double) worst.inside() / worst.limit())) {
                worst = w;
                worstRun = run;
            }
        }
        if (worst == null) {
            return new Check.Outcome(check, false, "no key's requests were admitted: nothing to judge the promise on");
        }
        String window = String.format(Locale.ROOT, "%s key %s (tier %s, rate + burst %d): %d admitted in the second"
                + " from %s UTC%s, counting the requests wholly inside it (%d more started in it and ended after it,"
                + " within a round trip of its end: the tolerance)", worst.broken() ? "broken by" : "held; closest,",
                worst.key(), worst.tier(), worst.limit(), worst.inside(),
                BackLimitPromise.CLOCK.format(Instant.ofEpochMilli(worst.startMs())),
                runs.size() > 1 ? " in run " + worstRun : "", worst.straddling());
        return new Check.Outcome(check, !worst.broken(), window);
    }
}
