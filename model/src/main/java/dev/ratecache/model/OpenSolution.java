package dev.ratecache.model;

import java.util.List;

/**
 * An open network at one arrival rate.
 *
 * @param lambdaPerSec the arrival rate λ
 * @param responseSec  mean seconds from arrival to answer, the stations' residence times added;
 *                     infinite if any station is saturated
 * @param stations     per station, in the network's order
 */
public record OpenSolution(double lambdaPerSec, double responseSec, List<StationLoad> stations) {

    public OpenSolution {
        stations = List.copyOf(stations);
    }

    /** Whether every queueing station is below U = 1, so the means exist. */
    public boolean stable() {
        return Double.isFinite(responseSec);
    }

    /** The figures of the station named {@code name}. */
    public StationLoad station(String name) {
        return stations.stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no station " + name));
    }
}
