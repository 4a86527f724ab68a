package dev.ratecache.appserver.appcache;

import dev.ratecache.appserver.accounting.AppCacheCounters;
import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;

/** Hands out the delegate's caches wrapped in {@link CountingCache}. */
final class CountingCacheManager implements CacheManager {

    private final CacheManager delegate;
    private final AppCacheCounters counters;
    private final ConcurrentMap<String, Cache> caches = new ConcurrentHashMap<>();

    CountingCacheManager(CacheManager delegate, AppCacheCounters counters) {
        this.delegate = delegate;
        this.counters = counters;
    }

    @Override
    public Cache getCache(String name) {
        Cache cache = caches.get(name);
        if (cache != null) {
            return cache;
        }
        Cache found = delegate.getCache(name);
        return (found == null) ? null : caches.computeIfAbsent(name, n -> new CountingCache(found, counters));
    }

    @Override
    public Collection<String> getCacheNames() {
        return delegate.getCacheNames();
    }
}
