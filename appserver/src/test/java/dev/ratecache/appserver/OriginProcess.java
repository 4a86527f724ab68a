package dev.ratecache.appserver;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Starts the origin in its own JVM, the way the suite does, and keeps what it printed. */
final class OriginProcess {

    private final Process process;
    private final File stdout;
    private final File stderr;

    private OriginProcess(Process process, File stdout, File stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /** The compiled classes with the test class path, so the failure tests run in the test phase. */
    static List<String> fromClasspath() {
        return List.of(javaBin(), "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                AppServerApplication.class.getName());
    }

    /** The repackaged jar that the suite starts. */
    static List<String> fromJar(Path jar) {
        return List.of(javaBin(), "-XX:TieredStopAtLevel=1", "-jar", jar.toString());
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
            File stdout = Files.createTempFile("origin", ".out").toFile();
            File stderr = Files.createTempFile("origin", ".err").toFile();
            stdout.deleteOnExit();
            stderr.deleteOnExit();
            ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(stdout).redirectError(stderr);
            builder.environment().putAll(environment);
            return new OriginProcess(builder.start(), stdout, stderr);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** Waits for the process to stop by itself; a start that should fail must not hang. */
    int awaitExit() {
        try {
            if (!process.waitFor(90, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("origin did not stop by itself; stdout: " + stdout());
            }
            return process.exitValue();
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException(ex);
        }
    }

    /** Asks for a graceful stop, as the suite does, and waits for it. */
    int stop() {
        process.destroy();
        return awaitExit();
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

    private static String read(File file) {
        try {
            return Files.readString(file.toPath());
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
