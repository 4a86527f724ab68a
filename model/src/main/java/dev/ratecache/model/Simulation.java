package dev.ratecache.model;

import dev.ratecache.stats.NearestRank;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;

/**
 * A discrete-event simulation of clients → front (per-client limit, edge cache) → back
 * (global limit) → origin (threads + FIFO queue). Each tier's limit and the cache are those of the
 * spec's product ({@link LimitSpec}, {@link EdgeCacheSpec}); the suite's templates put the limit
 * before the cache for every product.
 *
 * <p>Events at the same millisecond run in the order they were scheduled, so a run is fully
 * determined by its spec and workload (and the seed of a random path order). One simulated
 * millisecond stands for one nginx event-loop iteration: every request handled "now" sees the
 * same {@code ngx_current_msec}.
 *
 * <p>The request's path through the tiers follows nginx's phases: limit_req runs in the
 * preaccess phase (a delayed request re-enters the phases after its timer, and limit_req does not
 * count it again: {@code r->main->limit_req_status} is already set); the cache lookup happens in
 * the content phase (ngx_http_upstream_cache), so only requests the front accepted reach it, and
 * only misses and expired entries go on to the back. A background refresh is a subrequest: the
 * front's limit_req skips it, the back counts it. HAProxy's and Varnish's limits decide without
 * delays, so their requests take the same path without the timer; a Varnish background fetch too
 * is counted by the back only.
 */
public final class Simulation {

    private static final String BACK_KEY = "origin";

    private record Event(long time, long seq, Runnable action) {
    }

    private final class Req {
        final int index;
        final String client;
        final String path;
        final long issueMs;
        final boolean background;
        long arrivalMs;
        Decision front;
        CacheStatus cache;
        Decision back;
        boolean reachedOrigin;
        boolean updater;
        boolean store;
        /** This request's hop from the front to the back when measured; {@link Arrival#SPEC_HOP} otherwise. */
        long hopToBackMs = Arrival.SPEC_HOP;
        /** The origin's time for this request's fetch when measured; {@link Arrival#SPEC_SERVICE} otherwise. */
        long serviceMs = Arrival.SPEC_SERVICE;
        int status;
        /** The Age the edge sends with an answer from its cache: whole seconds since the origin's answer was stored. */
        long ageSec;
        /** The library user whose background revalidation this is (no sample); null for a user's own request. */
        LibraryUser revalidationOf;
        /** When not null, decides after an answer whether a retry follows (and schedules it); the answer is then no sample. */
        java.util.function.IntPredicate retry;
        Runnable onDone;

        Req(int index, String client, String path, long issueMs, boolean background) {
            this.index = index;
            this.client = client;
            this.path = path;
            this.issueMs = issueMs;
            this.background = background;
        }
    }

    private final SimulationSpec spec;
    private final PriorityQueue<Event> events =
            new PriorityQueue<>(Comparator.comparingLong(Event::time).thenComparingLong(Event::seq));
    private long seq;
    private long now;
    /** A limit's zone: its product's per-key state, and the spec it answers rejections by. */
    private record Zone(LimitSpec spec, Limiter limiter) {
        static Zone of(LimitSpec spec) {
            return new Zone(spec, spec.limiter());
        }

        Decision decide(String key, long nowMs) {
            return limiter.decide(key, nowMs);
        }
    }

    private final Zone frontLimit;
    /** The zone of each client with a front limit of its own (a tier's keys share one zone). */
    private final Map<String, Zone> frontByClient = new HashMap<>();
    private final Zone backLimit;
    private final EdgeCache cache;
    private int busyThreads;
    private final ArrayDeque<Req> originQueue = new ArrayDeque<>();
    private final List<RequestOutcome> outcomes = new ArrayList<>();
    /** Requests waiting for a fetch of their path to be released (Varnish's waiting list), in arrival order. */
    private final Map<String, List<Req>> waitingForFetch = new HashMap<>();
    private int originServed;
    private int backgroundServed;
    /** The closed workload's round-trip overhead, added between the front's answer and the client. */
    private long clientOverheadMs;

