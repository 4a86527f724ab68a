package dev.ratecache.suite.up;

import dev.ratecache.proc.Poll;
import dev.ratecache.proc.Ports;
import dev.ratecache.proc.PostgresServer;
import dev.ratecache.suite.edge.Edge;
import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.edge.LiveCounters;
import dev.ratecache.suite.origin.OriginDatabase;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One {@code ./run-tests.sh up}, from claiming its results folder to leaving nothing behind: it
 * starts the stack, writes {@link UpState} for down, gui and peak, prints the URLs and a status
 * line every few seconds, and on Ctrl-C, down (SIGTERM), a tier that dies or a failed start stops
 * every process it started and removes the state files. The command line has checked its input
 * and the machine before.
 */
public final class UpSession {
    /**
     * What to start and how often to report.
     *
     * @param product       whose tiers (--edge), its refusal already asked
     * @param switches      the tiers' switches (a --scenario's already applied)
     * @param originArgs    arguments for the suite's own origin (the profile's)
     * @param everySeconds  the status line's period
     * @param database      the suite's own origin's database and pool: with PostgreSQL, up starts it first
     */
    public record Settings(EdgeProduct product, StackSwitches switches, StackPorts ports, int originThreads,
            List<String> originArgs, int everySeconds, OriginDatabase database) {
        public Settings(EdgeProduct product, StackSwitches switches, StackPorts ports, int originThreads,
                List<String> originArgs, int everySeconds) {
            this(product, switches, ports, originThreads, originArgs, everySeconds, OriginDatabase.defaults());
        }
    }

    private final Settings settings;
    /** The product's adapter: what up shows of its tiers is its to say. */
    private final Edge edge;
    private final Path resultsDir;
    private final Path runDir;
    private final PrintWriter out;
    private final PrintWriter err;
    private final Object cleanupLock = new Object();
    private Stack stack;
    /** The origin's PostgreSQL with --origin-db postgres, started before the stack and stopped after it. */
    private PostgresServer postgres;
    private UpState state;
    private boolean cleanedUp;
    /** Set as soon as a stop begins (a signal, the shutdown hook or the end of run()). */
    private volatile boolean stopping;
    /** The exit code of the stop asked for: 0 for down's SIGTERM, the shell's 130 for Ctrl-C. */
    private volatile int stopCode = 130;

    /** {@code runDir}, not yet made, is this up's run folder under {@code resultsDir}, where up.json goes too. */
    public UpSession(Settings settings, Path resultsDir, Path runDir, PrintWriter out, PrintWriter err) {
        this.settings = settings;
        this.edge = settings.product().adapter();
        this.resultsDir = resultsDir;
        this.runDir = runDir;
        this.out = out;
        this.err = err;
    }

    /** The one line a second up gets. */
    public static String alreadyRunning(UpState running, Path resultsDir) {
        return "run-tests.sh up: an up is already running (" + running.describe() + "): use it, or stop it with "
                + downCommand(resultsDir);
    }

    /** The command that stops an up keeping its state in {@code resultsDir}. */
    public static String downCommand(Path resultsDir) {
        return "./run-tests.sh down" + (resultsDir.equals(UpState.defaultResults().toAbsolutePath().normalize())
                ? "" : " --results " + resultsDir);
    }

