package dev.ratecache.suite.compare;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.jtl.Jtl;
import dev.ratecache.jtl.Sample;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A run folder written as a matrix run writes one (summary.json, each repeat's JTL and timeline.json),
 * from a seeded model of a cell: so a test compares runs whose truth it knows, in a few milliseconds,
 * without a stack. Its summary.json figures are computed from the very samples and seconds it writes.
 */
public final class RunFixture {
    /** One cell's traffic: how many samples, their latency, the share rejected, per-second rates, the machine's CPU. */
    public record CellModel(String name, String description, int samples, double latencyMs, double rejectedShare,
            double rate, double originRate, double machineCpuPct) {
        public CellModel(String name, String description, int samples, double latencyMs, double rejectedShare,
                double rate, double originRate) {
            this(name, description, samples, latencyMs, rejectedShare, rate, originRate, 40);
        }

        public CellModel withMachineCpu(double pct) {
            return new CellModel(name, description, samples, latencyMs, rejectedShare, rate, originRate, pct);
        }

        public CellModel withLatency(double ms) {
            return new CellModel(name, description, samples, ms, rejectedShare, rate, originRate, machineCpuPct);
        }

        public CellModel withRate(double perSecond) {
            return new CellModel(name, description, samples, latencyMs, rejectedShare, perSecond, originRate, machineCpuPct);
        }

        public CellModel withRejected(double share) {
            return new CellModel(name, description, samples, latencyMs, share, rate, originRate, machineCpuPct);
        }

        public CellModel withDescription(String text) {
            return new CellModel(name, text, samples, latencyMs, rejectedShare, rate, originRate, machineCpuPct);
        }
    }

    public static final String SWITCHES = "front limit 100 r/s burst 200 queue, back limit 10 r/s burst 50 queue,"
            + " edge cache on (100m, Age native), rejections 429";

    /** The cells of a small run: the stress plan's two caching extremes. */
    public static List<CellModel> cells() {
        return List.of(
                new CellModel("stress/no-caching", "front limit on, back limit on, server cache off, client cache off",
                        1000, 400, 0.3, 30, 10),
                new CellModel("stress/server-cache", "front limit on, back limit on, server cache on, client cache off",
                        1000, 200, 0.0, 100, 1));
    }

    private RunFixture() {}

    /** Writes a run of {@code cells}, each {@code repeats} times, drawn with {@code seed}, into {@code dir}. */
    public static Path write(Path dir, String switches, List<CellModel> cells, int repeats, long seed) throws IOException {
        Random random = new Random(seed);
        List<Map<String, Object>> cellJson = new ArrayList<>();
        for (CellModel cell : cells) {
            Path own = Files.createDirectories(dir.resolve("cells").resolve(cell.name().replace('/', '-')));
            Map<String, List<Double>> perRepeat = new LinkedHashMap<>();
            for (int k = 1; k <= repeats; k++) {
                Path repeat = repeats == 1 ? own : Files.createDirectories(own.resolve("run-" + k));
                List<Sample> samples = new ArrayList<>();
                long start = 1_800_000_000_000L;
                for (int i = 0; i < cell.samples(); i++) {
                    boolean rejected = random.nextDouble() < cell.rejectedShare();
                    // Exponential around the cell's latency, whole milliseconds as JMeter writes them.
                    long elapsed = rejected ? 1 + random.nextInt(3)
                            : Math.round(-cell.latencyMs() * Math.log(1 - random.nextDouble()));
                    samples.add(Sample.of(start + i * 10L, elapsed, rejected ? "429" : "200", !rejected));
                }
                Files.createDirectories(repeat.resolve("jmeter"));
                Jtl.write(repeat.resolve("jmeter/results.jtl"), samples);
                int seconds = 20;
                List<Long> answered = new ArrayList<>();
                List<Long> rejectedSeries = new ArrayList<>();
                List<Long> zeros = new ArrayList<>();
                List<Long> origin = new ArrayList<>();
                for (int s = 0; s < seconds; s++) {
                    long responses = Math.max(0, Math.round(cell.rate() + random.nextGaussian() * Math.sqrt(cell.rate())));
                    long refused = Math.round(responses * cell.rejectedShare());
                    answered.add(responses - refused);
                    rejectedSeries.add(refused);
                    zeros.add(0L);
                    origin.add(Math.max(0, Math.round(cell.originRate() + random.nextGaussian() * Math.sqrt(cell.originRate()))));
                }
                Map<String, Object> series = new LinkedHashMap<>();
                series.put("offered", answered.stream().map(x -> x).toList());
                series.put("answered_2xx", answered);
                series.put("rejected", rejectedSeries);
                series.put("other_errors", zeros);
                series.put("origin", origin);
                new ObjectMapper().writeValue(repeat.resolve("timeline.json").toFile(),
                        Map.of("start_epoch_s", start / 1000, "seconds", seconds, "series", series));
                Map<CompareMetric, Double> figures = Noise.statistics(Noise.Samples.of(samples));
                figures.forEach((m, v) -> perRepeat.computeIfAbsent(m.id(), x -> new ArrayList<>()).add(v));
                double responses = 0;
                for (int s = 0; s < seconds; s++) {
                    responses += answered.get(s) + rejectedSeries.get(s);
                }
                perRepeat.computeIfAbsent("throughput", x -> new ArrayList<>()).add(responses / seconds);
                perRepeat.computeIfAbsent("origin_requests", x -> new ArrayList<>())
                        .add((double) origin.stream().mapToLong(Long::longValue).sum());
                perRepeat.computeIfAbsent("samples", x -> new ArrayList<>()).add((double) cell.samples());
                perRepeat.computeIfAbsent("machine_cpu_pct", x -> new ArrayList<>()).add(cell.machineCpuPct());
            }
            Map<String, Object> metrics = new LinkedHashMap<>();
            perRepeat.forEach((id, values) -> {
                List<Double> sorted = values.stream().sorted().toList();
                metrics.put(id, Map.of("median", sorted.get(sorted.size() / 2), "min", sorted.get(0),
                        "max", sorted.get(sorted.size() - 1)));
            });
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("name", cell.name());
            json.put("plan", cell.name().substring(0, cell.name().indexOf('/')));
            json.put("description", cell.description());
            json.put("status", "ok");
            json.put("runs", repeats);
            json.put("metrics", metrics);
            cellJson.add(json);
        }
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("started", "2026-11-29T09:00:00");
        run.put("matrix", "default");
        run.put("profile", "default");
        run.put("repeats", repeats);
        run.put("switches", switches);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("run", run);
        summary.put("metrics", List.of());
        summary.put("cells", cellJson);
        summary.put("checks", List.of());
        new ObjectMapper().writeValue(dir.resolve("summary.json").toFile(), summary);
        return dir;
    }
}
