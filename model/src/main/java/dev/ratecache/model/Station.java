package dev.ratecache.model;

/**
 * One station of a queueing network (closed: {@link ClosedNetwork}, open: {@link OpenNetwork}),
 * described by its service demand: the seconds of service one request needs there in all, over
 * all its visits (Denning &amp; Buzen's D<sub>k</sub> = V<sub>k</sub>S<sub>k</sub>), so visit counts
 * never appear.
 *
 * <ul>
 *   <li>{@link Kind#QUEUEING}: one server, first come first served (or processor sharing; MVA's
 *       means are the same), e.g. a single-threaded event loop pinned to one core.</li>
 *   <li>{@link Kind#MULTI_SERVER}: {@code servers} identical servers in front of one queue: the
 *       machine's CPU with its cores. Every process on the machine, the load generator included,
 *       takes its CPU seconds from it, so its demand is the sum of their per-request CPU seconds.</li>
 *   <li>{@link Kind#DELAY}: no queue, every request held for {@code demandSec} (an infinite
 *       server): the origin's sleep, a fixed network hop.</li>
 * </ul>
 *
 * @param name      what the station stands for, unique in its network
 * @param kind      queueing, multi-server or delay
 * @param demandSec service demand per request in seconds (the delay, for a delay station), at
 *                  least 0
 * @param servers   1 for a queueing station, the cores for a multi-server one, 0 for a delay
 */
public record Station(String name, Kind kind, double demandSec, int servers) {

    /** How a station serves: see {@link Station}. */
    public enum Kind { QUEUEING, MULTI_SERVER, DELAY }

    public Station {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a station needs a name");
        }
        if (!(demandSec >= 0) || Double.isInfinite(demandSec)) {
            throw new IllegalArgumentException(name + ": demand must be finite and at least 0: " + demandSec);
        }
        int expected = switch (kind) {
            case QUEUEING -> 1;
            case DELAY -> 0;
            case MULTI_SERVER -> Math.max(servers, 1);
        };
        if (servers != expected) {
            throw new IllegalArgumentException(name + ": a " + kind + " station cannot have " + servers + " servers");
        }
    }

    /** A single-server queueing station with service demand {@code demandSec}. */
    public static Station queueing(String name, double demandSec) {
        return new Station(name, Kind.QUEUEING, demandSec, 1);
    }

    /**
     * A station of {@code servers} servers and one queue (the CPU with the machine's cores); one
     * request is served by one server at a time, so alone it still takes {@code demandSec}.
     */
    public static Station multiServer(String name, double demandSec, int servers) {
        return new Station(name, Kind.MULTI_SERVER, demandSec, servers);
    }

    /** A delay (infinite-server) station holding every request {@code delaySec}. */
    public static Station delay(String name, double delaySec) {
        return new Station(name, Kind.DELAY, delaySec, 0);
    }

    /** Whether requests can queue here: every kind but a delay. */
    public boolean queues() {
        return kind != Kind.DELAY;
    }

    /**
     * The most requests per second this station can complete: servers / demand (the utilisation
     * law at U = 1); infinite for a delay station or a zero demand.
     */
    public double capacityPerSec() {
        return !queues() || demandSec == 0 ? Double.POSITIVE_INFINITY : servers / demandSec;
    }
}
