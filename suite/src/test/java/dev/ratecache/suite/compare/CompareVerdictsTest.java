package dev.ratecache.suite.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * compare's verdicts on runs whose truth is known: two draws of one config are the same within
 * noise, and a known change is found, with its direction, in the metrics it moves and nowhere else.
 */
class CompareVerdictsTest {
    private static Comparison compare(TestInfo test, UnaryOperator<RunFixture.CellModel> change, String switchesB,
            int repeats) throws Exception {
        Path dir = TestDirs.fresh(test);
        List<RunFixture.CellModel> cells = RunFixture.cells();
        RunFixture.write(dir.resolve("a"), RunFixture.SWITCHES, cells, repeats, 1);
        RunFixture.write(dir.resolve("b"), switchesB, cells.stream().map(change).toList(), repeats, 2);
        return Comparer.compare(RunFolder.open(dir.resolve("a")), RunFolder.open(dir.resolve("b")));
    }

    private static Map<String, Verdict> verdicts(Comparison c, String cell) {
        return c.cells().stream().filter(x -> x.name().equals(cell)).findFirst().orElseThrow().metrics().stream()
                .collect(Collectors.toMap(m -> m.metric().id(), MetricComparison::verdict));
    }

    /**
     * Section 4's criterion on runs whose truth is known: over many pairs of draws of one config, at
     * most 5 % of the metrics are called better or worse. The real machine's A/A rate is
     * CompareErrorRatesTest's.
     */
    @Test
    void drawsOfOneConfigAreCalledTheSameInAtLeast95PerCentOfTheMetrics(TestInfo test) throws Exception {
        Path dir = TestDirs.fresh(test);
        int judged = 0;
        int alarms = 0;
        StringBuilder seen = new StringBuilder();
        for (int pair = 0; pair < 20; pair++) {
            Path a = RunFixture.write(dir.resolve(pair + "/a"), RunFixture.SWITCHES, RunFixture.cells(), 1, 2L * pair + 1);
            Path b = RunFixture.write(dir.resolve(pair + "/b"), RunFixture.SWITCHES, RunFixture.cells(), 1, 2L * pair + 2);

            Comparison c = Comparer.compare(RunFolder.open(a), RunFolder.open(b));

            assertThat(c.differences()).isEmpty();
            assertThat(c.unjudged()).isZero();
            judged += (int) c.cells().stream().mapToLong(x -> x.metrics().size()).sum();
            alarms += (int) (c.count(Verdict.BETTER) + c.count(Verdict.WORSE));
            c.cells().forEach(x -> x.metrics().stream().filter(m -> m.verdict() != Verdict.SAME)
                    .forEach(m -> seen.append(x.name()).append('.').append(m.metric().id()).append(' ')
                            .append(m.changeText()).append("; ")));
        }
        assertThat(100.0 * alarms / judged).as("false alarms in %d judged metrics: %s", judged, seen).isLessThanOrEqualTo(5);
    }

    @Test
    void slowerResponsesAreWorseInTheLatenciesAndTheSameElsewhere(TestInfo test) throws Exception {
        Comparison c = compare(test, cell -> cell.withLatency(cell.latencyMs() * 1.3), RunFixture.SWITCHES, 1);

        Map<String, Verdict> verdicts = verdicts(c, "stress/no-caching");
        assertThat(verdicts).as(new CompareWriter(c, 5).terminal()).containsEntry("p95_ms", Verdict.WORSE)
                .containsEntry("p99_ms", Verdict.WORSE).containsEntry("mean_ms", Verdict.WORSE)
                .containsEntry("rejected_pct", Verdict.SAME).containsEntry("origin_requests", Verdict.SAME);
        assertThat(c.regressions(10)).extracting(r -> r.metric().metric().id()).contains("p95_ms")
                .doesNotContain("throughput", "rejected_pct", "origin_requests");
        MetricComparison p95 = c.cells().get(0).metrics().stream().filter(m -> m.metric() == CompareMetric.P95_MS)
                .findFirst().orElseThrow();
        assertThat(p95.low()).as("the interval of B - A leaves out 0 on the worse side").isPositive();
        assertThat(p95.pValue()).as("Mann-Whitney U's p").isLessThan(0.05);
    }

    @Test
    void moreThroughputIsBetterAndMoreRejectionsAreWorse(TestInfo test) throws Exception {
        Comparison c = compare(test, cell -> cell.withRate(cell.rate() * 1.5).withRejected(cell.rejectedShare() + 0.2),
                RunFixture.SWITCHES, 1);

        Map<String, Verdict> verdicts = verdicts(c, "stress/no-caching");
        assertThat(verdicts).as(new CompareWriter(c, 5).terminal()).containsEntry("throughput", Verdict.BETTER)
                .containsEntry("rejected_pct", Verdict.WORSE);
        assertThat(verdicts(c, "stress/server-cache")).containsEntry("throughput", Verdict.BETTER)
                .containsEntry("rejected_pct", Verdict.WORSE);
    }

