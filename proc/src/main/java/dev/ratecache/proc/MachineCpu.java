package dev.ratecache.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * How busy the whole machine was between two readings of /proc/stat's first line (every core's
 * jiffies added up): the busy share of all cores, 100 % when every core was busy throughout.
 *
 * <p>Niced time counts as idle: work at a low priority (the dashboards the suite draws at nice 19
 * while the next cell runs) gives way to the processes being measured, so it does not take their
 * CPU. iowait is idle too (a core waiting on a disk runs anything that is ready); steal is busy (the
 * hypervisor gave that time to someone else). Guest time is already inside user and nice.
 */
public final class MachineCpu {
    private static final Path STAT = Path.of("/proc/stat");

    private MachineCpu() {}

    /** Jiffies since boot, over all cores: those spent at normal priority or stolen, and all of them. */
    public record Reading(long busy, long total) {
        /** The busy share of all cores from {@code earlier} to this reading; empty when no time passed. */
        public OptionalDouble busyPctSince(Reading earlier) {
            long total = this.total - earlier.total;
            return total <= 0 ? OptionalDouble.empty() : OptionalDouble.of(100.0 * (busy - earlier.busy) / total);
        }
    }

    /** Now; empty where there is no /proc/stat (not Linux). */
    public static Optional<Reading> read() {
        try (var lines = Files.lines(STAT)) {
            return lines.findFirst().flatMap(MachineCpu::parse);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * The aggregate line, "cpu user nice system idle iowait irq softirq steal guest guest_nice"
     * (older kernels stop after fewer fields); empty for any other line.
     */
    static Optional<Reading> parse(String line) {
        String[] f = line.trim().split("\\s+");
        if (f.length < 5 || !f[0].equals("cpu")) {
            return Optional.empty();
        }
        long[] v = new long[8];
        for (int i = 1; i < f.length && i <= v.length; i++) {
            v[i - 1] = Long.parseLong(f[i]);
        }
        long user = v[0], nice = v[1], system = v[2], idle = v[3], iowait = v[4], irq = v[5], softirq = v[6],
                steal = v[7];
        return Optional.of(new Reading(user + system + irq + softirq + steal,
                user + nice + system + idle + iowait + irq + softirq + steal));
    }
}
