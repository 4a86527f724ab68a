package dev.ratecache.model;

import java.util.List;

/** Where the requests come from: an {@link Open} list of arrivals or {@link Closed} looping users. */
public sealed interface Workload permits Workload.Open, Workload.Closed {

    /**
     * An open model: each request arrives at its given time.
     *
     * @param arrivals the requests, in any order (the simulation orders them by time, then index)
     */
    record Open(List<Arrival> arrivals) implements Workload {
        public Open {
            arrivals = List.copyOf(arrivals);
        }
    }

    /**
     * A closed model like a JMeter thread group without timers: each user issues its next
     * request when the previous one's answer has reached it.
     *
     * @param users               concurrent users
     * @param loops               loops per user; each loop requests every path of {@code paths} once
     * @param rampUpMs            user {@code u} starts at {@code u * rampUpMs / users}
     * @param paths               the paths of one loop
     * @param randomOrder         shuffle the paths in each loop (seeded per user) instead of list order
     * @param seed                the shuffle's seed
     * @param roundTripOverheadMs client-side cost of each request (connection, client code): added
     *                            between the server's answer and the user seeing it
     * @param clientPerUser       each user is its own limit_req key; otherwise all users share one
     *                            (JMeter on one host: one source address)
     * @param clientCache         each user keeps a cache like JMeter's HTTP Cache Manager: a 200 is fresh
     *                            for the path's max-age counted from its receipt (JMeter reads no Age),
     *                            and a fresh entry answers the user at once, without a request
     * @param library             the users are the suite's client library instead of JMeter (its own
     *                            cache and retries, see {@link Library}); null for JMeter
     * @param drawn               each user's paths in the order a run actually drew them (all its loops, user
     *                            {@code u} at index {@code u}), used instead of the seeded shuffle; null to shuffle
     * @param paceMs              each user's pace as a run measured it: after its {@code k}-th answer left the
     *                            front, how long until it sent its next request (the client's share of the round
     *                            trip and its own work between samples), user {@code u} at index {@code u}, used
     *                            instead of {@code roundTripOverheadMs} for when the next request goes; null for
     *                            the constant overhead. Users that a busy machine's cores share slow down as more
     *                            of them run at once, which a constant cannot say
     * @param startsMs            when each user sent its first request as a run measured it, user {@code u} at
     *                            index {@code u}, instead of the ramp-up's even steps: a generator starting its
     *                            threads on a busy machine bunches them; null for the ramp-up
     */
    record Closed(int users, int loops, long rampUpMs, List<String> paths, boolean randomOrder, long seed,
                  long roundTripOverheadMs, boolean clientPerUser, boolean clientCache, Library library,
                  List<List<String>> drawn, List<List<Long>> paceMs, List<Long> startsMs)
            implements Workload {

        public Closed(int users, int loops, long rampUpMs, List<String> paths, boolean randomOrder, long seed,
                long roundTripOverheadMs, boolean clientPerUser, boolean clientCache, Library library,
                List<List<String>> drawn) {
            this(users, loops, rampUpMs, paths, randomOrder, seed, roundTripOverheadMs, clientPerUser, clientCache,
                    library, drawn, null, null);
        }

        public Closed(int users, int loops, long rampUpMs, List<String> paths, boolean randomOrder, long seed,
                long roundTripOverheadMs, boolean clientPerUser, boolean clientCache, Library library) {
            this(users, loops, rampUpMs, paths, randomOrder, seed, roundTripOverheadMs, clientPerUser, clientCache,
                    library, null);
        }

        public Closed(int users, int loops, long rampUpMs, List<String> paths, boolean randomOrder, long seed,
                long roundTripOverheadMs, boolean clientPerUser) {
            this(users, loops, rampUpMs, paths, randomOrder, seed, roundTripOverheadMs, clientPerUser, false, null);
        }

        public Closed(int users, int loops, long rampUpMs, List<String> paths, boolean randomOrder, long seed,
                long roundTripOverheadMs, boolean clientPerUser, boolean clientCache) {
            this(users, loops, rampUpMs, paths, randomOrder, seed, roundTripOverheadMs, clientPerUser, clientCache,
                    null);
        }

        public Closed {
            paths = List.copyOf(paths);
            if (users < 1 || loops < 1 || paths.isEmpty()) {
                throw new IllegalArgumentException("need users, loops and paths");
            }
            if (drawn != null) {
                drawn = drawn.stream().map(List::copyOf).toList();
                int each = loops * paths.size();
                if (drawn.size() != users || drawn.stream().anyMatch(d -> d.size() != each)) {
                    throw new IllegalArgumentException("drawn orders need each of " + users + " users' " + each
                            + " requests");
                }
                List<String> known = paths;
                drawn.stream().flatMap(List::stream).filter(p -> !known.contains(p)).findFirst().ifPresent(p -> {
                    throw new IllegalArgumentException("drawn orders ask " + p + ", not one of " + known);
                });
            }
            if (paceMs != null) {
                paceMs = paceMs.stream().map(List::copyOf).toList();
                int each = loops * paths.size();
                if (paceMs.size() != users || paceMs.stream().anyMatch(d -> d.size() != each)) {
                    throw new IllegalArgumentException("a measured pace needs each of " + users + " users' " + each
                            + " requests");
                }
                if (paceMs.stream().flatMap(List::stream).anyMatch(ms -> ms < 0)) {
                    throw new IllegalArgumentException("a measured pace cannot be negative");
                }
            }
            if (startsMs != null) {
                startsMs = List.copyOf(startsMs);
                if (startsMs.size() != users || startsMs.stream().anyMatch(ms -> ms < 0)) {
                    throw new IllegalArgumentException("measured starts need each of " + users
                            + " users' first request, at 0 ms or later");
                }
            }
        }

        /** The same users with the orders a run drew instead of a seeded shuffle. */
        public Closed withDrawn(List<List<String>> orders) {
            return new Closed(users, loops, rampUpMs, paths, randomOrder, seed, roundTripOverheadMs, clientPerUser,
                    clientCache, library, orders, paceMs, startsMs);
        }

        /** The same users at the pace a run measured, starting when it measured them start. */
        public Closed withPace(List<List<Long>> pace, List<Long> starts) {
            return new Closed(users, loops, rampUpMs, paths, randomOrder, seed, roundTripOverheadMs, clientPerUser,
                    clientCache, library, drawn, pace, starts);
        }

        /** All users from one address, paths in order, no overhead. */
        public static Closed of(int users, int loops, long rampUpMs, List<String> paths) {
            return new Closed(users, loops, rampUpMs, paths, false, 0, 0, false, false, null);
        }
    }

