package dev.ratecache.suite.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A plan's table for the terminal, as lines of aligned text: the cell's name on the left, figures
 * right-aligned under their headings, a failed cell's reason across the row.
 */
final class TextTable {
    private static final String GAP = "  ";

    private TextTable() {}

    static List<String> lines(ReportModel.Table table) {
        List<String> headings = new ArrayList<>();
        headings.add("cell");
        headings.addAll(table.headings());
        int[] width = new int[headings.size()];
        for (int i = 0; i < width.length; i++) {
            width[i] = headings.get(i).length();
        }
        for (ReportModel.Row row : table.rows()) {
            width[0] = Math.max(width[0], row.name().length());
            for (int i = 0; i < row.values().size(); i++) {
                width[i + 1] = Math.max(width[i + 1], row.values().get(i).length());
            }
        }
        List<String> lines = new ArrayList<>();
        lines.add(line(headings, width));
        for (ReportModel.Row row : table.rows()) {
            if (row.failed()) {
                lines.add(pad(row.name(), width[0], false) + GAP + "FAILED: " + row.failure() + " (" + row.log() + ")");
                continue;
            }
            List<String> cells = new ArrayList<>();
            cells.add(row.name());
            cells.addAll(row.values());
            lines.add(line(cells, width));
        }
        return lines;
    }

    /** A report section's table as aligned lines: names on the left, figures right-aligned. */
    static List<String> lines(ReportSection.Table table) {
        List<List<String>> all = new ArrayList<>();
        all.add(table.headings());
        for (ReportSection.Row row : table.rows()) {
            List<String> cells = new ArrayList<>();
            cells.add(row.name());
            cells.addAll(row.values());
            all.add(cells);
        }
        int[] width = new int[table.headings().size()];
        for (List<String> cells : all) {
            for (int i = 0; i < cells.size(); i++) {
                width[i] = Math.max(width[i], cells.get(i).length());
            }
        }
        return all.stream().map(cells -> line(cells, width)).toList();
    }

    /** A plan's predictions as aligned lines, each flagged row followed by its likely cause. */
    static List<String> lines(ReportModel.PredictionTable table) {
        List<String> headings = new ArrayList<>();
        headings.add("measured / predicted");
        headings.addAll(table.headings());
        int[] width = new int[headings.size()];
        for (int i = 0; i < width.length; i++) {
            width[i] = headings.get(i).length();
        }
        for (ReportModel.PredictionRow row : table.rows()) {
            width[0] = Math.max(width[0], row.name().length());
            for (int i = 0; i < row.values().size(); i++) {
                width[i + 1] = Math.max(width[i + 1], row.values().get(i).length());
            }
        }
        List<String> lines = new ArrayList<>();
        lines.add(line(headings, width));
        for (ReportModel.PredictionRow row : table.rows()) {
            List<String> cells = new ArrayList<>();
            cells.add(row.name());
            cells.addAll(row.values());
            lines.add(line(cells, width));
            if (!row.why().isEmpty()) {
                lines.add("    " + row.why());
            }
        }
        return lines;
    }

    private static String line(List<String> cells, int[] width) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                s.append(GAP);
            }
            s.append(pad(cells.get(i), width[i], i > 0));
        }
        return s.toString().stripTrailing();
    }

    private static String pad(String s, int width, boolean right) {
        String fill = " ".repeat(Math.max(0, width - s.length()));
        return right ? fill + s : s + fill;
    }
}
