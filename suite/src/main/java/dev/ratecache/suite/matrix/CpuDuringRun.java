package dev.ratecache.suite.matrix;

import dev.ratecache.proc.MachineCpu;
import dev.ratecache.proc.ProcCpu;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * The machine's and the load generator's CPU, read every {@value #INTERVAL_MS} ms while a generator
 * runs, so that their shares can be taken over the samples' own window (first request's start to
 * last response's end, as throughput is): a JVM's start-up (JMeter compiles for 2-4 s before its
 * first request here, at more than a core) is busy, but no request waits on it.
 */
final class CpuDuringRun implements AutoCloseable {
    /** Short beside the quick profile's windows of a second or two; a read of two small /proc files costs microseconds. */
    static final long INTERVAL_MS = 50;

    /**
     * One reading. {@code machine} is null where /proc/stat cannot be read; {@code generatorSeconds}
     * is NaN before the generator started and after it ended.
     */
    record Tick(long epochMs, MachineCpu.Reading machine, double generatorSeconds) {}

    private final List<Tick> ticks = new ArrayList<>();
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "cpu-during-run");
        t.setDaemon(true);
        return t;
    });
    private volatile long generatorPid = -1;

    private CpuDuringRun() {
        sampler.scheduleAtFixedRate(this::tick, 0, INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    /** Starts reading, just before the generator starts. */
    static CpuDuringRun start() {
        return new CpuDuringRun();
    }

    /** The generator's process runs: its CPU is read from now on. */
    void generatorStarted(long pid) {
        generatorPid = pid;
    }

    /** The generator has exited: one last reading of the machine, and no more. */
    void finished() throws InterruptedException {
        sampler.shutdownNow();
        sampler.awaitTermination(1, TimeUnit.SECONDS);
        generatorPid = -1;
        tick();
    }

    private void tick() {
        long pid = generatorPid;
        double generator = pid < 0 ? Double.NaN : ProcCpu.seconds(pid).orElse(Double.NaN);
        Tick t = new Tick(System.currentTimeMillis(), MachineCpu.read().orElse(null), generator);
        synchronized (ticks) {
            ticks.add(t);
        }
    }

    /** The shares over {@code [fromMs, toMs]} (epoch ms), widened to the readings around it. */
    CellMeasurement.WindowCpu over(long fromMs, long toMs) {
        synchronized (ticks) {
            return over(List.copyOf(ticks), fromMs, toMs);
        }
    }

    static CellMeasurement.WindowCpu over(List<Tick> readings, long fromMs, long toMs) {
        List<Tick> sorted = readings.stream().sorted(Comparator.comparingLong(Tick::epochMs)).toList();
        Double machine = share(sorted, t -> t.machine() != null, fromMs, toMs,
                (start, end) -> end.machine().busyPctSince(start.machine()).stream().boxed().findFirst().orElse(null));
        Double generator = share(sorted, t -> !Double.isNaN(t.generatorSeconds()), fromMs, toMs,
                (start, end) -> 100.0 * (end.generatorSeconds() - start.generatorSeconds())
                        / ((end.epochMs() - start.epochMs()) / 1000.0));
        return new CellMeasurement.WindowCpu(machine, generator);
    }

    /**
     * The share between the last reading at or before {@code fromMs} and the first at or after
     * {@code toMs}, among those that have the figure (the first and the last of them when the
     * window reaches past them); null when fewer than two readings span any time.
     */
    private static Double share(List<Tick> sorted, Predicate<Tick> has, long fromMs, long toMs,
            BiFunction<Tick, Tick, Double> between) {
        List<Tick> usable = sorted.stream().filter(has).toList();
        if (usable.size() < 2) {
            return null;
        }
        Tick start = usable.get(0);
        Tick end = usable.get(usable.size() - 1);
        for (Tick t : usable) {
            if (t.epochMs() <= fromMs) {
                start = t;
            }
        }
        for (int i = usable.size() - 1; i >= 0; i--) {
            if (usable.get(i).epochMs() >= toMs) {
                end = usable.get(i);
            }
        }
        return end.epochMs() > start.epochMs() ? between.apply(start, end) : null;
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }
}
