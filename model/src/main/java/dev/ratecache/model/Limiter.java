package dev.ratecache.model;

/**
 * A per-key request limit of one edge product, deciding each request as that product's own code
 * does, on the product's own clock: nginx's limit_req ({@link LimitReq}), HAProxy's stick-table
 * request rate ({@link HaproxyReqRate}), Varnish's vsthrottle ({@link Vsthrottle}) and Traefik's
 * RateLimit middleware ({@link TraefikRateLimit}).
 *
 * <p>The time is the caller's: the products read a clock cached per event-loop iteration (nginx,
 * HAProxy) or at the call (vsthrottle), and a model that read its own clock could not be compared
 * with a product's log. Not thread safe: each product decides under one lock or one event loop.
 */
public interface Limiter {

    /**
     * Decides one request and charges the key's state as the product does (a refused request is
     * charged too where the product charges it).
     *
     * @param key   the value the limit is keyed on for this request (e.g. the client address)
     * @param nowMs the product's clock when it decided, in milliseconds
     * @return PASSED or REJECTED; limit_req and Traefik's RateLimit (a request held for its token)
     *         also answer DELAYED
     */
    Decision decide(String key, long nowMs);
}