    private Simulation(SimulationSpec spec) {
        this.spec = spec;
        this.frontLimit = spec.front() == null ? null : Zone.of(spec.front());
        Map<LimitSpec, Zone> zones = new HashMap<>();
        spec.frontByClient().forEach((client, limit) ->
                frontByClient.put(client, zones.computeIfAbsent(limit, Zone::of)));
        this.backLimit = spec.back() == null ? null : Zone.of(spec.back());
        this.cache = spec.cache() == null ? null : new EdgeCache(spec.cache(), spec.epochMs());
    }

    /** Runs {@code workload} against a fresh model of {@code spec}. */
    public static SimulationResult run(SimulationSpec spec, Workload workload) {
        return new Simulation(spec).simulate(workload);
    }

    /** User {@code u}'s requests over all its loops: the paths in order, or shuffled each loop (seeded per user). */
    private static List<String> loops(Workload.Closed closed, int u) {
        Random random = new Random(closed.seed() * 1_000_003L + u);
        List<String> plan = new ArrayList<>();
        for (int l = 0; l < closed.loops(); l++) {
            List<String> loop = new ArrayList<>(closed.paths());
            if (closed.randomOrder()) {
                Collections.shuffle(loop, random);
            }
            plan.addAll(loop);
        }
        return plan;
    }

    private void at(long time, Runnable action) {
        events.add(new Event(time, seq++, action));
    }

    /**
     * A hop of {@code delay} ms; with no hop time the next step runs in the same event, because
     * nginx handles I/O events before the expired timers of the same loop iteration
     * (ngx_process_events_and_timers): an upstream answer at t is seen by a lock waiter polling at t.
     */
    private void after(long delay, Runnable action) {
        if (delay == 0) {
            action.run();
        } else {
            at(now + delay, action);
        }
    }

    private SimulationResult simulate(Workload workload) {
        if (workload instanceof Workload.Open open) {
            List<Arrival> arrivals = open.arrivals();
            for (int i = 0; i < arrivals.size(); i++) {
                Arrival a = arrivals.get(i);
                Req r = new Req(i, a.client(), a.path(), a.timeMs(), false);
                r.hopToBackMs = a.hopToBackMs();
                r.serviceMs = a.serviceMs();
                r.onDone = () -> { };
                at(a.timeMs(), () -> arrive(r));
            }
        } else if (workload instanceof Workload.Closed closed) {
            clientOverheadMs = closed.roundTripOverheadMs();
            int[] issued = {0};
            for (int u = 0; u < closed.users(); u++) {
                int user = u;
                List<String> plan = closed.drawn() != null ? closed.drawn().get(u) : loops(closed, u);
                String client = closed.clientPerUser() ? "user-" + u : "client";
                long start = closed.startsMs() != null ? closed.startsMs().get(u) : (long) u * closed.rampUpMs() / closed.users();
                // JMeter's HTTP Cache Manager is per thread: one cache per user, whatever its address.
                Map<String, Long> userCache = closed.clientCache() && closed.library() == null ? new HashMap<>() : null;
                LibraryUser library = closed.library() == null ? null : new LibraryUser(closed.library());
                at(start, () -> issue(closed, user, client, plan, 0, issued, userCache, library));
            }
        }
        while (!events.isEmpty()) {
            Event e = events.poll();
            now = e.time();
            e.action().run();
        }
        outcomes.sort(Comparator.comparingInt(RequestOutcome::index));
        return new SimulationResult(outcomes, backgroundServed, aggregate());
    }

    /**
     * The user's next request: from its own cache while the entry is fresh (a sample of no time,
     * as JMeter's RETURN_200_CACHE records it), else to the front; a 200 it receives is then fresh
     * for the path's max-age from that moment.
     */
    /** When the edge last stored each path's answer: its Date, from which it counts Age. */
    private final Map<String, Long> storedAt = new HashMap<>();

