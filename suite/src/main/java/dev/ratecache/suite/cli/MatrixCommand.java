package dev.ratecache.suite.cli;

import dev.ratecache.proc.Ports;
import dev.ratecache.proc.PostgresServer;
import dev.ratecache.proc.RedisServer;
import dev.ratecache.suite.edge.Capability;
import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.jmeter.JMeter;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.Matrix;
import dev.ratecache.suite.matrix.MatrixRunner;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.matrix.Profile;
import dev.ratecache.suite.nginx.NginxServer;
import dev.ratecache.suite.nginx.WorkerAccess;
import dev.ratecache.suite.origin.OriginDatabase;
import dev.ratecache.suite.predict.CellPrediction;
import dev.ratecache.suite.predict.Predictions;
import dev.ratecache.suite.predict.Predictor;
import dev.ratecache.suite.report.Check;
import dev.ratecache.suite.report.Machine;
import dev.ratecache.suite.report.ReportSection;
import dev.ratecache.suite.report.ReportWriter;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.suite.switches.WholeNumber;
import dev.ratecache.suite.terminal.Terminal;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * A command that runs a matrix of cells and writes its report: the reference experiment's plans
 * (run-tests.sh itself) or a replayed access log (run-tests.sh replay). The options every such run
 * takes are here; each command says which plans its cells run and what they need.
 */
abstract class MatrixCommand implements Callable<Integer>, WholeNumber.Flags {
    static final WholeNumber REPEAT = WholeNumber.of("--repeat", 1, 100);

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    StackPorts ports = new StackPorts();

    @Mixin
    StackSwitches switches = new StackSwitches();

    @Mixin
    OriginThreads originThreads = new OriginThreads();

    @Mixin
    OriginDelayOptions originDelays = new OriginDelayOptions();

    @Mixin
    DatabaseOptions database = new DatabaseOptions();

    @Mixin
    OwnConfigOptions ownConfig = new OwnConfigOptions();

    @Option(names = "--matrix", paramLabel = "KIND",
            description = "${COMPLETION-CANDIDATES}. default: the reference experiment's cells; full: every combination"
                    + " of front limit, back limit, server cache and client cache per plan, plus direct; protection: the"
                    + " flood plan at 2x, 5x and 10x the front rate, from one address and from many, with the back limit's"
                    + " promise checked; caches: the hotset plan (reads and writes of /items) with no cache, the edge"
                    + " cache, the origin's Redis app cache, both, and the edge with JMeter's client cache, rate limits"
                    + " off; tiers: the keys plan (API keys over tiers) limited by address against by key, counting"
                    + " every request against only misses, with and without one key flooding at 10x its tier's rate;"
                    + " fleet: one per-client limit across --edges N edges (3 unless given), each --fleet-limit strategy"
                    + " (split also under URI hash), one API key sending at 2x its tier's rate beside a crowd under"
                    + " theirs, the edge cache on: each cell's effective per-client limit, and the promise (no key"
                    + " admitted more than rate + burst in any second, fleet-wide) checked: per-edge breaks it, so"
                    + " the run's exit code is 1; edges: every edge product (--edge's values) side by side, each with both"
                    + " limits (nodelay unless --front-mode or --back-mode say otherwise) and the edge cache on where it"
                    + " has one, on the stress and"
                    + " load plans and the flood at 2x and 10x the front rate from one address and from many, with each"
                    + " edge's per-client and back-limit promises checked; db: the small /places query on PostgreSQL"
                    + " (--origin-db postgres is its default, h2 is refused; --origin-threads 50 unless given) under the stress plan straight to the"
                    + " origin, behind the edge cache, the app cache (Redis) and both, then the flood plan straight to"
                    + " the origin with pools of 2, 5, 10, 20 and 50 (--db-pool sets the first four cells' pool), with"
                    + " where the pool's optimum lies; attacks: the stress plan on each edge product (--edge keeps"
                    + " one), alone and beside 500 slow clients from 127.0.0.66 sending headers, a body or reading"
                    + " answers a little a second, with the promise checked (the normal clients keep 90 %% of their"
                    + " throughput, the origin within the back limit); faults: the flood at twice the front rate (40 r/s, burst 5, nodelay"
                    + " unless given; --origin-threads 100 unless given) while nginx's front tier is reloaded with a quarter of it, while one of its"
                    + " workers is killed, while the suite's origin is killed and started again (not with --origin),"
                    + " again on a path that permits no stale, while a 256k edge cache fills with a URL per request,"
                    + " and with --app-cache redis while Redis is killed and started again, with each promise checked"
                    + " (no failed request and the new limit in force; the worker started again; no failed request and"
                    + " the edge back on the new origin; no stale answer where none is permitted; the cache manager"
                    + " evicting; no failed request without Redis) and the requests lost counted. Default: ${DEFAULT-VALUE}.")
    MatrixKind matrix = MatrixKind.DEFAULT;

