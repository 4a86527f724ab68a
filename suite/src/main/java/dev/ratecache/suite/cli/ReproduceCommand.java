package dev.ratecache.suite.cli;

import dev.ratecache.proc.PostgresServer;
import dev.ratecache.proc.RedisServer;
import dev.ratecache.suite.matrix.BombardierGenerator;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.Generator;
import dev.ratecache.suite.matrix.MatrixRunner;
import dev.ratecache.suite.matrix.Profile;
import dev.ratecache.suite.matrix.WrkGenerator;
import dev.ratecache.suite.nginx.NginxServer;
import dev.ratecache.suite.nginx.WorkerAccess;
import dev.ratecache.suite.origin.OriginDatabase;
import dev.ratecache.suite.origin.OriginDefaults;
import dev.ratecache.suite.peak.Wrk;
import dev.ratecache.suite.predict.CellPrediction;
import dev.ratecache.suite.predict.Predictions;
import dev.ratecache.suite.report.Machine;
import dev.ratecache.suite.report.ReportSection;
import dev.ratecache.suite.report.ReportWriter;
import dev.ratecache.suite.reproduce.Experiment;
import dev.ratecache.suite.reproduce.ReproductionSection;
import dev.ratecache.suite.reproduce.Reproductions;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.suite.switches.WholeNumber;
import dev.ratecache.suite.terminal.Terminal;
import dev.ratecache.suite.up.UpState;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * ./run-tests.sh reproduce [NAME]: the experiments this project comes from, each rerun with its own
 * tool and parameters through the suite's tiers and origin, as cells of one run whose report puts
 * each published table beside ours. The switches are the experiments', so the command takes none
 * of the tiers' flags; its ports are free ones, chosen when it starts.
 */
@Command(name = "reproduce", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Reruns the experiments this project comes from (its source documents), each with the tool and"
                    + " parameters it was published with, against the suite's tiers and origin, and writes one report"
                    + " (results/reproduce-<timestamp>/) that puts each published table beside ours, row by row,"
                    + " with why ours differs where it does. Without NAME, every experiment, in the order of their"
                    + " seeds; the tiers' ports are free ones, chosen at start.",
            "",
            "  ./run-tests.sh reproduce                 all of them (about 7 minutes on 2 cores)",
            "  ./run-tests.sh reproduce haproxy-cache   seed 000: HAProxy's cache in front of PostgreSQL",
            "  ./run-tests.sh reproduce redis-vs-nginx  seed 001: the edge against Redis",
            "  ./run-tests.sh reproduce fast-origin     seed 003: a fast origin",
            "  ./run-tests.sh reproduce 4               seed 004, by number: the reference",
            ""})
