package dev.ratecache.suite.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.proc.LogTail;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.suite.peak.Wrk;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * wrk as a cell's load generator: {@value #THREADS}, {@value #CONNECTIONS} and {@value #DURATION}
 * (seconds) from the cell's properties, on its plan's one path, as an experiment the suite
 * reproduces ran it. wrk keeps no record per request, so the cell's figures are wrk's own, read
 * from the line resources/wrk/summary.lua prints after wrk's usual report; that report is kept as
 * wrk.out, to set beside the published one. wrk cannot tell a rate limit's rejection from another
 * error status: every answer outside 2xx and 3xx, and every socket error, counts as an other error.
 */
public final class WrkGenerator implements LoadGenerator {
    public static final String THREADS = "threads";
    public static final String CONNECTIONS = "connections";
    public static final String DURATION = "duration";
    /** The plan's path property, as JMeter's plans name it. */
    static final String PATH = "path";
    public static final String OUTPUT = "wrk.out";
    private static final String SUMMARY_LINE = "wrk-summary: ";

    /** The command line as the write-ups print it, e.g. "wrk -t2 -c10 -d10s". */
    public static String describe(Map<String, String> properties) {
        return "wrk -t" + properties.get(THREADS) + " -c" + properties.get(CONNECTIONS) + " -d"
                + properties.get(DURATION) + "s";
    }

    @Override
    public Run run(Cell cell, Map<String, String> properties, Path dir, LongConsumer started)
            throws IOException, InterruptedException, CellFailure {
        Files.createDirectories(dir);
        Path script = dir.resolve("summary.lua");
        try (InputStream lua = WrkGenerator.class.getClassLoader().getResourceAsStream("wrk/summary.lua")) {
            Files.copy(java.util.Objects.requireNonNull(lua, "wrk/summary.lua is not on the class path"), script,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        String path = properties.getOrDefault(PATH, cell.plan().paths().get(PATH));
        String url = properties.getOrDefault("protocol", "http") + "://" + properties.get("host") + ":"
                + properties.get("port") + path;
        int seconds = Integer.parseInt(properties.get(DURATION));
        // wrk's own timeout (2 s) as the write-ups ran it; --latency adds the percentiles to its report.
        List<String> command = List.of(Wrk.binary(), "-t", properties.get(THREADS), "-c", properties.get(CONNECTIONS),
                "-d", seconds + "s", "--latency", "-s", script.toAbsolutePath().toString(), url);
        Path out = dir.resolve(OUTPUT);
        Path log = dir.resolve("wrk.log");
        try (ManagedProcess wrk = ManagedProcess.start("wrk", command, dir, out, log)) {
            started.accept(wrk.pid());
            ManagedProcess.Finished done = wrk.waitMeasured(Duration.ofSeconds(seconds + 60L));
            long endMs = System.currentTimeMillis();
            String text = Files.readString(out);
            if (done.exitCode() != 0 || !text.contains(SUMMARY_LINE)) {
                throw new CellFailure("wrk exited with code " + done.exitCode() + " on " + url + ": "
                        + LogTail.of(log, 3), log);
            }
            return new Run(null, out, done.wallSeconds(), done.cpuSeconds(), summarized(text, endMs));
        }
    }

    /**
     * wrk's figures from its output (the line summary.lua prints), as a JTL's summary would give
     * them, ending at {@code endMs}. Latencies are wrk's microseconds in milliseconds: the mean keeps
     * its fraction, the percentiles are whole milliseconds as a JTL's are.
     */
    static Summarized summarized(String output, long endMs) throws IOException {
        String line = output.lines().filter(l -> l.startsWith(SUMMARY_LINE)).findFirst()
                .orElseThrow(() -> new IOException("wrk printed no summary line (" + SUMMARY_LINE.trim() + ")"));
        JsonNode f = new ObjectMapper().readTree(line.substring(SUMMARY_LINE.length()));
        long socketErrors = f.get("connect").asLong() + f.get("read").asLong() + f.get("write").asLong()
                + f.get("timeout").asLong();
        long requests = f.get("requests").asLong();
        long durationMs = Math.max(1, Math.round(f.get("duration_us").asLong() / 1000.0));
        JtlSummary summary = new JtlSummary(requests + socketErrors, 0, f.get("status").asLong() + socketErrors, 0,
                requests * 1e6 / Math.max(1, f.get("duration_us").asLong()), f.get("mean_us").asDouble() / 1000,
                ms(f, "min_us"), ms(f, "max_us"), ms(f, "p50_us"), ms(f, "p90_us"), ms(f, "p95_us"), ms(f, "p99_us"),
                durationMs);
        return new Summarized(summary, endMs - durationMs, endMs);
    }

    private static long ms(JsonNode figures, String micros) {
        return Math.round(figures.get(micros).asLong() / 1000.0);
    }
}
