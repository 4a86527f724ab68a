package dev.ratecache.suite.compare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.accesslog.Printable;
import dev.ratecache.jtl.Jtl;
import dev.ratecache.jtl.Sample;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A matrix run's folder as compare reads it: summary.json for each cell's medians and spread, and,
 * where the run kept them, each repeat's JTL (per-sample latencies and codes) and timeline.json
 * (per-second counts). Only files are read, so a committed run folder compares as a fresh one does.
 */
public final class RunFolder {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A folder compare cannot read as a run: the message is the one line the command prints. */
    public static final class NotARun extends Exception {
        NotARun(String message) {
            super(message);
        }
    }

    /**
     * One cell of summary.json: the median, least and greatest over its repeats, per metric id, and
     * the model's prediction of each metric it predicts (empty where it predicted none).
     */
    public record CellSummary(String name, String description, String status, int runs,
            Map<String, Spread> metrics, Map<String, Double> predicted) {
        public boolean ok() {
            return "ok".equals(status);
        }
    }

    /** A metric's figures over a cell's repeats, as summary.json keeps them. */
    public record Spread(double median, double min, double max) {}

    private final Path dir;
    private final String switches;
    private final String started;
    private final Map<String, String> settings;
    private final Map<String, CellSummary> cells;

    private RunFolder(Path dir, String switches, String started, Map<String, String> settings,
            Map<String, CellSummary> cells) {
        this.dir = dir;
        this.switches = switches;
        this.started = started;
        this.settings = settings;
        this.cells = cells;
    }

    /** Reads {@code dir}'s summary.json; throws {@link NotARun} naming what is missing or wrong. */
    public static RunFolder open(Path dir) throws NotARun {
        String shown = Printable.shown(dir.toString());
        if (!Files.exists(dir)) {
            throw new NotARun(shown + " does not exist: give a run folder (results/<time>/, or results/example)");
        }
        if (!Files.isDirectory(dir)) {
            throw new NotARun(shown + " is a file, not a run folder: give a folder results/<time>/");
        }
        Path summary = dir.resolve("summary.json");
        if (!Files.isRegularFile(summary)) {
            throw new NotARun(shown + " is not a run folder: it has no summary.json (a matrix run writes one in"
                    + " results/<time>/)");
        }
        JsonNode root;
        try {
            root = JSON.readTree(summary.toFile());
        } catch (IOException e) {
            throw new NotARun(shown + "/summary.json is not JSON the suite wrote: " + Printable.shown(
                    String.valueOf(e.getMessage()).lines().findFirst().orElse("")));
        }
        if (root == null || !root.path("cells").isArray() || !root.path("run").isObject()) {
            throw new NotARun(shown + "/summary.json has no run and cells: it is not a matrix run's summary");
        }
        Map<String, CellSummary> cells = new LinkedHashMap<>();
        for (JsonNode cell : root.path("cells")) {
            Map<String, Spread> metrics = new LinkedHashMap<>();
            cell.path("metrics").fields().forEachRemaining(m -> {
                JsonNode v = m.getValue();
                if (v.path("median").isNumber()) {
                    metrics.put(m.getKey(), new Spread(v.path("median").asDouble(),
                            v.path("min").asDouble(v.path("median").asDouble()),
                            v.path("max").asDouble(v.path("median").asDouble())));
                }
            });
            Map<String, Double> predicted = new LinkedHashMap<>();
            cell.path("prediction").path("metrics").fields().forEachRemaining(m -> {
                if (m.getValue().path("predicted").isNumber()) {
                    predicted.put(m.getKey(), m.getValue().path("predicted").asDouble());
                }
            });
            String name = cell.path("name").asText("");
            if (!name.isEmpty()) {
                cells.put(name, new CellSummary(name, cell.path("description").asText(""),
                        cell.path("status").asText("ok"), cell.path("runs").asInt(1), metrics, predicted));
            }
        }
        Map<String, String> settings = new LinkedHashMap<>();
        for (String setting : SETTINGS) {
            JsonNode value = root.path("run").path(setting);
            if (!value.isMissingNode() && !value.isNull()) {
                settings.put(setting, value.asText());
            }
        }
        return new RunFolder(dir, root.path("run").path("switches").asText(""),
                root.path("run").path("started").asText(""), settings, cells);
    }

    /**
     * What summary.json's header says of a run beside its switches that moves its figures: a quick
     * profile's cells send less, another origin answers otherwise.
     */
    static final List<String> SETTINGS = List.of("matrix", "profile", "repeats", "origin", "database");

    /** The run's {@link #SETTINGS} that its summary.json has, by name. */
    Map<String, String> settings() {
        return settings;
    }

    public Path dir() {
        return dir;
    }

    /** The run's switches as its report words them ("front limit 100 r/s burst 200 queue, ..."). */
    public String switches() {
        return switches;
    }

    public String started() {
        return started;
    }

    public Map<String, CellSummary> cells() {
        return cells;
    }

    /** Where a cell's repeats left their files: run-1, run-2, ... in its folder, or the folder itself. */
    List<Path> repeatDirs(String cell) {
        Path own = dir.resolve("cells").resolve(cell.replace('/', '-'));
        if (!Files.isDirectory(own)) {
            return List.of();
        }
        List<Path> repeats = new ArrayList<>();
        for (int i = 1; Files.isDirectory(own.resolve("run-" + i)); i++) {
            repeats.add(own.resolve("run-" + i));
        }
        return repeats.isEmpty() ? List.of(own) : repeats;
    }

    /**
     * Each repeat's samples, from the client's results.jtl (or results.jtl.gz) in the repeat's folder
     * (jmeter/ or library/); a repeat without one is left out, so none at all when the run kept no JTL (a
     * committed example keeps none).
     */
    List<List<Sample>> samples(String cell) throws IOException {
        List<List<Sample>> all = new ArrayList<>();
        for (Path repeat : repeatDirs(cell)) {
            Optional<Path> jtl;
            try (Stream<Path> clients = Files.list(repeat)) {
                jtl = clients.flatMap(c -> Stream.of(c.resolve("results.jtl"), c.resolve("results.jtl.gz")))
                        .filter(Files::isRegularFile).sorted().findFirst();
            }
            if (jtl.isPresent()) {
                List<Sample> samples = Jtl.read(jtl.get());
                if (!samples.isEmpty()) {
                    all.add(samples);
                }
            }
        }
        return all;
    }

    /** Each repeat's per-second series {@code key} from its timeline.json; repeats without one are left out. */
    List<List<Long>> perSecond(String cell, String key) throws IOException {
        List<List<Long>> series = new ArrayList<>();
        for (Path repeat : repeatDirs(cell)) {
            Path timeline = repeat.resolve("timeline.json");
            if (!Files.isRegularFile(timeline)) {
                continue;
            }
            JsonNode values = JSON.readTree(timeline.toFile()).path("series").path(key);
            if (values.isArray() && !values.isEmpty()) {
                List<Long> seconds = new ArrayList<>();
                values.forEach(v -> seconds.add(v.isNumber() ? v.asLong() : 0L));
                series.add(seconds);
            }
        }
        return series;
    }
}
