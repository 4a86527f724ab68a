package dev.ratecache.appserver.appcache;

import dev.ratecache.appserver.accounting.AppCacheCounters;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.springframework.cache.Cache;

/**
 * A cache that counts its lookups as hits or misses, as the app sees them. A lookup that fails
 * counts as neither: {@link PassOverCacheErrors} counts it as an error.
 */
final class CountingCache implements Cache {

    private final Cache delegate;
    private final AppCacheCounters counters;

    CountingCache(Cache delegate, AppCacheCounters counters) {
        this.delegate = delegate;
        this.counters = counters;
    }

    @Override
    public ValueWrapper get(Object key) {
        return counted(delegate.get(key));
    }

    @Override
    public <T> T get(Object key, Class<T> type) {
        return counted(delegate.get(key, type));
    }

    @Override
    public <T> T get(Object key, Callable<T> valueLoader) {
        // Only @Cacheable(sync = true) calls this, and the delegate cannot say whether it loaded.
        return delegate.get(key, valueLoader);
    }

    @Override
    public CompletableFuture<?> retrieve(Object key) {
        return delegate.retrieve(key);
    }

    @Override
    public <T> CompletableFuture<T> retrieve(Object key, Supplier<CompletableFuture<T>> valueLoader) {
        return delegate.retrieve(key, valueLoader);
    }

    private <T> T counted(T found) {
        if (found == null) {
            counters.missed();
        }
        else {
            counters.hit();
        }
        return found;
    }

    @Override
    public String getName() {
        return delegate.getName();
    }

    @Override
    public Object getNativeCache() {
        return delegate.getNativeCache();
    }

    @Override
    public void put(Object key, Object value) {
        delegate.put(key, value);
    }

    @Override
    public ValueWrapper putIfAbsent(Object key, Object value) {
        return delegate.putIfAbsent(key, value);
    }

    @Override
    public void evict(Object key) {
        delegate.evict(key);
    }

    @Override
    public boolean evictIfPresent(Object key) {
        return delegate.evictIfPresent(key);
    }

    @Override
    public void clear() {
        delegate.clear();
    }

    @Override
    public boolean invalidate() {
        return delegate.invalidate();
    }
}
