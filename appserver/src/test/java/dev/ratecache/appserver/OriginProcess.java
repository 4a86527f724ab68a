package dev.ratecache.appserver;

import dev.ratecache.proc.ManagedProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Starts the origin in its own JVM, the way the suite does (through the suite's one process
 * wrapper, stopped by its PID), and keeps what it printed on stdout and stderr apart.
 */
final class OriginProcess {

    private final ManagedProcess process;
    private final Path stdout;
    private final Path stderr;

    private OriginProcess(ManagedProcess process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /** The repackaged jar, as a user starts it. */
    static List<String> fromJar(Path jar) {
        return List.of(ManagedProcess.javaBinary(), "-XX:TieredStopAtLevel=1", "-jar", jar.toString());
    }

    /**
     * The class-data-sharing layout the build leaves in {@code cds} (the extracted jar and its
     * archive), as the suite starts it; {@code shareOptions} e.g. -Xshare:on, to fail unless the
     * archive is used.
     */
    static List<String> fromArchive(Path cds, String... shareOptions) {
        List<String> launch = new ArrayList<>(List.of(ManagedProcess.javaBinary(), "-XX:TieredStopAtLevel=1"));
        launch.addAll(List.of(shareOptions));
        launch.addAll(List.of("-XX:SharedArchiveFile=" + cds.resolve("appserver.jsa"),
                "-jar", cds.resolve("appserver.jar").toString()));
        return launch;
    }

    static OriginProcess start(List<String> launch, Map<String, String> environment, String... args) {
        List<String> command = new ArrayList<>(launch);
        command.addAll(List.of(args));
        // Never collide with a real origin or another test, even if the start unexpectedly succeeds.
        // Only when not given: a property given twice on the command line binds as "0,8080".
        for (String port : List.of("server.port", "management.server.port")) {
            if (Arrays.stream(args).noneMatch(arg -> arg.startsWith("--" + port + "="))) {
                command.add("--" + port + "=0");
            }
        }
        try {
            Path dir = Files.createTempDirectory("origin");
            Path stdout = dir.resolve("origin.out");
            Path stderr = dir.resolve("origin.err");
            // In the module's folder, as a developer would start it: the launch may name the jar relative to it.
            return new OriginProcess(ManagedProcess.start("origin", command, Path.of("").toAbsolutePath(), stdout, stderr,
                    environment),
                    stdout, stderr);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** Waits for the process to stop by itself; a start that should fail must not hang. */
    int awaitExit() {
        try {
            return process.waitFor(Duration.ofMinutes(3));
        }
        catch (IllegalStateException overran) {
            process.close();
            throw new AssertionError("origin did not stop by itself; stdout: " + stdout());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            process.close();
            throw new IllegalStateException(ex);
        }
    }

    /** Asks for a graceful stop (SIGTERM, as the suite does) and waits until it is gone. */
    void stop() {
        process.close();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    String stdout() {
        return read(stdout);
    }

    List<String> stderrLines() {
        return read(stderr).lines().toList();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
