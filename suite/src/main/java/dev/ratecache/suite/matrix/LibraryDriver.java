package dev.ratecache.suite.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.jmeter.JtlSummary;
import dev.ratecache.suite.proc.ManagedProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The client library's load driver (client/), run as the client of a matrix cell: the same users,
 * loops and paths as the JMeter plan it stands beside, its figures read from the JSON it writes.
 */
public final class LibraryDriver {
    /** Retries of a 429 or 503 per request in the library rows; the report says so from here. */
    public static final int RETRIES = 3;
    /** How long a request of a library row may take with its retries. */
    public static final Duration BUDGET = Duration.ofSeconds(20);

    private LibraryDriver() {}

    static Path jar() {
        return Repo.root().resolve("client/target/client-driver.jar");
    }

    /** What a driver run measured, in the shape of a JMeter run's summary. */
    record Run(JtlSummary summary, ManagedProcess.Finished finished, Path json) {}

    static Run run(String plan, String host, int port, Map<String, String> sizes, Path dir)
            throws IOException, InterruptedException {
        if (!Files.isRegularFile(jar())) {
            throw new IOException("the client library's driver is not built (" + jar() + " is missing): run ./mvnw -B package -DskipTests");
        }
        Files.createDirectories(dir);
        Path json = dir.resolve("summary.json");
        List<String> command = new ArrayList<>(List.of(ManagedProcess.javaBinary(),
                "-XX:+UseSerialGC", "-jar", jar().toString(),
                "--url", "http://" + host + ":" + port,
                "--users", sizes.getOrDefault("users", "1"),
                "--loops", sizes.getOrDefault("loops", "1"),
                "--ramp-up", sizes.getOrDefault("rampup", "0") + "s",
                "--retries", String.valueOf(RETRIES),
                "--budget", BUDGET.toSeconds() + "s",
                "--json", json.toString()));
        // The plans' paths: one for stress, the three endpoints for load (the driver asks them in order).
        for (String path : plan.equals("load") ? List.of("/snail", "/hare", "/tortoise") : List.of("/hare")) {
            command.addAll(List.of("--path", path));
        }
        try (ManagedProcess driver = ManagedProcess.startInherited("client-driver", command, dir)) {
            ManagedProcess.Finished done = driver.waitMeasured(Duration.ofHours(2));
            if (done.exitCode() != 0 || !Files.isRegularFile(json)) {
                throw new IOException("the client library's driver exited with code " + done.exitCode());
            }
            JsonNode j = new ObjectMapper().readTree(json.toFile());
            JtlSummary summary = new JtlSummary(j.get("samples").asLong(), j.get("rejected").asLong(),
                    j.get("otherErrors").asLong(), j.get("library").get("hits").asLong(), j.get("throughputPerSec").asDouble(),
                    j.get("meanMs").asDouble(), Math.round(j.get("minMs").asDouble()), Math.round(j.get("maxMs").asDouble()),
                    Math.round(j.get("p50Ms").asDouble()), Math.round(j.get("p90Ms").asDouble()),
                    Math.round(j.get("p95Ms").asDouble()), Math.round(j.get("p99Ms").asDouble()), j.get("wallMs").asLong());
            return new Run(summary, done, json);
        }
    }
}
