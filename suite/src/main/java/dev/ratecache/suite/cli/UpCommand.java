package dev.ratecache.suite.cli;

import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.Matrix;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.matrix.Profile;
import dev.ratecache.proc.Ports;
import dev.ratecache.suite.nginx.NginxSwitches;
import dev.ratecache.proc.Poll;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.up.LiveStatus;
import dev.ratecache.suite.up.UpState;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
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
import picocli.CommandLine.Spec;

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
            "  ./run-tests.sh down                   stop it from another terminal",
            ""})
public final class UpCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    StackPorts ports = new StackPorts();

    @Mixin
    NginxSwitches switches = new NginxSwitches();

    @Option(names = "--scenario", paramLabel = "CELL",
            description = "Take the limits and the cache from a cell of the default or full matrix, e.g."
                    + " stress/server-cache (its client cache is the client's own, not the stack's).")
    String scenario;

    @Mixin
    OriginThreads originThreads = new OriginThreads();

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

    private final Object cleanupLock = new Object();
    private Stack stack;
    private UpState state;
    private boolean cleanedUp;
    /** Set as soon as a stop begins (shutdown hook or the end of call()). */
    private volatile boolean stopping;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path resultsDir = RunFolders.results(results).toAbsolutePath().normalize();
        // Before the ports: a running up holds them, and naming it says more than "port in use".
        Optional<UpState> other = UpState.running(resultsDir);
        if (other.isPresent()) {
            err.println(alreadyRunning(other.get(), resultsDir));
            return 1;
        }
        NginxSwitches chosen = validate();
        boolean ownOrigin = chosen.origins().isEmpty();

        Path runDir = RunFolders.next(resultsDir, "up-");
        Files.createDirectories(runDir);
        state = UpState.self(runDir);
        // Claimed before anything starts, so that of two ups started together only one goes on.
        if (!state.claim(resultsDir)) {
            err.println(UpState.running(resultsDir).map(u -> alreadyRunning(u, resultsDir))
                    .orElse("run-tests.sh up: another up is starting (" + UpState.pointer(resultsDir) + "); try again"));
            deleteIfEmpty(runDir);
            return 1;
        }
        // Ctrl-C and down (SIGTERM) end the JVM through its shutdown hooks: this one stops the
        // stack (ManagedProcess's own hook would too) and removes the state files.
        Thread hook = new Thread(() -> cleanUp(resultsDir, out, true), "up-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            out.println("run-tests.sh up: starting " + (ownOrigin ? "the origin, " : "") + "the back end and the front end"
                    + " (switches: " + chosen.describe() + ")");
            out.flush();
            try {
                stack = Stack.start(chosen, ports, runDir, originThreads.threads(), profile.originArgs());
            } catch (IOException | RuntimeException e) {
                String first = String.valueOf(e.getMessage()).lines().findFirst().orElse("").replaceAll(":$", "");
                err.println("run-tests.sh up: could not start: " + first + " (logs in " + runDir + ")");
                return 1;
            }
            List<UpState.Child> children = new ArrayList<>();
            stack.ownOrigin().ifPresent(o -> children.add(UpState.Child.of("origin", o.pid())));
            children.add(UpState.Child.of("back", stack.backEnd().pid()));
            children.add(UpState.Child.of("front", stack.frontEnd().pid()));
            Map<String, String> urls = urls(ownOrigin, chosen);
            state = state.with(children, urls, portMap(ownOrigin));
            state.write(resultsDir);
            // The first reading before the URLs are out: every request sent after seeing them counts.
            LiveStatus live = new LiveStatus(ports.frontStatus(), ports.backStatus(), ownOrigin ? ports.management() : 0,
                    stack.frontEnd().accessLog(), chosen.rejectStatus());
            printBanner(out, runDir, urls, resultsDir);
            while (true) {
                // The status line's period, not a wait for something to come up.
                Thread.sleep(every * 1000L);
                Optional<String> dead = deadTier(ownOrigin);
                if (dead.isPresent()) {
                    // A terminal's Ctrl-C reaches the whole process group: nginx may exit a moment
                    // before our shutdown hook starts. That is a stop, not a tier dying.
                    Poll.pause(500);
                    if (stopping) {
                        return 130;
                    }
                    err.println("run-tests.sh up: " + dead.get() + " exited on its own; stopping the rest (logs in " + runDir + ")");
                    return 1;
                }
                out.println(live.next());
                out.flush();
            }
        } finally {
            cleanUp(resultsDir, out, false);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Already running: it finds the work done.
            }
        }
    }

    /** The one line a second up gets. */
    static String alreadyRunning(UpState running, Path resultsDir) {
        return "run-tests.sh up: an up is already running (" + running.describe() + "): use it, or stop it with "
                + downCommand(resultsDir);
    }

    /** The command that stops an up keeping its state in {@code resultsDir}. */
    static String downCommand(Path resultsDir) {
        return "./run-tests.sh down" + (resultsDir.equals(UpState.defaultResults().toAbsolutePath().normalize())
                ? "" : " --results " + resultsDir);
    }

    /** Every input checked before anything starts; all problems at once, one line each. Returns the switches to use. */
    NginxSwitches validate() {
        List<String> problems = new ArrayList<>(switches.problems());
        NginxSwitches chosen = switches;
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
        originThreads.problem().ifPresent(problems::add);
        dev.ratecache.suite.nginx.WorkerAccess.problem(RunFolders.results(results), "--results")
                .ifPresent(problems::add);
        if (profile == Profile.FULL) {
            problems.add("--profile full repeats matrix cells; up has none: use quick or default");
        }
        if (switches.edges() > 1) {
            // Its live line reads one front end's log and counters; several edges are measured by a matrix run.
            problems.add("--edges " + switches.edges() + ": up runs one front end; run several edges with ./run-tests.sh --edges N");
        }
        if (every < 1 || every > 3600) {
            problems.add("--every must be a whole number of seconds from 1 to 3600 (got " + every + ")");
        }
        problems.addAll(ports.problems(chosen.origins().isEmpty()));
        if (!problems.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), String.join("\n  ", problems));
        }
        return chosen;
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

    private Map<String, String> urls(boolean ownOrigin, NginxSwitches chosen) {
        String base = "http://" + Ports.LOOPBACK + ":";
        Map<String, String> urls = new LinkedHashMap<>();
        urls.put("front", base + ports.front());
        urls.put("back", base + ports.back());
        if (ownOrigin) {
            urls.put("origin", base + ports.origin());
            urls.put("management", base + ports.management() + "/actuator/origin");
        } else {
            urls.put("origin", String.join(", ", chosen.origins().stream().map(Object::toString).toList()));
        }
        urls.put("front-status", base + ports.frontStatus() + "/nginx_status");
        urls.put("back-status", base + ports.backStatus() + "/nginx_status");
        return urls;
    }

    private Map<String, Integer> portMap(boolean ownOrigin) {
        Map<String, Integer> map = new LinkedHashMap<>();
        map.put("front", ports.front());
        map.put("back", ports.back());
        if (ownOrigin) {
            map.put("origin", ports.origin());
            map.put("management", ports.management());
        }
        map.put("front-status", ports.frontStatus());
        map.put("back-status", ports.backStatus());
        return map;
    }

    private void printBanner(PrintWriter out, Path runDir, Map<String, String> urls, Path resultsDir) {
        out.println("run-tests.sh up: running (PID " + ProcessHandle.current().pid() + ")");
        out.println("  front        " + urls.get("front") + "/hare  (/tortoise, /snail; rate limit and edge cache here)");
        out.println("  back         " + urls.get("back") + "  (the app-wide limit)");
        out.println("  origin       " + urls.get("origin"));
        if (urls.containsKey("management")) {
            out.println("  management   " + urls.get("management") + "  (counters; /actuator/health, /actuator/prometheus)");
        }
        out.println("  status       " + urls.get("front-status") + " (front), " + urls.get("back-status") + " (back)");
        out.println("  run folder   " + runDir + "  (nginx/*/conf: rendered configs; nginx/*/logs, origin.log: logs)");
        out.println("  state        " + UpState.pointer(resultsDir) + " (PIDs, ports, URLs)");
        out.println("  stop         Ctrl-C here, or " + downCommand(resultsDir) + " from another terminal");
        out.println("status every " + every + " s: requests/s at each tier, rejected/s and edge HIT % (front access log),"
                + " requests in flight at the origin");
        out.flush();
    }

    /** The tier that is no longer running, if one died while up watched. */
    private Optional<String> deadTier(boolean ownOrigin) {
        if (ownOrigin && !stack.origin().isRunning()) {
            return Optional.of("the origin");
        }
        if (!stack.backEnd().isRunning()) {
            return Optional.of("the back end");
        }
        if (!stack.frontEnd().isRunning()) {
            return Optional.of("the front end");
        }
        return Optional.empty();
    }

    /** Stops the stack, then removes the state files; once, whichever path gets here first. */
    private void cleanUp(Path resultsDir, PrintWriter out, boolean signalled) {
        stopping = true;
        synchronized (cleanupLock) {
            if (cleanedUp) {
                return;
            }
            cleanedUp = true;
            if (stack != null) {
                stack.close();
            }
            if (state != null) {
                state.remove(resultsDir);
                deleteIfEmpty(Path.of(state.runDir()));
            }
            if (signalled && stack != null) {
                out.println("run-tests.sh up: stopped; run folder kept: " + state.runDir());
                out.flush();
            }
        }
    }

    /** A run folder nothing was started in is no use to anyone. */
    private static void deleteIfEmpty(Path dir) {
        try {
            Files.deleteIfExists(dir);
        } catch (IOException notEmpty) {
            // It holds logs: kept.
        }
    }
}
