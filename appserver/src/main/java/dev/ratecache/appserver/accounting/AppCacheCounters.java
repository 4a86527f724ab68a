package dev.ratecache.appserver.accounting;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.stereotype.Component;

/**
 * The app-level cache as the origin sees it: lookups that found an item, lookups that did not, and
 * failures of the cache itself. Redis's own INFO stats count its side; the two differ when Redis
 * fails, which is what the errors (and the last one's text) say.
 */
@Component
public class AppCacheCounters {

    private final AtomicLong hits = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicReference<String> lastError = new AtomicReference<>();

    public void hit() {
        hits.incrementAndGet();
    }

    public void missed() {
        misses.incrementAndGet();
    }

    /** A cache operation that failed and was passed over; {@code what} says which and why, in one line. */
    public void failed(String what) {
        errors.incrementAndGet();
        lastError.set(what);
    }

    public long hits() {
        return hits.get();
    }

    public long misses() {
        return misses.get();
    }

    public long errors() {
        return errors.get();
    }

    void reset() {
        hits.set(0);
        misses.set(0);
        errors.set(0);
        lastError.set(null);
    }

    AppCacheSnapshot snapshot(String mode) {
        return new AppCacheSnapshot(mode, hits(), misses(), errors(), lastError.get());
    }

    /** Its field names are the JSON the suite parses; {@code lastError} is null until one happens. */
    public record AppCacheSnapshot(String mode, long hits, long misses, long errors, String lastError) {
    }
}
