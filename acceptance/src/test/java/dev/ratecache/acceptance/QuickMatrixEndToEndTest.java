package dev.ratecache.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.suite.HeadlessChromium;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.docs.DocCommands;
import dev.ratecache.testkit.LongLane;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.Required;
import dev.ratecache.testkit.TestDirs;
import dev.ratecache.suite.cli.RunTestsAccess;
import dev.ratecache.suite.stack.StackPorts;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * ./run-tests.sh --profile quick, end to end: the default matrix scaled down, and the report it
 * leaves. The command is the README's first, as the page shows it (the docs' other commands run in
 * DocCommandsStackTest). The long lane (./run-tests.sh test --full) runs it whole; the test command
 * adds --no-dashboards, for JMeter's dashboard and graphs of each cell are 33 JVMs drawn at low
 * priority, which on two cores finished minutes after the last cell (PlansTest draws one from a
 * JTL in the test command).
 */
@StackTest
class QuickMatrixEndToEndTest {
    private static final StringWriter OUT = new StringWriter();
    private static Path results;
    private static Path run;
    private static int exitCode;
    private static final Map<String, JsonNode> CELLS = new HashMap<>();

    @BeforeAll
    static void runQuickProfile() throws Exception {
        results = TestDirs.fresh(QuickMatrixEndToEndTest.class, "results");
        DocCommands.Command readme = DocCommands.of(Repo.root().resolve("README.md")).get(0);
        assertThat(readme.exits()).as(readme.toString()).isZero();
        List<String> args = new java.util.ArrayList<>(readme.args());
        args.addAll(List.of("--profile", "quick", "--results", results.toString(),
                "--assert", "stress/server-cache.rejected_pct == 0",
                "--assert", "stress/no-caching.rejected_pct > 0"));
        if (!LongLane.included()) {
            args.add("--no-dashboards");
        }
        args.addAll(StackPorts.free().flags());
        exitCode = RunTestsAccess.execute(new PrintWriter(OUT, true), args.toArray(String[]::new));
        run = results.resolve("latest").toRealPath();
        JsonNode summary = new ObjectMapper().readTree(run.resolve("summary.json").toFile());
        summary.get("cells").forEach(c -> CELLS.put(c.get("name").asText(), c));
    }

    private static double metric(String cell, String metric) {
        return CELLS.get(cell).get("metrics").get(metric).get("median").asDouble();
    }

    @Test
    void everyCellOfTheDefaultMatrixCompletesAndTheChecksPass() {
        assertThat(exitCode).as(OUT.toString()).isZero();
        assertThat(CELLS.keySet()).containsExactlyInAnyOrder("stress/no-caching", "stress/server-cache",
                "stress/client-cache", "stress/both", "stress/direct", "stress/library", "load/no-caching",
                "load/server-cache", "load/client-cache", "load/both", "load/library");
        assertThat(CELLS.values()).allSatisfy(c -> assertThat(c.get("status").asText()).isEqualTo("ok"));
    }

