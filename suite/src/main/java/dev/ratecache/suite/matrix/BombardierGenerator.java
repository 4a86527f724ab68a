package dev.ratecache.suite.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.proc.Executables;
import dev.ratecache.proc.LogTail;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.suite.Repo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * bombardier as a cell's load generator: {@value #CONNECTIONS} connections sending
 * {@value #REQUESTS} requests in all, on the plan's one path, as the HAProxy experiment ran it; or,
 * without a number of requests, starting {@value #RATE} requests a second for {@value #DURATION}
 * seconds (a constant arrival rate, as far as its connections are free to send them).
 * bombardier keeps no record per request: its JSON result (kept as bombardier.json) stands for the
 * JTL. Like wrk, it cannot tell a rate limit's rejection from another error status: every answer
 * outside 2xx and 3xx, and every socket error, counts as an other error.
 */
public final class BombardierGenerator implements LoadGenerator {
    public static final String CONNECTIONS = "connections";
    public static final String REQUESTS = "requests";
    /** Without {@value #REQUESTS}: requests started per second, for this many seconds ({@value #DURATION}). */
    public static final String RATE = "rate";
    public static final String DURATION = "duration";
    public static final String OUTPUT = "bombardier.json";

    /** The build run-tests.sh makes from bombardier's Go module; BOMBARDIER_BIN names another. */
    public static String binary() {
        String configured = System.getenv("BOMBARDIER_BIN");
        return configured != null && !configured.isBlank() ? configured
                : Repo.root().resolve(".tools/bin/bombardier").toString();
    }

    public static boolean installed() {
        return Executables.runnable(binary());
    }

    /** The command line as the write-up prints it, e.g. "bombardier -c 125 -n 100000". */
    public static String describe(Map<String, String> properties) {
        return "bombardier -c " + properties.get(CONNECTIONS) + " " + String.join(" ", load(properties));
    }

    /** -n N, or at a constant rate -r R -d Ns. */
    private static List<String> load(Map<String, String> properties) {
        return properties.containsKey(REQUESTS) ? List.of("-n", properties.get(REQUESTS))
                : List.of("-r", properties.get(RATE), "-d", properties.get(DURATION) + "s");
    }

    @Override
    public Run run(Cell cell, Map<String, String> properties, Path dir, LongConsumer started)
            throws IOException, InterruptedException, CellFailure {
        Files.createDirectories(dir);
        String path = properties.getOrDefault(WrkGenerator.PATH, cell.plan().paths().get(WrkGenerator.PATH));
        String url = properties.getOrDefault("protocol", "http") + "://" + properties.get("host") + ":"
                + properties.get("port") + path;
        // Its own 2 s timeout, as the write-up ran it; -l adds the percentiles, -p r -o j the result alone, in JSON.
        List<String> command = new java.util.ArrayList<>(List.of(binary(), "-c", properties.get(CONNECTIONS)));
        command.addAll(load(properties));
        command.addAll(List.of("-l", "-p", "r", "-o", "j", url));
        Path out = dir.resolve(OUTPUT);
        Path log = dir.resolve("bombardier.log");
        try (ManagedProcess bombardier = ManagedProcess.start("bombardier", command, dir, out, log)) {
            started.accept(bombardier.pid());
            // Generous: at the slowest published rate (1,180/s) 100,000 requests take under 2 minutes.
            ManagedProcess.Finished done = bombardier.waitMeasured(Duration.ofMinutes(10));
            long endMs = System.currentTimeMillis();
            String text = Files.readString(out);
            if (done.exitCode() != 0 || text.isBlank()) {
                throw new CellFailure("bombardier exited with code " + done.exitCode() + " on " + url + ": "
                        + LogTail.of(log, 3), log);
            }
            return new Run(null, out, done.wallSeconds(), done.cpuSeconds(), summarized(text, endMs));
        }
    }

    /**
     * bombardier's figures from its JSON result, as a JTL's summary would give them, ending at
     * {@code endMs}. Its latencies are microseconds: the mean keeps its fraction in milliseconds,
     * the percentiles are whole milliseconds as a JTL's are. It reports no fastest request (0).
     */
    static Summarized summarized(String json, long endMs) throws IOException {
        JsonNode result = new ObjectMapper().readTree(json).path("result");
        if (!result.has("timeTakenSeconds")) {
            throw new IOException("bombardier printed no result: " + json.lines().findFirst().orElse(""));
        }
        long answered = 0;
        for (String codes : List.of("req1xx", "req2xx", "req3xx", "req4xx", "req5xx")) {
            answered += result.path(codes).asLong();
        }
        long failedStatus = result.path("req4xx").asLong() + result.path("req5xx").asLong();
        long socketErrors = result.path("others").asLong();
        double seconds = result.get("timeTakenSeconds").asDouble();
        long durationMs = Math.max(1, Math.round(seconds * 1000));
        JsonNode latency = result.path("latency");
        JsonNode pct = latency.path("percentiles");
        JtlSummary summary = new JtlSummary(answered + socketErrors, 0, failedStatus + socketErrors, 0,
                answered / Math.max(seconds, 1e-6), latency.path("mean").asDouble() / 1000, 0,
                ms(latency.path("max")), ms(pct.path("50")), ms(pct.path("90")), ms(pct.path("95")), ms(pct.path("99")),
                durationMs);
        return new Summarized(summary, endMs - durationMs, endMs);
    }

    private static long ms(JsonNode micros) {
        return Math.round(micros.asDouble() / 1000.0);
    }
}
