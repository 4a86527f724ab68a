package dev.ratecache.model;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * An open load: requests arriving at a rate, whatever the answers do (JMeter's constant
 * throughput timer, a rate-driven generator), through the same {@link Station}s as a
 * {@link ClosedNetwork}. The utilisation law (Denning &amp; Buzen, "The Operational Analysis of
 * Queueing Network Models", Computing Surveys 10(3), 1978) gives each station's utilisation
 * U = λ·D / c, and so the rate at which the first one saturates, with no assumption on
 * distributions. The response times assume Poisson arrivals and exponential service: M/M/1 for a
 * single server, M/M/c (Erlang C) for a multi-server station, the delay itself for a delay.
 *
 * @param stations the stations, at least one, names unique
 */
public record OpenNetwork(List<Station> stations) {

    public OpenNetwork {
        stations = List.copyOf(stations);
        if (stations.isEmpty()) {
            throw new IllegalArgumentException("a network needs a station");
        }
        var names = new HashSet<String>();
        for (Station s : stations) {
            if (!names.add(s.name())) {
                throw new IllegalArgumentException("two stations named " + s.name());
            }
        }
    }

    public static OpenNetwork of(Station... stations) {
        return new OpenNetwork(List.of(stations));
    }

    /**
     * The arrival rate at which the first station reaches U = 1: min over queueing stations of
     * c/D. At or above it queues grow without bound; infinite if no station can saturate.
     */
    public double saturationRatePerSec() {
        return stations.stream().mapToDouble(Station::capacityPerSec).min().orElseThrow();
    }

    /**
     * The station that saturates first as the rate rises (the first of equals, in the network's
     * order), or null if none can.
     */
    public Station bottleneck() {
        Station worst = null;
        for (Station s : stations) {
            if (s.capacityPerSec() < (worst == null ? Double.POSITIVE_INFINITY : worst.capacityPerSec())) {
                worst = s;
            }
        }
        return worst;
    }

    /**
     * Every station's figures at arrival rate {@code lambdaPerSec}. A station at U ≥ 1 has
     * infinite residence time and queue; so then does the whole.
     */
    public OpenSolution at(double lambdaPerSec) {
        if (!(lambdaPerSec >= 0) || Double.isInfinite(lambdaPerSec)) {
            throw new IllegalArgumentException("arrival rate must be finite and at least 0: " + lambdaPerSec);
        }
        List<StationLoad> loads = new ArrayList<>(stations.size());
        double total = 0;
        for (Station s : stations) {
            double d = s.demandSec();
            double offered = lambdaPerSec * d;
            double r = switch (s.kind()) {
                case DELAY -> d;
                case QUEUEING -> offered < 1 ? d / (1 - offered) : Double.POSITIVE_INFINITY;
                case MULTI_SERVER -> offered < s.servers()
                        ? d + erlangC(s.servers(), offered) * d / (s.servers() - offered)
                        : Double.POSITIVE_INFINITY;
            };
            loads.add(new StationLoad(s.name(), r, s.queues() ? offered / s.servers() : offered, lambdaPerSec * r));
            total += r;
        }
        return new OpenSolution(lambdaPerSec, total, loads);
    }

    /**
     * Erlang's C formula: the probability that an arrival at an M/M/c queue offered
     * {@code offered} = λ·D erlangs must wait. Through Erlang B's recursion
     * B(k) = a·B(k−1) / (k + a·B(k−1)), which neither overflows nor cancels for hundreds of
     * servers, then C = B / (1 − (a/c)(1 − B)).
     *
     * @param servers c, at least 1
     * @param offered a, below c
     */
    public static double erlangC(int servers, double offered) {
        if (servers < 1 || !(offered >= 0) || offered >= servers) {
            throw new IllegalArgumentException("Erlang C needs c >= 1 and 0 <= a < c: c=" + servers + " a=" + offered);
        }
        double b = 1;
        for (int k = 1; k <= servers; k++) {
            b = offered * b / (k + offered * b);
        }
        return b / (1 - offered / servers * (1 - b));
    }
}