    /**
     * Every cell carries the model's prediction: each predicted figure within ±20 % of the measured
     * one (or beyond it by no more than its noise floor), or flagged with a likely cause the run
     * shows; a cell the model cannot take names its gap. A flag with no known cause fails.
     */
    @Test
    void everyCellIsWithinTwentyPercentOfItsPredictionOrCarriesItsStatedReason() {
        // One line per problem, naming the cell and the figure: a failure on CI must say which without the whole summary.
        List<String> problems = new ArrayList<>();
        CELLS.forEach((name, c) -> {
            JsonNode p = c.get("prediction");
            if (p == null) {
                problems.add(name + " has no prediction");
                return;
            }
            if (!p.get("predicted").asBoolean()) {
                if (!p.get("gap").asText().startsWith("the model does not include")) {
                    problems.add(name + " is not predicted and names no gap: " + p.get("gap"));
                }
                return;
            }
            if (p.get("metrics").size() < 5) {
                problems.add(name + " compares " + p.get("metrics").size() + " figures, not at least 5");
            }
            List<String> reasons = new ArrayList<>();
            p.get("reasons").forEach(r -> reasons.add(r.asText()));
            p.get("metrics").fields().forEachRemaining(m -> {
                JsonNode v = m.getValue();
                if (v.get("flagged").asBoolean()) {
                    if (reasons.isEmpty()) {
                        problems.add(name + " " + m.getKey() + " is flagged with no reason: " + v);
                    }
                } else if (!v.get("ratio").isNull()) {
                    double diff = Math.abs(v.get("measured").asDouble() - v.get("predicted").asDouble());
                    if (Math.abs(v.get("ratio").asDouble() - 1) > 0.2 && diff > 10) {
                        problems.add(name + " " + m.getKey() + " is beyond ±20 % and not flagged: " + v);
                    }
                }
            });
            if (!p.get("explained").asBoolean()) {
                problems.add(name + " is not explained: " + reasons + "; figures " + p.get("metrics")
                        + "; machine " + c.get("metrics").path("machine_cpu_pct").path("median")
                        + " %, generator " + c.get("metrics").path("generator_cpu_pct").path("median") + " %");
            }
        });
        assertThat(problems).isEmpty();
        // The limits' figures are what the model is exact about: in the quick matrix they never need a reason.
        for (String cell : List.of("stress/no-caching", "stress/server-cache", "load/no-caching", "load/server-cache")) {
            JsonNode m = CELLS.get(cell).get("prediction").get("metrics");
            assertThat(m.get("rejected_pct").get("flagged").asBoolean()).as(cell).isFalse();
            assertThat(m.get("origin_requests").get("flagged").asBoolean()).as(cell).isFalse();
        }
    }

    @Test
    void theLoadPlansPredictionsCarryTheirRangeOverPathOrdersAndTheStressPlansDoNot() {
        JsonNode load = CELLS.get("load/server-cache").get("prediction");
        JsonNode stress = CELLS.get("stress/server-cache").get("prediction");
        assertThat(load.get("orders").asInt()).isGreaterThan(1);
        JsonNode throughput = load.get("metrics").get("throughput");
        assertThat(throughput.get("range_low").asDouble()).isLessThanOrEqualTo(throughput.get("predicted").asDouble())
                .isLessThan(throughput.get("range_high").asDouble());
        // The stress plan's one path has one order (a range it carries is its users' pace's, not an order's).
        assertThat(stress.get("orders").asInt()).isEqualTo(1);
    }

    @Test
    void serverCacheSendsFewerRequestsToTheOriginAndRejectsLessThanNoCaching() {
        assertThat(metric("stress/server-cache", "origin_requests")).isLessThan(metric("stress/no-caching", "origin_requests"));
        assertThat(metric("stress/server-cache", "rejected_pct")).isLessThan(metric("stress/no-caching", "rejected_pct"));
        assertThat(metric("load/server-cache", "origin_requests")).isLessThan(metric("load/no-caching", "origin_requests"));
    }

    @Test
    void clientCacheHitsAreCountedOnlyWhereTheClientCaches() {
        assertThat(metric("load/client-cache", "client_cache_hits")).isPositive();
        assertThat(metric("load/no-caching", "client_cache_hits")).isZero();
    }

    @Test
    void libraryRetriesAfterRetryAfterSoFewerRequestsEndRejectedThanWithJMetersClientCache() {
        // The same traffic and stack as stress/client-cache; the library waits out Retry-After and tries again.
        assertThat(metric("stress/library", "rejected_pct")).isLessThan(metric("stress/client-cache", "rejected_pct"));
        assertThat(CELLS.get("stress/library").has("reference")).isFalse();
    }

    @Test
    void libraryCacheAnswersRepeatsSoFewerRequestsReachTheOrigin() {
        assertThat(metric("load/library", "client_cache_hits")).isPositive();
        assertThat(metric("load/library", "origin_requests")).isLessThan(metric("load/no-caching", "origin_requests"));
    }

    @Test
    void directCellNeverPassesNginx() {
        assertThat(CELLS.get("stress/direct").get("metrics").has("cpu_front_s")).isFalse();
        assertThat(metric("stress/direct", "origin_requests")).isEqualTo(metric("stress/direct", "samples"));
    }

