package dev.ratecache.client;

import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.protocol.HttpContext;

/** What happened on the wire for one call of {@link RateCacheClient#execute}, kept in its context. */
final class Exchange {
    final long startNanos;
    int networkRequests;
    int lastNetworkStatus;
    int retries;
    long retryWaitNanos;
    long throttleWaitNanos;
    /** The Cache-Control / Expires of a rejection, set aside so the cache can't store it; null if none. */
    Header[] setAside;
    int setAsideStatus;

    Exchange(long startNanos) {
        this.startNanos = startNanos;
    }

    /** The exchange of this context; a detached one for requests the client didn't start (background revalidation). */
    static Exchange of(HttpContext context) {
        return context instanceof RateCacheContext c ? c.exchange : new Exchange(System.nanoTime());
    }
}
