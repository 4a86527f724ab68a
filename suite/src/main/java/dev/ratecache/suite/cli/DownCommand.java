package dev.ratecache.suite.cli;

import dev.ratecache.accesslog.Printable;
import dev.ratecache.suite.switches.WholeNumber;
import dev.ratecache.suite.up.UpState;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * Stops a running {@code ./run-tests.sh up} from another terminal: SIGTERM to the up process (found
 * by its state file, and checked to be that up by its start time and command), which stops its
 * children as on Ctrl-C; then waits until it and every child are gone.
 */
@Command(name = "down", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Stop the stack a running ./run-tests.sh up started, and wait until every process of it is gone."
                    + " With nothing running it says so and exits 0.",
            "",
            "  ./run-tests.sh down",
            "  ./run-tests.sh down --results DIR   when up was started with --results DIR",
            ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:stopped, or nothing was running",
            "1:the up or a child did not stop within --timeout (then killed)",
            "2:bad input"})
public final class DownCommand implements Callable<Integer>, WholeNumber.Flags {
    private static final WholeNumber TIMEOUT = WholeNumber.of("--timeout", 1, 3600, "seconds");

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--results", paramLabel = "DIR",
            description = "Where the up keeps up.json: the --results it was started with. Default: results/ in the checkout.")
    Path results;

    @Option(names = "--timeout", paramLabel = "SECONDS",
            description = "How long to wait for everything to stop before killing what is left. Default: ${DEFAULT-VALUE}.")
    int timeout = 30;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Optional<String> badTimeout = TIMEOUT.problem(timeout);
        if (badTimeout.isPresent()) {
            throw new CommandLine.ParameterException(spec.commandLine(), badTimeout.get());
        }
        // A file is no folder an up keeps its state in: "no up is running" would hide the mistake.
        Optional<String> badResults = RunFolders.notAFolder(RunFolders.results(results), "--results");
        if (badResults.isPresent()) {
            throw new CommandLine.ParameterException(spec.commandLine(), badResults.get());
        }
        Path resultsDir = RunFolders.results(results).toAbsolutePath().normalize();
        Optional<UpState> found = UpState.read(UpState.pointer(resultsDir));
        if (found.isEmpty()) {
            out.println("run-tests.sh down: no up is running (no " + Printable.escape(UpState.pointer(resultsDir).toString())
                    + ")");
            return 0;
        }
        UpState up = found.get();
        if (!up.alive()) {
            up.remove(resultsDir);
            out.println("run-tests.sh down: no up is running (removed the state of PID " + up.pid()
                    + ", which had exited)");
            return 0;
        }
        long started = System.nanoTime();
        ProcessHandle handle = ProcessHandle.of(up.pid()).orElseThrow();
        // Everything to wait for, taken before the signal: up itself, its children (listed in the
        // state, each checked by its start time) and their descendants, such as nginx's workers.
        List<ProcessHandle> all = new ArrayList<>();
        all.add(handle);
        all.addAll(handle.descendants().toList());
        for (ProcessHandle child : up.liveChildren()) {
            if (all.stream().noneMatch(h -> h.pid() == child.pid())) {
                all.add(child);
            }
        }
        handle.destroy(); // SIGTERM: up's shutdown hook stops its children and removes the state files
        List<ProcessHandle> left = awaitExit(all, Duration.ofSeconds(timeout));
        if (!left.isEmpty()) {
            left.forEach(ProcessHandle::destroyForcibly);
            up.remove(resultsDir);
            spec.commandLine().getErr().println("run-tests.sh down: " + left.size() + " process(es) of the up ("
                    + up.describe() + ") did not stop within " + timeout + " s and were killed: PIDs "
                    + String.join(", ", left.stream().map(h -> String.valueOf(h.pid())).toList()));
            return 1;
        }
        up.remove(resultsDir); // normally gone already; a no-op then
        out.printf(Locale.ROOT, "run-tests.sh down: stopped the up (%s) and its %d processes in %.1f s%n",
                up.describe(), all.size() - 1, (System.nanoTime() - started) / 1e9);
        return 0;
    }

    /** Waits until every process has exited or the time is up; returns those still running. */
    static List<ProcessHandle> awaitExit(List<ProcessHandle> processes, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        for (ProcessHandle p : processes) {
            CompletableFuture<ProcessHandle> exit = p.onExit();
            try {
                exit.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException stillRunning) {
                break;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (java.util.concurrent.ExecutionException impossible) {
                // onExit does not fail.
            }
        }
        return processes.stream().filter(ProcessHandle::isAlive).toList();
    }

    @Override
    public Map<String, WholeNumber> wholeNumbers() {
        return WholeNumber.byFlag(TIMEOUT);
    }
}