    private void issue(Workload.Closed closed, int user, String client, List<String> plan, int next, int[] issued,
            Map<String, Long> userCache, LibraryUser library) {
        String path = plan.get(next);
        long pace = closed.paceMs() == null ? clientOverheadMs : closed.paceMs().get(user).get(next);
        Runnable following = () -> {
            if (next + 1 < plan.size()) {
                at(now + pace, () -> issue(closed, user, client, plan, next + 1, issued, userCache, library));
            } else if (library != null) {
                // The user's work is done when its last answer reaches it: the driver closes its client.
                at(now + clientOverheadMs, library::close);
            }
        };
        if (library != null) {
            LibraryUser.Entry entry = library.cache.get(path);
            boolean fresh = entry != null && now < entry.freshUntil;
            boolean staleWhileRevalidating = entry != null && !fresh && library.settings.revalidationThreads() > 0
                    && now < entry.staleUntil;
            if (fresh || staleWhileRevalidating) {
                outcomes.add(new RequestOutcome(issued[0]++, client, path, now, now, null, null, null, false, now, now,
                        200, true));
                if (staleWhileRevalidating && !entry.revalidating) {
                    entry.revalidating = true;
                    library.submit(() -> revalidate(client, path, library, entry, 0, now));
                }
                following.run();
                return;
            }
        } else {
            Long freshUntil = userCache == null ? null : userCache.get(path);
            if (freshUntil != null && now < freshUntil) {
                outcomes.add(new RequestOutcome(issued[0]++, client, path, now, now, null, null, null, false, now, now,
                        200, true));
                following.run();
                return;
            }
        }
        int index = issued[0]++;
        long issuedAt = now;
        send(closed, client, path, index, issuedAt, 0, userCache, library, following);
    }

    /** One send of a user's request: the first, or a library's retry of a rejection. */
    private void send(Workload.Closed closed, String client, String path, int index, long issuedAt, int attempt,
            Map<String, Long> userCache, LibraryUser library, Runnable following) {
        Req r = new Req(index, client, path, issuedAt, false);
        if (library != null) {
            r.retry = retry(library, attempt, issuedAt,
                    () -> send(closed, client, path, index, issuedAt, attempt + 1, userCache, library, following));
        }
        r.onDone = () -> {
            if (r.status == 200 && library != null) {
                library.stored(path, issuedAt, r.ageSec);
            } else if (r.status == 200 && userCache != null) {
                // JMeter: fresh for max-age from receipt, Age unread.
                long maxAgeMs = spec.origin().path(path).freshness().maxAgeSec() * 1000;
                userCache.put(path, now + clientOverheadMs + maxAgeMs);
            }
            following.run();
        };
        arrive(r);
    }

    /** Whether the library retries a rejection of attempt {@code attempt} (scheduling {@code resend} if so). */
    private java.util.function.IntPredicate retry(LibraryUser library, int attempt, long issuedAt, Runnable resend) {
        Workload.Library settings = library.settings;
        return status -> {
            boolean rejection = status == 429 || status == 503;
            if (!rejection || attempt >= settings.maxRetries() || now + settings.retryAfterMs() - issuedAt > settings.budgetMs()) {
                return false;
            }
            at(now + clientOverheadMs + settings.retryAfterMs(), resend);
            return true;
        };
    }

    /**
     * A background revalidation of the user's {@code entry}, on one of its threads: a request
     * through the tiers like any other (a 304 at the origin, which costs what a 200 does here),
     * retried like any other, and no sample. Its answer refreshes the entry. A thread has to start
     * before it is on the wire: unless {@link Workload.Library#revalidationsSent()}, a millisecond at
     * least, by when a user whose work ended with this answer has closed its client, and the
     * revalidation is never sent.
     */
    private void revalidate(String client, String path, LibraryUser library, LibraryUser.Entry entry, int attempt,
            long issuedAt) {
        if (library.settings.revalidationsSent()) {
            sendRevalidation(client, path, library, entry, attempt, issuedAt);
        } else {
            at(now + Math.max(1, clientOverheadMs), () -> sendRevalidation(client, path, library, entry, attempt, issuedAt));
        }
    }

    private void sendRevalidation(String client, String path, LibraryUser library, LibraryUser.Entry entry,
            int attempt, long issuedAt) {
        if (library.closed) {
            return;
        }
        Req r = new Req(-1, client, path, issuedAt, false);
        r.revalidationOf = library;
        r.retry = retry(library, attempt, issuedAt, () -> sendRevalidation(client, path, library, entry, attempt + 1, issuedAt));
        r.onDone = () -> {
            if (r.status == 200) {
                library.stored(path, issuedAt, r.ageSec);
            }
            entry.revalidating = false;
            library.release();
        };
        arrive(r);
    }