    @Test
    void aRunWithChangedSwitchesNamesWhatChanged(TestInfo test) throws Exception {
        String ninety = RunFixture.SWITCHES.replace("front limit 100 r/s burst 200", "front limit 90 r/s burst 50");

        Comparison c = compare(test, cell -> cell.name().endsWith("server-cache")
                ? cell.withDescription(cell.description().replace("server cache on", "server cache off")) : cell, ninety, 1);

        assertThat(c.differences()).containsExactly("front limit 100 -> 90, burst 200 -> 50");
        assertThat(c.cells().get(1).differences()).contains("front limit 100 -> 90, burst 200 -> 50",
                "server cache on -> off");
        assertThat(new CompareWriter(c, Double.NaN).terminal()).contains("runs differ: front limit 100 -> 90")
                .contains("stress/server-cache differs: server cache on -> off");
    }

    @Test
    void aRunOfAnotherProfileSaysSoFirst(TestInfo test) throws Exception {
        Path dir = TestDirs.fresh(test);
        RunFixture.write(dir.resolve("a"), RunFixture.SWITCHES, RunFixture.cells(), 1, 1);
        Path b = RunFixture.write(dir.resolve("b"), RunFixture.SWITCHES, RunFixture.cells(), 1, 2);
        Path summary = b.resolve("summary.json");
        Files.writeString(summary, Files.readString(summary).replace("\"profile\":\"default\"", "\"profile\":\"quick\""));

        Comparison c = Comparer.compare(RunFolder.open(dir.resolve("a")), RunFolder.open(b));

        assertThat(c.differences()).containsExactly("profile default -> quick");
        assertThat(c.cells().get(0).differences()).containsExactly("profile default -> quick");
        assertThat(new CompareWriter(c, Double.NaN).terminal()).contains("runs differ: profile default -> quick");
    }

    @Test
    void aCellRunOnABusierMachineSaysSoBesideItsFigures(TestInfo test) throws Exception {
        Comparison c = compare(test, cell -> cell.name().endsWith("server-cache") ? cell.withMachineCpu(86) : cell,
                RunFixture.SWITCHES, 1);

        assertThat(c.cells().get(0).warnings()).isEmpty();
        assertThat(c.cells().get(1).warnings()).containsExactly("the machine was busier in B's run of this cell (CPU 40 %"
                + " in A, 86 % in B): a latency or throughput change may be the machine's, not the config's");
        assertThat(new CompareWriter(c, Double.NaN).terminal()).contains("stress/server-cache: note: the machine was busier in B's");
    }

    @Test
    void aCellThatFailedInOneRunIsListedWithWhyAndNeverARegression(TestInfo test) throws Exception {
        Path dir = TestDirs.fresh(test);
        RunFixture.write(dir.resolve("a"), RunFixture.SWITCHES, RunFixture.cells(), 1, 1);
        Path b = RunFixture.write(dir.resolve("b"), RunFixture.SWITCHES, RunFixture.cells().stream()
                .map(x -> x.withLatency(x.latencyMs() * 3)).toList(), 1, 2);
        Path summary = b.resolve("summary.json");
        Files.writeString(summary, Files.readString(summary).replaceFirst("\"status\":\"ok\"", "\"status\":\"failed\""));

        Comparison c = Comparer.compare(RunFolder.open(dir.resolve("a")), RunFolder.open(b));

        assertThat(c.cells().get(0).note()).isEqualTo("B's cell did not complete (failed): not compared");
        assertThat(c.cells().get(0).metrics()).isEmpty();
        assertThat(c.regressions(10)).extracting(Comparison.Regression::cell).containsOnly("stress/server-cache");
        assertThat(new CompareWriter(c, 10).terminal()).contains("B's cell did not complete (failed): not compared");
    }

    @Test
    void aCellInOneRunOnlyIsAddedOrRemoved(TestInfo test) throws Exception {
        Path dir = TestDirs.fresh(test);
        RunFixture.CellModel extra = new RunFixture.CellModel("load/both", "front limit on", 200, 5, 0, 20, 0);
        RunFixture.write(dir.resolve("a"), RunFixture.SWITCHES, RunFixture.cells().subList(0, 1), 1, 1);
        RunFixture.write(dir.resolve("b"), RunFixture.SWITCHES, List.of(RunFixture.cells().get(1), extra), 1, 2);

        Comparison c = Comparer.compare(RunFolder.open(dir.resolve("a")), RunFolder.open(dir.resolve("b")));

        assertThat(c.cells()).extracting(CellComparison::name, CellComparison::presence).containsExactly(
                org.assertj.core.groups.Tuple.tuple("stress/no-caching", CellComparison.Presence.REMOVED),
                org.assertj.core.groups.Tuple.tuple("stress/server-cache", CellComparison.Presence.ADDED),
                org.assertj.core.groups.Tuple.tuple("load/both", CellComparison.Presence.ADDED));
        assertThat(new CompareWriter(c, Double.NaN).terminal()).contains("removed (only in A)", "added (only in B)");
    }

