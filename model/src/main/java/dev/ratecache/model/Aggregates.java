package dev.ratecache.model;

/**
 * The run's summary.
 *
 * @param requests         client requests
 * @param throughputPerSec requests per second from the first issue to the last answer seen
 * @param rejectedPercent  share rejected by either tier's limit_req, in percent
 * @param originRequests   requests the origin served, background refreshes included
 * @param edgeHitPercent   share of the requests that reached the edge cache answered HIT, in
 *                         percent (0 without a cache)
 * @param p50Ms            median latency (nearest rank)
 * @param p95Ms            95th percentile latency (nearest rank)
 */
public record Aggregates(int requests, double throughputPerSec, double rejectedPercent, int originRequests,
                         double edgeHitPercent, long p50Ms, long p95Ms) {
}