    /**
     * A library user's client: its private cache and its background revalidation threads. RFC
     * 9111 in the library: a response is fresh for max-age less the Age the edge sent, counted from
     * the send, and servable stale for the path's stale-while-revalidate after that.
     */
    private final class LibraryUser {
        final class Entry {
            long freshUntil;
            long staleUntil;
            boolean revalidating;
        }

        final Workload.Library settings;
        final Map<String, Entry> cache = new HashMap<>();
        private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();
        private int busy;
        boolean closed;

        LibraryUser(Workload.Library settings) {
            this.settings = settings;
        }

        void stored(String path, long sentAt, long ageSec) {
            Freshness f = spec.origin().path(path).freshness();
            Entry e = cache.computeIfAbsent(path, p -> new Entry());
            e.freshUntil = sentAt + f.maxAgeSec() * 1000 - ageSec * 1000L;
            e.staleUntil = e.freshUntil + f.staleWhileRevalidateSec() * 1000;
        }

        /** Runs {@code task} on a free thread, or when one frees up. */
        void submit(Runnable task) {
            if (busy < settings.revalidationThreads()) {
                busy++;
                task.run();
            } else {
                waiting.add(task);
            }
        }

        void release() {
            Runnable next = closed ? null : waiting.poll();
            if (next != null) {
                next.run();
            } else {
                busy--;
            }
        }

        void close() {
            closed = true;
            waiting.clear();
        }
    }

    /** The per-client zone that counts {@code r}: its tier's, the front's, or none for an allowed client. */
    private Zone perClientLimit(Req r) {
        return spec.unlimitedClients().contains(r.client) ? null : frontByClient.getOrDefault(r.client, frontLimit);
    }

    private void arrive(Req r) {
        r.arrivalMs = now;
        Zone limit = spec.perClientAtBack() ? null : perClientLimit(r);
        if (limit != null) {
            r.front = limit.decide(r.client, now);
            if (r.front.status() == LimitReqStatus.REJECTED) {
                finish(r, limit.spec().rejectStatus());
                return;
            }
            if (r.front.delayMs() > 0) {
                // ngx_add_timer(r->connection->write, delay); ngx_http_limit_req_delay resumes it.
                at(now + r.front.delayMs(), () -> lookup(r));
                return;
            }
        }
        lookup(r);
    }

    /** Whether {@code r} is a background revalidation whose client was closed: the tiers drop it where it is. */
    private static boolean givenUp(Req r) {
        return r.revalidationOf != null && r.revalidationOf.closed;
    }

    private void lookup(Req r) {
        if (givenUp(r)) {
            return;
        }
        if (cache == null) {
            forward(r);
            return;
        }
        handle(r, cache.open(r.path, now));
    }

    private void handle(Req r, EdgeCache.Lookup l) {
        if (l instanceof EdgeCache.Serve serve) {
            r.cache = serve.status();
            r.ageSec = Math.max(0, (now - storedAt.getOrDefault(r.path, now)) / 1000);
            if (serve.backgroundUpdate()) {
                Req bg = new Req(-1, r.client, r.path, now, true);
                bg.cache = CacheStatus.EXPIRED;
                bg.updater = true;
                bg.store = true;
                // The refresh this request started: measured as its fetch, where it was.
                bg.serviceMs = r.serviceMs;
                forward(bg);
            }
            finish(r, 200);
        } else if (l instanceof EdgeCache.Fetch fetch) {
            r.cache = fetch.status();
            r.updater = fetch.updater();
            r.store = fetch.store();
            forward(r);
        } else if (l instanceof EdgeCache.Wait wait) {
            at(wait.untilMs(), () -> handle(r, cache.poll(r.path, now, wait)));
        } else if (l instanceof EdgeCache.WaitForFetch) {
            waitingForFetch.computeIfAbsent(r.path, p -> new ArrayList<>()).add(r);
        }
    }

    private void forward(Req r) {
        after(r.hopToBackMs != Arrival.SPEC_HOP ? r.hopToBackMs : spec.hopMs(), () -> atBack(r));
    }

