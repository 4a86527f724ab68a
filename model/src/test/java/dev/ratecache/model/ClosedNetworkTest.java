package dev.ratecache.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The closed-loop model against MVA worked by hand, and against the product form's normalising
 * constants computed independently (summed over every state, or convolved in logarithms).
 */
class ClosedNetworkTest {

    static final double EXACT = 1e-12;

    @Test
    void oneQueueingStationWithoutThinkTimeIsAlwaysBusy() {
        // N = 1: R = D, X = 1/D. Then Q(n−1) = n−1, R = nD, X = n/(nD) = 1/D.
        ClosedNetwork net = ClosedNetwork.of(Station.queueing("nginx", 0.004));
        for (int n = 1; n <= 50; n++) {
            ClosedSolution s = net.solve(n);
            assertThat(s.throughputPerSec()).isCloseTo(250, within(EXACT * 250));
            assertThat(s.responseSec()).isCloseTo(n * 0.004, within(EXACT));
            assertThat(s.station("nginx").utilisation()).isCloseTo(1, within(EXACT));
            assertThat(s.station("nginx").queueLength()).isCloseTo(n, within(EXACT * n));
        }
    }

    @Test
    void oneQueueingStationWithThinkTimeIsTheMachineRepairman() {
        // D = 0.1, Z = 0.2. Product form: P(k at the server) ∝ D^k Z^(N−k)/(N−k)!, X = G(N−1)/G(N).
        // N = 1: G = Z + D = 0.3, X = 1/0.3 = 10/3, R = D = 0.1.
        // N = 2: G = Z²/2 + DZ + D² = 0.02 + 0.02 + 0.01 = 0.05, X = 0.3/0.05 = 6, R = 2/6 − 0.2 = 2/15.
        // MVA agrees: Q(1) = (10/3)(0.1) = 1/3, R(2) = 0.1(4/3) = 2/15, X = 2/(0.2 + 2/15) = 6.
        ClosedNetwork net = ClosedNetwork.of(Station.queueing("server", 0.1)).withThink(0.2);
        assertThat(net.solve(1).throughputPerSec()).isCloseTo(10.0 / 3, within(EXACT));
        assertThat(net.solve(1).responseSec()).isCloseTo(0.1, within(EXACT));
        assertThat(net.solve(2).throughputPerSec()).isCloseTo(6, within(EXACT));
        assertThat(net.solve(2).responseSec()).isCloseTo(2.0 / 15, within(EXACT));
        assertThat(net.solve(2).station("server").utilisation()).isCloseTo(0.6, within(EXACT));
        assertThat(net.solve(2).station("server").queueLength()).isCloseTo(0.8, within(EXACT));
        assertThat(net.solve(2).thinkSec()).isEqualTo(0.2);
    }

    @Test
    void twoQueueingStationsWorkedByHand() {
        // D1 = 0.1, D2 = 0.05, Z = 0.
        // n=1: R1 = 0.1, R2 = 0.05, X = 1/0.15 = 20/3, Q1 = 2/3, Q2 = 1/3.
        // n=2: R1 = 0.1(5/3) = 1/6, R2 = 0.05(4/3) = 1/15, R = 7/30, X = 60/7, Q1 = 10/7, Q2 = 4/7.
        // n=3: R1 = 0.1(17/7) = 17/70, R2 = 0.05(11/7) = 11/140, R = 45/140 = 9/28, X = 28/3,
        //      Q1 = 34/15, Q2 = 11/15, U1 = 14/15, U2 = 7/15.
        // Check by the product form at n=3: G(2) = 0.01 + 0.005 + 0.0025 = 0.0175,
        // G(3) = 0.001 + 0.0005 + 0.00025 + 0.000125 = 0.001875, X = G(2)/G(3) = 28/3.
        ClosedNetwork net = ClosedNetwork.of(Station.queueing("front", 0.1), Station.queueing("back", 0.05));
        double[] x = {0, 20.0 / 3, 60.0 / 7, 28.0 / 3};
        double[] r = {0, 0.15, 7.0 / 30, 9.0 / 28};
        double[][] q = {{0, 0}, {2.0 / 3, 1.0 / 3}, {10.0 / 7, 4.0 / 7}, {34.0 / 15, 11.0 / 15}};
        List<ClosedSolution> all = net.solveAll(3);
        for (int n = 1; n <= 3; n++) {
            ClosedSolution s = all.get(n);
            assertThat(s.population()).isEqualTo(n);
            assertThat(s.throughputPerSec()).as("X(%d)", n).isCloseTo(x[n], within(EXACT));
            assertThat(s.responseSec()).as("R(%d)", n).isCloseTo(r[n], within(EXACT));
            assertThat(s.station("front").queueLength()).as("Q1(%d)", n).isCloseTo(q[n][0], within(EXACT));
            assertThat(s.station("back").queueLength()).as("Q2(%d)", n).isCloseTo(q[n][1], within(EXACT));
        }
        assertThat(all.get(3).station("front").utilisation()).isCloseTo(14.0 / 15, within(EXACT));
        assertThat(all.get(3).station("back").utilisation()).isCloseTo(7.0 / 15, within(EXACT));
        assertThat(all.get(3).station("front").residenceSec()).isCloseTo(17.0 / 70, within(EXACT));
        assertThat(all.get(0).throughputPerSec()).isZero();
    }