    /**
     * Starts the stack and keeps it up until Ctrl-C or down (exit code 130 or 0 as the JVM ends, {@link
     * dev.ratecache.suite.cli.UpCommand}'s exit codes),
     * or until a tier dies or the start fails (1); another up claiming the folder first is 1 too.
     */
    public int run() throws IOException, InterruptedException {
        StackSwitches chosen = settings.switches();
        EdgeProduct product = settings.product();
        StackPorts ports = settings.ports();
        boolean ownOrigin = chosen.origins().isEmpty();
        Files.createDirectories(runDir);
        state = UpState.self(runDir);
        // Claimed before anything starts, so that of two ups started together only one goes on.
        if (!state.claim(resultsDir)) {
            err.println(UpState.running(resultsDir).map(u -> alreadyRunning(u, resultsDir))
                    .orElse("run-tests.sh up: another up is starting (" + UpState.pointer(resultsDir) + "); try again"));
            deleteIfEmpty(runDir);
            return 1;
        }
        // Any other end of the JVM runs its shutdown hooks: this one stops the stack (ManagedProcess's
        // own hook would too) and removes the state files.
        Thread hook = new Thread(() -> cleanUp(true), "up-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
        // down's SIGTERM and Ctrl-C stop the stack before the JVM exits, not in a hook beside
        // ManagedProcess's: that one would stop the tiers at once, and Varnish's log, in memory
        // that goes with varnishd, must be saved while its tiers run. down's stop is a clean exit
        // (0), not the JVM's 143 for a signal; Ctrl-C keeps the shell's 130.
        stopOn("TERM", 0);
        stopOn("INT", 130);
        try {
            out.println("run-tests.sh up: starting " + (ownOrigin ? "the origin, " : "") + "the back end and the front end"
                    + (product == EdgeProduct.DEFAULT ? "" : " in " + product.displayName())
                    + " (switches: " + chosen.describe() + ")");
            out.flush();
            try {
                List<String> originArgs = new ArrayList<>(settings.originArgs());
                if (ownOrigin) {
                    originArgs.addAll(settings.database().originArgs());
                    if (settings.database().postgres()) {
                        postgres = PostgresServer.start(runDir.resolve("postgres"), 0);
                        originArgs.addAll(postgres.originArgs());
                    }
                }
                stack = Stack.start(product, chosen, ports, runDir, settings.originThreads(), originArgs);
            } catch (IOException | RuntimeException e) {
                String first = String.valueOf(e.getMessage()).lines().findFirst().orElse("").replaceAll(":$", "");
                err.println("run-tests.sh up: could not start: " + dev.ratecache.accesslog.Printable.escape(first)
                        + " (logs in " + dev.ratecache.accesslog.Printable.escape(runDir.toString()) + ")");
                return 1;
            }
            List<UpState.Child> children = new ArrayList<>();
            if (postgres != null) {
                children.add(UpState.Child.of("postgres", postgres.pid()));
            }
            stack.ownOrigin().ifPresent(o -> children.add(UpState.Child.of("origin", o.pid())));
            children.add(UpState.Child.of("back", stack.backPid()));
            children.add(UpState.Child.of("front", stack.frontPid()));
            Map<String, String> urls = urls(ownOrigin, chosen);
            // Without the trailing / another product's URI has: the banner appends paths.
            urls.put("front", stack.frontUri().toString().replaceFirst("/$", ""));
            stack.tls().ifPresent(tls -> urls.put("front-ca", tls.trust().toAbsolutePath().toString()));
            if (chosen.httpPort() != 0) {
                urls.put("front-http", "http://" + Ports.LOOPBACK + ":" + chosen.httpPort());
            }
            Map<String, Integer> portMap = portMap(ownOrigin);
            if (postgres != null) {
                urls.put("database", postgres.jdbcUrl());
                portMap.put("postgres", postgres.port());
            }
            state = state.with(children, urls, portMap);
            state.write(resultsDir);
            // The first reading before the URLs are out: every request sent after seeing them counts.
            LiveCounters counters = edge.liveCounters(stack.tiers(), stack.spec(), productDir(), chosen.rejectStatus());
            LiveStatus live = new LiveStatus(counters, ownOrigin ? ports.management() : 0);
            printBanner(urls, counters);
            while (true) {
                // The status line's period, not a wait for something to come up.
                Thread.sleep(settings.everySeconds() * 1000L);
                Optional<String> dead = deadTier(ownOrigin);
                if (dead.isPresent()) {
                    // A terminal's Ctrl-C reaches the whole process group: a tier may exit a moment
                    // before our handler starts. That is a stop, not a tier dying.
                    Poll.pause(500);
                    if (stopping) {
                        return stopCode;
                    }
                    err.println("run-tests.sh up: " + dead.get() + " exited on its own; stopping the rest (logs in " + runDir + ")");
                    return 1;
                }
                out.println(live.next());
                out.flush();
            }
        } finally {
            cleanUp(false);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Already running: it finds the work done.
            }
        }
    }

    /** Where the product's tiers keep their configs and logs (Stack.start's folder for them). */
    private Path productDir() {
        return runDir.resolve(settings.product().toString());
    }

    private Map<String, String> urls(boolean ownOrigin, StackSwitches chosen) {
        StackPorts ports = settings.ports();
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
        edge.statusPage().ifPresent(page -> {
            urls.put("front-status", base + ports.frontStatus() + page);
            urls.put("back-status", base + ports.backStatus() + page);
        });
        return urls;
    }

