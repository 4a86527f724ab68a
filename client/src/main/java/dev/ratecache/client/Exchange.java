package dev.ratecache.client;

import org.apache.hc.core5.http.Header;

/** What happened on the wire for one call of {@link RateCacheClient#execute}, kept in its context. */
final class Exchange {
    final long startNanos;
    /** Whether the request reached the network element: a stale answer after it is stale-if-error. */
    boolean attempted;
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
}
