package dev.ratecache.suite.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellMeasurement;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.Matrix;
import dev.ratecache.suite.matrix.MatrixRunner;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.matrix.Reference;
import dev.ratecache.suite.matrix.Source;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A reader of report.md or index.html reaches the definition of every column, section and word of
 * the header in one click, and the header names the write-ups its bracketed figures come from: each
 * link from the run folder leads to a page of the checkout, and to an anchor that page has.
 */
class ReportLinksTest {
    private static final List<Cell> CELLS = Matrix.reference(Plan.REFERENCE);
    private static final Pattern MD_LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HTML_LINK = Pattern.compile("<a href=\"([^\"]+)\"");

    private static MatrixRunner.Outcome everyCell(Path dir) {
        List<CellResult> results = new ArrayList<>();
        for (Cell cell : CELLS) {
            JtlSummary jtl = new JtlSummary(1000, 100, 0, 0, 20, 100, 1, 900, 50, 80, 90, 99, 10_000);
            results.add(new CellResult(cell, List.of(new CellMeasurement(jtl, 400.0, null,
                    new CellMeasurement.Cpu(0.1, 0.1, 1.0, 5.0), 12)), null, dir, dir.resolve("cells").resolve(cell.folder())));
        }
        return new MatrixRunner.Outcome(results, 100, 90, 1);
    }

    private static Path written(String name, MatrixRunner.Outcome outcome, List<ReportSection> sections) throws Exception {
        Path dir = TestDirs.fresh(ReportLinksTest.class, name);
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("matrix", "default");
        run.put("profile", "default");
        run.put("switches", "front limit 100 r/s burst 200 queue, edge cache on (100m, Age native)");
        new ReportWriter(dir, run, outcome, List.of(), true, Map.of(), sections).write();
        return dir;
    }

    /** The anchors a page offers: explicit ids, and the ids a Markdown viewer gives its headings. */
    static Set<String> anchors(Path page) throws IOException {
        Set<String> anchors = new HashSet<>();
        String text = Files.readString(page, StandardCharsets.UTF_8);
        Matcher ids = Pattern.compile("id=\"([^\"]+)\"").matcher(text);
        while (ids.find()) {
            anchors.add(ids.group(1));
        }
        Matcher headings = Pattern.compile("(?m)^#{1,6} (.+)$").matcher(text);
        while (headings.find()) {
            anchors.add(headings.group(1).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9 _-]", "").replace(' ', '-'));
        }
        return anchors;
    }

    /** Every link to the docs leads to a file of the checkout, and to an anchor that file has. */
    private static int checkDocLinks(Path dir, String text, Pattern link) throws IOException {
        Matcher m = link.matcher(text);
        int docs = 0;
        while (m.find()) {
            String href = m.group(1);
            if (!href.contains("docs/")) {
                continue;
            }
            docs++;
            String file = href.replaceFirst("#.*", "");
            Path target = dir.resolve(file).normalize();
            assertThat(target).as(href).isRegularFile();
            if (href.contains("#")) {
                assertThat(anchors(target)).as(href).contains(href.substring(href.indexOf('#') + 1));
            }
        }
        return docs;
    }

    @Test
    void everyLinkToTheDocsLeadsToAPageAndAnAnchorItHas() throws Exception {
        ReportSection section = new ReportSection("Faults: the edge while things go wrong", "How to read it.",
                List.of("a finding")).definedIn("faults.md");
        Path dir = written("docs", everyCell(TestDirs.fresh(getClass(), "docs")), List.of(section));

        assertThat(checkDocLinks(dir, Files.readString(dir.resolve("report.md")), MD_LINK)).isGreaterThan(60);
        assertThat(checkDocLinks(dir, Files.readString(dir.resolve("index.html")), HTML_LINK)).isGreaterThan(40);
        assertThat(Files.readString(dir.resolve("report.md"))).contains("What this section shows: [faults.md](")
                .containsPattern("\\(\\S*docs/faults\\.md\\)");
    }

