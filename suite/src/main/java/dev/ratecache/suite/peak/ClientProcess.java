package dev.ratecache.suite.peak;

import dev.ratecache.proc.LogTail;
import dev.ratecache.proc.ManagedProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A load client (wrk, h2load, s_time) run to its end as a {@link ManagedProcess}, its output kept
 * in {@code dir} as {@code name}.out and its errors as {@code name}.log for a failed run's reader.
 */
final class ClientProcess {
    /** What the client printed, how long it ran by the wall clock, and the CPU it spent (its load on the machine). */
    record Ran(String output, double wallSeconds, double cpuSeconds) {}

    private ClientProcess() {
    }

    /** Runs {@code command} against {@code target}; a non-zero exit is an IOException with the log's tail. */
    static Ran run(String tool, String name, List<String> command, Path dir, Duration limit, Object target)
            throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path out = dir.resolve(name + ".out");
        Path log = dir.resolve(name + ".log");
        try (ManagedProcess client = ManagedProcess.start(tool + " " + name, command, dir, out, log)) {
            ManagedProcess.Finished finished = client.waitMeasured(limit);
            String text = Files.readString(out);
            if (finished.exitCode() != 0) {
                throw new IOException(tool + " exited with " + finished.exitCode() + " on " + target + ": "
                        + LogTail.of(log, 5) + text);
            }
            return new Ran(text, finished.wallSeconds(), finished.cpuSeconds());
        }
    }
}