    private void atBack(Req r) {
        if (givenUp(r)) {
            return;
        }
        long delay = 0;
        Zone perClient = spec.perClientAtBack() ? perClientLimit(r) : null;
        if (perClient != null) {
            // nginx runs every limit_req of the location and rejects when any zone does, charging none
            // then; here the per-client zone is charged before the global one decides, which differs
            // only when the global limit rejects what the client's own let through.
            r.front = perClient.decide(r.client, now);
            if (r.front.status() == LimitReqStatus.REJECTED) {
                after(spec.hopMs(), () -> responseAtFront(r, perClient.spec().rejectStatus()));
                return;
            }
            delay = r.front.delayMs();
        }
        if (backLimit != null) {
            r.back = backLimit.decide(BACK_KEY, now);
            if (r.back.status() == LimitReqStatus.REJECTED) {
                after(spec.hopMs(), () -> responseAtFront(r, spec.back().rejectStatus()));
                return;
            }
            // Passed by every zone: nginx waits the longest of their delays.
            delay = Math.max(delay, r.back.delayMs());
        }
        if (delay > 0) {
            at(now + delay + spec.hopMs(), () -> enqueue(r));
            return;
        }
        after(spec.hopMs(), () -> enqueue(r));
    }

    private void enqueue(Req r) {
        if (givenUp(r)) {
            // Its client was closed on the way: the tiers drop a request whose client went away
            // (after the limits that counted it so far).
            return;
        }
        if (busyThreads < spec.origin().threads()) {
            busyThreads++;
            serve(r);
        } else {
            originQueue.add(r);
        }
    }

    private void serve(Req r) {
        r.reachedOrigin = true;
        long service = r.serviceMs != Arrival.SPEC_SERVICE ? r.serviceMs : spec.origin().path(r.path).serviceMs();
        at(now + service, () -> {
            if (r.background) {
                backgroundServed++;
            }
            originServed++;
            Req next = originQueue.poll();
            if (next != null) {
                serve(next);
            } else {
                busyThreads--;
            }
            after(2 * spec.hopMs(), () -> responseAtFront(r, 200));
        });
    }

    private void responseAtFront(Req r, int status) {
        if (cache != null && r.cache != null) {
            if (status == 200 && r.store) {
                cache.store(r.path, now, spec.origin().path(r.path).freshness());
                storedAt.put(r.path, now);
            } else if (r.store) {
                cache.notStored(r.path, now, status, r.background);
            }
            if (r.updater) {
                release(r);
            }
        }
        if (!r.background) {
            finish(r, status);
        }
    }

    /** The updater's fetch is done: the cache lets go of the element, and whoever waited on it opens it again. */
    private void release(Req r) {
        cache.release(r.path);
        List<Req> waiting = waitingForFetch.remove(r.path);
        if (waiting != null) {
            // The list is taken first: a waiter may fetch and be answered before the next one is woken.
            waiting.forEach(w -> handle(w, cache.open(w.path, now)));
        }
    }

    private void finish(Req r, int status) {
        r.status = status;
        if (r.retry != null && r.retry.test(status)) {
            // The library retries: the client records one sample, for the last answer.
            return;
        }
        if (r.revalidationOf != null) {
            r.onDone.run();
            return;
        }
        long clientEnd = now + clientOverheadMs;
        outcomes.add(new RequestOutcome(r.index, r.client, r.path, r.issueMs, r.arrivalMs, r.front, r.cache,
                r.back, r.reachedOrigin, now, clientEnd, status));
        r.onDone.run();
    }

    private Aggregates aggregate() {
        int n = outcomes.size();
        if (n == 0) {
            return new Aggregates(0, 0, 0, originServed, 0, 0, 0);
        }
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        int rejected = 0;
        int atCache = 0;
        int hits = 0;
        long[] latencies = new long[n];
        for (int i = 0; i < n; i++) {
            RequestOutcome o = outcomes.get(i);
            first = Math.min(first, o.issueMs());
            last = Math.max(last, o.clientEndMs());
            if (o.rejected()) {
                rejected++;
            }
            if (o.cache() != null) {
                atCache++;
                if (o.cache() == CacheStatus.HIT) {
                    hits++;
                }
            }
            latencies[i] = o.latencyMs();
        }
        java.util.Arrays.sort(latencies);
        double seconds = Math.max(1, last - first) / 1000.0;
        return new Aggregates(n, n / seconds, 100.0 * rejected / n, originServed,
                atCache == 0 ? 0 : 100.0 * hits / atCache, NearestRank.percentile(latencies, 50),
                NearestRank.percentile(latencies, 95));
    }
}