    @Test
    void aDelayStationCountsInTheResponseTimeWhereThinkTimeDoesNot() {
        // The origin's 0.2 s sleep as a delay station: the same cycle as the repairman above, so
        // the same X(2) = 6, but the sleep is part of what the client waits: R = 2/15 + 0.2 = 1/3.
        ClosedNetwork net = ClosedNetwork.of(Station.queueing("server", 0.1), Station.delay("origin", 0.2));
        ClosedSolution s = net.solve(2);
        assertThat(s.throughputPerSec()).isCloseTo(6, within(EXACT));
        assertThat(s.responseSec()).isCloseTo(1.0 / 3, within(EXACT));
        assertThat(s.station("origin").residenceSec()).isEqualTo(0.2);
        // A delay's "utilisation" is the requests it holds: X·Z = 1.2 (Little).
        assertThat(s.station("origin").utilisation()).isCloseTo(1.2, within(EXACT));
        assertThat(s.station("origin").queueLength()).isCloseTo(1.2, within(EXACT));
        // Only delays: X = N / (sum of delays), no queueing at all.
        ClosedSolution pure = ClosedNetwork.of(Station.delay("a", 0.1), Station.delay("b", 0.3)).solve(7);
        assertThat(pure.throughputPerSec()).isCloseTo(7 / 0.4, within(EXACT));
        assertThat(pure.responseSec()).isCloseTo(0.4, within(EXACT));
    }

    @Test
    void aTwoCoreStationWorkedByHand() {
        // c = 2, D = 1, Z = 1. Service rate with j present: min(j, 2)/D.
        // Load-dependent MVA, p(j | n) the marginal probabilities:
        // n=1: R = 1·D·p(0|0) = 1, X = 1/(1+1) = 1/2, p(1|1) = X·D·p(0|0) = 1/2, p(0|1) = 1/2.
        // n=2: R = 1·p(0|1) + 2·(1/2)·p(1|1) = 1/2 + 1/2 = 1, X = 2/2 = 1,
        //      p(1|2) = X·D·p(0|1) = 1/2, p(2|2) = (X·D/2)·p(1|1) = 1/4, p(0|2) = 1/4.
        // n=3: R = p(0|2) + p(1|2) + (3/2)·p(2|2) = 1/4 + 1/2 + 3/8 = 9/8, X = 3/(1 + 9/8) = 24/17.
        // Product form: G(N) = Σ_j D^j/β(j) · Z^(N−j)/(N−j)!, β = 1, 1, 2, 4:
        // G(1) = 2, G(2) = 1/2 + 1 + 1/2 = 2, G(3) = 1/6 + 1/2 + 1/2 + 1/4 = 17/12;
        // X(2) = G(1)/G(2) = 1, X(3) = G(2)/G(3) = 24/17. Agreed.
        ClosedNetwork net = ClosedNetwork.of(Station.multiServer("cpu", 1, 2)).withThink(1);
        double[] x = {0, 0.5, 1, 24.0 / 17};
        double[] r = {0, 1, 1, 9.0 / 8};
        for (int n = 1; n <= 3; n++) {
            ClosedSolution s = net.solve(n);
            assertThat(s.throughputPerSec()).as("X(%d)", n).isCloseTo(x[n], within(EXACT));
            assertThat(s.responseSec()).as("R(%d)", n).isCloseTo(r[n], within(EXACT));
        }
        ClosedSolution three = net.solve(3);
        // U = X·D/c = 12/17 per core; Q = X·R = 27/17.
        assertThat(three.station("cpu").utilisation()).isCloseTo(12.0 / 17, within(EXACT));
        assertThat(three.station("cpu").queueLength()).isCloseTo(27.0 / 17, within(EXACT));
    }