public final class ReproduceCommand implements Callable<Integer>, WholeNumber.Flags {
    private static final WholeNumber DURATION = WholeNumber.of("--duration", 1, 60);

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "NAME", completionCandidates = Names.class,
            description = "The experiment, by its name or its seed's number: ${COMPLETION-CANDIDATES}."
                    + " Default: all of them.")
    String name;

    /** The accepted names in --help, from the one list of experiments. */
    static final class Names extends ArrayList<String> {
        Names() {
            Reproductions.ALL.forEach(e -> add(e.name() + " (" + e.seed() + ")"));
        }
    }

    @Option(names = "--results", paramLabel = "DIR", description = "Where run folders go. Default: results/ in the checkout.")
    Path results;

    @Option(names = "--no-dashboards",
            description = "Skip JMeter's dashboard and graphs of the reference experiment's cells: a faster run.")
    boolean noDashboards;

    /** wrk's -d for every wrk cell instead of the published one: the stack test's short run, not a user's. */
    @Option(names = "--duration", paramLabel = "SECONDS", hidden = true)
    Integer duration;

    @Mixin
    DryRun dryRun = new DryRun();

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Terminal terminal = Terminal.of(out, false);
        LocalDateTime started = LocalDateTime.now().withNano(0);
        Path runDir = RunFolders.next(RunFolders.results(results), "reproduce-");
        List<Experiment> experiments = validate(runDir);
        List<Cell> cells = cells(experiments);
        StackPorts ports = StackPorts.free();
        checkMachine(experiments, cells, runDir);
        if (dryRun.on) {
            return dryRun.report(out, experiments.stream().map(e -> e.name() + " (seed " + e.seed() + ")").toList());
        }
        StackSwitches switches = new StackSwitches();
        int threads = OriginDefaults.get().threads();
        Files.createDirectories(runDir);
        out.println("run folder: " + runDir);
        out.println("reproduce:  " + String.join(", ", experiments.stream().map(e -> e.name() + " (seed " + e.seed()
                + ")").toList()) + ": " + cells.size() + " cells");
        out.flush();
        OriginDatabase database = database(experiments);
        MatrixRunner.Outcome outcome = new MatrixRunner(new MatrixRunner.Options(cells, Profile.DEFAULT, 1, switches,
                ports, threads, Map.of(), runDir, Reproductions.originArgs(experiments), null, 0, !noDashboards,
                database), terminal, null).run();
        Map<String, CellPrediction> predictions;
        try {
            predictions = Predictions.of(outcome.cells(), new Predictions.Run(switches, Profile.DEFAULT, threads,
                    Map.of(), null));
        } catch (RuntimeException e) {
            out.println("note: no predictions in this report: the model failed (" + e + ")");
            predictions = Map.of();
        }
        List<ReportSection> sections = experiments.stream().map(e -> ReproductionSection.of(e, outcome.cells())).toList();
        new ReportWriter(runDir, describeRun(experiments, started, threads), outcome, List.of(), true, predictions,
                sections).write();
        MatrixCommand.linkLatest(runDir);
        out.println();
        terminal.println(ReportWriter.terminal(runDir, outcome, List.of(), true, predictions, sections));
        out.printf(Locale.ROOT, "report: %s (index.html, report.md, summary.json, summary.csv); %.0f s in all%n", runDir,
                outcome.totalSeconds());
        if (outcome.anyFailed()) {
            spec.commandLine().getErr().println("run-tests.sh: some cells failed; the report marks them (INCOMPLETE)");
            return 1;
        }
        return 0;
    }

    /** The experiments NAME picks, once the input is good; every problem in one line each, before anything starts. */
    private List<Experiment> validate(Path runDir) {
        List<String> problems = new ArrayList<>();
        List<Experiment> experiments = Reproductions.ALL;
        if (name != null) {
            try {
                experiments = List.of(Reproductions.named(name));
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
            }
        }
        if (duration != null) {
            DURATION.check(problems, duration);
        }
        RunFolders.notAFolderForTheTiers(results).ifPresent(problems::add);
        Refuse.ifAny(spec, problems);
        // Another stack on this machine's cores would be measured too: the published figures are of quiet machines.
        UpState.running(runDir.getParent()).ifPresent(up -> Refuse.ifAny(spec, List.of("a running up (" + up.describe()
                + ") would compete with the experiments for the cores: stop it with ./run-tests.sh down")));
        return experiments;
    }

    /**
     * The origin's database: the suite's PostgreSQL when an experiment's API reads one (seeds 000 and
     * 002), for every cell of the run, since one origin serves them all; the pool as the origin sets it.
     */
    static OriginDatabase database(List<Experiment> experiments) {
        OriginDatabase defaults = OriginDatabase.defaults();
        return experiments.stream().noneMatch(Experiment::postgres) ? defaults
                : new OriginDatabase(OriginDatabase.Kind.POSTGRES, defaults.poolSize(), defaults.acquireTimeout(), false);
    }

    /** The experiments' cells, each wrk cell with --duration when given. */
    private List<Cell> cells(List<Experiment> experiments) {
        List<Cell> cells = Reproductions.cells(experiments);
        return duration == null ? cells : cells.stream().map(c -> c.generator() == Generator.WRK
                ? c.withProperty(WrkGenerator.DURATION, String.valueOf(duration)) : c).toList();
    }

    /**
     * What this machine must have for the cells: wrk, bombardier, redis-server for an app cache,
     * PostgreSQL for a database API, a run folder the edge's workers can enter.
     */
    private void checkMachine(List<Experiment> experiments, List<Cell> cells, Path runDir) {
        List<String> problems = new ArrayList<>();
        if (cells.stream().anyMatch(c -> c.generator() == Generator.WRK) && !Wrk.installed()) {
            problems.add("wrk is not installed (" + Wrk.binary() + "): sudo apt-get install -y wrk, or run"
                    + " ./run-tests.sh reproduce, which installs it");
        }
        if (cells.stream().anyMatch(c -> c.generator() == Generator.BOMBARDIER) && !BombardierGenerator.installed()) {
            problems.add("bombardier is not built (" + BombardierGenerator.binary() + "): run ./run-tests.sh reproduce,"
                    + " which builds it from its Go module, or set BOMBARDIER_BIN to a build of it");
        }
        if (cells.stream().anyMatch(Cell::appCache)) {
            RedisServer.notInstalled().ifPresent(problems::add);
        }
        if (database(experiments).postgres()) {
            PostgresServer.notInstalled().ifPresent(problems::add);
        }
        if (cells.stream().anyMatch(c -> !c.direct())) {
            WorkerAccess.problem(runDir.getParent(), "--results").ifPresent(problems::add);
        }
        Refuse.ifAny(spec, problems);
    }

    private Map<String, Object> describeRun(List<Experiment> experiments, LocalDateTime started, int threads) {
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("started", started.format(DateTimeFormatter.ISO_LOCAL_DATE_TIME));
        run.put("reproduce", String.join(", ", experiments.stream().map(e -> e.name() + " (seed " + e.seed() + ")")
                .toList()));
        run.put("profile", Profile.DEFAULT.toString());
        run.put("repeats", 1);
        if (duration != null) {
            run.put("shortened", "wrk ran " + duration + " s in each wrk cell instead of the published duration: the"
                    + " published figures beside them are for their shape only");
        }
        run.put("origin", "the suite's own, " + threads + " request threads; its database: "
                + database(experiments).describe("the suite's PostgreSQL 15"));
        run.put("machine", Machine.oneLine(NginxServer.version()));
        return run;
    }

    @Override
    public Map<String, WholeNumber> wholeNumbers() {
        return WholeNumber.byFlag(DURATION);
    }
}
