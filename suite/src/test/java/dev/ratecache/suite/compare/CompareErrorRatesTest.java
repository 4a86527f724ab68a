package dev.ratecache.suite.compare;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.docs.Committed;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.Matrix;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.matrix.Profile;
import dev.ratecache.suite.origin.OriginDelays;
import dev.ratecache.suite.predict.Prediction;
import dev.ratecache.suite.predict.Predictor;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import java.time.Duration;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * compare's own error rates, on committed runs of this machine (results/compare-rates): two runs of
 * one config, and four runs each with one known change. docs/compare.md's figures are written from
 * them by this test, and checked by it. Seven comparisons of 33 repeats' samples, bootstrapped, take
 * about half a minute of one core: the long lane's (tagged as a stack test only so that the lane's
 * runner takes it; it starts no process).
 */
@StackTest
@LongTest
class CompareErrorRatesTest {
    private static final String REGENERATE = "./mvnw -B -q verify -pl acceptance -am -Dtest=NONE"
            + " -Dit.test=CompareErrorRatesTest -Dstack.excluded=none -Ddocs.write=true";
    static final Path RUNS = Repo.root().resolve("results/compare-rates");

    /** The known changes, each B's folder beside the words for it. */
    static final Map<String, String> CHANGES = new LinkedHashMap<>();

    static {
        CHANGES.put("b-rate", "front rate 100 -> 90 (`--front-rate 90`)");
        CHANGES.put("b-burst", "front burst 200 -> 50 (`--front-burst 50`)");
        CHANGES.put("b-nocache", "server cache off (`--no-cache`)");
        CHANGES.put("b-delay", "the origin's /hare delay 100 -> 150 ms (`--origin-delay hare=150ms`)");
    }

    /**
     * The pairs of runs of one config: the floors were set from the first (CompareMetric), so the
     * other two, each with the third run, are what checks them.
     */
    static final List<String> SAME_CONFIG = List.of("a1 a2", "a1 a3", "a2 a3");

    private static RunFolder a1;
    private static final Map<String, Comparison> PAIRS = new LinkedHashMap<>();
    private static final Map<String, ErrorRates.KnownChange> KNOWN = new LinkedHashMap<>();

    @BeforeAll
    static void compareTheCommittedRuns() throws Exception {
        a1 = RunFolder.open(RUNS.resolve("a1"));
        for (String pair : SAME_CONFIG) {
            String[] ab = pair.split(" ");
            PAIRS.put(pair, Comparer.compare(RunFolder.open(RUNS.resolve(ab[0])), RunFolder.open(RUNS.resolve(ab[1]))));
        }
        for (String b : CHANGES.keySet()) {
            RunFolder run = RunFolder.open(RUNS.resolve(b));
            KNOWN.put(b, ErrorRates.knownChange(Comparer.compare(a1, run), shouldMove(b)));
        }
    }

    /**
     * Per cell, the metrics change {@code b} should move: those the model moves when it predicts the
     * cell before and after the change on the plan's nominal traffic (not on what either run
     * measured, whose own noise would move its predictions too).
     */
    static Map<String, Map<CompareMetric, Boolean>> shouldMove(String b) {
        Map<String, Map<CompareMetric, Boolean>> out = new LinkedHashMap<>();
        List<Cell> cells = Matrix.reference(List.of(Plan.STRESS, Plan.LOAD));
        for (Cell cell : cells) {
            StackSwitches after = new StackSwitches();
            OriginDelays delays = OriginDelays.NONE;
            Cell became = cell;
            switch (b) {
                case "b-rate" -> after.frontRate(90);
                case "b-burst" -> after.frontBurst(50);
                case "b-nocache" -> {
                    after.cache(false);
                    // --no-cache leaves no cell with the edge cache: compare pairs it with the one it became.
                    became = cell.serverCache() ? cells.stream().filter(c -> c.plan() == cell.plan() && !c.serverCache()
                            && !c.direct() && !c.library() && c.clientCache() == cell.clientCache()).findFirst()
                            .orElseThrow() : cell;
                }
                case "b-delay" -> delays = new OriginDelays(Map.of("hare", Duration.ofMillis(150)));
                default -> throw new IllegalArgumentException(b);
            }
            out.put(cell.name(), ErrorRates.moves(nominal(cell, new StackSwitches(), OriginDelays.NONE),
                    nominal(became, after, delays)));
        }
        return out;
    }

    /** The model's figures of a cell on its plan's nominal traffic, by metric id. */
    private static Map<String, Double> nominal(Cell cell, StackSwitches switches, OriginDelays delays) {
        Map<String, String> props = new LinkedHashMap<>(cell.plan().sizes(Profile.DEFAULT));
        props.putAll(cell.properties());
        props.put("client_cache", String.valueOf(cell.clientCache()));
        Prediction p = Predictor.predict(new Predictor.Input(cell, cell.apply(switches).spec(new StackPorts()), props,
                Profile.DEFAULT, 10, null, -1, 0).withOriginDelays(delays));
        Map<String, Double> figures = new LinkedHashMap<>();
        for (Metric m : Metric.values()) {
            Double v = p.predicted() ? p.value(m) : null;
            if (v != null) {
                figures.put(m.id(), v);
            }
        }
        return figures;
    }

