package dev.ratecache.model;

import java.util.List;

/**
 * A simulation's output.
 *
 * @param requests                 every client request, in index order
 * @param backgroundOriginRequests background cache refreshes that the origin served
 * @param aggregates               the summary
 */
public record SimulationResult(List<RequestOutcome> requests, int backgroundOriginRequests, Aggregates aggregates) {

    public SimulationResult {
        requests = List.copyOf(requests);
    }
}