    /**
     * The suite's client library (client/) as each user: a private HTTP cache per user (RFC 9111:
     * a response is fresh for its max-age less its Age, counted from when the request was sent),
     * and a rejection (429 or 503) retried after Retry-After, up to {@code maxRetries} times and
     * within {@code budgetMs} of the first send; the retries are one sample. With revalidation
     * threads, a stale entry inside its path's stale-while-revalidate answers at once and is
     * revalidated in the background (one revalidation per entry at a time, at most
     * {@code revalidationThreads} of the user's at once, the others waiting their turn); a
     * background revalidation goes through the tiers as any request and is retried the same way,
     * but is no sample. The user's client is closed when its last answer reaches it, and a
     * background revalidation that has not reached the origin by then is given up.
     *
     * @param retryAfterMs        the wait before a retry: the tiers' Retry-After plus the library's mean jitter
     * @param revalidationThreads each user's background revalidation threads; 0 revalidates before answering
     * @param revalidationsSent   a background revalidation reaches the wire in the millisecond it starts;
     *                            otherwise a millisecond later, after a user whose work ended then has
     *                            closed its client (a race of threads: the two bound what a run may see)
     */
    record Library(int maxRetries, long retryAfterMs, long budgetMs, int revalidationThreads,
                   boolean revalidationsSent) {
        /** Without background revalidation: every stale entry is revalidated before it answers. */
        public Library(int maxRetries, long retryAfterMs, long budgetMs) {
            this(maxRetries, retryAfterMs, budgetMs, 0, false);
        }

        public Library(int maxRetries, long retryAfterMs, long budgetMs, int revalidationThreads) {
            this(maxRetries, retryAfterMs, budgetMs, revalidationThreads, false);
        }
    }
}
