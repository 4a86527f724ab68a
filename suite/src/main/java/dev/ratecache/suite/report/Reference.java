package dev.ratecache.suite.report;

import dev.ratecache.suite.matrix.Cell;
import java.util.Optional;

/**
 * The reference experiment's published figures (2014: JMeter 2.9, nginx, a Vert.x app server run
 * as 10 single-threaded instances, on another machine). Context beside ours, not targets.
 *
 * @param meanMs null where the reference published no latency for the cell
 */
public record Reference(double throughput, double rejectedPct, Double meanMs, Double minMs, Double maxMs,
        String whyOursDiffers) {

    /** The figure for a cell of the same shape, if the reference measured one. */
    public static Optional<Reference> of(Cell cell) {
        if (cell.library()) {
            return Optional.empty();
        }
        if (cell.plan().equals("stress")) {
            if (cell.direct()) {
                return Optional.of(new Reference(39, 0, null, null, null,
                        "The reference app server was Vert.x as 10 single-threaded instances; ours is one Tomcat with"
                                + " 10 request threads on loopback, so its capacity on /hare is about 10 / 0.1 s ="
                                + " 100 responses/s."));
            }
            if (!cell.frontLimit() || !cell.backLimit()) {
                return Optional.empty();
            }
            if (!cell.serverCache() && !cell.clientCache()) {
                return Optional.of(new Reference(23, 54, null, null, null,
                        "Every request reaches the back end's limit (10 r/s, burst 50 for the app as a whole): what"
                                + " exceeds the 50 queued is rejected. Rejected users come back at once, so throughput"
                                + " and the rejected share depend on how fast JMeter loops, which on loopback is far"
                                + " faster than the reference's network."));
            }
            if (cell.serverCache() && cell.clientCache()) {
                return Optional.of(new Reference(193, 0, null, null, null,
                        "Most requests never leave JMeter (each user's own cache answers them); the rest are edge"
                                + " hits. Throughput is then JMeter's own loop speed, which depends on the machine."));
            }
            if (cell.serverCache()) {
                return Optional.of(new Reference(99.3, 0, null, null, null,
                        "The edge cache answers all but one request per 3 s, so the front end's 100 r/s per-client"
                                + " limit is what sets the pace, as in the reference."));
            }
            return Optional.of(new Reference(99.5, 0, null, null, null,
                    "Each user's first request per 3 s goes out; the front end's 100 r/s per-client limit queues"
                            + " them, as in the reference."));
        }
        if (cell.plan().equals("load") && !cell.direct() && cell.frontLimit() && cell.backLimit()) {
            String appServer = "The reference app server spread requests over 10 single-threaded instances, so a"
                    + " quick /hare could wait behind a 5 s /snail; ours has one pool of 10 threads for 10 users,"
                    + " so nothing waits behind a slow call.";
            if (!cell.serverCache() && !cell.clientCache()) {
                return Optional.of(new Reference(1.4, 0, 6874.0, 104.0, 19069.0, appServer
                        + " Without caching every request pays its endpoint's delay, so the mean is close to the"
                        + " average of 0.1 s, 2 s and 5 s."));
            }
            if (cell.serverCache() && cell.clientCache()) {
                return Optional.of(new Reference(16.9, 0, 418.0, 0.0, 12997.0, appServer));
            }
            if (cell.serverCache()) {
                return Optional.of(new Reference(20, 0, 377.0, 2.0, 12005.0, appServer
                        + " The edge cache is shared by all users, so each URL is fetched once per freshness lifetime."));
            }
            return Optional.of(new Reference(9.2, 0, 857.0, 0.0, 14988.0, appServer
                    + " JMeter's cache is per user: each user pays its own first request to every URL."));
        }
        return Optional.empty();
    }
}
