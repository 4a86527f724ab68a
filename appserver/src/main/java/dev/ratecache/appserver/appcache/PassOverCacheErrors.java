package dev.ratecache.appserver.appcache;

import dev.ratecache.appserver.accounting.AppCacheCounters;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.cache.Cache;
import org.springframework.cache.interceptor.CacheErrorHandler;

/**
 * The app cache is an optimisation: when Redis fails, a lookup counts as a miss and the read goes
 * to the database; a failed store or eviction is passed over. Each failure is counted, with the
 * last one's text, for the suite's report. (A read while Redis is down is then two errors: the
 * lookup and the store after the database answered.)
 *
 * <p>An eviction that fails leaves the old version in Redis until the TTL ends it; that is the
 * price of answering writes while Redis is down, and the count shows when it was paid.
 *
 * <p>Logged at most every {@value #LOG_EVERY_MILLIS} ms: under load a dead Redis fails hundreds of
 * times a second, and one line says as much as all of them.
 */
final class PassOverCacheErrors implements CacheErrorHandler {

    private static final Log log = LogFactory.getLog(PassOverCacheErrors.class);

    private static final long LOG_EVERY_MILLIS = 10_000;

    private final AppCacheCounters counters;
    private final AtomicLong lastLogged = new AtomicLong();

    PassOverCacheErrors(AppCacheCounters counters) {
        this.counters = counters;
    }

    @Override
    public void handleCacheGetError(RuntimeException exception, Cache cache, Object key) {
        failed("get", cache, key, exception);
    }

    @Override
    public void handleCachePutError(RuntimeException exception, Cache cache, Object key, Object value) {
        failed("put", cache, key, exception);
    }

    @Override
    public void handleCacheEvictError(RuntimeException exception, Cache cache, Object key) {
        failed("evict", cache, key, exception);
    }

    @Override
    public void handleCacheClearError(RuntimeException exception, Cache cache) {
        failed("clear", cache, "*", exception);
    }

    private void failed(String operation, Cache cache, Object key, RuntimeException exception) {
        String what = operation + " " + cache.getName() + "::" + key + ": " + oneLine(exception);
        counters.failed(what);
        long now = System.currentTimeMillis();
        long last = lastLogged.get();
        if (now - last >= LOG_EVERY_MILLIS && lastLogged.compareAndSet(last, now)) {
            log.warn("app cache failed, answering from the database (" + counters.errors()
                    + " errors so far): " + what);
        }
    }

    // The exception and its deepest cause: "RedisConnectionFailureException: ... (ConnectException: ...)".
    private static String oneLine(Throwable exception) {
        Throwable root = exception;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String line = describe(exception);
        if (root != exception) {
            line += " (" + describe(root) + ")";
        }
        return line.replaceAll("\\s+", " ");
    }

    private static String describe(Throwable exception) {
        String message = exception.getMessage();
        return exception.getClass().getSimpleName() + (message != null ? ": " + message : "");
    }
}
