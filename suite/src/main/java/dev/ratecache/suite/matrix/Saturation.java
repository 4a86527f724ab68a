package dev.ratecache.suite.matrix;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A cell whose load generator or machine had no CPU to spare: its latencies and throughput then
 * measure how long requests waited for a core (to be sent, to be answered, to be timed), not what
 * the tiers do, and the model, which has no CPU, cannot predict them.
 *
 * <p>Both figures are over the samples' window (first request's start to last response's end):
 * over the generator's whole run, a JVM's start-up counts, 2-4 s at more than a core before the
 * first request, and the quick profile's cells, a second or two of requests, would all look saturated.
 *
 * @param generatorCpuPct the load generator's CPU, 100 = one core; null when not saturated or unknown
 * @param machineCpuPct   the machine's busy share of all its cores; null likewise
 */
public record Saturation(Double generatorCpuPct, Double machineCpuPct) {

    /**
     * The generator at this share of one core counts as saturated. Per core rather than per machine:
     * what a generator measures is its own threads' timing, and sending and timing requests is mostly
     * waiting on the network; a generator that works a whole core of the window has its samplers,
     * its GC and its result writer competing for cores, so a response waits to be read and a user's
     * next request waits to be sent. On the 2-core machines the suite runs on, it is also half of
     * the machine the tiers share. On a big machine this may call a generator saturated
     * that had room: a warning too many costs a second look, one too few a wrong conclusion.
     */
    public static final double GENERATOR_PCT_OF_A_CORE = 90;

    /**
     * The machine this busy, as a share of all its cores over the window, counts as saturated. 90 rather
     * than 100 % because it is a mean over the window: the ramp-up's bursts are saturated when the
     * quieter stretches bring the mean down, and a ready thread already waits for a core well before
     * every core is busy every tick. Niced work (the dashboards drawn meanwhile) is not counted, as it
     * gives way ({@link dev.ratecache.proc.MachineCpu}). On a shared 2-core machine the quick profile's
     * stress cells without limits measured 99-100 % (the generator at 43-52 % of a core) and a p95 of
     * 270-530 ms where the model, which has no CPU, predicts 0-20 ms.
     */
    public static final double MACHINE_BUSY_PCT = 90;

    /** Whether these figures say saturated; empty when neither is (or neither is known). */
    public static Optional<Saturation> of(Double generatorCpuPct, Double machineCpuPct) {
        Double generator = generatorCpuPct != null && generatorCpuPct >= GENERATOR_PCT_OF_A_CORE ? generatorCpuPct : null;
        Double machine = machineCpuPct != null && machineCpuPct >= MACHINE_BUSY_PCT ? machineCpuPct : null;
        return generator == null && machine == null ? Optional.empty() : Optional.of(new Saturation(generator, machine));
    }

    /** A finished cell's, from its medians over the runs (the figures the report shows); empty for a failed cell. */
    public static Optional<Saturation> of(CellResult r) {
        return r.failed() ? Optional.empty() : of(r.median(Metric.GENERATOR_CPU_PCT), r.median(Metric.MACHINE_CPU_PCT));
    }

    /** What was saturated and how much, e.g. "the load generator was saturated (95 % of one core)". */
    public String describe() {
        List<String> what = new ArrayList<>();
        List<String> figures = new ArrayList<>();
        if (generatorCpuPct != null) {
            what.add("the load generator");
            figures.add(String.format(Locale.ROOT, "%.0f %% of one core", generatorCpuPct));
        }
        if (machineCpuPct != null) {
            what.add("the machine");
            figures.add(String.format(Locale.ROOT, "%.0f %% of all cores busy", machineCpuPct));
        }
        return String.join(" and ", what) + (what.size() > 1 ? " were" : " was") + " saturated ("
                + String.join("; ", figures) + ")";
    }

    /** What the report says under the plan's table (Read with care). */
    public String warning() {
        return "SATURATED: " + describe() + ", so these figures measure the generator and the machine, not the tiers;"
                + " run with nothing else on the machine, or with the load generator on other hosts"
                + " (--load-hosts)";
    }
}
