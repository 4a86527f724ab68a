package dev.ratecache.suite.kinds.edges;

import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.matrix.CellEvents;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.report.Check;
import dev.ratecache.suite.report.ReportSection;
import dev.ratecache.suite.spec.StackSpec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report's section of --matrix edges: per edge product, what its per-client limit did to a
 * flood from one address, in the user's numbers; which of the per-client and back-limit promises
 * it kept; and what it cannot do that nginx can. The cells' figures are in each plan's table,
 * product beside product.
 */
public final class EdgesSection {
    private EdgesSection() {}

    /**
     * @param limits the stack as switched with both limits on: the limits the cells turn on and off
     */
    public static ReportSection of(List<CellResult> cells, List<Check.Outcome> checks, StackSpec limits) {
        StackSpec.Limit front = limits.front().orElseThrow();
        StackSpec.Limit back = limits.back().orElseThrow();
        List<String> lines = new ArrayList<>();
        for (EdgeProduct product : EdgeProduct.values()) {
            List<CellResult> own = cells.stream().filter(r -> !r.cell().direct() && r.cell().edge() == product).toList();
            if (own.isEmpty()) {
                continue;
            }
            for (CellResult r : own) {
                burst(r, front).ifPresent(lines::add);
                lockout(r, front, limits.rejectStatus()).ifPresent(lines::add);
            }
            lines.add(promises(product, own, checks));
            if (!product.cannot().isEmpty()) {
                lines.add(product.displayName() + " cannot " + product.cannot() + " (refused in one line when asked)");
            }
        }
        String intro = String.format(Locale.ROOT, "Each edge product with the same limits (front %d r/s burst %d, back"
                + " %d r/s burst %d, %s) and the edge cache on, or its limits only where it has no cache (its cells"
                + " say \"server cache off\"); each plan's table above sets their cells side by side."
                + " Below: what each product's per-client limit did to a flood from one address, what a flood from"
                + " many addresses met at the back when no client came near its own limit, which promises it"
                + " kept (the per-client one: no client admitted more than rate + burst in any second; the back"
                + " limit's: the origin never sent more than rate + burst in any second), and what it cannot do.",
                front.rate(), front.burst(), back.rate(), back.burst(), front.modeFlag() + " / " + back.modeFlag());
        return new ReportSection("Edges compared", intro, lines).definedIn("edges.md");
    }

    /** The sentence of a flood cell from one address; none for other cells or a failed one. */
    private static java.util.Optional<String> burst(CellResult r, StackSpec.Limit front) {
        String sources = r.cell().properties().get("sources");
        if (!r.cell().plan().name().equals(Plan.FLOOD.name()) || !"1".equals(sources) || r.failed()
                || r.runDirs().isEmpty() || !r.cell().frontLimit()) {
            return java.util.Optional.empty();
        }
        try {
            EdgeBurst b = EdgeBurst.of(CellEvents.front(r.runDirs().get(0)));
            if (b == null) {
                return java.util.Optional.empty();
            }
            int multiple = Integer.parseInt(r.cell().properties().get("rate")) / front.rate();
            return java.util.Optional.of(r.cell().name() + ": " + b.sentence(r.cell().edge(), multiple,
                    front.rate(), front.burst()));
        } catch (IOException | NumberFormatException e) {
            return java.util.Optional.of(r.cell().name() + ": its front tier's events cannot be read (" + e.getMessage()
                    + ")");
        }
    }

    /**
     * The sentence of a flood cell from many addresses that the back refused although no client came
     * near its own limit; none for other cells, a failed one, or one the front's own limit refused.
     */
    private static java.util.Optional<String> lockout(CellResult r, StackSpec.Limit front, int rejectStatus) {
        String sources = r.cell().properties().get("sources");
        if (!r.cell().plan().name().equals(Plan.FLOOD.name()) || sources == null || "1".equals(sources) || r.failed()
                || r.runDirs().isEmpty()) {
            return java.util.Optional.empty();
        }
        try {
            java.nio.file.Path dir = r.runDirs().get(0);
            EdgeLockout l = EdgeLockout.of(CellEvents.front(dir), CellEvents.back(dir), rejectStatus);
            return l == null ? java.util.Optional.empty()
                    : java.util.Optional.of(r.cell().name() + ": " + l.sentence(r.cell().edge(), front.rate(), front.burst()));
        } catch (IOException e) {
            return java.util.Optional.of(r.cell().name() + ": its tiers' events cannot be read (" + e.getMessage() + ")");
        }
    }

    /** Which of the product's cells kept each promise, from the run's checks. */
    private static String promises(EdgeProduct product, List<CellResult> own, List<Check.Outcome> checks) {
        return product.displayName() + " " + verdict("the per-client promise", own, checks, ": no client admitted")
                + "; " + verdict("the back limit's", own, checks, "." + dev.ratecache.suite.matrix.Metric.ORIGIN_PEAK_1S.id());
    }

    private static String verdict(String promise, List<CellResult> own, List<Check.Outcome> checks, String marker) {
        List<String> broken = new ArrayList<>();
        int judged = 0;
        for (CellResult r : own) {
            for (Check.Outcome o : checks) {
                if (o.check().text().startsWith(r.cell().name() + marker)) {
                    judged++;
                    if (!o.passed()) {
                        broken.add(r.cell().name());
                    }
                }
            }
        }
        if (judged == 0) {
            return "was not judged on " + promise;
        }
        return broken.isEmpty() ? "kept " + promise + " in all " + judged + " of its cells"
                : "broke " + promise + " in " + String.join(", ", broken) + " (of " + judged + ")";
    }
}
