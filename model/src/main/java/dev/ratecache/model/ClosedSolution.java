package dev.ratecache.model;

import java.util.List;

/**
 * A closed network solved for {@code population} customers.
 *
 * @param population     customers N (connections of wrk, users of JMeter without timers)
 * @param throughputPerSec X(N), requests per second
 * @param responseSec    R(N), seconds from a request's issue to its answer: the sum of the
 *                       stations' residence times, delay stations included, think time not
 * @param thinkSec       the network's think time Z; N = X(R + Z) (the response time law)
 * @param stations       per station, in the network's order
 */
public record ClosedSolution(int population, double throughputPerSec, double responseSec, double thinkSec,
                             List<StationLoad> stations) {

    public ClosedSolution {
        stations = List.copyOf(stations);
    }

    /** The figures of the station named {@code name}. */
    public StationLoad station(String name) {
        return stations.stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no station " + name));
    }
}