    @Test
    void aCellTheOtherRunsSwitchesLeftOutIsComparedWithTheCellItBecame(TestInfo test) throws Exception {
        Path dir = TestDirs.fresh(test);
        RunFixture.write(dir.resolve("a"), RunFixture.SWITCHES, RunFixture.cells(), 1, 1);
        // --no-cache keeps only the cells without the edge cache: B's stress/no-caching is what A's server-cache became.
        RunFixture.write(dir.resolve("b"), RunFixture.SWITCHES.replace("edge cache on (100m, Age native)", "edge cache off"),
                RunFixture.cells().subList(0, 1), 1, 2);

        Comparison c = Comparer.compare(RunFolder.open(dir.resolve("a")), RunFolder.open(dir.resolve("b")));

        CellComparison became = c.cells().get(1);
        assertThat(became.name()).isEqualTo("stress/server-cache");
        assertThat(became.presence()).isEqualTo(CellComparison.Presence.BOTH);
        assertThat(became.differences()).contains("server cache on -> off",
                "stress/server-cache -> stress/no-caching (B's switches leave no stress/server-cache)");
        assertThat(verdicts(c, "stress/server-cache")).containsEntry("origin_requests", Verdict.WORSE)
                .containsEntry("rejected_pct", Verdict.WORSE).containsEntry("throughput", Verdict.WORSE);
        assertThat(c.cells().get(0).differences()).noneMatch(d -> d.contains("leave no"));
    }

    @Test
    void aCellLeftOutOfARunOfTheSameSwitchesIsNotPairedWithAnother(TestInfo test) throws Exception {
        Path dir = TestDirs.fresh(test);
        RunFixture.write(dir.resolve("a"), RunFixture.SWITCHES, RunFixture.cells(), 1, 1);
        RunFixture.write(dir.resolve("b"), RunFixture.SWITCHES, RunFixture.cells().subList(0, 1), 1, 2);

        Comparison c = Comparer.compare(RunFolder.open(dir.resolve("a")), RunFolder.open(dir.resolve("b")));

        assertThat(c.cells().get(1).presence()).isEqualTo(CellComparison.Presence.REMOVED);
    }

    @Test
    void withoutSamplesOrSecondsOneRepeatIsNotJudgedAndThreeAreJudgedByTheirSpread(TestInfo test) throws Exception {
        Path dir = TestDirs.fresh(test);
        for (int repeats : new int[] {1, 3}) {
            Path a = RunFixture.write(dir.resolve(repeats + "/a"), RunFixture.SWITCHES, RunFixture.cells(), repeats, 1);
            Path b = RunFixture.write(dir.resolve(repeats + "/b"), RunFixture.SWITCHES, RunFixture.cells().stream()
                    .map(x -> x.withLatency(x.latencyMs() * 2)).toList(), repeats, 2);
            for (Path run : List.of(a, b)) {
                try (Stream<Path> files = Files.walk(run.resolve("cells"))) {
                    for (Path f : files.filter(f -> f.toString().endsWith(".jtl") || f.toString().endsWith("timeline.json")).toList()) {
                        Files.delete(f);
                    }
                }
            }

            Comparison c = Comparer.compare(RunFolder.open(a), RunFolder.open(b));

            Map<String, Verdict> verdicts = verdicts(c, "stress/no-caching");
            if (repeats == 1) {
                assertThat(verdicts.values()).containsOnly(Verdict.UNJUDGED);
                assertThat(c.regressions(5)).as("a change not judged is no regression").isEmpty();
            } else {
                assertThat(verdicts).containsEntry("p50_ms", Verdict.WORSE).containsEntry("p95_ms", Verdict.WORSE);
                assertThat(c.cells().get(0).metrics().get(0).method()).isEqualTo("spread of 3 and 3 repeats");
            }
        }
    }

    @Test
    void aFolderThatIsNotARunIsRefusedInOneLineNamingWhy(TestInfo test) throws IOException {
        Path dir = TestDirs.fresh(test);
        Path file = Files.writeString(dir.resolve("notes.txt"), "mine");
        Path empty = Files.createDirectories(dir.resolve("empty"));
        Path broken = Files.createDirectories(dir.resolve("broken"));
        Files.writeString(broken.resolve("summary.json"), "{\"not\": \"a run\"}");

        assertThat(refusal(dir.resolve("missing"))).endsWith("does not exist: give a run folder (results/<time>/, or results/example)");
        assertThat(refusal(file)).endsWith("is a file, not a run folder: give a folder results/<time>/");
        assertThat(refusal(empty)).endsWith("is not a run folder: it has no summary.json (a matrix run writes one in results/<time>/)");
        assertThat(refusal(broken)).endsWith("summary.json has no run and cells: it is not a matrix run's summary");
    }

    private static String refusal(Path dir) {
        try {
            RunFolder.open(dir);
            throw new AssertionError(dir + " was taken for a run");
        } catch (RunFolder.NotARun e) {
            assertThat(e.getMessage()).doesNotContain("\n");
            return e.getMessage();
        }
    }
}
