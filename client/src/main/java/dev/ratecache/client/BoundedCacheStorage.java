package dev.ratecache.client;

import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hc.client5.http.cache.HttpCacheCASOperation;
import org.apache.hc.client5.http.cache.HttpCacheEntry;
import org.apache.hc.client5.http.cache.HttpCacheStorage;
import org.apache.hc.client5.http.cache.Resource;
import org.apache.hc.client5.http.cache.ResourceIOException;
import org.apache.hc.core5.http.Header;

/**
 * The cache's index: least recently used entries go first once the bodies held pass a byte
 * bound (httpclient5-cache's own storage bounds only the number of entries, so 1,000 entries
 * of up to a megabyte each could take a gigabyte of heap).
 *
 * <p>In a private cache the keys are scoped to the caller's credentials: {@link #scope(String)}
 * names the principal of the request running on this thread, and every key it touches is
 * prefixed with it. Credentials never share an entry, and an anonymous request never sees an
 * authenticated one's. The cache runs on the caller's thread, so a thread-local is enough; a
 * background revalidation, on a thread of its own, sets the scope of the request it revalidates
 * before it touches the cache (see {@link NetworkExec}).
 *
 * <p>A body is disposed of (its file deleted, for a file-backed cache) when the last entry
 * holding it goes: a 304 update and a variant keep the same body under a new entry.
 */
final class BoundedCacheStorage implements HttpCacheStorage {
    /** Headers and bookkeeping an entry holds besides its body, roughly. */
    private static final int ENTRY_OVERHEAD = 512;
    private static final ThreadLocal<String> PRINCIPAL = new ThreadLocal<>();

    private final long maxBytes;
    private final int maxEntries;
    private final LinkedHashMap<String, HttpCacheEntry> entries = new LinkedHashMap<>(64, 0.75f, true);
    private final IdentityHashMap<Resource, int[]> holders = new IdentityHashMap<>();
    private long bytes;

    BoundedCacheStorage(long maxBytes, int maxEntries) {
        this.maxBytes = maxBytes;
        this.maxEntries = maxEntries;
    }

    /** Sets this thread's principal (null: anonymous) and returns the one it replaces, for restoring. */
    static String scope(String principal) {
        String previous = PRINCIPAL.get();
        // set(null) rather than remove(): the thread's map entry is kept, so an anonymous request
        // (the common case) allocates nothing here.
        PRINCIPAL.set(principal);
        return previous;
    }

    private static String key(String key) {
        String principal = PRINCIPAL.get();
        return principal == null ? key : "~" + principal + " " + key;
    }

    @Override
    public void putEntry(String key, HttpCacheEntry entry) {
        synchronized (this) {
            replace(key(key), entry);
        }
    }

    @Override
    public HttpCacheEntry getEntry(String key) {
        synchronized (this) {
            return entries.get(key(key));
        }
    }

    @Override
    public void removeEntry(String key) {
        synchronized (this) {
            release(entries.remove(key(key)));
        }
    }

    @Override
    public void updateEntry(String key, HttpCacheCASOperation operation) throws ResourceIOException {
        String k = key(key);
        synchronized (this) {
            replace(k, operation.execute(entries.get(k)));
        }
    }

    @Override
    public Map<String, HttpCacheEntry> getEntries(Collection<String> keys) {
        Map<String, HttpCacheEntry> found = new HashMap<>();
        synchronized (this) {
            for (String key : keys) {
                HttpCacheEntry e = entries.get(key(key));
                if (e != null) {
                    found.put(key, e);
                }
            }
        }
        return found;
    }

    synchronized int size() {
        return entries.size();
    }

    /** Bytes of bodies and headers held, as counted against the bound. */
    synchronized long bytes() {
        return bytes;
    }

    /** Drops every entry, disposing of the bodies (deleting their files). */
    synchronized void clear() {
        for (HttpCacheEntry e : entries.values()) {
            release(e);
        }
        entries.clear();
    }

    private void replace(String key, HttpCacheEntry entry) {
        if (entry == null) {
            release(entries.remove(key));
            return;
        }
        hold(entry);
        release(entries.put(key, entry));
        Iterator<HttpCacheEntry> eldest = entries.values().iterator();
        while ((bytes > maxBytes || entries.size() > maxEntries) && eldest.hasNext()) {
            HttpCacheEntry e = eldest.next();
            eldest.remove();
            release(e);
        }
    }

    private void hold(HttpCacheEntry entry) {
        bytes += headerBytes(entry);
        Resource r = entry.getResource();
        if (r != null && holders.computeIfAbsent(r, x -> new int[1])[0]++ == 0) {
            bytes += r.length();
        }
    }

    private void release(HttpCacheEntry entry) {
        if (entry == null) {
            return;
        }
        bytes -= headerBytes(entry);
        Resource r = entry.getResource();
        if (r != null) {
            int[] count = holders.get(r);
            if (count != null && --count[0] == 0) {
                holders.remove(r);
                bytes -= r.length();
                r.dispose();
            }
        }
    }

    private static long headerBytes(HttpCacheEntry entry) {
        long n = ENTRY_OVERHEAD;
        for (Header h : entry.getHeaders()) {
            n += h.getName().length() + h.getValue().length();
        }
        return n;
    }
}
