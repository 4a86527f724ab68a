package dev.ratecache.suite.jmeter;

import dev.ratecache.suite.Repo;
import dev.ratecache.proc.ManagedProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Apache JMeter, as assembled by the jmeter/ module, run headless on a plan. JMeter exits 0 even
 * when every sample failed, so callers judge a run from its JTL ({@link dev.ratecache.jtl.JtlSummary}), never
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

    /** This install's JMeter version (e.g. 5.6.3), from its core jar's manifest; "unknown" when unreadable. */
    public String version() {
        try (java.util.jar.JarFile core = new java.util.jar.JarFile(home.resolve("lib/ext/ApacheJMeter_core.jar").toFile())) {
            String v = core.getManifest().getMainAttributes().getValue("Implementation-Version");
            return v == null ? "unknown" : v.trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    public Path launcher() {
        return home.resolve("bin/ApacheJMeter.jar");
    }

    /** Throws, saying how to build it, when this JMeter is not assembled. */
    public void requireAssembled() throws IOException {
        if (!Files.isRegularFile(launcher())) {
            throw new IOException("JMeter is not assembled (" + launcher() + " is missing): run ./mvnw -B package -DskipTests");
        }
    }

    /** A JMeter command line, from its base (see {@link #command()}) to the caller's own flags. */
    public final class Command {
        private final List<String> jvm = new ArrayList<>(List.of("-Xms256m", "-Xmx1g"));
        private boolean suiteProperties = true;
        private final List<String> flags = new ArrayList<>();

        private Command() {}

        /** The JVM's heap options instead of a run's (-Xms256m -Xmx1g); none leaves the JVM's own default. */
        public Command heap(String... options) {
            jvm.clear();
            jvm.addAll(List.of(options));
            return this;
        }

        /**
         * The quick compiler and the serial collector ({@link #TOOL_JIT}): they halve JMeter's
         * start-up (4 s instead of 8 s here), and at the suite's rates (a few hundred requests/s)
         * its code is far from the bottleneck.
         */
        public Command quickStart() {
            jvm.addAll(List.of(TOOL_JIT, TOOL_GC));
            return this;
        }

        /** Without -q jmeter/suite.properties: a JMeter as set up by hand, with JMeter's own defaults. */
        public Command withoutSuiteProperties() {
            suiteProperties = false;
            return this;
        }

        /** The caller's own flags, after the base, in order. */
        public Command add(String... more) {
            return add(List.of(more));
        }

        public Command add(List<String> more) {
            flags.addAll(more);
            return this;
        }

        /** Each property as {@code <flag>name=value}, in order: -J for this JMeter, -G for its servers. */
        public Command properties(String flag, Map<String, String> properties) {
            properties.forEach((k, v) -> flags.add(flag + k + "=" + v));
            return this;
        }

        public List<String> build() {
            List<String> command = new ArrayList<>();
            command.add(ManagedProcess.javaBinary());
            command.addAll(jvm);
            command.addAll(sharedClasses("jmeter.jsa"));
            command.addAll(List.of("-jar", launcher().toString()));
            // Every JMeter of a run (controller, servers, dashboard, GUI) writes and reads the
            // JTL's columns alike; -q comes before the flags, so that their -J values win.
            if (suiteProperties && Files.isRegularFile(Repo.jmeterProperties())) {
                command.addAll(List.of("-q", Repo.jmeterProperties().toString()));
            }
            command.addAll(flags);
            return command;
        }
    }

    /**
     * The one way a JMeter command line starts: java, a run's heap, -jar ApacheJMeter.jar and -q
     * jmeter/suite.properties (when the checkout has it). The caller adds its own mode and flags.
     */
    public Command command() {
        return new Command();
    }

    /**
     * The JMeter servers a run goes through, and how this controller meets them: the address they
     * call back (java.rmi.server.hostname), its RMI port, and the RMI arguments (SSL or plain).
     */
    public record Remote(List<String> hosts, String callbackAddress, int clientPort, List<String> rmiArguments) {
        List<String> arguments() {
            List<String> args = new ArrayList<>();
            args.add("-R");
            args.add(String.join(",", hosts));
            args.add("-Djava.rmi.server.hostname=" + callbackAddress);
            // Fixed, so that it can be opened in a firewall: the servers send their samples here.
            args.add("-Jclient.rmi.localport=" + clientPort);
            args.addAll(rmiArguments);
            return args;
        }
    }

    /** Where a run's console goes, in its folder: never to ours, which shows the suite's own lines. */
    public static final String OUTPUT = "jmeter.out";

    /** The files one run leaves in its folder, and what it cost (see {@link ManagedProcess.Finished}). */
    public record Run(Path jtl, Path log, int exitCode, double wallSeconds, double cpuSeconds) {}

    /**
     * Runs {@code plan} headless with {@code properties} as -J values; writes results.jtl,
     * jmeter.log and its console ({@value #OUTPUT}) into {@code outDir}.
     */
    public Run run(Path plan, Map<String, String> properties, Path outDir)
            throws IOException, InterruptedException {
        return run(plan, properties, outDir, null);
    }

    /**
     * As {@link #run(Path, Map, Path)}, but through the JMeter servers of {@code remote}
     * when it is not null: JMeter's own distributed mode (-R), each server running the whole plan,
     * the properties sent to them as -G, results merged by JMeter into one JTL here.
     */
    public Run run(Path plan, Map<String, String> properties, Path outDir, Remote remote)
            throws IOException, InterruptedException {
        return run(plan, properties, outDir, remote, pid -> {});
    }

    /** As {@link #run(Path, Map, Path, Remote)}, telling {@code started} JMeter's PID once it runs. */
    public Run run(Path plan, Map<String, String> properties, Path outDir, Remote remote,
            java.util.function.LongConsumer started) throws IOException, InterruptedException {
        requireAssembled();
        if (!Files.isRegularFile(plan)) {
            throw new IOException("no such plan: " + plan);
        }
        Files.createDirectories(outDir);
        Path jtl = outDir.resolve("results.jtl");
        Path log = outDir.resolve("jmeter.log");
        Files.deleteIfExists(jtl);
        Command command = command().quickStart()
                .add("-n", "-t", plan.toAbsolutePath().toString(),
                        "-l", jtl.toAbsolutePath().toString(),
                        "-j", log.toAbsolutePath().toString())
                .properties("-J", properties);
        if (remote != null) {
            // -G: the plan runs on the servers, which read its switches from their own properties.
            command.add(remote.arguments()).properties("-G", properties);
        }
        try (ManagedProcess jmeter = ManagedProcess.start("jmeter", command.build(), outDir, outDir.resolve(OUTPUT))) {
            started.accept(jmeter.pid());
            ManagedProcess.Finished done = jmeter.waitMeasured(Duration.ofHours(2));
            return new Run(jtl, log, done.exitCode(), done.wallSeconds(), done.cpuSeconds());
        }
    }

    /**
     * How a drawing's JVM runs. Beside a measurement it runs at nice 19, so that it cannot disturb
     * it; once nothing is measured, at normal priority, for at nice 19 on a busy machine a drawing
     * gets almost no CPU and a run would wait many minutes for its last graphs.
     */
    public interface Drawing {
        /** No measurement beside it: normal priority. */
        Drawing ALONE = new Drawing() {
            @Override
            public boolean besideMeasurement() {
                return false;
            }
        };

        boolean besideMeasurement();

        /** Told of each drawing process while it runs, e.g. to raise its priority once measuring ends. */
        default void running(ManagedProcess process) {}

        default void ended(ManagedProcess process) {}
    }

    /** JMeter's own HTML dashboard of a JTL, written to {@code outDir} (which must not exist or be empty). */
    public void dashboard(Path jtl, Path outDir) throws IOException, InterruptedException {
        dashboard(jtl, outDir, Drawing.ALONE);
    }

    public void dashboard(Path jtl, Path outDir, Drawing drawing) throws IOException, InterruptedException {
        List<String> command = command().heap("-Xmx512m").quickStart()
                .add("-g", jtl.toAbsolutePath().toString(), "-o", outDir.toAbsolutePath().toString(),
                        "-j", outDir.toAbsolutePath().getParent().resolve("dashboard.log").toString())
                .build();
        draw("dashboard", command, outDir.toAbsolutePath().getParent(), Duration.ofMinutes(5), drawing);
    }

    /**
     * The class-data-sharing archive the build trained for this launcher (jmeter/pom.xml), when
     * there is one: it takes about a third off a JMeter's start.
     */
    private List<String> sharedClasses(String archive) {
        Path file = home.resolve("bin").resolve(archive);
        return Files.isRegularFile(file) ? List.of("-XX:SharedArchiveFile=" + file) : List.of();
    }

    // Short-lived JVMs: the quick compiler and the serial collector start fastest.
    private static final String TOOL_JIT = "-XX:TieredStopAtLevel=1";
    private static final String TOOL_GC = "-XX:+UseSerialGC";

    /** The graphs a run gets as PNG (jmeter-plugins' command-line Reporter). */
    public static final List<String> GRAPHS = List.of("ResponseTimesOverTime", "TransactionsPerSecond");

    /** PNG graphs of a JTL: one file per entry of {@link #GRAPHS}, named after it, in {@code outDir}. */
    public void graphs(Path jtl, Path outDir) throws IOException, InterruptedException {
        graphs(jtl, outDir, Drawing.ALONE);
    }

    public void graphs(Path jtl, Path outDir, Drawing drawing) throws IOException, InterruptedException {
        Files.createDirectories(outDir);
        Path cmdrunner = home.resolve("lib/cmdrunner-2.3.jar");
        for (String graph : GRAPHS) {
            List<String> command = new ArrayList<>(List.of(ManagedProcess.javaBinary(), "-Djava.awt.headless=true",
                    TOOL_JIT, TOOL_GC));
            command.addAll(sharedClasses("cmdrunner.jsa"));
            command.addAll(List.of(
                    "-jar", cmdrunner.toString(), "--tool", "Reporter",
                    "--generate-png", outDir.resolve(graph + ".png").toAbsolutePath().toString(),
                    "--input-jtl", jtl.toAbsolutePath().toString(), "--plugin-type", graph,
                    "--width", "1000", "--height", "500", "--granulation", "1000"));
            draw("graph " + graph, command, outDir, Duration.ofMinutes(2), drawing);
        }
    }

    private static void draw(String what, List<String> command, Path dir, Duration limit, Drawing drawing)
            throws IOException, InterruptedException {
        List<String> niced = new ArrayList<>();
        if (drawing.besideMeasurement()) {
            niced.addAll(List.of("nice", "-n", "19"));
        }
        niced.addAll(command);
        Path log = dir.resolve(what.replace(' ', '-') + ".out");
        try (ManagedProcess p = ManagedProcess.start(what, niced, dir, log)) {
            drawing.running(p);
            try {
                int exit = p.waitFor(limit);
                if (exit != 0) {
                    throw new IOException(what + " failed (exit " + exit + "), see " + log + ":\n" + p.logTail(10));
                }
            } finally {
                drawing.ended(p);
            }
        }
    }
}
