package dev.ratecache.suite.report;

import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.Metric;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One pass/fail check of a matrix run: {@code CELL.METRIC OP VALUE}, e.g.
 * {@code stress/server-cache.rejected_pct == 0}. Compared with the median over the cell's runs.
 */
public record Check(String text, String cell, Metric metric, String op, double value) {
    public static final String FORM = "'CELL.METRIC OP VALUE', e.g. 'stress/server-cache.rejected_pct == 0'"
            + " (OP is one of == != < <= > >=)";
    // The cell may hold dots (full-matrix names); the metric never does, so split at the last dot.
    private static final Pattern SHAPE = Pattern.compile(
            "\\s*(\\S+)\\.([a-z0-9_]+)\\s*(==|!=|<=|>=|<|>)\\s*(-?\\d+(?:\\.\\d+)?)\\s*");

    /** Parses and validates {@code text} against the cells that will run; throws one line saying what is wrong. */
    public static Check parse(String text, List<Cell> cells) {
        Matcher m = SHAPE.matcher(text);
        // A user's text, shown escaped and cut short: one line, however long or strange.
        String shown = dev.ratecache.accesslog.Printable.shown(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("malformed check '" + shown + "': use " + FORM);
        }
        String cell = m.group(1);
        if (cells.stream().noneMatch(c -> c.name().equals(cell))) {
            throw new IllegalArgumentException("check '" + shown + "' names cell '"
                    + dev.ratecache.accesslog.Printable.shown(cell) + "', which this run does not"
                    + " have; cells: " + String.join(", ", cells.stream().map(Cell::name).toList()));
        }
        Metric metric;
        try {
            metric = Metric.byId(m.group(2));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("check '" + shown + "': " + e.getMessage());
        }
        return new Check(text.trim(), cell, metric, m.group(3), Double.parseDouble(m.group(4)));
    }

    /** The outcome against a run's results. */
    public record Outcome(Check check, boolean passed, String detail) {}

    /**
     * A kind of matrix's own promise, one check per cell that has {@code trait}: a failed cell's
     * check fails, naming why; another's is judged on the figures of {@code figure} its runs collected
     * (null for a run that collected none), in run order.
     *
     * @param checkOf  the check of a cell, from its result and its trait
     * @param evaluate the verdict on the check from the runs' figures
     */
    public static <T extends dev.ratecache.suite.matrix.CellTrait, F extends dev.ratecache.suite.matrix.KindFigures>
            List<Outcome> perCell(List<CellResult> cells, Class<T> trait, Class<F> figure,
            java.util.function.BiFunction<CellResult, T, Check> checkOf,
            java.util.function.BiFunction<Check, List<F>, Outcome> evaluate) {
        List<Outcome> outcomes = new java.util.ArrayList<>();
        for (CellResult r : cells) {
            T t = r.cell().trait(trait);
            if (t == null) {
                continue;
            }
            Check check = checkOf.apply(r, t);
            outcomes.add(r.failed() ? new Outcome(check, false, "cell " + r.cell().name() + " failed: " + r.failure())
                    : evaluate.apply(check, r.breakdownsPerRun().stream().map(b -> b.figure(figure)).toList()));
        }
        return outcomes;
    }

    public Outcome evaluate(List<CellResult> results) {
        Optional<CellResult> result = results.stream().filter(r -> r.cell().name().equals(cell)).findFirst();
        if (result.isEmpty()) {
            return new Outcome(this, false, "cell " + cell + " did not run");
        }
        if (result.get().failed()) {
            return new Outcome(this, false, "cell " + cell + " failed: " + result.get().failure());
        }
        Double measured = result.get().median(metric);
        if (measured == null) {
            return new Outcome(this, false, metric.id() + " does not apply to " + cell);
        }
        boolean passed = switch (op) {
            case "==" -> Math.abs(measured - value) < 1e-9;
            case "!=" -> Math.abs(measured - value) >= 1e-9;
            case "<" -> measured < value;
            case "<=" -> measured <= value;
            case ">" -> measured > value;
            case ">=" -> measured >= value;
            default -> throw new IllegalStateException(op);
        };
        return new Outcome(this, passed, String.format(Locale.ROOT, "measured %s = %.3f %s", metric.id(), measured, metric.unit()));
    }
}
