package dev.ratecache.suite.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.cli.ClientsCommand;
import java.nio.file.Path;
import java.util.ArrayList;
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
    void theClientLibrarysPageQuotesTheCommittedManyClientsRun() throws Exception {
        JsonNode report = new ObjectMapper().readTree(Repo.root().resolve("results/example-clients/clients.json").toFile());
        assertThat(ClientsCommand.rows(report).keySet()).as("strategies in results/example-clients")
                .containsExactlyElementsOf(ClientsCommand.STRATEGIES);
        Committed.block(Repo.root().resolve("docs/client.md"), "many-clients",
                ClientsCommand.setup(report) + "\n\n" + ClientsCommand.table(report) + "\n" + ClientsCommand.goal(report) + "\n",
                REGENERATE);
    }

    @Test
    void theFaultsPageQuotesTheCommittedFaultsRun() throws Exception {
        Map<String, JsonNode> cells = cells("results/example-faults");
        StringBuilder table = new StringBuilder("""
                | cell | failed | lost in flight | new limit in force | admitted/s before / after | worker started again | origin (or Redis) down | answered stale meanwhile | answered 5xx meanwhile | new origin's requests |
                | --- | ---: | ---: | --- | --- | --- | ---: | ---: | ---: | ---: |
                """);
        StringBuilder more = new StringBuilder("""
                | cell | failed | cache full after the first request | first eviction after the cache was full | entries stored / evicted / held | peak | answers once full | origin's app-cache errors | new Redis's lookups |
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

    @Test
    void theAttacksPageQuotesTheCommittedAttacksRun() throws Exception {
        Map<String, JsonNode> cells = cells("results/example-attacks");
        StringBuilder table = new StringBuilder("""
                | cell | attacker's connections: taken / most held | normal clients' throughput (% of baseline) | p95 ms (baseline) | how the edge ended the attacker's connections | the edge's own count: most open / at the end |
                | --- | ---: | ---: | ---: | --- | ---: |
                """);
        for (String cell : attackCells(cells)) {
            JsonNode c = cells.get(cell);
            JsonNode a = c.get("attack");
            JsonNode baseline = cells.get(cell.substring(0, cell.lastIndexOf('.') + 1) + "baseline");
            List<String> endings = new ArrayList<>();
            a.get("endings").forEach(e -> endings.add(ending(e)));
            table.append(String.format(Locale.ROOT, "| `%s` | %d / %d | %.1f (%.0f %%) | %.0f (%.0f) | %s | %s |%n", cell,
                    a.get("opened").asLong(), a.get("peak_held").asLong(), measured(c, "throughput"),
                    a.get("throughput_kept_pct").asDouble(), measured(c, "p95_ms"), measured(baseline, "p95_ms"),
                    String.join("; ", endings), a.has("edge_peak_active")
                            ? a.get("edge_peak_active").asLong() + " / " + a.get("edge_last_active").asLong() : "n/a"));
        }
        Committed.block(Repo.root().resolve("docs/attacks.md"), "attacks", table.toString(), REGENERATE);
    }

    @Test
    void theQuotasPageQuotesTheCommittedQuotasRun() throws Exception {
        JsonNode summary = new ObjectMapper().readTree(Repo.root().resolve("results/example-quotas/summary.json")
                .toFile());
        StringBuilder table = new StringBuilder("""
                | cell | key | sent | admitted (model) | quota 429 (model) | first out after s (model) | fullest window / quota | fullest stretch / bound | model replay agrees |
                | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
                """);
        int rows = 0;
        for (JsonNode c : summary.get("cells")) {
            JsonNode q = c.path("quotas");
            for (JsonNode k : q.path("keys")) {
                table.append(String.format(Locale.ROOT, "| `%s` | `%s` | %d | %d (%d) | %d (%d) | %s (%s) | %d / %d | %d / %d |"
                        + " %d of %d |%n", c.get("name").asText(), k.get("key").asText(), k.get("sent").asLong(),
                        k.get("admitted").asLong(), k.get("predicted_admitted").asLong(),
                        k.get("quota_rejected").asLong(), k.get("predicted_quota_rejected").asLong(),
                        seconds(k.get("first_exhausted_after_s")), seconds(k.get("predicted_first_exhausted_after_s")),
                        k.get("fullest_window").asLong(), q.get("quota").asLong(), k.get("fullest_stretch").asLong(),
                        q.get("bound").asLong(), q.get("model_agrees").asLong(), q.get("model_decisions").asLong()));
                rows++;
            }
        }
        assertThat(rows).as("keys of quota cells in results/example-quotas").isPositive();
        Committed.block(Repo.root().resolve("docs/quotas.md"), "quotas", table.toString(), REGENERATE);
    }

    /**
     * docs/edges.md's table: each product's cells of the committed edges run side by side, with the
     * two promises the run checked per cell, and how busy the machine was (a saturated machine
     * measures the generator, not the edge).
     */
    @Test
    void theEdgesPageQuotesTheCommittedEdgesRun() throws Exception {
        JsonNode summary = new ObjectMapper().readTree(Repo.root().resolve("results/example-edges/summary.json")
                .toFile());
        Map<String, Boolean> checks = new HashMap<>();
        summary.get("checks").forEach(c -> checks.put(c.get("check").asText(), c.get("passed").asBoolean()));
        StringBuilder table = new StringBuilder("""
                | cell | responses/s | rejected | origin requests | busiest second at the origin | edge HIT | p95 ms | per-client promise | back limit's promise | machine busy |
                | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: |
                """);
        int rows = 0;
        for (JsonNode c : summary.get("cells")) {
            String name = c.get("name").asText();
            // A product without a cache has no edge HIT to give.
            String hit = c.get("metrics").has("edge_hit_pct")
                    ? String.format(Locale.ROOT, "%.1f %%", measured(c, "edge_hit_pct")) : "n/a";
            table.append(String.format(Locale.ROOT, "| `%s` | %.1f | %.1f %% | %.0f | %.0f | %s | %.0f | %s | %s | %.0f %% |%n",
                    name, measured(c, "throughput"), measured(c, "rejected_pct"), measured(c, "origin_requests"),
                    measured(c, "origin_peak_1s"), hit, measured(c, "p95_ms"),
                    promise(checks, name + ": "), promise(checks, name + ".origin_peak_1s"),
                    measured(c, "machine_cpu_pct")));
            rows++;
        }
        assertThat(rows).as("cells in results/example-edges").isPositive();
        Committed.block(Repo.root().resolve("docs/edges.md"), "edges", table.toString(), REGENERATE);
    }

    /** Whether the run's check that starts with {@code prefix} passed: kept, broken, or not checked. */
    private static String promise(Map<String, Boolean> checks, String prefix) {
        return checks.entrySet().stream().filter(e -> e.getKey().startsWith(prefix)).findFirst()
                .map(e -> e.getValue() ? "kept" : "BROKEN").orElse("not checked");
    }

    private static String seconds(JsonNode s) {
        return s.asDouble() < 0 ? "never" : String.format(Locale.ROOT, "%.1f", s.asDouble());
    }

    /** The attack cells of a run, in its order. */
    private static List<String> attackCells(Map<String, JsonNode> cells) throws Exception {
        JsonNode summary = new ObjectMapper().readTree(Repo.root().resolve("results/example-attacks/summary.json")
                .toFile());
        List<String> names = new ArrayList<>();
        summary.get("cells").forEach(c -> {
            if (c.has("attack")) {
                names.add(c.get("name").asText());
            }
        });
        assertThat(names).as("attack cells in results/example-attacks").isNotEmpty();
        return names;
    }

    private static String ending(JsonNode e) {
        String how = e.get("how").asText();
        int status = e.get("status").asInt();
        String what = switch (how) {
            case "answered" -> "answered " + status;
            case "closed" -> "closed";
            case "reset" -> "reset";
            case "refused" -> "refused";
            default -> "held to the end";
        };
        return String.format(Locale.ROOT, "%d %s%s", e.get("count").asLong(), what, how.equals("held") || how.equals("refused")
                ? "" : String.format(Locale.ROOT, " at %.1f s", e.get("median_s").asDouble()));
    }

    /**
     * docs/resilience.md's one table: every attack, fault, smuggling vector and fuzzed input the
     * suite tries, what held and what was lost; from the committed attacks and faults runs, the
     * smuggling vectors and the fuzz targets' committed inputs.
     */
    @Test
    void theResiliencePageHoldsOneTableOfEverythingTried() throws Exception {
        StringBuilder table = new StringBuilder("""
                | what was tried | how much | what held | what was lost |
                | --- | --- | --- | --- |
                """);
        Map<String, JsonNode> attacks = cells("results/example-attacks");
        Map<String, Boolean> attackChecks = new java.util.HashMap<>();
        new ObjectMapper().readTree(Repo.root().resolve("results/example-attacks/summary.json").toFile()).get("checks")
                .forEach(c -> attackChecks.put(c.get("check").asText(), c.get("passed").asBoolean()));
        Map<String, Boolean> held = new java.util.LinkedHashMap<>();
        Map<String, List<String>> kept = new java.util.LinkedHashMap<>();
        Map<String, Long> taken = new java.util.LinkedHashMap<>();
        Map<String, Double> failedPct = new java.util.LinkedHashMap<>();
        for (String cell : attackCells(attacks)) {
            JsonNode a = attacks.get(cell).get("attack");
            String kind = a.get("kind").asText();
            String product = cell.substring(cell.indexOf('/') + 1, cell.indexOf('.'));
            kept.computeIfAbsent(kind, k -> new ArrayList<>()).add(String.format(Locale.ROOT, "%s %.0f %%", product,
                    a.get("throughput_kept_pct").asDouble()));
            taken.merge(kind, a.get("opened").asLong(), Long::sum);
            failedPct.merge(kind, measured(attacks.get(cell), "other_errors_pct"), Math::max);
            // Both of the cell's checks: its throughput beside the baseline's, and the origin within the back limit.
            List<Boolean> checks = attackChecks.entrySet().stream().filter(e -> e.getKey().startsWith(cell + ":")
                    || e.getKey().startsWith(cell + ".origin_peak_1s")).map(Map.Entry::getValue).toList();
            assertThat(checks).as(cell + "'s checks in results/example-attacks").hasSize(2);
            held.merge(kind, !checks.contains(false), Boolean::logicalAnd);
        }
        for (String kind : kept.keySet()) {
            table.append(String.format(Locale.ROOT, "| [%s](attacks.md) beside the stress plan | 500 slow clients on each"
                    + " of %d edges, %d connections in all | the normal clients' throughput: %s of the baseline's; %s"
                    + " | %s of the normal clients' requests failed |%n", kind,
                    kept.get(kind).size(), taken.get(kind), String.join(", ", kept.get(kind)), held.get(kind)
                            ? "every promise kept (90 % of the throughput, the origin within the back limit)"
                            : "A PROMISE BROKEN (attacks.md)",
                    failedPct.get(kind) == 0 ? "none" : String.format(Locale.ROOT, "at most %.1f %%", failedPct.get(kind))));
        }
        Map<String, JsonNode> faults = cells("results/example-faults");
        JsonNode faultsSummary = new ObjectMapper().readTree(Repo.root().resolve("results/example-faults/summary.json")
                .toFile());
        Map<String, Boolean> checks = new java.util.HashMap<>();
        faultsSummary.get("checks").forEach(c -> checks.put(c.get("check").asText(), c.get("passed").asBoolean()));
        faultsSummary.get("cells").forEach(c -> {
            JsonNode f = c.get("fault");
            if (f == null) {
                return;
            }
            String name = c.get("name").asText();
            boolean passed = checks.entrySet().stream().filter(e -> e.getKey().startsWith(name + ":"))
                    .allMatch(Map.Entry::getValue);
            table.append(String.format(Locale.ROOT, "| [%s](faults.md) mid-flood | once, %.0f requests | %s | %d"
                    + " requests failed, %d of them lost in flight |%n", f.get("kind").asText(),
                    measured(faults.get(name), "samples"), passed ? "its promise, kept" : "ITS PROMISE, BROKEN",
                    f.get("failed").asLong(), f.get("lost").asLong()));
        });
        long vectors = dev.ratecache.suite.edge.SmugglingVectors.count();
        // The edges whose smuggling suite runs in every test run: not a product registered without one, nor one
        // whose suite is in the long lane only.
        long smuggled = 0;
        try (var tests = java.nio.file.Files.list(Repo.root().resolve("suite/src/test/java/dev/ratecache/suite/edge"))) {
            for (Path f : tests.filter(f -> f.getFileName().toString().endsWith("SmugglingTest.java")).toList()) {
                smuggled += java.nio.file.Files.readString(f).contains("@" + dev.ratecache.testkit.LongTest.class.getSimpleName()) ? 0 : 1;
            }
        }
        table.append(String.format(Locale.ROOT, "| [request-smuggling vectors](smuggling.md) through both tiers |"
                + " %d vectors on each of %d edges, raw bytes, in every test run | the origin saw exactly what the front"
                + " logged, as a count and as paths | no hidden request reached the origin |%n", vectors, smuggled));
        long targets;
        long inputs;
        try (var sources = java.nio.file.Files.walk(Repo.root())) {
            List<Path> files = sources.filter(f -> !f.toString().contains("/target/") && !f.toString().contains("/.tools/"))
                    .toList();
            targets = 0;
            for (Path f : files) {
                if (f.toString().endsWith("FuzzTest.java") && f.toString().contains("/src/test/")) {
                    // Each target is a method annotated on a line of its own.
                    targets += java.nio.file.Files.readAllLines(f).stream().filter(l -> l.strip().equals("@FuzzTest"))
                            .count();
                }
            }
            inputs = files.stream().filter(java.nio.file.Files::isRegularFile)
                    .filter(f -> f.getParent().toString().contains("FuzzTestInputs")).count();
        }
        table.append(String.format(Locale.ROOT, "| [parsers fuzzed](fuzzing.md): logs, JTL, tiers file, tools' output,"
                + " switches | %d targets; %d committed seed and regression inputs replayed in every test run; longer"
                + " on demand (`fuzz --minutes N`) | no uncaught exception, hang or unescaped echo | every finding fixed,"
                + " its input kept |%n", targets, inputs));
        Committed.block(Repo.root().resolve("docs/resilience.md"), "resilience", table.toString(), REGENERATE);
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
