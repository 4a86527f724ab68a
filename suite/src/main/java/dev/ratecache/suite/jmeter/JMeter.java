package dev.ratecache.suite.jmeter;

import dev.ratecache.suite.Repo;
import dev.ratecache.suite.proc.ManagedProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Apache JMeter, as assembled by the jmeter/ module, run headless on a plan. JMeter exits 0 even
 * when every sample failed, so callers judge a run from its JTL ({@link JtlSummary}), never
 * from the exit code alone.
 */
public final class JMeter {
    private final Path home;

    public JMeter(Path home) {
        this.home = home;
    }

    public static JMeter assembled() {
        return new JMeter(Repo.jmeterHome());
    }

    public Path launcher() {
        return home.resolve("bin/ApacheJMeter.jar");
    }

    /** The files one run leaves in its folder. */
    public record Run(Path jtl, Path log, int exitCode) {}

    /**
     * Runs {@code plan} headless with {@code properties} as -J values; writes results.jtl and
     * jmeter.log into {@code outDir}. When {@code echo} is true JMeter's live summary is shown on
     * our terminal, otherwise it goes to outDir/jmeter.out.
     */
    public Run run(Path plan, Map<String, String> properties, Path outDir, boolean echo)
            throws IOException, InterruptedException {
        if (!Files.isRegularFile(launcher())) {
            throw new IOException("JMeter is not assembled (" + launcher() + " is missing): run ./mvnw -B package -DskipTests");
        }
        if (!Files.isRegularFile(plan)) {
            throw new IOException("no such plan: " + plan);
        }
        Files.createDirectories(outDir);
        Path jtl = outDir.resolve("results.jtl");
        Path log = outDir.resolve("jmeter.log");
        Files.deleteIfExists(jtl);
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms256m", "-Xmx1g",
                "-jar", launcher().toString(),
                "-n", "-t", plan.toAbsolutePath().toString(),
                "-l", jtl.toAbsolutePath().toString(),
                "-j", log.toAbsolutePath().toString()));
        Path suiteProperties = Repo.root().resolve("jmeter/suite.properties");
        if (Files.isRegularFile(suiteProperties)) {
            command.addAll(List.of("-q", suiteProperties.toString()));
        }
        properties.forEach((k, v) -> command.add("-J" + k + "=" + v));
        try (ManagedProcess jmeter = echo
                ? ManagedProcess.startInherited("jmeter", command, outDir)
                : ManagedProcess.start("jmeter", command, outDir, outDir.resolve("jmeter.out"))) {
            int exit = jmeter.waitFor(Duration.ofHours(2));
            return new Run(jtl, log, exit);
        }
    }
}