    @Test
    void twoCoresWithoutThinkTimeNeverQueueTwoCustomers() {
        // Two customers on two cores: each has a core, R = D, X = 2/D. A third waits.
        ClosedNetwork net = ClosedNetwork.of(Station.multiServer("cpu", 0.01, 2));
        assertThat(net.solve(1).throughputPerSec()).isCloseTo(100, within(1e-9));
        assertThat(net.solve(2).throughputPerSec()).isCloseTo(200, within(1e-9));
        assertThat(net.solve(2).responseSec()).isCloseTo(0.01, within(EXACT));
        assertThat(net.solve(3).throughputPerSec()).isCloseTo(200, within(1e-9));
        assertThat(net.solve(3).responseSec()).isCloseTo(0.015, within(EXACT));
        // One server declared as a multi-server station is a queueing station.
        assertThat(ClosedNetwork.of(Station.multiServer("one", 0.1, 1)).withThink(0.2).solve(2).throughputPerSec())
                .isCloseTo(6, within(EXACT));
    }

    @Test
    void seidmannWorkedByHandOnTheTwoCoreCase() {
        // c = 2, D = 1 → a single server of 1/2 and a delay of 1/2; Z = 1.
        // n=1: R = 1/2 + 1/2 = 1, X = 1/2 (exact), Q = 1/4.
        // n=2: Rq = (1/2)(5/4) = 5/8, R = 9/8, X = 2/(17/8) = 16/17 (exact: 1), Q = 10/17.
        // n=3: Rq = (1/2)(27/17) = 27/34, R = 22/17, X = 3/(39/17) = 17/13 (exact: 24/17).
        ClosedNetwork net = ClosedNetwork.of(Station.multiServer("cpu", 1, 2)).withThink(1);
        assertThat(net.seidmann(1).throughputPerSec()).isCloseTo(0.5, within(EXACT));
        assertThat(net.seidmann(2).throughputPerSec()).isCloseTo(16.0 / 17, within(EXACT));
        assertThat(net.seidmann(2).responseSec()).isCloseTo(9.0 / 8, within(EXACT));
        assertThat(net.seidmann(3).throughputPerSec()).isCloseTo(17.0 / 13, within(EXACT));
        assertThat(net.seidmann(3).station("cpu").residenceSec()).isCloseTo(22.0 / 17, within(EXACT));
        assertThat(net.seidmann(3).station("cpu").utilisation()).isCloseTo(17.0 / 26, within(EXACT));
        // Two customers, two cores, no think time: Seidmann queues them (R = 5/4·D, X = 8/5 per D)
        // where neither waits: its 20 % worst case for c = 2.
        ClosedNetwork alone = ClosedNetwork.of(Station.multiServer("cpu", 1, 2));
        assertThat(alone.seidmann(2).throughputPerSec()).isCloseTo(1.6, within(EXACT));
        assertThat(alone.solve(2).throughputPerSec()).isCloseTo(2, within(EXACT));
    }

    @Test
    void seidmannsStatedErrorHoldsOnItsGrid() {
        double worstX = 0;
        double worstR = 0;
        double over = 0;
        double[] ratios = {0, 0.25, 0.5, 1, 2, 4};
        for (int c : new int[] {2, 4, 8, 16, 32, 64}) {
            for (double z : ratios) {
                for (double other : ratios) {
                    double d = 0.01;
                    List<Station> st = new ArrayList<>(List.of(Station.multiServer("cpu", d, c)));
                    if (other > 0) {
                        st.add(Station.queueing("other", other * d / c));
                    }
                    ClosedNetwork net = new ClosedNetwork(st, z * d);
                    List<ClosedSolution> exact = net.solveAll(400);
                    List<ClosedSolution> seidmann = net.seidmannAll(400);
                    for (int n = 1; n <= 400; n++) {
                        ClosedSolution approx = seidmann.get(n);
                        double shortfall = 1 - approx.throughputPerSec() / exact.get(n).throughputPerSec();
                        worstX = Math.max(worstX, shortfall);
                        over = Math.min(over, shortfall);
                        worstR = Math.max(worstR, approx.responseSec() / exact.get(n).responseSec() - 1);
                    }
                }
            }
        }
        assertThat(over).as("Seidmann never overestimates throughput").isGreaterThan(-1e-12);
        assertThat(worstX).isLessThanOrEqualTo(ClosedNetwork.SEIDMANN_MAX_THROUGHPUT_ERROR)
                .isGreaterThan(ClosedNetwork.SEIDMANN_MAX_THROUGHPUT_ERROR - 0.01);
        assertThat(worstR).isLessThanOrEqualTo(ClosedNetwork.SEIDMANN_MAX_RESPONSE_ERROR)
                .isGreaterThan(ClosedNetwork.SEIDMANN_MAX_RESPONSE_ERROR - 0.01);
    }