    @Option(names = "--edge", paramLabel = "PRODUCT",
            description = EdgeOption.HELP + " With --matrix edges it keeps that product's cells. Default: ${DEFAULT-VALUE}.")
    EdgeProduct edge = EdgeProduct.DEFAULT;

    @Option(names = "--app-cache", paramLabel = "MODE",
            description = "${COMPLETION-CANDIDATES}. The origin's own cache of /items and /places reads: redis starts the suite's"
                    + " redis-server (Debian's, on a port of its own, no persistence) and the origin with"
                    + " origin.app-cache=redis, for every cell; with --matrix caches it picks that matrix's cells with"
                    + " (redis) or without (off) it. Default: ${DEFAULT-VALUE}.")
    AppCacheOption appCache = AppCacheOption.OFF;

    @Option(names = "--redis-port", paramLabel = "PORT",
            description = "The app cache's redis-server port (loopback only). Default: a free port.")
    int redisPort;

    @Option(names = "--only", paramLabel = "CELL[,CELL]", split = ",",
            description = "Run only these cells, e.g. --only stress/server-cache,load/both.")
    List<String> only = new ArrayList<>();

    @Option(names = "--profile", paramLabel = "PROFILE",
            description = "${COMPLETION-CANDIDATES}. quick: scaled down for CI and a first look (under 2 minutes);"
                    + " default: the reference sizes; full: the reference sizes, each cell 3 times."
                    + " Default: ${DEFAULT-VALUE}.")
    Profile profile = Profile.DEFAULT;

    @Option(names = "--repeat", paramLabel = "N",
            description = "Run each cell N times and report the median and the spread. Default: the profile's (1, or 3 for full).")
    Integer repeat;

    @Option(names = "--assert", paramLabel = "CHECK",
            description = "A pass/fail check, CELL.METRIC OP VALUE (OP: == != < <= > >=), e.g. --assert"
                    + " 'stress/server-cache.rejected_pct == 0'; repeatable. METRIC is an id of " + Metric.GLOSSARY
                    + ", which says what each means, its unit and how it is measured. A failed check makes the exit"
                    + " code 1; checks.xml has them as JUnit XML.")
    List<String> asserts = new ArrayList<>();

    @Option(names = "--assert-file", paramLabel = "FILE", description = "Checks, one per line (# starts a comment).")
    Path assertFile;

    @Option(names = "-J", paramLabel = "NAME=VALUE",
            description = "A JMeter property for every cell, e.g. -Jusers=10 -Jloops=5; repeatable.")
    Map<String, String> jmeterProperties = new LinkedHashMap<>();

    @Option(names = "--results", paramLabel = "DIR", description = "Where run folders go. Default: results/ in the checkout.")
    Path results;

    @Mixin
    LoadHostOptions loadHosts = new LoadHostOptions();

    @Mixin
    DryRun dryRun = new DryRun();

    @Mixin
    BaselineOptions baseline = new BaselineOptions();

    @Option(names = "--no-dashboards",
            description = "Skip JMeter's HTML dashboard and PNG graphs of each cell (three JVMs per cell, several"
                    + " CPU-seconds each): a faster run when the report is all you need. The report says they were"
                    + " skipped; each cell's JTL stays in its folder.")
    boolean noDashboards;

