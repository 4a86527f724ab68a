package dev.ratecache.suite.edge;

/**
 * One request as a tier of any edge product logged it, in the suite's own terms: what the
 * collectors, predictions and the report read, instead of a product's log fields. Each adapter
 * reads its product's own log into these.
 *
 * @param arrivalMs       when the request arrived, in epoch milliseconds
 * @param endMs           when its response was finished, in epoch milliseconds
 * @param key             the client's address, what the per-client limit counts by unless it is keyed by
 *                        a key the client sends (--limit-key); keyed, still the address, in every product
 *                        as nginx logs it ($remote_addr): the key is a credential, which no log holds
 * @param method          the request's method
 * @param uri             the request's target as sent (path and query)
 * @param status          the status the tier answered
 * @param bytes           the body bytes it sent
 * @param limit           what the tier's rate limit did
 * @param cache           what the tier's cache did
 * @param upstreamStatus  the status the tier's upstream answered, "" when it asked none
 * @param upstreamMs      how long its upstream took, 0 when it asked none
 * @param fleet           with a fleet-wide limit, what the fleet's store said (nginx's PASSED, REJECTED,
 *                        FALLBACK, ...); "" otherwise
 * @param quota           with --quota, what the quota said of the request ({@link QuotaMark#NONE} otherwise)
 */
public record EdgeEvent(long arrivalMs, long endMs, String key, String method, String uri, int status, long bytes,
        Limit limit, Cache cache, String upstreamStatus, long upstreamMs, String fleet, QuotaMark quota) {

    public EdgeEvent {
        // An events file written before quotas has no quota field.
        quota = quota == null ? QuotaMark.NONE : quota;
    }

    /** A request no quota counted: every product's but nginx's with --quota. */
    public EdgeEvent(long arrivalMs, long endMs, String key, String method, String uri, int status, long bytes,
            Limit limit, Cache cache, String upstreamStatus, long upstreamMs, String fleet) {
        this(arrivalMs, endMs, key, method, uri, status, bytes, limit, cache, upstreamStatus, upstreamMs, fleet,
                QuotaMark.NONE);
    }

    /**
     * What a quota said of one request (nginx/lua/quota.lua), as the edge logged it.
     *
     * @param status    PASSED, REJECTED, FALLBACK, FALLBACK_REJECTED, EXEMPT or NONE; "" when no quota counted it
     * @param atMs      when it was counted, on Redis's clock (the edge's own while Redis failed); 0 when not
     * @param remaining the RateLimit r the client was told; -1 when not
     * @param of        the key's fingerprint ({@link #fingerprint}); "" when not counted
     */
    public record QuotaMark(String status, long atMs, long remaining, String of) {
        public static final QuotaMark NONE = new QuotaMark("", 0, -1, "");

        /** Whether the quota decided the request (it was counted, or refused). */
        public boolean decided() {
            return atMs > 0;
        }

        /** Whether the quota admitted it, in Redis or, while Redis failed, at the edge. */
        public boolean admitted() {
            return status.equals("PASSED") || status.equals("FALLBACK");
        }

        /** How the edge names an API key's quota in its log: the fingerprint of its identity, "k" and the key. */
        public static String ofKey(String key) {
            return fingerprint("k" + key);
        }

        /**
         * How the edge names what a quota counted by (nginx's $limit_identity: "k" and the API key, or
         * "a" and the binary address) in its log: the first 12 hex digits of its MD5 (quota.lua).
         * Enough to tell a run's keys apart; the key itself is a credential, which no log holds.
         */
        public static String fingerprint(String key) {
            try {
                byte[] d = java.security.MessageDigest.getInstance("MD5")
                        .digest(key.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                return java.util.HexFormat.of().formatHex(d).substring(0, 12);
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException("every Java has MD5", e);
            }
        }
    }

    /** What a tier's rate limit did to a request. */
    public enum Limit {
        PASSED, DELAYED, REJECTED,
        /** A dry-run limit that would have delayed or rejected it. */
        DRY_RUN,
        /** No limit applies to it (or the tier has none). */
        NONE
    }

    /** What a tier's cache did, in nginx's words ($upstream_cache_status), which the report has always used. */
    public enum Cache {
        HIT, MISS, EXPIRED, STALE, UPDATING, REVALIDATED,
        /** The request went past the cache (Authorization, a cookie, a pass). */
        BYPASS,
        /** The tier has no cache, or did not consult it (a rejection). */
        NONE
    }

    /** Whether the request reached the tier's upstream. */
    public boolean wentUpstream() {
        return !upstreamStatus.isEmpty();
    }

    /** When the upstream received the request, in epoch milliseconds: what the origin's busiest second counts. */
    public long upstreamArrivalMs() {
        return endMs - upstreamMs;
    }
}
