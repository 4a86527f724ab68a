package dev.ratecache.suite.report;

import java.util.List;

/**
 * A section a kind of matrix adds to every view of its report (report.md, index.html, the
 * terminal): a title, a paragraph that says how to read it, a table when its findings are figures
 * side by side (null when not), and one line per finding. The report lays it out; the matrix kind
 * says what is in it.
 */
public record ReportSection(String title, String intro, Table table, List<String> lines) {
    public ReportSection {
        lines = List.copyOf(lines);
    }

    public ReportSection(String title, String intro, List<String> lines) {
        this(title, intro, null, lines);
    }

    /** Figures side by side: a heading per column, and rows of as many cells. */
    public record Table(List<String> headings, List<Row> rows) {
        public Table {
            headings = List.copyOf(headings);
            rows = List.copyOf(rows);
            for (Row r : rows) {
                if (r.cells().size() != headings.size()) {
                    throw new IllegalArgumentException("a row of " + r.cells().size() + " cells under "
                            + headings.size() + " headings: " + r.cells());
                }
            }
        }
    }

    public record Row(List<String> cells) {
        public Row {
            cells = List.copyOf(cells);
        }
    }
}
