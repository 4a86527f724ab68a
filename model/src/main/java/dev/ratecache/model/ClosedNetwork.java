package dev.ratecache.model;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * A closed loop: N customers, each sending its next request when the previous one is answered
 * (after {@code thinkSec}, 0 for wrk, bombardier or JMeter without timers), through stations that
 * a request visits in turn (see {@link Station}). Solved by mean value analysis (Reiser &amp;
 * Lavenberg, "Mean-Value Analysis of Closed Multichain Queuing Networks", J. ACM 27(2), 1980).
 *
 * <p>{@link #solve} is exact for the product-form network these stations make (exponential
 * service at first-come-first-served stations, any distribution at delays): single-server
 * and delay stations by Reiser and Lavenberg's recursion, a multi-server station by the
 * load-dependent recursion over its marginal probabilities of holding 0 … c−2 requests, the only
 * ones its residence time needs, the probability of an idle station taken from the network
 * without it (solved the same way), so the cost doubles per multi-server station.
 *
 * <p>{@link #seidmann} replaces each c-server station of demand D by a single server of demand D/c
 * and a delay of D(c−1)/c (Seidmann, Schweitzer &amp; Shalev-Oren, "Computerized closed queueing
 * network models of flexible manufacturing systems", Large Scale Systems 12, 1987), which is exact
 * at N = 1 and as N grows, and plain MVA otherwise. Its error against {@link #solve}, measured
 * on one c-server station of demand D with c ∈ {2, 4, 8, 16, 32, 64}, a think time Z ∈ {0, ¼, ½,
 * 1, 2, 4}·D, one other single server of demand in {0, ¼, ½, 1, 2, 4}·D/c, and N = 1 … 400: it
 * never overestimates throughput; it underestimates it by at most
 * {@link #SEIDMANN_MAX_THROUGHPUT_ERROR} (20.7 %, at c = 4, N = 4, the CPU alone with Z = 0) and
 * overestimates the response time by at most {@link #SEIDMANN_MAX_RESPONSE_ERROR} (26.0 %, there
 * too). For every c the grid's worst case is N = c with nothing else taking time, where the c
 * servers are all busy with no one waiting and Seidmann's single server queues them anyway; it
 * shrinks as c grows (c = 2: 20.0 %, 16: 14.5 %, 64: 8.5 % in throughput). {@code ClosedNetworkTest}
 * recomputes the grid and fails if either bound is exceeded or is loose by more than a point.
 *
 * @param stations the stations, at least one, names unique
 * @param thinkSec the think time Z between an answer and the customer's next request, at least 0
 */
public record ClosedNetwork(List<Station> stations, double thinkSec) {

    /** The largest relative throughput shortfall of {@link #seidmann} on the grid above. */
    public static final double SEIDMANN_MAX_THROUGHPUT_ERROR = 0.21;
    /** The largest relative response-time excess of {@link #seidmann} on the grid above. */
    public static final double SEIDMANN_MAX_RESPONSE_ERROR = 0.26;

    public ClosedNetwork {
        stations = List.copyOf(stations);
        if (stations.isEmpty()) {
            throw new IllegalArgumentException("a network needs a station");
        }
        if (!(thinkSec >= 0) || Double.isInfinite(thinkSec)) {
            throw new IllegalArgumentException("think time must be finite and at least 0: " + thinkSec);
        }
        var names = new HashSet<String>();
        for (Station s : stations) {
            if (!names.add(s.name())) {
                throw new IllegalArgumentException("two stations named " + s.name());
            }
        }
        if (thinkSec == 0 && stations.stream().allMatch(s -> s.demandSec() == 0)) {
            throw new IllegalArgumentException("nothing in the loop takes time: its throughput is unbounded");
        }
    }

    /** No think time: every customer sends again as soon as it is answered. */
    public static ClosedNetwork of(Station... stations) {
        return new ClosedNetwork(List.of(stations), 0);
    }

    /** The same stations with think time {@code thinkSec}. */
    public ClosedNetwork withThink(double thinkSec) {
        return new ClosedNetwork(stations, thinkSec);
    }

    /** The exact solution for {@code population} customers. */
    public ClosedSolution solve(int population) {
        return solveAll(population).get(population);
    }

    /**
     * The exact solutions for 0 … {@code maxPopulation} customers (index = N), which MVA computes
     * on the way anyway.
     */
    public List<ClosedSolution> solveAll(int maxPopulation) {
        if (maxPopulation < 0) {
            throw new IllegalArgumentException("population must be at least 0: " + maxPopulation);
        }
        int k = stations.size();
        double[][] complement = new double[k][];
        for (int i = 0; i < k; i++) {
            if (multi(stations.get(i))) {
                List<Station> others = new ArrayList<>(stations);
                others.remove(i);
                complement[i] = throughputs(others, thinkSec, maxPopulation);
            }
        }
        double[] queue = new double[k];
        // probs[i][j]: P(j requests at multi-server station i), j = 0 … c−2, for the previous N.
        double[][] probs = new double[k][];
        for (int i = 0; i < k; i++) {
            if (complement[i] != null) {
                probs[i] = new double[stations.get(i).servers() - 1];
                probs[i][0] = 1;
            }
        }
        List<ClosedSolution> out = new ArrayList<>(maxPopulation + 1);
        out.add(solution(0, 0, new double[k]));
        double[] residence = new double[k];
        for (int n = 1; n <= maxPopulation; n++) {
            double total = 0;
            for (int i = 0; i < k; i++) {
                Station s = stations.get(i);
                double d = s.demandSec();
                residence[i] = switch (s.kind()) {
                    case DELAY -> d;
                    // Arrival theorem: an arriving request finds the queue of the network with one
                    // customer fewer.
                    case QUEUEING -> d * (1 + queue[i]);
                    case MULTI_SERVER -> probs[i] == null
                            ? d * (1 + queue[i])
                            : multiServerResidence(d, s.servers(), queue[i], probs[i]);
                };
                total += residence[i];
            }
            double x = n / (thinkSec + total);
            for (int i = 0; i < k; i++) {
                queue[i] = x * residence[i];
                if (probs[i] != null) {
                    nextProbs(probs[i], x * stations.get(i).demandSec(), x / complement[i][n]);
                }
            }
            out.add(solution(n, x, residence));
        }
        return out;
    }

    private static boolean multi(Station s) {
        return s.kind() == Station.Kind.MULTI_SERVER && s.servers() > 1;
    }

    /**
     * X(0 … maxPopulation) of {@code stations} with think time {@code thinkSec}; all infinite
     * after X(0) when nothing takes time (the network left when a lone CPU station is taken out).
     */
    private static double[] throughputs(List<Station> stations, double thinkSec, int maxPopulation) {
        double[] x = new double[maxPopulation + 1];
        if (thinkSec == 0 && stations.stream().allMatch(s -> s.demandSec() == 0)) {
            java.util.Arrays.fill(x, 1, x.length, Double.POSITIVE_INFINITY);
            return x;
        }
        if (stations.isEmpty()) {
            for (int n = 1; n <= maxPopulation; n++) {
                x[n] = n / thinkSec;
            }
            return x;
        }
        List<ClosedSolution> solved = new ClosedNetwork(stations, thinkSec).solveAll(maxPopulation);
        for (int n = 1; n <= maxPopulation; n++) {
            x[n] = solved.get(n).throughputPerSec();
        }
        return x;
    }

    /**
     * R = (D/c)(1 + Q(n−1) + Σ_{j=0}^{c−2} (c−1−j) p(j | n−1)): an arrival finding j &lt; c−1
     * others is served at once, and the sum takes back the wait that 1 + Q would charge it.
     */
    static double multiServerResidence(double d, int c, double queue, double[] probs) {
        double idle = 0;
        for (int j = 0; j <= c - 2; j++) {
            idle += (c - 1 - j) * probs[j];
        }
        return d / c * (1 + queue + idle);
    }

    /**
     * p(j | n) = (X(n)·D / j) p(j−1 | n−1) for 1 ≤ j ≤ c−2, and p(0 | n) = p(0 | n−1)·X(n)/X₋(n),
     * X₋ the throughput of the network without this station (p(0 | n) is G₋(n)/G(n), the
     * normalising constants' ratio). Taking p(0 | n) from the rest instead, as 1 − Σ_{j≥1} p(j | n)
     * or from the busy servers, c·p(0) = c − X·D − Σ_{j=1}^{c−1} (c−j) p(j), subtracts nearly equal
     * numbers once the station is busy, and the error is carried on to every later N: with the
     * second form, 8 servers were 24 % off in throughput within 3,000 customers, 32 servers 88 %
     * (against the normalising constants summed in logarithms). Products of positive numbers do not
     * cancel: the same runs agree to 5e-12.
     */
    static void nextProbs(double[] probs, double busy, double idleRatio) {
        for (int j = probs.length - 1; j >= 1; j--) {
            probs[j] = busy / j * probs[j - 1];
        }
        probs[0] *= idleRatio;
    }

    /**
     * Seidmann's approximation for {@code population} customers: each multi-server station solved
     * as a single server of D/c followed by a delay of D(c−1)/c, reported as one station (their
     * residence times and queue lengths added, its utilisation X·D/c). Pessimistic: see the class
     * comment for its stated error.
     */
    public ClosedSolution seidmann(int population) {
        return seidmannAll(population).get(population);
    }

    /** {@link #seidmann} for 0 … {@code maxPopulation} customers (index = N). */
    public List<ClosedSolution> seidmannAll(int maxPopulation) {
        List<Station> split = new ArrayList<>();
        for (Station s : stations) {
            if (multi(s)) {
                split.add(Station.queueing(s.name(), s.demandSec() / s.servers()));
                split.add(Station.delay(s.name() + " (seidmann delay)", s.demandSec() * (s.servers() - 1) / s.servers()));
            } else {
                split.add(s);
            }
        }
        List<ClosedSolution> out = new ArrayList<>(maxPopulation + 1);
        for (ClosedSolution solved : new ClosedNetwork(split, thinkSec).solveAll(maxPopulation)) {
            double[] residence = new double[stations.size()];
            int at = 0;
            for (int i = 0; i < stations.size(); i++) {
                residence[i] = solved.stations().get(at++).residenceSec();
                if (multi(stations.get(i))) {
                    residence[i] += solved.stations().get(at++).residenceSec();
                }
            }
            out.add(solution(solved.population(), solved.throughputPerSec(), residence));
        }
        return out;
    }

    /**
     * Denning &amp; Buzen's asymptotic bounds for {@code population} customers: X(N) ≤ min(N/(D+Z),
     * min_k c_k/D_k) and R(N) ≥ max(D, N·max_k(D_k/c_k) − Z), D the sum of all demands, delays
     * included, and k over the stations that queue. Any solution must lie within them.
     */
    public Bounds bounds(int population) {
        double total = 0;
        double bottleneck = Double.POSITIVE_INFINITY;
        for (Station s : stations) {
            total += s.demandSec();
            bottleneck = Math.min(bottleneck, s.capacityPerSec());
        }
        double light = total + thinkSec == 0 ? Double.POSITIVE_INFINITY : population / (total + thinkSec);
        double x = Math.min(light, bottleneck);
        double r = Math.max(total, population / bottleneck - thinkSec);
        return new Bounds(x, r, total + thinkSec == 0 ? Double.POSITIVE_INFINITY : bottleneck * (total + thinkSec));
    }

    /**
     * Asymptotic bounds.
     *
     * @param maxThroughputPerSec X(N) cannot exceed this
     * @param minResponseSec      R(N) cannot be below this
     * @param kneePopulation      N* = (D + Z)·min_k c_k/D_k, where the two throughput bounds meet:
     *                            past it the bottleneck, not the population, limits throughput
     */
    public record Bounds(double maxThroughputPerSec, double minResponseSec, double kneePopulation) {
    }

    private ClosedSolution solution(int n, double x, double[] residence) {
        List<StationLoad> loads = new ArrayList<>(stations.size());
        double total = 0;
        for (int i = 0; i < stations.size(); i++) {
            Station s = stations.get(i);
            double busy = x * s.demandSec();
            loads.add(new StationLoad(s.name(), residence[i], s.queues() ? busy / s.servers() : busy, x * residence[i]));
            total += residence[i];
        }
        return new ClosedSolution(n, x, n == 0 ? 0 : total, thinkSec, loads);
    }
}