    @Test
    void twoRunsOfOneConfigAreCalledTheSameInAtLeast95PerCentOfTheirMetrics() {
        PAIRS.forEach((pair, c) -> {
            ErrorRates.SameConfig aa = ErrorRates.sameConfig(c);

            assertThat(c.differences()).isEmpty();
            assertThat(aa.judged()).as(pair + ": every metric of both runs judged").isEqualTo(c.cells().stream()
                    .mapToInt(x -> x.metrics().size()).sum());
            assertThat(aa.falseAlarmPct()).as(pair + ": " + aa.flagged().stream().map(ErrorRates.Flag::text).toList())
                    .isLessThanOrEqualTo(5.0);
        });
    }

    @Test
    void eachKnownChangeIsFoundItsWayInAMetricTheModelSaysItMovesAndNeverTheOtherWay() {
        KNOWN.forEach((b, known) -> {
            assertThat(known.found()).as(b + ": found").isNotEmpty();
            assertThat(known.wrongWay()).as(b + ": the other way").isEmpty();
        });
    }

    @Test
    void theDocsStateTheRatesOfTheCommittedRuns() throws IOException {
        Committed.block(Repo.root().resolve("docs/compare.md"), "error-rates", rates(), REGENERATE);
    }

    /** The section's figures, as docs/compare.md states them. */
    static String rates() throws IOException {
        JsonNode run = new ObjectMapper().readTree(RUNS.resolve("a1/summary.json").toFile()).path("run");
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "Measured on %s: the default matrix (%d cells), the default profile,"
                + " three repeats a run, the runs one after another on %s with nothing else running.%n%n",
                run.path("machine").asText(), a1.cells().size(), run.path("started").asText().substring(0, 10)));
        out.append("**A/A**, the pairs of runs of the default config (the floors were set from a1 and a2; a3 is"
                + " new to them):\n\n| runs | metrics judged | called the same | false alarms | called better or"
                + " worse |\n| --- | --- | --- | --- | --- |\n");
        int judged = 0;
        int flagged = 0;
        for (Map.Entry<String, Comparison> pair : PAIRS.entrySet()) {
            ErrorRates.SameConfig aa = ErrorRates.sameConfig(pair.getValue());
            judged += aa.judged();
            flagged += aa.flagged().size();
            out.append(String.format(Locale.ROOT, "| %s | %d | %d | %.1f %% | %s |%n", pair.getKey().replace(" ", ", "),
                    aa.judged(), aa.judged() - aa.flagged().size(), aa.falseAlarmPct(), aa.flagged().isEmpty() ? "none"
                            : String.join("; ", aa.flagged().stream().map(ErrorRates.Flag::text).toList())));
        }
        out.append(String.format(Locale.ROOT, "%nOver the three pairs: **%.1f %%** false alarms (%d of %d; at most"
                + " 5 %% is the aim).", 100.0 * flagged / judged, flagged, judged));
        out.append("\n\n**A/B** (a1 against each run with one change): a metric *should move* when the model,"
                + " predicting the cell before and after the change on its plan's nominal traffic, moves it by"
                + " more than compare's floor (the mean, p90 and p99 as its p95); it is *found* when compare"
                + " judges it moved that way.\n\n");
        out.append("| change | run | should move | found, its way | the other way | should not move | flagged anyway |\n");
        out.append("| --- | --- | --- | --- | --- | --- | --- |\n");
        KNOWN.forEach((b, k) -> out.append(String.format(Locale.ROOT, "| %s | %s | %d | %d (%.0f %%) | %d | %d | %d (%.1f %%) |%n",
                CHANGES.get(b), b, k.expected().size(), k.found().size(), k.detectedPct(), k.wrongWay().size(),
                k.others(), k.stray().size(), k.strayPct())));
        int expected = KNOWN.values().stream().mapToInt(k -> k.expected().size()).sum();
        int found = KNOWN.values().stream().mapToInt(k -> k.found().size()).sum();
        int wrongWay = KNOWN.values().stream().mapToInt(k -> k.wrongWay().size()).sum();
        int others = KNOWN.values().stream().mapToInt(ErrorRates.KnownChange::others).sum();
        int stray = KNOWN.values().stream().mapToInt(k -> k.stray().size()).sum();
        out.append(String.format(Locale.ROOT, "%nOver the four changes: **%.0f %%** of the metrics that should move"
                + " found their way (%d of %d), %d the other way, and **%.1f %%** of the others flagged (%d of %d).%n",
                100.0 * found / expected, found, expected, wrongWay, 100.0 * stray / others, stray, others));
        out.append("\nFlagged though the model says the change does not move them:\n\n");
        KNOWN.forEach((b, k) -> out.append("- ").append(b).append(": ").append(k.stray().isEmpty() ? "none"
                : String.join("; ", k.stray().stream().map(ErrorRates.Flag::text).toList())).append('\n'));
        out.append("\nShould have moved and were judged the same:\n\n");
        KNOWN.forEach((b, k) -> {
            List<String> missed = k.expected().stream().filter(e -> k.found().stream().noneMatch(f -> e.startsWith(
                    f.cell() + "." + f.metric().metric().id() + " "))).toList();
            out.append("- ").append(b).append(": ").append(missed.isEmpty() ? "none" : String.join(", ", missed))
                    .append('\n');
        });
        out.append("\n**The noise floor**, from the A/A runs: how far each metric of one config moved between two"
                + " runs, in per cent of A, over the three pairs' cells where A is not 0 (a cell's metric counts once a"
                + " pair).\n\n");
        out.append("| metric | cells | median change | largest change |\n| --- | --- | --- | --- |\n");
        ErrorRates.drift(List.copyOf(PAIRS.values())).forEach((m, d) -> out.append(String.format(Locale.ROOT, "| `%s` | %d | %.1f %% | %.1f %% |%n",
                m.id(), d.cells(), d.medianPct(), d.largestPct())));
        return out.toString();
    }
}