    @Test
    void matchesTheProductFormSummedOverEveryState() {
        // Two cores, one single server and a delay, think time: X(N) = G(N−1)/G(N) with G summed
        // over every placement of N customers, for N up to 8.
        double dCpu = 0.03;
        double dDisk = 0.02;
        double delay = 0.05;
        double z = 0.1;
        ClosedNetwork net = new ClosedNetwork(List.of(Station.multiServer("cpu", dCpu, 2),
                Station.queueing("disk", dDisk), Station.delay("origin", delay)), z);
        List<ClosedSolution> all = net.solveAll(8);
        for (int n = 1; n <= 8; n++) {
            double x = g(n - 1, dCpu, dDisk, delay, z) / g(n, dCpu, dDisk, delay, z);
            assertThat(all.get(n).throughputPerSec()).as("X(%d)", n).isCloseTo(x, within(1e-10 * x));
            // Mean customers at the CPU straight from the state probabilities.
            double q = 0;
            for (int a = 0; a <= n; a++) {
                q += a * g(n - a, 0, dDisk, delay, z) * cpu(a, dCpu) / g(n, dCpu, dDisk, delay, z);
            }
            assertThat(all.get(n).station("cpu").queueLength()).as("Qcpu(%d)", n).isCloseTo(q, within(1e-10));
        }
    }

    /** G(n) by brute force: every (cpu, disk, origin, thinking) split of n. */
    static double g(int n, double dCpu, double dDisk, double delay, double z) {
        double sum = 0;
        for (int a = 0; a <= n; a++) {
            for (int b = 0; a + b <= n; b++) {
                for (int c = 0; a + b + c <= n; c++) {
                    int t = n - a - b - c;
                    sum += cpu(a, dCpu) * Math.pow(dDisk, b) * Math.pow(delay, c) / fact(c) * Math.pow(z, t) / fact(t);
                }
            }
        }
        return sum;
    }

    static double cpu(int a, double d) {
        // Two servers: D^a / (1·2·2·…).
        return a == 0 ? 1 : Math.pow(d, a) / Math.pow(2, a - 1);
    }

    static double fact(int k) {
        double f = 1;
        for (int i = 2; i <= k; i++) {
            f *= i;
        }
        return f;
    }

    @Test
    void staysExactWithManyCoresAndThousandsOfConnections() {
        // 64 cores, 3,000 connections: against the normalising constants convolved in logarithms,
        // which never subtract. Taking the idle probability from the busy servers instead was
        // 94 % off here.
        double d = 0.001;
        List<Station> st = List.of(Station.multiServer("cpu", d, 64), Station.queueing("nginx", d / 128),
                Station.delay("origin", 0.01));
        int n = 3000;
        List<ClosedSolution> all = new ClosedNetwork(st, 0.001).solveAll(n);
        double[] logG = logG(st, 0.001, n);
        for (int m = 1; m <= n; m++) {
            double x = Math.exp(logG[m - 1] - logG[m]);
            assertThat(all.get(m).throughputPerSec()).as("X(%d)", m).isCloseTo(x, within(1e-9 * x));
        }
        assertThat(all.get(n).throughputPerSec()).isCloseTo(64_000, within(1e-6));
    }

    static double[] logG(List<Station> stations, double z, int n) {
        double[] g = new double[n + 1];
        Arrays.fill(g, Double.NEGATIVE_INFINITY);
        g[0] = 0;
        List<double[]> factors = new ArrayList<>();
        for (Station s : stations) {
            factors.add(logFactor(s.kind() == Station.Kind.DELAY ? 0 : s.servers(), s.demandSec(), n));
        }
        factors.add(logFactor(0, z, n));
        for (double[] f : factors) {
            double[] h = new double[n + 1];
            for (int m = 0; m <= n; m++) {
                double max = Double.NEGATIVE_INFINITY;
                for (int j = 0; j <= m; j++) {
                    max = Math.max(max, f[j] + g[m - j]);
                }
                double sum = 0;
                for (int j = 0; j <= m; j++) {
                    sum += Math.exp(f[j] + g[m - j] - max);
                }
                h[m] = max + Math.log(sum);
            }
            g = h;
        }
        return g;
    }

