package dev.ratecache.suite.kinds.quotas;

import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.report.BackLimitPromise;
import dev.ratecache.suite.report.Check;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * The quota's promise (--matrix quotas): fleet-wide, no key is admitted more than its quota N in any
 * of its windows, and under sliding's estimate no more than its stated bound, 2N - 1, in any W-long
 * stretch. Counted on Redis's clock from the edges' logs ({@link QuotaFigures}), so no tolerance is
 * given: the script's count is the count, and one more is a broken promise. While Redis fails or is
 * slower than its timeout, each edge admits on its own share, N/edges a window (fail open with a
 * ceiling, docs/quotas.md): those admissions are held to their own bound, N across the edges, on
 * top of Redis's N.
 */
public final class QuotaPromise {
    private QuotaPromise() {}

    /** The check's line for one cell, as the report and checks.xml name it. */
    public static String text(String cell) {
        return cell + ": no key admitted more than its quota in any window, fleet-wide, within the stated bound";
    }

    /** One check per quotas cell. */
    public static List<Check.Outcome> check(List<CellResult> cells) {
        return Check.perCell(cells, QuotaTraffic.class, QuotaFigures.class,
                (r, quota) -> new Check(text(r.cell().name()), r.cell().name(), null, "<=", 1), QuotaPromise::evaluate);
    }

    /** Every run's every key and window: the fullest fixed window against N, the fullest stretch against the bound. */
    static Check.Outcome evaluate(Check check, List<QuotaFigures> runs) {
        String worst = null;
        boolean broken = false;
        double closest = -1;
        for (int run = 1; run <= runs.size(); run++) {
            QuotaFigures f = runs.get(run - 1);
            if (f == null) {
                continue;
            }
            for (QuotaFigures.KeyFigures k : f.keys()) {
                QuotaFigures.Window w = k.fullest();
                if (w == null) {
                    continue;
                }
                long fellBack = k.windows().stream().mapToLong(QuotaFigures.Window::fellBack).max().orElse(0);
                boolean over = k.windows().stream().anyMatch(x -> x.counted() > f.limit() || x.fellBack() > f.limit())
                        || (f.sliding() && fellBack == 0 && k.mostInWindow() > f.stretchBound());
                double share = (double) w.admitted() / f.limit();
                if ((over && !broken) || (over == broken && share > closest)) {
                    broken |= over;
                    closest = share;
                    worst = String.format(Locale.ROOT, "%s key %s: %d admitted in the window from %s UTC (quota %d),"
                            + " %d in its fullest %d-s stretch (%s %d)%s%s", over ? "broken by" : "held; fullest,",
                            k.key(), w.admitted(), BackLimitPromise.CLOCK.format(Instant.ofEpochMilli(w.startMs())),
                            f.limit(), k.mostInWindow(), f.windowMs() / 1000,
                            f.sliding() ? "sliding's bound" : "two fixed windows' most", f.stretchBound(),
                            fellBack == 0 ? "" : "; at most " + fellBack + " in a window admitted by the edges alone while"
                                    + " Redis failed",
                            runs.size() > 1 ? " in run " + run : "");
                }
            }
        }
        if (worst == null) {
            return new Check.Outcome(check, false, "the edges logged no request their quota decided: nothing to judge the"
                    + " promise on");
        }
        return new Check.Outcome(check, !broken, worst);
    }
}
