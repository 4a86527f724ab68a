package dev.ratecache.suite.origin;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.suite.Repo;
import dev.ratecache.proc.Ports;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.proc.Poll;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The suite's origin app server (appserver/) as a real JVM process. */
public final class OriginServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final int port;
    private final int managementPort;
    private final List<String> command;
    private final Path log;
    private ManagedProcess process;

    private OriginServer(int port, int managementPort, List<String> command, Path log) {
        this.port = port;
        this.managementPort = managementPort;
        this.command = command;
        this.log = log;
    }

    /**
     * Starts the origin on {@code port} with {@code threads} request threads and waits until it
     * reports healthy. {@code extraArgs} are Spring Boot arguments, e.g. --origin.endpoints.hare.delay=50ms; of a
     * property given twice, the later wins.
     */
    public static OriginServer start(int port, int managementPort, int threads, Path log, List<String> extraArgs)
            throws IOException {
        Path jar = Repo.originJar();
        if (!Files.isRegularFile(jar)) {
            throw new IOException("the origin is not built (" + jar + " is missing): run ./mvnw -B package -DskipTests");
        }
        List<String> command = new ArrayList<>(List.of(ManagedProcess.javaBinary(),
                // A small, quickly started JVM: the origin sleeps, it doesn't compute.
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xms64m", "-Xmx256m"));
        command.addAll(Repo.originLaunch());
        command.addAll(List.of(
                "--server.address=" + Ports.LOOPBACK,
                "--server.port=" + port,
                "--management.server.address=" + Ports.LOOPBACK,
                "--management.server.port=" + managementPort,
                "--server.tomcat.threads.max=" + threads,
                "--server.tomcat.threads.min-spare=" + threads));
        command.addAll(OriginDelays.lastWins(extraArgs));
        OriginServer origin = new OriginServer(port, managementPort, command, log);
        origin.start();
        return origin;
    }

    /** (Re)starts the process with the same arguments, e.g. after {@link #stop()}. */
    public void start() throws IOException {
        if (process != null && process.isAlive()) {
            return;
        }
        process = ManagedProcess.start("origin", command, log.toAbsolutePath().getParent(), log);
        // A Spring Boot start takes 2-3 s idle and nearly a minute on a 2-core machine running two test
        // suites: the deadline only bounds a start that hangs.
        Instant deadline = Instant.now().plusSeconds(120);
        while (!healthy()) {
            if (!process.isAlive()) {
                throw new IOException("the origin exited during start-up:\n" + process.logTail(15));
            }
            if (Instant.now().isAfter(deadline)) {
                close();
                throw new IOException("the origin was not healthy within 120 s:\n" + process.logTail(15));
            }
            Poll.pause(100);
        }
    }

    /** Stops the process (its counters go with it); {@link #start()} brings it back. */
    public void stop() {
        close();
    }

    public boolean healthy() {
        try {
            return HTTP.send(HttpRequest.newBuilder(management("/actuator/health")).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    public OriginCounters counters() throws IOException {
        HttpResponse<String> response = send(HttpRequest.newBuilder(management("/actuator/origin")).GET().build());
        return JSON.readValue(response.body(), OriginCounters.class);
    }

    /** Zeroes the counters and clears faults: each measurement starts from nothing. */
    public void reset() throws IOException {
        send(HttpRequest.newBuilder(management("/actuator/origin")).DELETE().build());
    }

    /** Makes {@code endpoint} answer {@code status} until {@link #reset()}. */
    public void fail(String endpoint, int status) throws IOException {
        post(Map.of("endpoint", endpoint, "status", status));
    }

    /** Makes {@code endpoint} take {@code delay} until {@link #reset()}. */
    public void slow(String endpoint, Duration delay) throws IOException {
        post(Map.of("endpoint", endpoint, "delay", delay.toMillis() + "ms"));
    }

    private void post(Map<String, Object> body) throws IOException {
        send(HttpRequest.newBuilder(management("/actuator/origin"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build());
    }

    private HttpResponse<String> send(HttpRequest request) throws IOException {
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() >= 300) {
                throw new IOException(request.method() + " " + request.uri() + " answered " + response.statusCode()
                        + ": " + response.body());
            }
            return response;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** A URL of its management server (Actuator), which counts nothing as the origin's load. */
    public URI management(String path) {
        return URI.create("http://" + Ports.LOOPBACK + ":" + managementPort + path);
    }

    public URI uri() {
        return URI.create("http://" + Ports.LOOPBACK + ":" + port);
    }

    public int port() { return port; }
    public int managementPort() { return managementPort; }
    public long pid() { return process.pid(); }
    public Path log() { return log; }
    public boolean isRunning() { return process != null && process.isAlive(); }

    @Override
    public void close() {
        if (process != null) {
            process.close();
        }
    }
}