    @Test
    void eachColumnsHeadingLinksEachOfItsMetricsToItsRowOfTheGlossary() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "columns");
        written("columns", everyCell(dir), List.of());
        String md = Files.readString(dir.resolve("report.md"));
        String html = Files.readString(dir.resolve("index.html"));
        String docs = ReportModel.docsFrom(dir) + "/methodology.md#";

        assertThat(md).contains("| cell | [throughput](" + docs + "metric-throughput) (resp/s) | [rejected]("
                + docs + "metric-rejected_pct) (%) |");
        assertThat(md).contains("| [CPU front](" + docs + "metric-cpu_front_pct) / [back](" + docs
                + "metric-cpu_back_pct) / [origin](" + docs + "metric-cpu_origin_pct) / [JMeter](" + docs
                + "metric-cpu_jmeter_pct) (%) |");
        assertThat(md).doesNotContain("| throughput (resp/s) |");
        assertThat(html).contains("<th><a href=\"" + docs + "metric-throughput\">throughput</a> (resp/s)</th>");
        for (Metric m : Metric.values()) {
            assertThat(md).as(m.id()).contains("- [`" + m.id() + "`](" + docs + m.anchor() + ")");
        }
        // The anchors are the glossary's: the page has a row for every metric.
        Set<String> anchors = anchors(dir.resolve(ReportModel.docsFrom(dir)).resolve("methodology.md").normalize());
        assertThat(anchors).contains("metrics", "words", "term-reference-experiment", "term-age", "term-nodelay",
                "term-cache-status", "term-jtl", "term-open-model", "term-seeds", "term-cell", "term-matrix");
        for (Metric m : Metric.values()) {
            assertThat(anchors).contains(m.anchor());
        }
    }

    @Test
    void theHeaderNamesTheReferenceExperimentAndLinksItsWords() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "header");
        written("header", everyCell(dir), List.of());
        String md = Files.readString(dir.resolve("report.md"));
        String term = ReportModel.docsFrom(dir) + "/methodology.md#term-";

        Source ref = Source.REFERENCE;
        assertThat(md).contains("- **[sources](" + ReportModel.docsFrom(dir) + "/reproductions.md#the-sources)**: the reference"
                + " experiment, [" + ref.title() + "](" + ref.link() + ") (Tony Baines, 2014)\n");
        assertThat(md).contains("- **[matrix](" + term + "matrix)**: default\n")
                .contains("- **[switches](" + ReportModel.docsFrom(dir) + "/switches.md)**:")
                .contains("[Age native or njs](" + term + "age)").contains("[queue and nodelay](" + term + "nodelay)")
                .contains("[HIT, STALE, UPDATING](" + term + "cache-status)").contains("[JTL](" + term + "jtl)")
                .contains("[open model](" + term + "open-model)").contains("[seeds](" + term + "seeds)")
                .contains("[cell](" + term + "cell)")
                .contains("Figures in brackets are the [reference experiment](" + term + "reference-experiment)'s");
        String html = Files.readString(dir.resolve("index.html"));
        assertThat(html).contains("<a href=\"" + ref.link() + "\">" + ref.title() + "</a> (Tony Baines, 2014)");
        JsonNode sources = new ObjectMapper().readTree(dir.resolve("summary.json").toFile()).at("/run/sources");
        assertThat(sources.get(0).get("link").asText()).isEqualTo(ref.link());
        assertThat(sources.get(0).get("year").asInt()).isEqualTo(2014);
        assertThat(new ObjectMapper().readTree(dir.resolve("summary.json").toFile()).at("/metrics/0/definition")
                .asText()).isEqualTo(ReportModel.docsFrom(dir) + "/methodology.md#metric-samples");
    }

    @Test
    void aReproducedExperimentsCellsNameItsSourceBesideTheReferences() throws Exception {
        Cell fast = Cell.of(Plan.ofPath("fast-origin", "/fast", 14), "edge").frontLimit(false).backLimit(false)
                .serverCache().published(new Cell.Published("seed 003", "omni_httpd",
                        Reference.of(124366.73, 0, "Both answer from memory."))).build();
        Path dir = TestDirs.fresh(getClass(), "reproduced");
        JtlSummary jtl = new JtlSummary(1000, 0, 0, 0, 20, 100, 1, 900, 50, 80, 90, 99, 10_000);
        CellMeasurement m = new CellMeasurement(jtl, 400.0, null, new CellMeasurement.Cpu(0.1, 0.1, 1.0, 5.0), 12);
        List<CellResult> cells = List.of(new CellResult(fast, List.of(m), null, dir, dir),
                new CellResult(CELLS.get(1), List.of(m), null, dir, dir));
        written("reproduced", new MatrixRunner.Outcome(cells, 10, 9, 1), List.of());

        assertThat(Files.readString(dir.resolve("report.md"))).contains("seed 003, [" + Source.FAST_ORIGIN.title()
                + "](" + Source.FAST_ORIGIN.link() + ") (Omnigres, 2023); the reference experiment, ["
                + Source.REFERENCE.title() + "](");
    }
}
