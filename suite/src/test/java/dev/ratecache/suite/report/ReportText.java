package dev.ratecache.suite.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A run's report.md and index.html with the links to the docs taken out, leaving their text: what
 * the tables and notes say is asserted apart from where their headings link ({@code ReportLinksTest}).
 */
final class ReportText {
    private ReportText() {}

    static String md(Path dir) throws IOException {
        return Files.readString(dir.resolve("report.md")).replaceAll("\\[([^\\]]*)\\]\\([^)\\s]*docs/[^)\\s]*\\)", "$1");
    }

    static String html(Path dir) throws IOException {
        return Files.readString(dir.resolve("index.html")).replaceAll("<a href=\"[^\"]*docs/[^\"]*\">([^<]*)</a>", "$1");
    }
}
