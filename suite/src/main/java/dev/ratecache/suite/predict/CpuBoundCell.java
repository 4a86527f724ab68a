package dev.ratecache.suite.predict;

import dev.ratecache.model.SharedCpu;
import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.matrix.BombardierGenerator;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.Generator;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.matrix.WrkGenerator;
import dev.ratecache.suite.spec.StackSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The prediction of a cell whose pace the CPU sets: wrk's and bombardier's, whose connections ask
 * again the moment an answer arrives (a closed loop), or bombardier at a rate (an open load). Each
 * component's service demand is its CPU seconds during the cell over the requests the cell made
 * (front, back, origin, Redis, PostgreSQL and the load generator itself); {@link SharedCpu} puts them
 * on this machine's cores, each component as wide as its threads, and gives the throughput. The
 * range comes from the demands' spread over the cell's runs: the least demands give the highest rate.
 * Nothing else the model has (limits, caches, the origin's delays) is on these cells' paths: their
 * limits are off and their answers cached for a day or not at all.
 */
final class CpuBoundCell {

    /** The machine's cores, which the tiers, the origin, its stores and the load generator share. */
    static final int CORES = SharedCpu.CORES_HERE;

    private CpuBoundCell() {
    }

    /** The cell's prediction, or the model's gap when a figure it needs was not measured. */
    static Prediction predict(CellResult r, Map<String, String> props, StackSpec stack) {
        Double samples = r.median(Metric.SAMPLES);
        if (samples == null || samples <= 0) {
            return Prediction.gap("no request was measured, so no CPU per request either");
        }
        if (r.median(Metric.CPU_JMETER_S) == null) {
            return Prediction.gap(r.cell().generator().cpuPace() + ", and the shared-CPU model needs every process's CPU"
                    + " per request: the load generator's was not measured");
        }
        SharedCpu fast = machine(r, stack, samples, CellResult::min);
        SharedCpu median = machine(r, stack, samples, CellResult::median);
        SharedCpu slow = machine(r, stack, samples, CellResult::max);
        Function<SharedCpu, Double> rate = load(r.cell().generator(), props);
        double value = rate.apply(median);
        Map<Metric, Prediction.Range> ranges = Map.of(Metric.THROUGHPUT,
                new Prediction.Range(Math.min(value, rate.apply(slow)), Math.max(value, rate.apply(fast))));
        return new Prediction(Map.of(Metric.THROUGHPUT, value), null, 0, ranges, 1);
    }

    /** What the generator does to the machine: a closed loop of its connections, or bombardier's rate. */
    private static Function<SharedCpu, Double> load(Generator generator, Map<String, String> props) {
        String rate = props.get(BombardierGenerator.RATE);
        if (generator == Generator.BOMBARDIER && rate != null && props.get(BombardierGenerator.REQUESTS) == null) {
            double perSec = Double.parseDouble(rate);
            return cpu -> cpu.open(perSec).throughputPerSec();
        }
        int connections = Integer.parseInt(props.get(generator == Generator.WRK ? WrkGenerator.CONNECTIONS
                : BombardierGenerator.CONNECTIONS));
        return cpu -> cpu.closed(connections, 0).throughputPerSec();
    }

    /**
     * The processes a request costs CPU in, each component's demand taken by {@code pick} over the
     * runs (its least, median or most): a component the cell did not run (n/a) is left out.
     */
    static SharedCpu machine(CellResult r, StackSpec stack, double samples,
            java.util.function.BiFunction<CellResult, Metric, Double> pick) {
        List<SharedCpu.Process> processes = new ArrayList<>();
        int tierThreads = tierThreads(r.cell().edge(), stack);
        add(processes, "front", pick.apply(r, Metric.CPU_FRONT_S), samples, tierThreads);
        add(processes, "back", pick.apply(r, Metric.CPU_BACK_S), samples, tierThreads);
        // The JVM's request threads (one origin per host here: together as wide as the machine).
        add(processes, "origin", pick.apply(r, Metric.CPU_ORIGIN_S), samples, CORES);
        // redis-server runs commands on one thread.
        add(processes, "redis", pick.apply(r, Metric.CPU_REDIS_S), samples, 1);
        // A backend process per connection.
        add(processes, "postgres", pick.apply(r, Metric.CPU_POSTGRES_S), samples, CORES);
        add(processes, r.cell().generator().folder(), pick.apply(r, Metric.CPU_JMETER_S), samples,
                generatorThreads(r.cell().generator(), r.cell().properties()));
        return new SharedCpu(CORES, processes, 0);
    }

    private static void add(List<SharedCpu.Process> processes, String name, Double cpuSeconds, double samples,
            int threads) {
        if (cpuSeconds != null && cpuSeconds > 0) {
            processes.add(new SharedCpu.Process(name, cpuSeconds / samples, Math.max(1, Math.min(CORES, threads))));
        }
    }

    /** An nginx tier is as wide as its workers ("auto": a worker per core); the other products run threads on every core. */
    static int tierThreads(EdgeProduct edge, StackSpec stack) {
        if (edge != EdgeProduct.DEFAULT) {
            return CORES;
        }
        String workers = stack.tuning().workers();
        return workers.equals("auto") ? CORES : Integer.parseInt(workers);
    }

    /**
     * Why a cell's throughput is off the shared-CPU model's: inside the range its runs' demands allow,
     * or the cores not all busy (something else set the pace), or all busy with work the cell's
     * processes do not account for.
     *
     * @param poolPeak the most database connections lent at once, or null without the database
     */
    static String reason(double measured, double predicted, Prediction.Range range, Predictions.Evidence e,
            Double poolPeak) {
        if (range != null && range.contains(measured)) {
            return String.format(Locale.ROOT, "throughput %.1f is inside the range the model allows, %.1f–%.1f, over"
                    + " the CPU per request of the cell's runs", measured, range.low(), range.high());
        }
        Double busy = e.machineCpuPct();
        if (measured < predicted && busy != null && busy < 100 * Predictions.SATURATED) {
            return String.format(Locale.ROOT, "the cores were not all busy (%.0f %% of them): something other than the"
                    + " CPU set the pace%s, which the shared-CPU model does not include", busy, poolPeak != null
                    && poolPeak >= POOL ? String.format(Locale.ROOT, ", such as the origin's database pool (all %.0f of"
                    + " its connections lent at once)", poolPeak) : ", such as a lock, a pool or a wait for I/O");
        }
        if (measured < predicted) {
            return String.format(Locale.ROOT, "the cores were all busy (%s %% of them), some of it with work the cell's"
                    + " processes do not account for (the kernel's own threads, the machine's other processes), so less"
                    + " was left for the requests than their CPU per request says", busy == null ? "?"
                    : String.format(Locale.ROOT, "%.0f", busy));
        }
        return CellPrediction.UNEXPLAINED;
    }

    /** The origin's database pool (HikariCP's default, which the suite keeps). */
    static final int POOL = 10;

    /** wrk as wide as its threads (-t); bombardier, a Go program, on every core. */
    static int generatorThreads(Generator generator, Map<String, String> properties) {
        return generator == Generator.WRK ? Integer.parseInt(properties.get(WrkGenerator.THREADS)) : CORES;
    }
}
