package dev.ratecache.suite.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.suite.Repo;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The measured figures the docs quote come from the committed example run, results/example: each
 * quoted table is written from its summary.json, and this test fails when a page's table differs.
 * A new example run (results/README.md says how) changes the figures in one command, never by hand.
 */
class ExampleFiguresTest {
    private static final String REGENERATE = "./mvnw -B -q test -pl suite -am -Dtest=ExampleFiguresTest -Ddocs.write=true";

    static Map<String, JsonNode> cells() throws Exception {
        return cells("results/example");
    }

    /** The cells of a committed run's summary.json, by name. */
    static Map<String, JsonNode> cells(String run) throws Exception {
        JsonNode summary = new ObjectMapper().readTree(Repo.root().resolve(run).resolve("summary.json").toFile());
        Map<String, JsonNode> cells = new HashMap<>();
        summary.get("cells").forEach(c -> cells.put(c.get("name").asText(), c));
        return cells;
    }

    @Test
    void theClientLibrarysPageQuotesTheExampleRunsLibraryAndJmeterCells() throws Exception {
        Map<String, JsonNode> cells = cells();
        StringBuilder table = new StringBuilder("""
                | cell | responses/s | origin requests | rejected |
                | --- | ---: | ---: | ---: |
                """);
        for (String cell : List.of("stress/library", "stress/client-cache", "load/library", "load/client-cache")) {
            JsonNode c = cells.get(cell);
            assertThat(c).as(cell + " in results/example").isNotNull();
            table.append(String.format(Locale.ROOT, "| `%s`%s | %s | %s | %.1f %% |%n", cell,
                    cell.endsWith("client-cache") ? " (JMeter)" : "",
                    pair(c, "throughput", "%.1f"), pair(c, "origin_requests", "%.0f"), measured(c, "rejected_pct")));
        }
        Committed.block(Repo.root().resolve("docs/client.md"), "library-vs-jmeter", table.toString(), REGENERATE);
    }

    @Test
    void theFaultsPageQuotesTheCommittedFaultsRun() throws Exception {
        Map<String, JsonNode> cells = cells("results/example-faults");
        StringBuilder table = new StringBuilder("""
                | cell | failed | lost in flight | new limit in force | admitted/s before / after | worker started again | origin down | answered stale meanwhile | new origin's requests |
                | --- | ---: | ---: | --- | --- | --- | ---: | ---: | ---: |
                """);
        for (String cell : List.of("faults/reload", "faults/worker-kill", "faults/origin-restart")) {
            JsonNode f = cells.get(cell).get("fault");
            assertThat(f).as(cell + " in results/example-faults").isNotNull();
            table.append(String.format(Locale.ROOT, "| `%s` | %d | %d | %s | %s | %s | %s | %s | %s |%n", cell,
                    f.get("failed").asLong(), f.get("lost").asLong(),
                    f.get("effect_ms").isNumber() ? f.get("effect_ms").asLong() + " ms after the signal" : "",
                    f.get("new_limit").asLong() > 0 ? f.get("before_peak").asLong() + " / " + f.get("after_peak").asLong()
                            + " (limit " + f.get("new_limit").asLong() + ")" : "",
                    f.get("respawn_ms").isNumber() ? "after " + f.get("respawn_ms").asLong() + " ms" : "",
                    f.get("down_ms").isNumber() ? f.get("down_ms").asLong() + " ms" : "",
                    f.get("down_ms").isNumber() ? String.valueOf(f.get("served_stale").asLong()) : "",
                    f.get("origin_after").isNumber() ? String.valueOf(f.get("origin_after").asLong()) : ""));
        }
        Committed.block(Repo.root().resolve("docs/faults.md"), "faults", table.toString(), REGENERATE);
    }

    private static double measured(JsonNode cell, String metric) {
        return cell.get("metrics").get(metric).get("median").asDouble();
    }

    /** "measured / predicted", or the measured figure alone where the model gave none. */
    private static String pair(JsonNode cell, String metric, String format) {
        String measured = String.format(Locale.ROOT, format, measured(cell, metric));
        JsonNode predicted = cell.path("prediction").path("metrics").path(metric).path("predicted");
        return predicted.isNumber() ? measured + " / " + String.format(Locale.ROOT, format, predicted.asDouble()) : measured;
    }
}
