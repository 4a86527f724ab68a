package dev.ratecache.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;

/**
 * CPU seconds a process (and, on request, its live descendants: nginx's workers) has used, read
 * from /proc/PID/stat as utime + stime, the way top and ps account it.
 */
public final class ProcCpu {
    private ProcCpu() {}

    /** Read on first use: asking getconf starts a process, which a class merely loaded must not. */
    private static final class Ticks {
        static final double PER_SECOND = ticksPerSecond();
    }

    /** Empty when the process is gone or /proc is not there (not Linux). */
    public static OptionalDouble seconds(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
            // The command name (field 2) may hold spaces: count fields from after its closing ')'.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
            return OptionalDouble.of(ticks / Ticks.PER_SECOND);
        } catch (IOException | RuntimeException gone) {
            return OptionalDouble.empty();
        }
    }

    /** The process and every live descendant. */
    public static double treeSeconds(long pid) {
        double total = seconds(pid).orElse(0);
        for (ProcessHandle child : ProcessHandle.of(pid).map(h -> h.descendants().toList()).orElse(List.of())) {
            total += seconds(child.pid()).orElse(0);
        }
        return total;
    }

    /**
     * The process, its live descendants, and the children it has already reaped (cutime and
     * cstime): for a server that forks a process per connection and waits for each one's end
     * (PostgreSQL), so that backends that came and went during a run still count. Empty when the
     * process is gone.
     */
    public static OptionalDouble treeSecondsWithReaped(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
            double total = ticks / Ticks.PER_SECOND;
            for (ProcessHandle child : ProcessHandle.of(pid).map(h -> h.descendants().toList()).orElse(List.of())) {
                total += seconds(child.pid()).orElse(0);
            }
            return OptionalDouble.of(total);
        } catch (IOException | RuntimeException gone) {
            return OptionalDouble.empty();
        }
    }

    private static double ticksPerSecond() {
        try {
            return Double.parseDouble(ManagedProcess.run(List.of("getconf", "CLK_TCK"), Duration.ofSeconds(10))
                    .stdoutIfSucceeded().trim());
        } catch (IOException | RuntimeException e) {
            return 100; // USER_HZ on every Linux architecture the suite runs on.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }
}