    @Option(names = "--verbose",
            description = "Show JMeter's and the client driver's own output as they run (their warnings, banner and"
                    + " summary every 5 s) instead of one live line per cell; it is always in the cell's folder"
                    + " (jmeter/jmeter.out, library/driver.out).")
    boolean verbose;

    /**
     * Null, or how the cells run beside another run's: compare's two configs take turns cell by cell
     * ({@link TwoConfigs}), so that the machine's drift falls on both.
     */
    CellTurns turns;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Terminal terminal = Terminal.of(out, verbose);
        LocalDateTime started = LocalDateTime.now().withNano(0);
        Path runDir = RunFolders.next(RunFolders.results(results), "");
        Run run = validate(runDir);
        checkMachine(run, runDir);
        JMeter.Remote remote = loadHosts.given() ? checkLoadHosts(runDir) : null;
        if (dryRun.on) {
            List<String> cells = new ArrayList<>(List.of(cellsOf(run) + " with " + switches.describe()));
            run.cells.forEach(c -> cells.add("  " + c.name()));
            return dryRun.report(out, cells);
        }
        Files.createDirectories(runDir);
        out.println("run folder: " + runDir);
        out.println("matrix:     " + cellsOf(run));
        out.println("switches:   " + switches.describe());
        if (originDelays.given()) {
            out.println("origin:     " + originDelays.chosen().describe());
        }
        switches.ownFront().filter(own -> !own.limits() && !own.caches())
                .ifPresent(own -> out.println("note:       " + OwnConfigCells.nothingToShow(own)));
        out.flush();
        prepare(runDir, out);

        if (remote != null) {
            out.println("load hosts: " + String.join(", ", remote.hosts()) + " (JMeter servers, RMI "
                    + loadHosts.transport() + "; callback to " + remote.callbackAddress() + ")");
        }
        MatrixRunner.Options options = new MatrixRunner.Options(run.cells, run.profile, run.repeats,
                switches, ports, originThreads.threads(), jmeterProperties, runDir, withKindsOriginArgs(originArgs(runDir), runDir, run.profile), cellReport(), redisPort,
                !noDashboards, originDatabase());
        MatrixRunner.Outcome outcome = turns != null ? turns.run(options, terminal, remote)
                : new MatrixRunner(options, terminal, remote).run();

