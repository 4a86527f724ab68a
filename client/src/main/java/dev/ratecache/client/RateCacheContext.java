package dev.ratecache.client;

import org.apache.hc.client5.http.cache.HttpCacheContext;

/** The context of one call: the cache's own, plus this library's record of the exchange in a field. */
final class RateCacheContext extends HttpCacheContext {
    // A field rather than a context attribute: the attribute map would be allocated on every
    // request, cache hits included.
    final Exchange exchange;

    RateCacheContext(Exchange exchange) {
        this.exchange = exchange;
    }
}
