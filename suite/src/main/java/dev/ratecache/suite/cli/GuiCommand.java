package dev.ratecache.suite.cli;

import dev.ratecache.suite.Repo;
import dev.ratecache.suite.jmeter.JMeter;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.Matrix;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.proc.Ports;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.suite.up.UpState;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Opens the JMeter GUI on a plan, with a scenario's properties set and host/port pointing at the
 * running stack, to read the plan, change it, or run it by hand.
 *
 * <pre>{@code
 * ManagedProcess gui = GuiCommand.parse("stress", "--scenario", "stress/client-cache")
 *         .launch(Map.of("DISPLAY", ":99"), dir, false);
 * }</pre>
 */
@Command(name = "gui", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Open the JMeter GUI on a plan, with a scenario's properties set, pointing at the running stack if there is one"
                    + " (the one ./run-tests.sh up started, by default).",
            "",
            "  ./run-tests.sh gui                   stress.jmx, plan defaults",
            "  ./run-tests.sh gui load --scenario load/client-cache",
            "  ./run-tests.sh gui stress --scenario stress/direct -Jusers=5",
            "  ./run-tests.sh gui my-plan.jmx --front-port 8000",
            ""})
public final class GuiCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "PLAN", defaultValue = "stress",
            description = "stress, load, flood, hotset, keys, or the path of a .jmx file. Default: ${DEFAULT-VALUE}.")
    String plan = "stress";

    @Option(names = "--scenario", paramLabel = "CELL",
            description = "A cell of the default or full matrix, e.g. stress/client-cache: sets client_cache from it,"
                    + " and a */direct cell points at the origin instead of the front end.")
    String scenario;

    @Option(names = "--front-port", paramLabel = "PORT",
            description = "Where the running stack's front end listens. Default: ${DEFAULT-VALUE}.")
    int frontPort = 80;

    @Option(names = "--origin-port", paramLabel = "PORT",
            description = "Where the origin listens (for */direct scenarios). Default: ${DEFAULT-VALUE}.")
    int originPort = 8080;

    @Option(names = "-J", paramLabel = "NAME=VALUE",
            description = "A JMeter property, e.g. -Jusers=10; repeatable. Wins over the scenario's and the stack's.")
    Map<String, String> jmeterProperties = new LinkedHashMap<>();

    /**
     * What the GUI will be opened with.
     *
     * @param plan       the .jmx file
     * @param properties the -J properties, in order
     * @param notes      lines for the terminal: what it points at and why
     */
    public record Launch(Path plan, Map<String, String> properties, List<String> notes) {}

    /** Parses {@code args} (as after {@code ./run-tests.sh gui}); throws on malformed flags. */
    public static GuiCommand parse(String... args) {
        CommandLine cli = new CommandLine(new GuiCommand());
        cli.parseArgs(args);
        return cli.getCommand();
    }

    @Mixin
    DryRun dryRun = new DryRun();

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Launch launch = prepare();
        if (dryRun.on) {
            launch.notes().forEach(out::println);
            return dryRun.report(out, List.of("JMeter's GUI on " + launch.plan()));
        }
        String os = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT);
        String display = System.getenv("DISPLAY");
        if ((display == null || display.isBlank()) && os.contains("linux")) {
            spec.commandLine().getErr().println("run-tests.sh gui: no display (DISPLAY is not set): run it in a desktop"
                    + " session, over ssh -X, or under xvfb-run");
            return 1;
        }
        launch.notes().forEach(out::println);
        out.println("log: " + guiDir().resolve("jmeter.log") + "; close the JMeter window to end this command");
        out.flush();
        try (ManagedProcess gui = launch(Map.of(), guiDir(), true)) {
            return gui.waitFor(Duration.ofDays(365));
        }
    }

    private static Path guiDir() {
        return Repo.root().resolve("results/gui");
    }

    /**
     * Checks the plan and scenario and works out the properties; a bad plan or scenario is a
     * {@link CommandLine.ParameterException} naming the valid choices (exit code 2).
     */
    public Launch prepare() {
        return prepare(UpState.running(UpState.defaultResults()));
    }

    /**
     * As {@link #prepare()}, with {@code up} the running {@code ./run-tests.sh up}, if any: its ports
     * are the default, and --front-port or --origin-port given on the command line still win.
     */
    public Launch prepare(Optional<UpState> up) {
        Plan chosen = plan();
        Path planFile = chosen.file();
        Map<String, String> properties = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        boolean direct = false;
        if (scenario != null) {
            Cell cell = cell(chosen);
            direct = cell.direct();
            properties.put("client_cache", String.valueOf(cell.clientCache()));
            notes.add("scenario " + cell.name() + ": " + cell.describe()
                    + (cell.direct() ? "" : " (the limits and server cache are the running stack's own)"));
        }
        int port = direct ? originPort : frontPort;
        String what = direct ? "origin" : "front end";
        String flag = direct ? "--origin-port" : "--front-port";
        String upName = direct ? "origin" : "front";
        Optional<Integer> upPort = up.flatMap(u -> Optional.ofNullable(u.ports().get(upName)));
        boolean given = spec != null && spec.commandLine().getParseResult() != null
                && spec.commandLine().getParseResult().hasMatchedOption(flag);
        if (upPort.isPresent() && !given) {
            port = upPort.get();
            notes.add("pointing at the " + what + " of the running up (PID " + up.get().pid() + "): "
                    + (direct ? "http://" + Ports.LOOPBACK + ":" + port : up.get().url("front").orElse("http://"
                            + Ports.LOOPBACK + ":" + port)) + " (" + flag + " points elsewhere)");
        } else if (Ports.accepting(port)) {
            notes.add("pointing at the running " + what + ": http://" + Ports.LOOPBACK + ":" + port);
        } else {
            notes.add("no stack is running (nothing accepts on " + Ports.LOOPBACK + ":" + port + "): pointing at http://"
                    + Ports.LOOPBACK + ":" + port + " anyway (" + flag + " changes it; ./run-tests.sh up starts one)");
        }
        properties.put("host", Ports.LOOPBACK);
        properties.put("port", String.valueOf(port));
        // The front end of an up --tls speaks https (JMeter accepts its throwaway certificate, as any).
        boolean tls = !direct && upPort.isPresent() && !given
                && up.flatMap(u -> u.url("front")).filter(u -> u.startsWith("https:")).isPresent();
        if (tls) {
            properties.put("protocol", "https");
        }
        properties.putAll(jmeterProperties);
        return new Launch(planFile, properties, notes);
    }

    /** The java command line that opens the GUI (no -n). */
    public List<String> command(Launch launch, Path logDir) {
        return JMeter.assembled().command()
                .add("-t", launch.plan().toAbsolutePath().toString(),
                        "-j", logDir.resolve("jmeter.log").toAbsolutePath().toString())
                .properties("-J", launch.properties())
                .build();
    }

    /**
     * Opens the GUI and returns at once; the caller waits for it or stops it. {@code environment}
     * is added to ours (e.g. DISPLAY). JMeter's log goes to logDir/jmeter.log; its console output
     * to our terminal when {@code echo}, otherwise to logDir/jmeter.out.
     */
    public ManagedProcess launch(Map<String, String> environment, Path logDir, boolean echo) throws IOException {
        Launch launch = prepare();
        JMeter.assembled().requireAssembled();
        Files.createDirectories(logDir);
        List<String> command = new ArrayList<>();
        if (!environment.isEmpty()) {
            // env execs java in its place: the PID ManagedProcess holds is JMeter's own.
            command.add("env");
            environment.forEach((k, v) -> command.add(k + "=" + v));
        }
        command.addAll(command(launch, logDir));
        return echo
                ? ManagedProcess.startInherited("jmeter-gui", command, Repo.root())
                : ManagedProcess.start("jmeter-gui", command, Repo.root(), logDir.resolve("jmeter.out"));
    }

    private Plan plan() {
        Optional<Plan> builtIn = Plan.builtIn(plan);
        if (builtIn.isPresent()) {
            return builtIn.get();
        }
        Path file = Path.of(plan);
        if (plan.endsWith(".jmx") && Files.isRegularFile(file)) {
            return Plan.custom(file);
        }
        throw bad("PLAN must be " + String.join(", ", Plan.builtInNames()) + " or the path of a .jmx file (got '" + plan + "'"
                + (plan.endsWith(".jmx") ? ": no such file" : "") + ")");
    }

    /** The scenario's cell: a JMeter cell of the default or the full matrix for this plan. */
    private Cell cell(Plan chosen) {
        Map<String, Cell> cells = new LinkedHashMap<>();
        for (Cell c : Matrix.reference(List.of(chosen))) {
            cells.putIfAbsent(c.name(), c);
        }
        for (Cell c : Matrix.full(List.of(chosen))) {
            cells.putIfAbsent(c.name(), c);
        }
        cells.values().removeIf(Cell::library);
        return Optional.ofNullable(cells.get(scenario)).orElseThrow(() -> {
            return bad("--scenario names no cell of " + chosen.name() + " (got '" + scenario + "'); valid: "
                    + String.join(", ", cells.keySet()));
        });
    }

    private CommandLine.ParameterException bad(String message) {
        CommandLine cli = spec != null ? spec.commandLine() : new CommandLine(this);
        return new CommandLine.ParameterException(cli, message);
    }
}
