package dev.ratecache.suite.report;

import java.util.List;

/**
 * A section a kind of matrix adds to every view of its report (report.md, index.html, the
 * terminal): a title, a paragraph that says how to read it, and one line per finding. The report
 * lays it out; the matrix kind says what is in it.
 */
public record ReportSection(String title, String intro, List<String> lines) {
    public ReportSection {
        lines = List.copyOf(lines);
    }
}