    @Test
    void reportHoldsEveryFileItPromises() {
        for (String file : new String[] {"summary.json", "summary.csv", "report.md", "index.html", "checks.xml",
                "charts/stress-throughput.png", "charts/stress-rejected_pct.png", "charts/stress-p95_ms.png",
                "charts/stress-origin_requests.png", "charts/load-throughput.png", "charts/load-origin_requests.png",
                "assets/chart.umd.js", "assets/report.js",
                "cells/stress-server-cache/timeline.json", "cells/stress-direct/timeline.json", "cells/load-both/timeline.json",
                "cells/stress-library/timeline.json", "cells/load-library/library/results.jtl",
                "cells/stress-server-cache/jmeter/results.jtl",
                "cells/stress-server-cache/nginx/front/conf/front-end.conf",
                "cells/stress-server-cache/nginx/front/logs/access.log"}) {
            assertThat(run.resolve(file)).as(file).isNotEmptyFile();
        }
        List<String> drawings = List.of("cells/load-library/library/dashboard/index.html",
                "cells/load-library/library/graphs/TransactionsPerSecond.png",
                "cells/stress-server-cache/jmeter/dashboard/index.html",
                "cells/stress-server-cache/jmeter/graphs/ResponseTimesOverTime.png",
                "cells/load-both/jmeter/graphs/TransactionsPerSecond.png");
        for (String file : drawings) {
            if (LongLane.included()) {
                assertThat(run.resolve(file)).as(file).isNotEmptyFile();
            } else {
                assertThat(run.resolve(file)).as(file + " under --no-dashboards").doesNotExist();
            }
        }
    }

    /**
     * The terminal holds the suite's own lines: JMeter's console (log4j's warnings, its banner, its
     * summariser) and the client driver's summary go to each cell's folder, and output that is no
     * terminal's gets neither colour nor a live line.
     */
    @Test
    void theToolsOwnOutputIsInEachCellsFolderAndNotOnTheTerminal() {
        assertThat(run.resolve("cells/stress-server-cache/jmeter/jmeter.out")).content()
                .contains("Created the tree successfully", "summary =");
        assertThat(run.resolve("cells/stress-library/library/driver.out")).content().contains("client-driver: ");
        assertThat(OUT.toString()).doesNotContain("StatusConsoleListener", "log4j", "Created the tree", "Starting standalone",
                "summary +", "client-driver: ", "\u001b", "\r");
    }

    @Test
    void reportTablesCarryEveryCellAndSayTheReferenceIsNotComparableAtQuickSizes() throws Exception {
        String md = Files.readString(run.resolve("report.md"));
        assertThat(md).contains("| stress/no-caching |", "| load/both |", "every cell completed",
                "sizes differ from the [reference experiment](", "PASS `stress/server-cache.rejected_pct == 0`");
        String csv = Files.readString(run.resolve("summary.csv"));
        assertThat(csv.lines().count()).isEqualTo(12);
        assertThat(csv.lines().findFirst().orElseThrow()).contains("throughput [responses/s]", "rejected_pct [%]");
        assertThat(Files.readString(run.resolve("checks.xml"))).contains("tests=\"2\" failures=\"0\"");
    }

    /**
     * Every src and href of index.html: a page that needs anything from outside the run folder fails
     * here. Its links may also lead to the checkout's docs (the definitions of its columns and words)
     * and to the pages of the sources it names, which a reader opens on purpose.
     */
    @Test
    void indexHtmlRefersOnlyToFilesInTheRunFolder() throws Exception {
        String html = Files.readString(run.resolve("index.html"));
        Matcher refs = Pattern.compile("\\b(?:src|href)=\"([^\"]*)\"").matcher(html);
        List<String> seen = new ArrayList<>();
        Path docs = Repo.root().toRealPath().resolve("docs");
        while (refs.find()) {
            String ref = refs.group(1);
            seen.add(ref);
            if (ref.startsWith("#")) {
                assertThat(html).as(ref).contains("id=\"" + ref.substring(1) + "\"");
                continue;
            }
            if (URI.create(ref).isAbsolute()) {
                assertThat(html).as(ref).contains("<a href=\"" + ref + "\"");
                assertThat(java.util.Arrays.stream(dev.ratecache.suite.matrix.Source.values())
                        .map(dev.ratecache.suite.matrix.Source::link)).as(ref).contains(ref);
                continue;
            }
            assertThat(ref).as(ref).doesNotStartWith("/");
            Path target = run.resolve(ref.replaceFirst("#.*", "")).normalize();
            if (!target.startsWith(run)) {
                assertThat(html).as(ref).contains("<a href=\"" + ref + "\"");
                assertThat(target).as(ref).startsWith(docs);
            }
            assertThat(target).as(ref).exists();
        }
        assertThat(seen).contains("assets/chart.umd.js", "assets/report.js");
        if (LongLane.included()) {
            assertThat(seen).contains("cells/stress-server-cache/jmeter/dashboard/index.html");
        }
    }

