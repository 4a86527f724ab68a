package dev.ratecache.suite.matrix;

import dev.ratecache.suite.Repo;
import dev.ratecache.proc.ManagedProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * The client library's load driver (client/) as a cell's load generator: the same users, loops and
 * paths as the JMeter plan it stands beside, in a random order each loop where JMeter draws one. It writes a JTL like JMeter's, and its own JSON
 * summary with the library's statistics beside it.
 */
public final class LibraryDriver implements LoadGenerator {
    /** Retries of a 429 or 503 per request in the library rows; the report says so from here. */
    public static final int RETRIES = 3;
    /** How long a request of a library row may take with its retries. */
    public static final Duration BUDGET = Duration.ofSeconds(20);
    /** Each user's background revalidation threads (stale-while-revalidate): the library's default. */
    public static final int REVALIDATION_THREADS = 1;

    /** Whether the driver shuffles the plan's paths each loop, as JMeter's Random Order Controller does for it. */
    public static boolean shuffles(Plan plan) {
        return plan.paths().size() > 1;
    }

    /** The cell's property giving a header every request carries, NAME:VALUE (a quota cell's API key). */
    public static final String HEADER_PROPERTY = "library_header";
    /** The cell's property that has the library pace its requests to the edge's RateLimit: true or false. */
    public static final String PACE_PROPERTY = "library_pace";

    /** The cell's property naming the CA (PEM) a TLS edge's certificate is trusted through. */
    static final String TRUST_PROPERTY = "tls_ca";

    static Path jar() {
        return Repo.root().resolve("client/target/client-driver.jar");
    }

    @Override
    public Run run(Cell cell, Map<String, String> properties, Path dir, LongConsumer started)
            throws IOException, InterruptedException, CellFailure {
        if (!Files.isRegularFile(jar())) {
            throw new IOException("the client library's driver is not built (" + jar() + " is missing): run ./mvnw -B package -DskipTests");
        }
        Files.createDirectories(dir);
        Path jtl = dir.resolve("results.jtl");
        Path json = dir.resolve("summary.json");
        List<String> command = new ArrayList<>(List.of(ManagedProcess.javaBinary(),
                "-XX:+UseSerialGC", "-jar", jar().toString(),
                "--url", properties.getOrDefault("protocol", "http") + "://" + properties.get("host") + ":"
                        + properties.get("port"),
                "--users", properties.getOrDefault("users", "1"),
                "--loops", properties.getOrDefault("loops", "1"),
                "--ramp-up", properties.getOrDefault("rampup", "0") + "s",
                "--retries", String.valueOf(RETRIES),
                "--budget", BUDGET.toSeconds() + "s",
                "--revalidation-threads", String.valueOf(REVALIDATION_THREADS),
                "--json", json.toString(),
                "--jtl", jtl.toString()));
        if (!cell.clientCache()) {
            // A quota cell's library counts what reaches the edge: its own cache would answer most of it.
            command.add("--no-cache");
        }
        if (properties.containsKey(HEADER_PROPERTY)) {
            command.addAll(List.of("--header", properties.get(HEADER_PROPERTY)));
        }
        if (Boolean.parseBoolean(properties.get(PACE_PROPERTY))) {
            command.add("--pace");
        }
        if (properties.containsKey(TRUST_PROPERTY)) {
            command.addAll(List.of("--ca", properties.get(TRUST_PROPERTY)));
        }
        // The plan's paths; a plan of several has JMeter draw their order each loop, and so does the driver.
        cell.plan().paths().forEach((property, path) ->
                command.addAll(List.of("--path", properties.getOrDefault(property, path))));
        if (shuffles(cell.plan())) {
            command.add("--shuffle");
        }
        try (ManagedProcess driver = ManagedProcess.start("client-driver", command, dir, output(dir))) {
            started.accept(driver.pid());
            ManagedProcess.Finished done = driver.waitMeasured(Duration.ofHours(2));
            if (done.exitCode() != 0 || !Files.isRegularFile(jtl)) {
                throw new CellFailure("the client library's driver exited with code " + done.exitCode(), output(dir));
            }
            return new Run(jtl, json, done.wallSeconds(), done.cpuSeconds());
        }
    }

    /** Its summary of the run (samples, latency, the library's statistics), beside its JTL. */
    @Override
    public Path output(Path dir) {
        return dir.resolve("driver.out");
    }
}