    private Map<String, Integer> portMap(boolean ownOrigin) {
        StackPorts ports = settings.ports();
        Map<String, Integer> map = new LinkedHashMap<>();
        map.put("front", ports.front());
        map.put("back", ports.back());
        if (ownOrigin) {
            map.put("origin", ports.origin());
            map.put("management", ports.management());
        }
        if (edge.statusPage().isPresent()) {
            map.put("front-status", ports.frontStatus());
            map.put("back-status", ports.backStatus());
        }
        return map;
    }

    private void printBanner(Map<String, String> urls, LiveCounters counters) {
        out.println("run-tests.sh up: running (PID " + ProcessHandle.current().pid() + ")");
        java.util.Optional<dev.ratecache.suite.spec.UserFront> own = settings.switches().ownFront();
        if (own.isPresent()) {
            List<String> paths = own.get().paths().stream().map(dev.ratecache.suite.spec.UserFront.SentPath::path).toList();
            out.println("  front        " + urls.get("front") + paths.get(0) + "  (your config: " + String.join(", ", paths)
                    + "; what it changed: nginx/front/rewired.txt)");
        } else {
            out.println("  front        " + urls.get("front") + "/hare  (/tortoise, /snail; rate limit and edge cache here)");
        }
        if (urls.containsKey("front-ca")) {
            out.println("  try          curl --cacert " + urls.get("front-ca") + " " + urls.get("front") + "/hare"
                    + "  (the CA that signed the edge's certificate)");
        }
        if (urls.containsKey("front-http")) {
            out.println("  cleartext    " + urls.get("front-http") + "  (redirects to https)");
        }
        out.println("  back         " + urls.get("back") + "  (the app-wide limit)");
        out.println("  origin       " + urls.get("origin"));
        if (urls.containsKey("management")) {
            out.println("  management   " + urls.get("management") + "  (counters; /actuator/health, /actuator/prometheus)");
            out.println("  database     " + (postgres == null ? "H2 in the origin's JVM"
                    : urls.get("database") + "  (psql -h " + Ports.LOOPBACK + " -p " + postgres.port() + " -U "
                            + PostgresServer.USER + " " + PostgresServer.DATABASE + ")")
                    + "; /places?code=1227, /places?region=R042, /items/42");
        }
        if (urls.containsKey("front-status")) {
            out.println("  status       " + urls.get("front-status") + " (front), " + urls.get("back-status") + " (back)");
        }
        out.println("  run folder   " + runDir + "  (" + edge.runFolderGuide() + ")");
        out.println("  state        " + UpState.pointer(resultsDir) + " (PIDs, ports, URLs)");
        out.println("  stop         Ctrl-C here, or " + downCommand(resultsDir) + " from another terminal");
        out.println("status every " + settings.everySeconds() + " s: requests/s at each tier, rejected/s and edge HIT % ("
                + counters.source() + "), requests in flight at the origin");
        out.flush();
    }

    /** The tier that is no longer running, if one died while up watched. */
    private Optional<String> deadTier(boolean ownOrigin) {
        if (postgres != null && !postgres.isRunning()) {
            return Optional.of("PostgreSQL");
        }
        if (ownOrigin && !stack.origin().isRunning()) {
            return Optional.of("the origin");
        }
        if (!running(stack.backPid())) {
            return Optional.of("the back end");
        }
        if (!running(stack.frontPid())) {
            return Optional.of("the front end");
        }
        return Optional.empty();
    }

    /** Stops everything, then exits with {@code code}, on {@code signal}; a signal the shell had us ignore stays ignored. */
    private void stopOn(String signal, int code) {
        sun.misc.Signal sig = new sun.misc.Signal(signal);
        sun.misc.SignalHandler before = sun.misc.Signal.handle(sig, s -> {
            stopCode = code;
            cleanUp(true);
            System.exit(code);
        });
        if (before == sun.misc.SignalHandler.SIG_IGN) {
            sun.misc.Signal.handle(sig, before);
        }
    }

    /** Whether the tier whose PID this is still runs; a child that exited is reaped at once, so its PID is gone. */
    private static boolean running(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /** Stops the stack, then removes the state files; once, whichever path gets here first. */
    private void cleanUp(boolean signalled) {
        stopping = true;
        synchronized (cleanupLock) {
            if (cleanedUp) {
                return;
            }
            cleanedUp = true;
            if (stack != null) {
                stack.close();
            }
            if (postgres != null) {
                postgres.close();
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