    /**
     * index.html in headless Chromium with no network, as a person would open it: every cell has
     * its row, and every chart drew its data (report.js marks each canvas with its painted pixels
     * and data points). The screenshot stays in target/report/.
     */
    @Test
    void indexHtmlShowsEveryCellAndDrawsEveryChartInABrowserWithoutNetwork() throws Exception {
        Required.that(HeadlessChromium.binary().isPresent(), "no Chromium on the PATH (Debian's chromium)");
        HeadlessChromium chromium = HeadlessChromium.in(Path.of("target", "report", "chromium").toAbsolutePath(),
                Duration.ofSeconds(90));
        Path page = run.resolve("index.html");
        Path screenshot = chromium.screenshot(page, Path.of("target", "report", "index.png").toAbsolutePath(),
                1400, 4000, Duration.ofSeconds(10));
        assertThat(Files.size(screenshot)).isGreaterThan(50_000);

        // Chromium serialises the DOM with every attribute double-quoted: plain patterns read it.
        String dom = chromium.dumpDom(page, Duration.ofSeconds(10));

        assertThat(attribute(tag(dom, "body").get(0), "data-error")).as("a script error").isNull();
        List<String> rows = tag(dom, "tr").stream().map(tr -> attribute(tr, "data-cell")).filter(c -> c != null).toList();
        assertThat(rows).containsExactlyInAnyOrderElementsOf(CELLS.keySet());
        List<String> canvases = tag(dom, "canvas");
        assertThat(attribute(tag(dom, "body").get(0), "data-charts")).isEqualTo(String.valueOf(canvases.size()));
        // Two plans of four bar charts; every cell over time, the library's from its driver's JTL as JMeter's from JMeter's.
        assertThat(canvases.stream().filter(c -> "bar".equals(attribute(c, "data-kind")))).hasSize(8);
        assertThat(canvases.stream().filter(c -> "requests".equals(attribute(c, "data-kind")))).hasSize(CELLS.size());
        assertThat(canvases.stream().filter(c -> "latency".equals(attribute(c, "data-kind")))).hasSize(CELLS.size());
        assertThat(canvases.stream().filter(c -> "caches".equals(attribute(c, "data-kind")))).isNotEmpty();
        for (String canvas : canvases) {
            assertThat(attribute(canvas, "data-points")).as(canvas).isNotNull();
            assertThat(Integer.parseInt(attribute(canvas, "data-points"))).as(canvas).isPositive();
            // Drawn: a chart paints thousands of pixels (its axes, labels and title alone); a blank canvas none.
            assertThat(Integer.parseInt(attribute(canvas, "data-painted"))).as(canvas).isGreaterThan(2_000);
        }
    }

    /** Every start tag of that name in serialised HTML. */
    private static List<String> tag(String html, String name) {
        Matcher m = Pattern.compile("<" + name + "\\b[^>]*>").matcher(html);
        List<String> tags = new ArrayList<>();
        while (m.find()) {
            tags.add(m.group());
        }
        return tags;
    }

    /** An attribute's value in a start tag, or null when it has none. */
    private static String attribute(String tag, String name) {
        Matcher m = Pattern.compile("\\s" + Pattern.quote(name) + "=\"([^\"]*)\"").matcher(tag);
        return m.find() ? m.group(1) : null;
    }
}
