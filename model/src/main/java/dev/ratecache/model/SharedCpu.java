package dev.ratecache.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;

/**
 * A load on one machine whose processes share its cores: the tiers, the origin, its database and
 * the load generator itself, each with its CPU seconds per request (its service demand, measured by
 * {@code peak --demands} or in the cell) and the cores it can use at once (its threads: nginx's one
 * worker and wrk's one thread use one; a JVM uses them all). Where the time is set by the CPU, this
 * is the model: the CPU is one multi-server station of {@code cores} servers whose demand is every
 * process's added ({@link ClosedNetwork}, solved by exact MVA), and the origin's own waits are a
 * delay station. A process that can use fewer cores than the machine has bounds the rate on its own,
 * at threads / demand: one nginx worker busy all the time on one core while the other core idles is
 * what a single multi-server station cannot see, so the predicted rate is the lower of the two.
 *
 * @param cores     the machine's cores
 * @param processes every process the requests cost CPU in, at least one with a demand
 * @param delaySec  seconds a request waits with no CPU used (the origin's sleep), at least 0
 */
public record SharedCpu(int cores, List<Process> processes, double delaySec) {

    /** The cores of the machine this runs on: what a measurement here shares between its processes. */
    public static final int CORES_HERE = Runtime.getRuntime().availableProcessors();

    /**
     * A process and what a request costs it.
     *
     * @param name      what it is (front, back, origin, wrk)
     * @param demandSec its CPU seconds per request, at least 0
     * @param threads   the cores it can use at once, at least 1
     */
    public record Process(String name, double demandSec, int threads) {
        public Process {
            if (!(demandSec >= 0) || Double.isInfinite(demandSec)) {
                throw new IllegalArgumentException(name + ": demand must be finite and at least 0: " + demandSec);
            }
            if (threads < 1) {
                throw new IllegalArgumentException(name + ": a process runs at least one thread: " + threads);
            }
        }
    }

    /**
     * What the model says of one load.
     *
     * @param throughputPerSec requests per second: a closed loop's X(N), or an open load's rate while
     *                         below saturation, else the saturation rate
     * @param responseSec      a closed loop's mean response time (N / X, less the think time); NaN for an
     *                         open load
     * @param bottleneck       what sets the rate: "CPU" (all cores busy) or the process that runs out of
     *                         its threads first
     * @param cpuUtilisation   the share of all cores busy at that rate
     * @param saturationPerSec the highest rate the machine sustains: the lower of cores / total demand and
     *                         each process's threads / demand
     */
    public record Prediction(double throughputPerSec, double responseSec, String bottleneck, double cpuUtilisation,
            double saturationPerSec) {}

    /** The name {@link Prediction#bottleneck} gives when every core is busy. */
    public static final String CPU = "CPU";

    public SharedCpu {
        processes = List.copyOf(processes);
        if (cores < 1) {
            throw new IllegalArgumentException("a machine has at least one core: " + cores);
        }
        if (!(delaySec >= 0) || Double.isInfinite(delaySec)) {
            throw new IllegalArgumentException("delay must be finite and at least 0: " + delaySec);
        }
        var names = new HashSet<String>();
        for (Process p : processes) {
            if (!names.add(p.name())) {
                throw new IllegalArgumentException("two processes named " + p.name());
            }
        }
        if (processes.stream().allMatch(p -> p.demandSec() == 0)) {
            throw new IllegalArgumentException("no process spends CPU on a request: nothing to predict from");
        }
    }

    /** Every process's demand added: what a request costs the machine's CPU in all. */
    public double totalDemandSec() {
        return processes.stream().mapToDouble(Process::demandSec).sum();
    }

    /** The highest rate: all cores busy, or a process using all its threads, whichever comes first. */
    public double saturationPerSec() {
        return Math.min(cores / totalDemandSec(), narrowest().map(this::capacity).orElse(Double.POSITIVE_INFINITY));
    }

    /**
     * {@code population} connections asking again the moment each answer arrives (wrk, bombardier,
     * JMeter without timers), with {@code thinkSec} between an answer and the next request.
     */
    public Prediction closed(int population, double thinkSec) {
        if (population < 1) {
            throw new IllegalArgumentException("a closed loop has at least one connection: " + population);
        }
        List<Station> stations = new ArrayList<>();
        stations.add(Station.multiServer(CPU, totalDemandSec(), cores));
        if (delaySec > 0) {
            stations.add(Station.delay("delay", delaySec));
        }
        ClosedSolution mva = new ClosedNetwork(stations, thinkSec).solve(population);
        double x = mva.throughputPerSec();
        String bottleneck = CPU;
        var narrowest = narrowest();
        if (narrowest.isPresent() && capacity(narrowest.get()) < x) {
            // The process's threads are busy all the time: the rate is theirs, and each request
            // waits its turn there, which the response time law gives back from N.
            x = capacity(narrowest.get());
            bottleneck = narrowest.get().name();
        }
        return new Prediction(x, population / x - thinkSec, bottleneck, x * totalDemandSec() / cores,
                saturationPerSec());
    }

    /** Requests arriving at {@code ratePerSec} whatever the answers do: served at that rate until it saturates. */
    public Prediction open(double ratePerSec) {
        if (!(ratePerSec > 0) || Double.isInfinite(ratePerSec)) {
            throw new IllegalArgumentException("an open load has a positive rate: " + ratePerSec);
        }
        double saturation = saturationPerSec();
        double x = Math.min(ratePerSec, saturation);
        return new Prediction(x, Double.NaN, bottleneck(), x * totalDemandSec() / cores, saturation);
    }

    /** What saturates first as the rate grows: the CPU, or a process short of threads. */
    public String bottleneck() {
        var narrowest = narrowest();
        return narrowest.isPresent() && capacity(narrowest.get()) < cores / totalDemandSec()
                ? narrowest.get().name() : CPU;
    }

    /** The process with fewer threads than cores that can complete the fewest requests a second. */
    private java.util.Optional<Process> narrowest() {
        return processes.stream().filter(p -> p.threads() < cores && p.demandSec() > 0)
                .min(Comparator.comparingDouble(this::capacity));
    }

    private double capacity(Process p) {
        return p.threads() / p.demandSec();
    }
}