    /** log(D^j / β(j)), β(j) = Π min(i, c), or j! for a delay (c = 0). */
    static double[] logFactor(int c, double d, int n) {
        double[] f = new double[n + 1];
        for (int j = 1; j <= n; j++) {
            f[j] = f[j - 1] + Math.log(d) - Math.log(c == 0 ? j : Math.min(j, c));
        }
        return f;
    }

    @Test
    void everySolutionLiesWithinTheAsymptoticBoundsAndObeysLittle() {
        ClosedNetwork net = new ClosedNetwork(List.of(Station.multiServer("cpu", 0.02, 4),
                Station.queueing("nginx", 0.004), Station.delay("origin", 0.1)), 0.05);
        // D = 0.124, Z = 0.05; bottleneck: cpu at 4/0.02 = 200/s; knee N* = 0.174 · 200 = 34.8.
        ClosedNetwork.Bounds b = net.bounds(10);
        assertThat(b.maxThroughputPerSec()).isCloseTo(10 / 0.174, within(EXACT));
        assertThat(b.minResponseSec()).isCloseTo(0.124, within(EXACT));
        assertThat(b.kneePopulation()).isCloseTo(34.8, within(1e-9));
        assertThat(net.bounds(100).maxThroughputPerSec()).isEqualTo(200);
        assertThat(net.bounds(100).minResponseSec()).isCloseTo(100 / 200.0 - 0.05, within(EXACT));
        List<ClosedSolution> all = net.solveAll(300);
        for (int n = 1; n <= 300; n++) {
            ClosedSolution s = all.get(n);
            ClosedNetwork.Bounds bn = net.bounds(n);
            assertThat(s.throughputPerSec()).isLessThanOrEqualTo(bn.maxThroughputPerSec() * (1 + EXACT));
            assertThat(s.responseSec()).isGreaterThanOrEqualTo(bn.minResponseSec() * (1 - EXACT));
            assertThat(s.throughputPerSec() * (s.responseSec() + s.thinkSec())).isCloseTo(n, within(1e-9 * n));
            double customers = s.stations().stream().mapToDouble(StationLoad::queueLength).sum()
                    + s.throughputPerSec() * s.thinkSec();
            assertThat(customers).isCloseTo(n, within(1e-9 * n));
            assertThat(s.throughputPerSec()).isGreaterThanOrEqualTo(all.get(n - 1).throughputPerSec() * (1 - EXACT));
        }
        // Well past the knee the CPU is the bottleneck: X → 200/s, its cores all busy.
        assertThat(all.get(300).throughputPerSec()).isCloseTo(200, within(1e-6));
        assertThat(all.get(300).station("cpu").utilisation()).isCloseTo(1, within(1e-8));
        // The two-station example of twoQueueingStationsWorkedByHand: X(3) = 28/3 ≤ min(3/0.15, 1/0.1) = 10.
        assertThat(ClosedNetwork.of(Station.queueing("front", 0.1), Station.queueing("back", 0.05)).bounds(3)
                .maxThroughputPerSec()).isEqualTo(10);
    }

    @Test
    void refusesWhatIsNotANetwork() {
        assertThatThrownBy(() -> new ClosedNetwork(List.of(), 0)).hasMessageContaining("needs a station");
        assertThatThrownBy(() -> ClosedNetwork.of(Station.queueing("a", 1), Station.delay("a", 1)))
                .hasMessageContaining("two stations named a");
        assertThatThrownBy(() -> ClosedNetwork.of(Station.queueing("a", 1)).withThink(-1)).hasMessageContaining("think");
        assertThatThrownBy(() -> Station.queueing("a", -0.1)).hasMessageContaining("demand");
        assertThatThrownBy(() -> new Station("a", Station.Kind.QUEUEING, 1, 2)).hasMessageContaining("servers");
        assertThatThrownBy(() -> Station.multiServer("cpu", 1, 0)).hasMessageContaining("servers");
        assertThatThrownBy(() -> ClosedNetwork.of(Station.queueing("a", 1)).solve(-1)).hasMessageContaining("population");
        assertThatThrownBy(() -> ClosedNetwork.of(Station.queueing("a", 0), Station.delay("b", 0)))
                .hasMessageContaining("unbounded");
        // A zero demand beside others is fine: an idle station.
        assertThat(ClosedNetwork.of(Station.multiServer("cpu", 0, 4), Station.queueing("disk", 0.1)).solve(5)
                .throughputPerSec()).isCloseTo(10, within(EXACT));
    }
}
