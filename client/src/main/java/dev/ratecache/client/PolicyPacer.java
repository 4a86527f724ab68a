package dev.ratecache.client;

import io.github.bucket4j.Bucket;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Paces requests to each host to the quota the host announced in its {@code RateLimit-Policy}
 * response header (draft-ietf-httpapi-ratelimit-headers: {@code "name";q=QUOTA;w=WINDOW}, with
 * the suite's edge adding {@code ratecache-burst=BURST}), so that a client that keeps to it is
 * never rejected rather than retrying after a 429.
 *
 * <p>Each policy item becomes one limit of a Bucket4j bucket: {@code q/w} requests per second.
 * nginx's limit_req with a burst of B admits B + 1 back to back after a quiet spell; the bucket
 * holds B (at least 1), one short, so that requests bunched on their way to the server still
 * find a token there. Without the burst parameter, the bucket holds the window's quota.
 * Requests sent before the first policy arrives are not paced. A client paces all its requests
 * to one host together, as one identity: use one client per API key.
 */
final class PolicyPacer {
    static final String HEADER = "RateLimit-Policy";

    private record Paced(String policy, Bucket bucket) {}

    private final Map<String, Paced> byHost = new ConcurrentHashMap<>();

    /** Waits for this host's next slot; returns the nanoseconds waited (0 while no policy is known). */
    long acquire(String host) throws InterruptedIOException {
        Paced paced = byHost.get(host);
        return paced == null ? 0 : Throttle.Buckets.take(paced.bucket, "the server's rate-limit policy");
    }

    /** Takes the policy a response from {@code host} carries; a response without one changes nothing. */
    void learn(String host, String policy) {
        if (policy == null || policy.isBlank()) {
            return;
        }
        Paced current = byHost.get(host);
        if (current != null && current.policy.equals(policy)) {
            return;
        }
        List<Limit> limits = parse(policy);
        if (limits.isEmpty()) {
            return;
        }
        byHost.put(host, new Paced(policy, bucket(limits)));
    }

    /** One item of the policy: {@code perSecond} on average, {@code capacity} back to back. */
    record Limit(String name, double perSecond, long capacity) {}

    /**
     * The items of a RateLimit-Policy value that can be paced to; items without a positive quota
     * and window, or that don't parse, are left out.
     */
    static List<Limit> parse(String value) {
        List<Limit> limits = new ArrayList<>();
        for (String item : value.split(",")) {
            String[] parts = item.trim().split(";");
            String name = parts[0].trim();
            if (name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"")) {
                name = name.substring(1, name.length() - 1);
            }
            long quota = -1;
            long window = 1;
            long burst = -1;
            try {
                for (int i = 1; i < parts.length; i++) {
                    String[] kv = parts[i].trim().split("=", 2);
                    if (kv.length != 2) {
                        continue;
                    }
                    long n = Long.parseLong(kv[1].trim());
                    switch (kv[0].trim().toLowerCase(Locale.ROOT)) {
                        case "q" -> quota = n;
                        case "w" -> window = n;
                        case "ratecache-burst" -> burst = n;
                        default -> { }
                    }
                }
            } catch (NumberFormatException e) {
                continue;
            }
            if (quota <= 0 || window <= 0) {
                continue;
            }
            long capacity = burst >= 0 ? Math.max(1, burst) : quota;
            limits.add(new Limit(name, (double) quota / window, capacity));
        }
        return limits;
    }

    private static Bucket bucket(List<Limit> limits) {
        // The response that brought the policy took one of the server's tokens.
        return Throttle.Buckets.of(limits.stream()
                .map(l -> Throttle.Buckets.limit(l.capacity(), l.perSecond(), l.capacity() - 1)).toList());
    }
}
