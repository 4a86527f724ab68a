package dev.ratecache.suite.report;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.predict.CellPrediction;
import java.util.List;
import java.util.Map;

/**
 * A section a kind of matrix adds to every view of its report (report.md, index.html, the
 * terminal): a title, a paragraph that says how to read it, its tables, and one line
 * per finding. The report lays it out; the matrix kind says what is in it.
 *
 * @param cellFigures what the section adds to each of its cells' entries in summary.json, by cell name
 * @param page        the docs page (and anchor) that defines what the section shows, e.g. "faults.md",
 *                    which report.md and index.html link the section's title to; null for none
 */
public record ReportSection(String title, String intro, List<Table> tables, List<String> lines,
        @JsonIgnore Map<String, Map<String, Object>> cellFigures, @JsonIgnore String page) {
    public ReportSection {
        tables = List.copyOf(tables);
        lines = List.copyOf(lines);
        cellFigures = Map.copyOf(cellFigures);
    }

    public ReportSection(String title, String intro, List<Table> tables, List<String> lines,
            Map<String, Map<String, Object>> cellFigures) {
        this(title, intro, tables, lines, cellFigures, null);
    }

    public ReportSection(String title, String intro, List<String> lines) {
        this(title, intro, List.of(), lines, Map.of());
    }

    /** A logged value (a path, a client, a key) in a table cell of a kind's section, escaped as the report's own. */
    public static String cellText(String text) {
        return ReportModel.cellText(text);
    }

    /** A figure to one decimal, as the report's tables give it. */
    public static String fmt(double value) {
        return ReportModel.fmt(value);
    }

    /** The model's rejected share per tier for a keys cell; empty when it has none (a gap). */
    public static Map<String, Double> predictedTierRejections(CellResult r, Map<String, CellPrediction> predictions) {
        CellPrediction p = predictions.get(r.cell().name());
        return p == null ? Map.of() : p.prediction().tierRejectedPct();
    }

    /** The same section, its title linked to {@code page} of the docs. */
    public ReportSection definedIn(String page) {
        return new ReportSection(title, intro, tables, lines, cellFigures, page);
    }

    @JsonIgnore
    public boolean hasPage() {
        return page != null;
    }

    /** The tables' rows as the terminal shows them, aligned. */
    public List<String> tableLines() {
        return tables.stream().flatMap(t -> TextTable.lines(t).stream()).toList();
    }

    public boolean hasLines() {
        return !lines.isEmpty();
    }

    /**
     * A section's table: the first heading names the rows, each row's name is its first column.
     */
    public record Table(List<String> headings, List<Row> rows) {
        public Table {
            headings = List.copyOf(headings);
            rows = List.copyOf(rows);
            for (Row r : rows) {
                if (r.values().size() + 1 != headings.size()) {
                    throw new IllegalArgumentException("a row of " + (r.values().size() + 1) + " cells under "
                            + headings.size() + " headings: " + r.cells());
                }
            }
        }

        public String mdSeparator() {
            return "|---".repeat(headings.size()) + "|";
        }
    }

    /** A row of a section's table: its name, then its figures under the other headings. */
    public record Row(String name, List<String> values) {
        public Row {
            values = List.copyOf(values);
        }

        /** A row from its cells: the first is its name. */
        public static Row of(List<String> cells) {
            return new Row(cells.get(0), cells.subList(1, cells.size()));
        }

        /** Its name, then its figures: every cell of the row. */
        public List<String> cells() {
            List<String> all = new java.util.ArrayList<>();
            all.add(name);
            all.addAll(values);
            return all;
        }
    }
}
