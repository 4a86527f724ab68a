package dev.ratecache.suite.switches;

/**
 * When the edge cache may answer with an expired entry. {@code rfc}: only where the origin allowed
 * it ({@code stale-while-revalidate}, {@code stale-if-error}; RFC 9111 section 4.2.4, RFC 5861),
 * never for {@code must-revalidate}, {@code proxy-revalidate} or {@code s-maxage}.
 * {@code protective}: whenever the origin is down, erroring, rejecting or being refreshed, whatever
 * it allowed: availability bought with correctness.
 */
public enum StaleMode {
    RFC("rfc"),
    PROTECTIVE("protective");

    private final String flag;

    StaleMode(String flag) {
        this.flag = flag;
    }

    @Override
    public String toString() {
        return flag;
    }
}
