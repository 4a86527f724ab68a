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
                | cell | failed | lost in flight | new limit in force | admitted/s before / after | worker started again | origin (or Redis) down | answered stale meanwhile | answered 5xx meanwhile | new origin's requests |
                | --- | ---: | ---: | --- | --- | --- | ---: | ---: | ---: | ---: |
                """);
        StringBuilder more = new StringBuilder("""
                | cell | failed | cache full after | first eviction after | entries stored / evicted / held | peak | answers once full | origin's app-cache errors | new Redis's lookups |
                | --- | ---: | ---: | ---: | --- | ---: | --- | ---: | ---: |
                """);
        for (String cell : List.of("faults/reload", "faults/worker-kill", "faults/origin-restart", "faults/stale-refused",
                "faults/cache-full", "faults/redis-restart")) {
            JsonNode f = cells.get(cell) == null ? null : cells.get(cell).get("fault");
            assertThat(f).as(cell + " in results/example-faults").isNotNull();
            JsonNode cache = f.path("cache");
            if (cache.isObject() || f.get("redis_after").isNumber()) {
                more.append(String.format(Locale.ROOT, "| `%s` | %d | %s | %s | %s | %s | %s | %s | %s |%n", cell,
                        f.get("failed").asLong(),
                        cache.isObject() ? cache.get("full_after_ms").asLong() + " ms" : "",
                        cache.path("evicted_after_ms").isNumber() ? cache.get("evicted_after_ms").asLong() + " ms" : "",
                        cache.isObject() ? cache.get("stored").asLong() + " / " + cache.get("evicted").asLong() + " / "
                                + cache.get("held").asLong() : "",
                        cache.isObject() ? cache.get("peak_bytes").asLong() / 1024 + " KB (max_size "
                                + cache.get("max_bytes").asLong() / 1024 + " KB)" : "",
                        cache.isObject() ? statuses(cache.get("statuses_after")) : "",
                        f.get("app_cache_errors").isNumber() ? String.valueOf(f.get("app_cache_errors").asLong()) : "",
                        f.get("redis_after").isNumber() ? String.valueOf(f.get("redis_after").asLong()) : ""));
                if (cache.isObject()) {
                    continue;
                }
            }
            table.append(String.format(Locale.ROOT, "| `%s` | %d | %d | %s | %s | %s | %s | %s | %s | %s |%n", cell,
                    f.get("failed").asLong(), f.get("lost").asLong(),
                    f.get("effect_ms").isNumber() ? f.get("effect_ms").asLong() + " ms after the signal" : "",
                    f.get("new_limit").asLong() > 0 ? f.get("before_peak").asLong() + " / " + f.get("after_peak").asLong()
                            + " (limit " + f.get("new_limit").asLong() + ")" : "",
                    f.get("respawn_ms").isNumber() ? "after " + f.get("respawn_ms").asLong() + " ms" : "",
                    f.get("down_ms").isNumber() ? f.get("down_ms").asLong() + " ms" : "",
                    f.get("origin_after").isNumber() ? String.valueOf(f.get("served_stale").asLong()) : "",
                    f.get("errors_meanwhile").isNumber() ? String.valueOf(f.get("errors_meanwhile").asLong()) : "",
                    f.get("origin_after").isNumber() ? String.valueOf(f.get("origin_after").asLong()) : ""));
        }
        table.append('\n').append(more);
        Committed.block(Repo.root().resolve("docs/faults.md"), "faults", table.toString(), REGENERATE);
    }

    /** "MISS 235, ..." from a cache-full cell's answers by X-Cache-Status. */
    private static String statuses(JsonNode byStatus) {
        List<String> parts = new java.util.ArrayList<>();
        byStatus.fields().forEachRemaining(e -> parts.add(e.getKey() + " " + e.getValue().asLong()));
        return String.join(", ", parts);
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
