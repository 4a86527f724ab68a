package dev.ratecache.suite.kinds.attacks;

import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.report.Check;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What the edge promises under a slow-client attack (--matrix attacks): the normal clients keep at
 * least {@link #KEPT} of the throughput they had without it, on the same edge (its baseline cell).
 * The origin's side, never more than the back limit allows, is {@link BackLimitPromise}'s.
 */
public final class AttackPromise {
    /** The share of the baseline's throughput the normal clients keep under attack. */
    public static final double KEPT = 0.9;

    private AttackPromise() {}

    /** The check's line for an attack cell, as the report and checks.xml name it. */
    public static String text(String cell) {
        return cell + ": the normal clients kept at least " + Math.round(KEPT * 100) + " % of their throughput without"
                + " the attack (" + baselineOf(cell) + ")";
    }

    /** The baseline cell an attack cell is set beside: the same edge's, without the attack. */
    public static String baselineOf(String cell) {
        return cell.substring(0, cell.lastIndexOf('.') + 1) + AttackCells.BASELINE;
    }

    /** One check per attack cell (baseline cells have none). */
    public static List<Check.Outcome> check(List<CellResult> cells) {
        List<Check.Outcome> outcomes = new ArrayList<>();
        for (CellResult r : cells) {
            if (r.cell().trait(Attack.class) == null) {
                continue;
            }
            String name = r.cell().name();
            Optional<CellResult> baseline = cells.stream().filter(c -> c.cell().name().equals(baselineOf(name)))
                    .findFirst();
            Double without = baseline.filter(b -> !b.failed()).map(b -> b.median(Metric.THROUGHPUT)).orElse(null);
            Check check = new Check(text(name), name, Metric.THROUGHPUT, ">=", without == null ? 0 : KEPT * without);
            if (r.failed()) {
                outcomes.add(new Check.Outcome(check, false, "cell " + name + " failed: " + r.failure()));
            } else if (without == null) {
                outcomes.add(new Check.Outcome(check, false, baseline.isEmpty() ? "its baseline did not run: add "
                        + baselineOf(name) + " to --only" : "its baseline failed: " + baseline.get().failure()));
            } else {
                double with = r.median(Metric.THROUGHPUT);
                outcomes.add(new Check.Outcome(check, with >= KEPT * without, String.format(Locale.ROOT,
                        "%.1f responses/s under attack, %.1f without: %.0f %%", with, without, 100 * with / without)));
            }
        }
        return outcomes;
    }
}
