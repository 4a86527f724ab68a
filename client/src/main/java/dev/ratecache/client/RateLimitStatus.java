package dev.ratecache.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a response's {@code RateLimit} header (draft-ietf-httpapi-ratelimit-headers-11) said about
 * one of the server's policies: {@code "daily";r=REMAINING;t=SECONDS_UNTIL_RESET}. The policy's
 * quota and window are in the {@code RateLimit-Policy} header of the same name. Immutable.
 *
 * @param policy    the policy's name, as in RateLimit-Policy ({@code daily}, {@code anonymous}...)
 * @param remaining the requests the policy still allows in its current window (never negative)
 * @param reset     how long until the window resets; null when the server did not say
 */
public record RateLimitStatus(String policy, long remaining, Duration reset) {
    /** The response header this is read from. */
    public static final String HEADER = "RateLimit";

    public RateLimitStatus {
        Objects.requireNonNull(policy, "policy");
        if (remaining < 0) {
            throw new IllegalArgumentException("remaining must be >= 0 (got " + remaining + ")");
        }
        if (reset != null && reset.isNegative()) {
            throw new IllegalArgumentException("reset must be >= 0 (got " + reset + ")");
        }
    }

    /**
     * The items of one or more RateLimit field values (several header lines are one list), in
     * order. An item without a non-negative integer {@code r} is left out; a {@code t} that is not
     * a non-negative integer is read as no reset; unknown parameters are ignored. Never throws.
     */
    static List<RateLimitStatus> parse(List<String> values) {
        List<RateLimitStatus> statuses = new ArrayList<>(2);
        for (String value : values) {
            for (StructuredList.Member m : StructuredList.parse(value)) {
                Long r = m.ints().get("r");
                Long t = m.ints().get("t");
                if (r == null || r < 0) {
                    continue;
                }
                // A reset that is not a non-negative integer is no reset at all: the remaining count still holds.
                Duration reset = t == null || t < 0 ? null : Duration.ofSeconds(t);
                statuses.add(new RateLimitStatus(m.name(), r, reset));
            }
        }
        return statuses;
    }

    @Override
    public String toString() {
        return "\"" + policy + "\";r=" + remaining + (reset == null ? "" : ";t=" + reset.toSeconds());
    }
}
