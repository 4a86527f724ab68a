package dev.ratecache.client;

import io.github.bucket4j.Bucket;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Paces requests to each host to the policies the host announces: its {@code RateLimit-Policy}
 * response header (draft-ietf-httpapi-ratelimit-headers-11: {@code "name";q=QUOTA;w=WINDOW}, with
 * the suite's edge adding {@code ratecache-burst=BURST}) and, for quotas, its {@code RateLimit}
 * header ({@code "name";r=REMAINING;t=RESET}), so that a client that keeps to them is never
 * rejected rather than retrying after a 429.
 *
 * <p>Each policy item becomes one limit of a Bucket4j bucket: {@code q/w} requests per second.
 * nginx's limit_req with a burst of B admits B + 1 back to back after a quiet spell; the bucket
 * holds B (at least 1), one short, so that requests bunched on their way to the server still
 * find a token there. Without the burst parameter, the bucket holds the window's quota.
 *
 * <p>A quota (an item whose window is longer than a second) that the host also reports in
 * {@code RateLimit} is paced from that report instead, as a bucket can't be: the bucket starts
 * full whatever the server has already counted, and refills evenly where the server's window
 * resets all at once. With r requests left and t seconds to the reset, requests are spread one
 * every t/r seconds over what remains of the window; with none left, they wait for the reset.
 * Each response's report replaces the last, so the spacing follows the server's count (and other
 * clients spending the same quota). A quota-exceeded rejection holds the host's requests until
 * the reset it names.
 *
 * <p>A 429 that is not a spent quota, met while keeping to the policy, means that other clients
 * spend the same limit (several programs with one API key): the client then keeps to a share of
 * it ({@link Share}), learnt from what the host admitted of its own requests lately.
 *
 * <p>Requests sent before the first policy arrives are not paced. A client paces all its
 * requests to one host together, as one identity: use one client per API key.
 */
final class PolicyPacer {
    static final String HEADER = "RateLimit-Policy";
    /** The key of a quota-exceeded rejection that named no policy. */
    private static final String UNNAMED_QUOTA = "";

    /** One host's policies, and where each quota's next request may go. Guarded by itself. */
    private static final class Host {
        /** The last RateLimit-Policy that named a limit, and the policies (names) it gave windows. */
        String policy;
        Map<String, Long> windows = Map.of();
        /** The bucket of the limits not spread by their reports; null when none are left. */
        volatile Bucket bucket;
        String bucketKey;
        final Map<String, Spread> spreads = new HashMap<>();
        /** The slowest per-second limit of the policy (its items of a second or less); 0 when none. */
        double rate;
        /** What this client sent and had admitted lately, for {@link Share}. */
        final Recent recent = new Recent();
        /** This client's share of a limit it learnt others spend too; null until a 429 says so. */
        Share share;
    }

    private final Map<String, Host> byHost = new ConcurrentHashMap<>();
    private final LongSupplier clock;

    PolicyPacer() {
        this(System::nanoTime);
    }

    /** {@code clock}: the nanoseconds the quotas' arithmetic is done in (tests drive it by hand). */
    PolicyPacer(LongSupplier clock) {
        this.clock = clock;
    }

    /** Waits for this host's next slot; returns the nanoseconds waited (0 while no policy is known). */
    long acquire(String host) throws InterruptedIOException {
        Host h = byHost.get(host);
        if (h == null) {
            return 0;
        }
        long waited = 0;
        long delay = reserve(host) - clock.getAsLong();
        if (delay > 0) {
            long start = System.nanoTime();
            try {
                TimeUnit.NANOSECONDS.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for the server's quota");
            }
            waited += System.nanoTime() - start;
        }
        Bucket bucket = h.bucket;
        if (bucket != null) {
            waited += Throttle.Buckets.take(bucket, "the server's rate-limit policy");
        }
        return waited;
    }

    /**
     * Takes this host's next slot under its quotas: the clock's time at which the request may go
     * (now when no quota holds it back). The request is counted against the spacing from then.
     */
    long reserve(String host) {
        long now = clock.getAsLong();
        Host h = byHost.get(host);
        if (h == null) {
            return now;
        }
        synchronized (h) {
            long slot = now;
            for (Spread s : h.spreads.values()) {
                slot = Math.max(slot, s.slot(now));
            }
            if (h.share != null) {
                if (h.share.rate(now) >= h.rate) {
                    // Grown back to the whole limit: nobody else took it meanwhile.
                    h.share = null;
                } else {
                    slot = Math.max(slot, h.share.slot(now));
                }
            }
            for (Spread s : h.spreads.values()) {
                s.take(slot);
            }
            if (h.share != null) {
                h.share.take(slot);
            }
            h.recent.sent(slot);
            return slot;
        }
    }

    /**
     * A response from {@code host} that its limit admitted: counted for the share's estimate of
     * what this client gets when the limit is shared.
     */
    void admitted(String host) {
        Host h = byHost.get(host);
        if (h == null) {
            return;
        }
        synchronized (h) {
            h.recent.admitted(clock.getAsLong());
        }
    }

    /**
     * A 429 from {@code host} that was not a spent quota, though this client kept to the policy's
     * rate: others spend the same limit (several clients with one API key, each pacing on its
     * own). The client takes a share from then on: half of what it sent, and at later such 429s
     * what it was admitted lately, a little less, never less than three quarters of what it sent;
     * it grows back by {@link Share#GROWTH} of the policy's rate a second until the next such 429,
     * or until it is the whole limit again.
     */
    void rejected(String host) {
        Host h = byHost.get(host);
        if (h == null) {
            return;
        }
        long now = clock.getAsLong();
        synchronized (h) {
            if (h.rate <= 0) {
                return;
            }
            if (h.share != null && now - h.share.since < Share.CUT_INTERVAL_NANOS) {
                // One cut per congestion: the 429s of requests sent before the last cut say nothing new.
                return;
            }
            double current = h.share == null ? h.rate : Math.min(h.rate, h.share.rate(now));
            double sent = h.recent.sentRate(now);
            double base = sent > 0 ? Math.min(current, sent) : current;
            // The first cut halves what was sent, alike for every client of the key: what each was
            // admitted before the limit filled up (its burst absorbing the first requests) differs by
            // luck, and a cut to it would keep that luck for good.
            double rate = Math.max(h.rate * Share.LEAST, h.share == null ? Share.FIRST_CUT * base
                    : Math.min(Share.MARGIN * base, Math.max(Share.FLOOR * base, Share.MARGIN * h.recent.admittedRate(now))));
            if (h.share == null) {
                h.share = new Share(h.rate);
            }
            h.share.cut(now, rate);
        }
    }

    /** The rate this client now keeps to at {@code host}, requests a second; 0 when no policy is known. */
    double rate(String host) {
        Host h = byHost.get(host);
        if (h == null) {
            return 0;
        }
        synchronized (h) {
            return h.share == null ? h.rate : Math.min(h.rate, h.share.rate(clock.getAsLong()));
        }
    }

    /**
     * One client's share of a per-second limit that other clients spend too. The edge reports no
     * count for such a limit, only its policy and, when it is full, a 429; so a client learns that
     * the limit is shared from a 429 it met while keeping to the policy, and what its share is
     * from what was admitted of its own requests lately: while the limit was full, that is what
     * the others left it. Taking a little less leaves room for the others' bunching. Growing
     * back by the same amount a second as every other client (additive increase, multiplicative
     * decrease, as TCP shares a link) finds room that others leave when they stop, and brings a
     * client cut deep back level with the rest, at the price of a 429 now and then while it probes.
     */
    static final class Share {
        /** The share taken of the rate admitted lately; and every cut at least cuts to this much of what was sent. */
        static final double MARGIN = 0.9;
        /** 429s within this time of a cut make no other cut. */
        static final long CUT_INTERVAL_NANOS = 2_000_000_000L;
        /** The first cut: this fraction of what was sent lately. */
        static final double FIRST_CUT = 0.5;
        /**
         * Never cut below this fraction of what was sent lately in one later step: a client whose
         * requests happened to meet the full limit more often than its neighbours' is not to fall
         * far behind them for it.
         */
        static final double FLOOR = 0.75;
        /** Never below this fraction of the policy's rate. */
        static final double LEAST = 0.001;
        /** Growth a second after a cut, as a fraction of the policy's rate. */
        static final double GROWTH = 0.005;

        private final double policyRate;
        private double rate;
        private long since;

        Share(double policyRate) {
            this.policyRate = policyRate;
        }
        private long next = Long.MIN_VALUE;

        void cut(long now, double perSecond) {
            rate = perSecond;
            since = now;
            next = Math.max(next, now + Math.round(1e9 / perSecond));
        }

        double rate(long now) {
            return rate + policyRate * GROWTH * Math.max(0, now - since) / 1e9;
        }

        long slot(long now) {
            return Math.max(now, next);
        }

        void take(long slot) {
            next = slot + Math.round(1e9 / rate(slot));
        }
    }

    /**
     * Requests sent and admitted in the last {@link #SLOTS} slots of {@link #SLOT_NANOS} (2 s),
     * as rates over that span, or over the time since the first count when that is shorter.
     */
    static final class Recent {
        static final int SLOTS = 8;
        static final long SLOT_NANOS = 250_000_000L;

        private final long[] sent = new long[SLOTS];
        private final long[] admitted = new long[SLOTS];
        private long newest = Long.MIN_VALUE;
        private long first = Long.MIN_VALUE;

        void sent(long now) {
            sent[advance(now)]++;
        }

        void admitted(long now) {
            admitted[advance(now)]++;
        }

        double sentRate(long now) {
            advance(now);
            return rate(sent, now);
        }

        double admittedRate(long now) {
            advance(now);
            return rate(admitted, now);
        }

        private double rate(long[] counts, long now) {
            long sum = 0;
            for (long c : counts) {
                sum += c;
            }
            // The time the ring covers: from its oldest slot's start, or from the first count when later.
            long span = Math.max(SLOT_NANOS, now - Math.max(first, (newest - SLOTS + 1) * SLOT_NANOS));
            return sum * 1e9 / span;
        }

        /** Moves the ring to {@code now}'s slot, clearing the slots passed over; returns its index. */
        private int advance(long now) {
            long slot = Math.floorDiv(now, SLOT_NANOS);
            if (first == Long.MIN_VALUE) {
                first = now;
                newest = slot;
            }
            if (slot > newest) {
                for (long s = newest + 1; s <= Math.min(slot, newest + SLOTS); s++) {
                    int i = (int) Math.floorMod(s, SLOTS);
                    sent[i] = 0;
                    admitted[i] = 0;
                }
                newest = slot;
            }
            return (int) Math.floorMod(Math.max(slot, newest - SLOTS + 1), SLOTS);
        }
    }

    /** Takes the policy a response from {@code host} carries; a response without one changes nothing. */
    void learn(String host, String policy) {
        learn(host, policy, List.of());
    }

    /**
     * Takes what a response from {@code host} says: its RateLimit-Policy ({@code policy}, null when
     * none) and its RateLimit header lines. Nothing in them that can't be read changes anything.
     */
    void learn(String host, String policy, List<String> rateLimit) {
        List<StructuredList.Member> items = policy == null || policy.isBlank() ? List.of() : StructuredList.parse(policy);
        List<Limit> limits = limits(items);
        List<RateLimitStatus> statuses = rateLimit.isEmpty() ? List.of() : RateLimitStatus.parse(rateLimit);
        Host h = byHost.get(host);
        if (h == null) {
            if (limits.isEmpty()) {
                // A report alone says nothing of its policy's window: nothing to pace to yet.
                return;
            }
            h = byHost.computeIfAbsent(host, k -> new Host());
        }
        long now = clock.getAsLong();
        synchronized (h) {
            if (!limits.isEmpty() && !policy.equals(h.policy)) {
                h.policy = policy;
                h.windows = windows(items);
            }
            for (RateLimitStatus s : statuses) {
                Long window = h.windows.get(s.policy());
                if (window != null && window > 1 && s.reset() != null) {
                    h.spreads.computeIfAbsent(s.policy(), k -> new Spread()).learn(now, s.remaining(), nanos(s.reset()));
                }
            }
            rebucket(h);
        }
    }

    /**
     * A quota-exceeded rejection from {@code host}: the policies it names (every one, or the
     * rejection itself when it names none) send nothing more until {@code untilReset} has passed.
     */
    void exceeded(String host, List<String> policies, Duration untilReset) {
        if (untilReset == null) {
            return;
        }
        long now = clock.getAsLong();
        Host h = byHost.computeIfAbsent(host, k -> new Host());
        synchronized (h) {
            for (String p : policies.isEmpty() ? List.of(UNNAMED_QUOTA) : policies) {
                h.spreads.computeIfAbsent(p, k -> new Spread()).learn(now, 0, nanos(untilReset));
            }
            rebucket(h);
        }
    }

    /** The bucket of the host's limits less the quotas spread by their reports, made again when that set changes. */
    private static void rebucket(Host h) {
        if (h.policy == null) {
            return;
        }
        String key = h.policy + "\n" + new TreeSet<>(h.spreads.keySet());
        if (key.equals(h.bucketKey)) {
            return;
        }
        List<Limit> bucketed = new ArrayList<>();
        double rate = 0;
        for (Limit l : parse(h.policy)) {
            if (h.windows.getOrDefault(l.name(), 1L) <= 1 && (rate == 0 || l.perSecond() < rate)) {
                rate = l.perSecond();
            }
            if (!h.spreads.containsKey(l.name()) || h.windows.getOrDefault(l.name(), 1L) <= 1) {
                bucketed.add(l);
            }
        }
        h.rate = rate;
        try {
            h.bucket = bucketed.isEmpty() ? null : bucket(bucketed);
        } catch (RuntimeException e) {
            // A policy Bucket4j refuses (a window of millennia, say) is not one to pace to; the
            // request it came with is not to fail for it.
            h.bucket = null;
        }
        h.bucketKey = key;
    }

    /** A wait in nanoseconds; one too long for a long (centuries) is as good as forever. */
    private static long nanos(Duration d) {
        return d.getSeconds() >= Long.MAX_VALUE / 1_000_000_000L ? Long.MAX_VALUE : d.toNanos();
    }

    /**
     * One quota's spacing, in the clock's nanoseconds: the next request's earliest time, the
     * spacing after it, and when the server said the window resets (past it, the spacing is
     * unknown until the next report, and nothing is held back).
     */
    static final class Spread {
        private long next = Long.MIN_VALUE;
        private long interval;
        private long resetAt = Long.MIN_VALUE;

        /** The server reported {@code remaining} requests left, resetting {@code resetNanos} from {@code now}. */
        void learn(long now, long remaining, long resetNanos) {
            resetAt = saturatedAdd(now, resetNanos);
            if (remaining == 0) {
                interval = 0;
                next = Math.max(next, resetAt);
            } else {
                interval = resetNanos / remaining;
                // Never earlier than a slot already handed out: a request still in flight took it
                // and is not in the server's count yet.
                next = Math.max(next, saturatedAdd(now, interval));
            }
        }

        long slot(long now) {
            return Math.max(now, next);
        }

        void take(long slot) {
            next = slot < resetAt ? saturatedAdd(slot, interval) : slot;
        }

        private static long saturatedAdd(long a, long b) {
            long r = a + b;
            return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
        }
    }

    /** One item of the policy: {@code perSecond} on average, {@code capacity} back to back. */
    record Limit(String name, double perSecond, long capacity) {}

    /**
     * The items of a RateLimit-Policy value that can be paced to; items without a positive quota
     * and window, or that don't parse, are left out.
     */
    static List<Limit> parse(String value) {
        return limits(StructuredList.parse(value));
    }

    private static List<Limit> limits(List<StructuredList.Member> items) {
        List<Limit> limits = new ArrayList<>();
        for (StructuredList.Member m : items) {
            Long quota = m.ints().get("q");
            long window = m.ints().getOrDefault("w", 1L);
            long burst = m.ints().getOrDefault("ratecache-burst", -1L);
            if (quota == null || quota <= 0 || window <= 0) {
                continue;
            }
            long capacity = burst >= 0 ? Math.max(1, burst) : quota;
            limits.add(new Limit(m.name(), (double) quota / window, capacity));
        }
        return limits;
    }

    /** Each named item's window in seconds (1 when it gives none). */
    private static Map<String, Long> windows(List<StructuredList.Member> items) {
        Map<String, Long> windows = new HashMap<>();
        for (StructuredList.Member m : items) {
            windows.putIfAbsent(m.name(), m.ints().getOrDefault("w", 1L));
        }
        return Map.copyOf(windows);
    }

    private static Bucket bucket(List<Limit> limits) {
        // The response that brought the policy took one of the server's tokens.
        return Throttle.Buckets.of(limits.stream()
                .map(l -> Throttle.Buckets.limit(l.capacity(), l.perSecond(), l.capacity() - 1)).toList());
    }
}
