package dev.ratecache.suite.cli;

import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.Matrix;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.matrix.Profile;
import dev.ratecache.suite.nginx.WorkerAccess;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.suite.switches.WholeNumber;
import dev.ratecache.suite.up.UpSession;
import dev.ratecache.suite.up.UpState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * Starts the stack (origin, back end, front end) and keeps it up in the foreground, printing a
 * live status line, until Ctrl-C or {@code ./run-tests.sh down}: the stack to point a browser,
 * curl, JMeter's GUI or your own client at.
 */
@Command(name = "up", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        abbreviateSynopsis = true,
        description = {
            "Start the origin (unless --origin), the back end and the front end with the given switches, or a"
                    + " matrix cell's, and keep them running: prints every URL, the run folder (rendered configs,"
                    + " logs) and a status line every few seconds. Ctrl-C, or ./run-tests.sh down from another"
                    + " terminal, stops everything.",
            "",
            "  ./run-tests.sh up --front-port 8000   default switches, front end on :8000",
            "  ./run-tests.sh up --scenario stress/server-cache",
            "  ./run-tests.sh up --no-front-limit --origin http://127.0.0.1:9000",
            "  ./run-tests.sh up --edge haproxy --front-mode nodelay --back-mode nodelay",
            "  ./run-tests.sh down                   stop it from another terminal",
            ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:stopped by ./run-tests.sh down",
            "1:the start failed, a tier exited on its own (the rest is then stopped) or another up was running",
            "2:bad input, refused before anything started",
            "130:stopped by Ctrl-C"})
public final class UpCommand implements Callable<Integer>, WholeNumber.Flags {
    private static final WholeNumber EVERY = WholeNumber.of("--every", 1, 3600, "seconds");

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    OwnConfigOptions ownConfig = new OwnConfigOptions();

    @Mixin
    StackPorts ports = new StackPorts();

    @Mixin
    StackSwitches switches = new StackSwitches();

    @Option(names = "--scenario", paramLabel = "CELL",
            description = "Take the limits and the cache from a cell of the default or full matrix, e.g."
                    + " stress/server-cache (its client cache is the client's own, not the stack's).")
    String scenario;

    @Option(names = "--edge", paramLabel = "PRODUCT",
            description = EdgeOption.HELP + " Default: ${DEFAULT-VALUE}.")
    EdgeProduct edge = EdgeProduct.DEFAULT;

    @Mixin
    OriginThreads originThreads = new OriginThreads();

    @Mixin
    DatabaseOptions database = new DatabaseOptions();

    @Option(names = "--profile", paramLabel = "quick|default",
            description = "quick: the origin's delays and freshness lifetimes divided by ten, as in a quick matrix run."
                    + " Default: ${DEFAULT-VALUE}.")
    Profile profile = Profile.DEFAULT;

    @Option(names = "--every", paramLabel = "SECONDS",
            description = "How often the status line is printed. Default: ${DEFAULT-VALUE}.")
    int every = 2;

    @Option(names = "--results", paramLabel = "DIR",
            description = "Where the run folder (up-<timestamp>/) and up.json, which down finds, go. Default: results/ in the checkout.")
    Path results;

    @Mixin
    DryRun dryRun = new DryRun();

    @Override
    public Integer call() throws Exception {
        StackSwitches chosen = validate();
        Path resultsDir = RunFolders.results(results).toAbsolutePath().normalize();
        // Before the ports: a running up holds them, and naming it says more than "port in use".
        Optional<UpState> other = UpState.running(resultsDir);
        if (other.isPresent()) {
            spec.commandLine().getErr().println(UpSession.alreadyRunning(other.get(), resultsDir));
            return 1;
        }
        checkMachine(chosen);
        if (dryRun.on) {
            return dryRun.report(spec.commandLine().getOut(), List.of("the " + edge + " tiers with " + chosen.describe()
                    + ", kept up until ./run-tests.sh down"));
        }
        Path runDir = RunFolders.next(resultsDir, "up-");
        List<String> originArgs = new ArrayList<>(profile.originArgs());
        if (chosen.ownFront().isPresent()) {
            originArgs.addAll(OwnConfigOrigin.args(chosen.ownFront().get(), profile.endpoints(), runDir));
        }
        UpSession.Settings settings = new UpSession.Settings(edge, chosen, ports, originThreads.threads(),
                originArgs, every, database.chosen(spec.commandLine().getParseResult()));
        return new UpSession(settings, resultsDir, runDir, spec.commandLine().getOut(),
                spec.commandLine().getErr()).run();
    }