        List<Check.Outcome> checked = new ArrayList<>(run.checks.stream().map(c -> c.evaluate(outcome.cells())).toList());
        checked.addAll(builtInChecks(outcome.cells()));
        // A cell that failed is a failed check too, so that checks.xml, which CI reads, says so.
        outcome.cells().stream().filter(CellResult::failed).forEach(r -> checked.add(new Check.Outcome(
                new Check(r.cell().name() + " completed", r.cell().name(), null, "==", 1), false,
                "cell " + r.cell().name() + " failed: " + r.failure())));
        long reportStart = System.nanoTime();
        // The reference's figures stand beside a run only of its sizes and its limits: a nodelay front sets
        // another pace than the one the reference published.
        boolean comparable = run.profile != Profile.QUICK && !ownPlan() && jmeterProperties.isEmpty()
                && switches.origins().isEmpty() && switches.limitsAsTheReference();
        Map<String, CellPrediction> predictions = predict(run, outcome, out);
        List<ReportSection> sections = new ArrayList<>(sections(outcome.cells(), checked, predictions));
        if (switches.ownFront().isPresent()) {
            OwnConfigReport.section(run.cells, runDir).ifPresent(sections::add);
        }
        new ReportWriter(runDir, describeRun(run, started, runDir), outcome, checked, comparable, predictions, sections).write();
        linkLatest(runDir);
        out.println();
        terminal.println(ReportWriter.terminal(runDir, outcome, checked, comparable, predictions, sections));
        out.printf(java.util.Locale.ROOT, "report: %s (index.html, report.md, summary.json, summary.csv); %.1f %% of %.0f s"
                + " outside JMeter runs (report %.1f s)%n", runDir, outcome.overheadPct(), outcome.totalSeconds(),
                (System.nanoTime() - reportStart) / 1e9);
        checked.addAll(baseline.compare(runDir, checked, out, spec.commandLine().getErr()));
        boolean checksFailed = checked.stream().anyMatch(c -> !c.passed());
        if (outcome.anyFailed()) {
            spec.commandLine().getErr().println("run-tests.sh: some cells failed; the report marks them (INCOMPLETE)");
        }
        if (checksFailed) {
            spec.commandLine().getErr().println("run-tests.sh: " + checked.stream().filter(c -> !c.passed()).count()
                    + " check(s) failed: " + String.join("; ", checked.stream().filter(c -> !c.passed())
                    .map(c -> c.check().text() + " (" + c.detail() + ")").toList()));
        }
        return outcome.anyFailed() || checksFailed ? 1 : 0;
    }

    /**
     * The model's prediction for every finished cell. A failure of the model costs the predictions,
     * never the report of what was measured.
     */
    private Map<String, CellPrediction> predict(Run run, MatrixRunner.Outcome outcome, PrintWriter out) {
        try {
            return Predictions.of(outcome.cells(), new Predictions.Run(switches, run.profile, originThreads.threads(),
                    jmeterProperties, replayTraffic(), matrix.model(), originDelays.chosen()));
        } catch (RuntimeException e) {
            out.println("note: no predictions in this report: the model failed (" + e + ")");
            return Map.of();
        }
    }

    /** The checks the kind of matrix makes by itself, beside the user's --assert. */
    List<Check.Outcome> builtInChecks(List<CellResult> cells) {
        return matrix.checks(cells, limitsAsSwitched());
    }

    /** The stack as switched with both limits on: what a kind's checks and sections promise of its cells. */
    private StackSpec limitsAsSwitched() {
        return switches.copy().frontLimit(true).backLimit(true).spec(new StackPorts());
    }

    /** The sections the kind of matrix adds to its report. */
    List<ReportSection> sections(List<CellResult> cells, List<Check.Outcome> checks,
            Map<String, CellPrediction> predictions) {
        return matrix.sections(cells, checks, predictions, limitsAsSwitched());
    }

    /** "N cells (MATRIX, profile P[, each R times])": what the run and its dry run say they run. */
    private String cellsOf(Run run) {
        return run.cells.size() + " cells (" + matrix + ", profile " + run.profile
                + (run.repeats > 1 ? ", each " + run.repeats + " times" : "") + ")";
    }

    /** What a run will do, once every input has been checked. */
    record Run(List<Cell> cells, Profile profile, int repeats, List<Check> checks) {}

    /**
     * The input checked before anything starts: flag values, files, combinations; all problems at
     * once, one line each. Binds no port and starts no process ({@link #checkMachine} does, once the
     * input is good). A problem that leaves nothing to check further (a log that can't be read, so
     * no plan and no cells) is the only line about it: no second line about what it left empty.
     */
    Run validate(Path runDir) {
        matrix.defaults(switches, kindInput(List.of()));
        if (spec.commandLine().getParseResult().hasMatchedOption("--edge") && !matrix.cellsChooseEdge()) {
            EdgeDefaults.fit(edge, switches, spec.commandLine().getParseResult())
                    .forEach(spec.commandLine().getOut()::println);
        }
        List<String> problems = new ArrayList<>(switches.problems());
        originThreads.problem().ifPresent(problems::add);
        problems.addAll(originDelays.problems());
        problems.addAll(database.problems());
        databaseOfKind().ifPresent(problems::add);
        if (matrix.originThreads() > 0 && !spec.commandLine().getParseResult().hasMatchedOption("--origin-threads")) {
            originThreads.threads = matrix.originThreads();
        }
        if (!switches.origins().isEmpty() && database.anyGiven(spec.commandLine().getParseResult())) {
            problems.add("--origin-db, --db-pool and --db-acquire-timeout set the suite's own origin's database:"
                    + " drop --origin, or them");
        }
        if (!switches.origins().isEmpty() && originDelays.given()) {
            problems.add("--origin-delay sets the suite's own origin; your origin (--origin) keeps its own delays:"
                    + " drop --origin, or --origin-delay");
        }
        int repeats = repeat != null ? repeat : profile.repeats();
        REPEAT.check(problems, repeats);
        if (redisPort < 0 || redisPort > 65535) {
            problems.add("--redis-port must be a port from 1 to 65535 (got " + redisPort + ")");
        } else if (redisPort != 0 && ports.isOneOf(redisPort)) {
            problems.add("--redis-port " + redisPort + " is one of the stack's ports: give Redis its own");
        }
        jmeterProperties.forEach((name, value) -> propertyProblem(name, value).ifPresent(problems::add));
        problems.addAll(ports.problems(switches));
        RunFolders.notAFolderForTheTiers(results).ifPresent(problems::add);
        if (loadHosts.given()) {
            problems.addAll(loadHosts.problems(ports.listen()));
        }
        List<String> checkTexts = new ArrayList<>(asserts);
        if (assertFile != null) {
            try {
                dev.ratecache.accesslog.UserFile.lines(assertFile, dev.ratecache.accesslog.UserFile.SMALL).stream()
                        .map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#")).forEach(checkTexts::add);
            } catch (dev.ratecache.accesslog.UserFile.Refused e) {
                problems.add("--assert-file " + e.getMessage());
            } catch (java.io.IOException e) {
                problems.add("--assert-file " + assertFile + " cannot be read: give a file of checks, one per line");
            }
        }
        problems.addAll(baseline.problems());
        problems.addAll(ownConfig.orphans());
        if (ownConfig.given() && edge != dev.ratecache.suite.edge.EdgeProduct.NGINX) {
            problems.add("--nginx-conf is an nginx config, which only nginx's front runs: drop --edge " + edge);
        } else if (ownConfig.given() && matrix != MatrixKind.DEFAULT && matrix != MatrixKind.FULL) {
            problems.add("--nginx-conf runs the plans' matrices (default, full): --matrix " + matrix
                    + " renders a front tier of its own");
        } else if (ownConfig.given() && problems.isEmpty()) {
            OwnConfigOptions.applyOrSay(ownConfig, switches, problems);
        }
        List<String> planProblems = new ArrayList<>();
        List<Plan> plans = plans(planProblems, runDir);
        problems.addAll(planProblems);
        List<Cell> selected = planProblems.isEmpty() ? cells(plans, problems) : List.of();
        List<Cell> cells = switches.ownFront().map(own -> OwnConfigCells.of(own, selected)).orElse(selected);
        if (problems.isEmpty()) {
            problems.addAll(edgeRefusals(cells));
        }
        if (cells.stream().anyMatch(Cell::appCache) && !switches.origins().isEmpty()) {
            problems.add("--app-cache redis is the suite's own origin's cache: drop --origin, or --app-cache");
        }
        List<Check> checks = new ArrayList<>();
        if (!cells.isEmpty()) {
            for (String text : checkTexts) {
                try {
                    checks.add(Check.parse(text, cells));
                } catch (IllegalArgumentException e) {
                    problems.add("--assert " + e.getMessage());
                }
            }
        }
        if (loadHosts.given()) {
            cells = cells.stream().filter(c -> !c.direct() && !c.library()).toList();
        }
        // Last, once the input is good: each cell would "complete" with nothing but errors.
        dev.ratecache.suite.switches.OriginUrl.addUnanswered(switches.origins(), problems);
        Refuse.ifAny(spec, problems);
        return new Run(cells, profile, repeats, checks);
    }

    /** What the cells' edge products cannot run of the cells' switches: one line per distinct reason. */
    private List<String> edgeRefusals(List<Cell> cells) {
        java.util.Set<String> refusals = new java.util.LinkedHashSet<>();
        for (Cell c : cells) {
            if (!c.direct()) {
                c.edge().refusal(c.apply(switches), ports).ifPresent(refusals::add);
            }
        }
        return List.copyOf(refusals);
    }

    /** The cells to run, of {@code plans}: the matrix's, narrowed by the switches given and --only. */
    private List<Cell> cells(List<Plan> plans, List<String> problems) {
        try {
            List<Cell> cells = Matrix.select(withEdge(withAppCache(filterBySwitches(cellsOf(plans)))), only);
            if (cells.isEmpty()) {
                problems.add("no cell of --matrix " + matrix + " matches " + String.join(" ", narrowingFlags())
                        + ": drop one of them or use --only");
            }
            return cells;
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
            return List.of();
        } catch (IllegalStateException e) {
            // The tiers and fleet matrices are made of the --tiers file, which the switches' check
            // already refused in its one line: nothing is left to say about their cells.
            if (problems.isEmpty()) {
                throw e;
            }
            return List.of();
        }
    }

    /** The flags given that narrow the matrix, as given. */
    private List<String> narrowingFlags() {
        CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        List<String> given = new ArrayList<>();
        if (parsed.hasMatchedOption("--cache")) {
            given.add(switches.cache() ? "--cache" : "--no-cache");
        }
        if (parsed.hasMatchedOption("--front-limit")) {
            given.add(switches.frontLimit() ? "--front-limit" : "--no-front-limit");
        }
        if (parsed.hasMatchedOption("--back-limit")) {
            given.add(switches.backLimit() ? "--back-limit" : "--no-back-limit");
        }
        if (parsed.hasMatchedOption("--app-cache")) {
            given.add("--app-cache " + appCache);
        }
        return given;
    }

    /**
     * What this machine must give the run, checked once the input is good: the ports free to bind
     * (each is bound for a moment), redis-server installed for the app cache, the run folder open
     * to nginx's workers. All problems at once, one line each.
     */
    void checkMachine(Run run, Path runDir) {
        List<String> problems = new ArrayList<>();
        if (run.cells.stream().anyMatch(Cell::appCache)) {
            RedisServer.notInstalled().ifPresent(problems::add);
            if (redisPort != 0) {
                Ports.problem(redisPort, "--redis-port").ifPresent(problems::add);
            }
        }
        if (run.cells.stream().anyMatch(c -> !c.direct())) {
            WorkerAccess.problem(runDir.getParent(), "--results").ifPresent(problems::add);
        } else if (originDatabase().postgres()) {
            WorkerAccess.postgresProblem(runDir.getParent(), "--results").ifPresent(problems::add);
        }
        if (originDatabase().postgres()) {
            PostgresServer.notInstalled().ifPresent(problems::add);
        }
        problems.addAll(ports.unavailable(switches.origins().isEmpty()));
        Refuse.ifAny(spec, problems);
    }

    /** The load hosts' step, last before the run: it talks to them and runs JMeter. Returns the remote to run through. */
    private JMeter.Remote checkLoadHosts(Path runDir) {
        List<String> problems = new ArrayList<>();
        JMeter.Remote remote = loadHosts.check(runDir.resolveSibling(runDir.getFileName() + "-probe"),
                spec.commandLine().getOut(), spec.commandLine().getErr(), problems);
        Refuse.ifAny(spec, problems);
        return remote;
    }

    /** The plans' numeric and on/off properties, checked here so a typo fails before anything starts. */
    static Optional<String> propertyProblem(String name, String value) {
        // The user's value, escaped and cut short: one line, however long or strange.
        String shown = dev.ratecache.accesslog.Printable.shown(value);
        String shownName = dev.ratecache.accesslog.Printable.shown(name);
        if (Plan.isCount(name) && !value.matches("\\d{1,9}")) {
            return Optional.of("-J" + shownName + "=" + shown + ": " + shownName + " must be a whole number >= 0");
        }
        // hotset.jmx would refuse these too, but only once JMeter and the stack are up.
        if (Plan.isPercent(name) && Integer.parseInt(value) > 100) {
            return Optional.of("-J" + shownName + "=" + shown + ": " + shownName + " is a share in percent, a whole number from 0 to 100");
        }
        if (name.equals("client_cache") && !value.equals("true") && !value.equals("false")) {
            return Optional.of("-Jclient_cache=" + shown + ": use true or false (the matrix sets it per cell)");
        }
        return Optional.empty();
    }

    /** Matrix switches given on the command line narrow the matrix to the cells that agree with them. */
    private List<Cell> filterBySwitches(List<Cell> cells) {
        CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        // An edge without a cache has had the cache's default turned off (EdgeDefaults): its cells follow it.
        boolean cacheGiven = parsed.hasMatchedOption("--cache") || (parsed.hasMatchedOption("--edge")
                && !matrix.cellsChooseEdge() && !edge.adapter().capabilities().contains(Capability.CACHE));
        boolean frontGiven = parsed.hasMatchedOption("--front-limit");
        boolean backGiven = parsed.hasMatchedOption("--back-limit");
        return cells.stream()
                .filter(c -> !cacheGiven || c.serverCache() == switches.cache())
                .filter(c -> !frontGiven || c.direct() || c.frontLimit() == switches.frontLimit())
                .filter(c -> !backGiven || c.direct() || c.backLimit() == switches.backLimit())
                .toList();
    }

    /**
     * --edge: in the edges matrix, whose cells each have their own product, it keeps that product's
     * cells (when given); in any other matrix, every cell through the tiers runs through it.
     */
    private List<Cell> withEdge(List<Cell> cells) {
        if (!spec.commandLine().getParseResult().hasMatchedOption("--edge")) {
            return cells;
        }
        if (matrix.cellsChooseEdge()) {
            return cells.stream().filter(c -> c.edge() == edge).toList();
        }
        return cells.stream().map(c -> c.direct() ? c : c.withEdge(edge)).toList();
    }

    /**
     * --app-cache: in the caches matrix, whose cells each have their own mode, it keeps the cells of
     * the mode given (when given); in any other matrix, redis turns the app cache on in every cell.
     */
    private List<Cell> withAppCache(List<Cell> cells) {
        boolean given = spec.commandLine().getParseResult().hasMatchedOption("--app-cache");
        if (!given) {
            return cells;
        }
        boolean on = appCache == AppCacheOption.REDIS;
        if (matrix.cellsChooseAppCache()) {
            return cells.stream().filter(c -> c.appCache() == on).toList();
        }
        return cells.stream().map(c -> c.direct() || c.library() ? c : c.withAppCache(on)).toList();
    }

    private Map<String, Object> describeRun(Run chosen, LocalDateTime started, Path runDir) throws java.io.IOException {
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("started", started.format(DateTimeFormatter.ISO_LOCAL_DATE_TIME));
        run.put("matrix", matrix.toString());
        run.put("profile", chosen.profile.toString());
        run.put("repeats", chosen.repeats);
        run.put("switches", switches.describe());
        if (switches.tls()) {
            run.put("tls", "clients reach the edge over https; JMeter speaks HTTP/1.1 with keep-alive over it (its HTTP"
                    + " client has no HTTP/2), so the figures are comparable with a cleartext run's, plus TLS's"
                    + " record cost; ./run-tests.sh peak --tls measures HTTP/2 and new handshakes");
        }
        if (chosen.cells.stream().anyMatch(Cell::appCache)) {
            run.put("app cache", "Redis (" + RedisServer.binary() + ", no persistence, flushed and its counters zeroed"
                    + " before each cell) in the cells marked app cache");
        }
        run.put("origin", switches.origins().isEmpty() ? "the suite's own, " + originThreads.threads() + " request threads"
                + (originDelays.chosen().isEmpty() ? "" : ", " + originDelays.chosen().describe())
                : switches.origins().toString());
        if (switches.origins().isEmpty()) {
            run.put("database", originDatabase().describe("PostgreSQL 15 (" + PostgresServer.binDir()
                    + ", its own cluster in the run folder, fsync off)"));
        }
        if (!jmeterProperties.isEmpty()) {
            run.put("jmeter_properties", jmeterProperties.toString());
        }
        run.putAll(describeInput());
        if (switches.ownFront().isPresent()) {
            run.putAll(OwnConfigReport.header(switches.ownFront().get(), chosen.cells, runDir));
        }
        run.put("machine", Machine.oneLine(NginxServer.version()));
        return run;
    }

    /** The kind's own database (--matrix db's PostgreSQL) in place of the default; a line refusing another given. */
    private Optional<String> databaseOfKind() {
        OriginDatabase.Kind own = matrix.database();
        if (own == null || database.kind == own) {
            return Optional.empty();
        }
        if (spec.commandLine().getParseResult().hasMatchedOption("--origin-db")) {
            return Optional.of("--matrix " + matrix + " runs on --origin-db " + own + " (got '" + database.kind
                    + "'): drop --origin-db");
        }
        database.kind = own;
        return Optional.empty();
    }

    /** The suite's own origin's database and pool, as given (only once the input is checked). */
    dev.ratecache.suite.origin.OriginDatabase originDatabase() {
        return database.chosen(spec.commandLine().getParseResult());
    }

    /** results/latest points at the newest run. */
    static void linkLatest(Path runDir) {
        Path latest = runDir.getParent().resolve("latest");
        try {
            Files.deleteIfExists(latest);
            Files.createSymbolicLink(latest, runDir.getFileName());
        } catch (java.io.IOException | UnsupportedOperationException e) {
            // A file system without links still has the run folder itself.
        }
    }

    /**
     * The plans whose cells this command runs, with files they need going to {@code runDir} (not
     * yet created); bad input goes to {@code problems}, one line each.
     */
    abstract List<Plan> plans(List<String> problems, Path runDir);

    /** Whether the plans are the user's own rather than the reference experiment's. */
    abstract boolean ownPlan();

    /** What to do instead when a matrix runs only the suite's own plans and {@link #ownPlan} is true. */
    abstract String notOwnPlan();

    /** The matrix's cells for {@code plans}, before --only and the switches narrow them. */
    List<Cell> cellsOf(List<Plan> plans) {
        List<Cell> cells = matrix.cells(kindInput(plans));
        // Several edges and no --edge-balance: independent caches beside sharded ones, on the same plan.
        boolean balanceGiven = spec.commandLine().getParseResult().hasMatchedOption("--edge-balance");
        return switches.edges() > 1 && !balanceGiven && !matrix.cellsChooseBalance() ? Matrix.bothEdgeBalances(cells)
                : cells;
    }

    /** What the kind of matrix reads of this command. */
    private MatrixKind.Input kindInput(List<Plan> plans) {
        CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        return new MatrixKind.Input() {
            @Override public List<Plan> plans() { return plans; }
            @Override public StackSwitches switches() { return switches; }
            @Override public boolean given(String option) { return parsed.hasMatchedOption(option); }
            @Override public dev.ratecache.suite.edge.EdgeProduct edge() { return edge; }
            @Override public boolean appCacheRedis() { return appCache == AppCacheOption.REDIS; }
            @Override public boolean ownPlan() { return MatrixCommand.this.ownPlan(); }
            @Override public String notOwnPlan() { return MatrixCommand.this.notOwnPlan(); }
        };
    }

    /** Files the cells need in the run folder, written before the first cell starts. */
    void prepare(Path runDir, PrintWriter out) throws java.io.IOException {}

    /** Arguments for the suite's own origin beside the profile's. */
    List<String> originArgs(Path runDir) {
        return List.of();
    }

    /** The command's origin arguments and those the matrix kind's cells need. */
    private List<String> withKindsOriginArgs(List<String> args, Path runDir, Profile profile) throws java.io.IOException {
        List<String> all = new ArrayList<>(args);
        all.addAll(matrix.originArgs());
        all.addAll(originDelays.chosen().originArgs());
        // A replay's origin answers the log's paths already (its own paths file).
        if (switches.ownFront().isPresent() && all.stream().noneMatch(a -> a.startsWith("--origin.replay.paths-file="))) {
            all.addAll(OwnConfigOrigin.args(switches.ownFront().get(),
                    originDelays.chosen().apply(profile.endpoints()), runDir));
        }
        return all;
    }

    /** What each finished cell adds to its folder beside the usual figures; null for nothing. */
    dev.ratecache.suite.matrix.CellReport cellReport() {
        return null;
    }

    /** The replayed traffic, for the model's predictions; null for the plans' runs. */
    Predictor.ReplayTraffic replayTraffic() {
        return null;
    }

    /** Lines for the report's header about this command's input. */
    Map<String, Object> describeInput() {
        return Map.of();
    }

    @Override
    public Map<String, WholeNumber> wholeNumbers() {
        return WholeNumber.byFlag(REPEAT);
    }
}