    /**
     * The input checked before anything starts; all problems at once, one line each. Binds no port
     * ({@link #checkMachine} does). Returns the switches to use.
     */
    StackSwitches validate() {
        EdgeDefaults.fit(edge, switches, spec.commandLine().getParseResult()).forEach(spec.commandLine().getOut()::println);
        List<String> problems = new ArrayList<>(switches.problems());
        StackSwitches chosen = switches;
        if (scenario != null) {
            Optional<Cell> cell = cell(scenario);
            if (cell.isEmpty()) {
                problems.add("--scenario names no cell (got '" + scenario + "'); valid: " + String.join(", ", cellNames()));
            } else if (cell.get().direct()) {
                problems.add("--scenario " + scenario + " sends traffic straight to the origin, with no tiers to start:"
                        + " choose a cell through the tiers");
            } else {
                chosen = cell.get().apply(switches);
            }
        }
        problems.addAll(ownConfig.orphans());
        if (ownConfig.given() && !edge.adapter().runsOwnNginxConfig()) {
            problems.add("--nginx-conf is an nginx config, which only nginx's front runs: drop --edge " + edge);
        } else if (ownConfig.given() && problems.isEmpty()) {
            OwnConfigOptions.applyOrSay(ownConfig, chosen, problems);
        }
        originThreads.problem().ifPresent(problems::add);
        problems.addAll(database.problems());
        if (!switches.origins().isEmpty() && database.anyGiven(spec.commandLine().getParseResult())) {
            problems.add("--origin-db, --db-pool and --db-acquire-timeout set the suite's own origin's database:"
                    + " drop --origin, or them");
        }
        if (profile == Profile.FULL) {
            problems.add("--profile full repeats matrix cells; up has none: use quick or default");
        }
        if (switches.edges() > 1) {
            // Its live line reads one front end's log and counters; several edges are measured by a matrix run.
            problems.add("--edges " + switches.edges() + ": up runs one front end; run several edges with ./run-tests.sh --edges N");
        }
        EVERY.check(problems, every);
        problems.addAll(ports.problems(chosen));
        RunFolders.notAFolderForTheTiers(results).ifPresent(problems::add);
        if (problems.isEmpty()) {
            // The product's refusal reads switches already found good.
            edge.refusal(chosen, ports).ifPresent(problems::add);
        }
        dev.ratecache.suite.switches.OriginUrl.addUnanswered(chosen.origins(), problems);
        Refuse.ifAny(spec, problems);
        return chosen;
    }

    /** What this machine must give the stack, once the input is good: free ports, a run folder nginx's workers can enter. */
    void checkMachine(StackSwitches chosen) {
        List<String> problems = new ArrayList<>();
        WorkerAccess.problem(RunFolders.results(results), "--results").ifPresent(problems::add);
        if (database.kind == dev.ratecache.suite.origin.OriginDatabase.Kind.POSTGRES) {
            dev.ratecache.proc.PostgresServer.notInstalled().ifPresent(problems::add);
        }
        problems.addAll(ports.unavailable(chosen.origins().isEmpty()));
        Refuse.ifAny(spec, problems);
    }

    /** The JMeter and library cells of both matrices for the suite's plans, by name. */
    private static Map<String, Cell> cells() {
        Map<String, Cell> cells = new LinkedHashMap<>();
        for (Cell c : Matrix.reference(Plan.REFERENCE)) {
            cells.putIfAbsent(c.name(), c);
        }
        for (Cell c : Matrix.full(Plan.REFERENCE)) {
            cells.putIfAbsent(c.name(), c);
        }
        return cells;
    }

    static Optional<Cell> cell(String name) {
        return Optional.ofNullable(cells().get(name));
    }

    private static List<String> cellNames() {
        return cells().values().stream().filter(c -> !c.direct()).map(Cell::name).toList();
    }

    @Override
    public Map<String, WholeNumber> wholeNumbers() {
        return WholeNumber.byFlag(EVERY);
    }
}
