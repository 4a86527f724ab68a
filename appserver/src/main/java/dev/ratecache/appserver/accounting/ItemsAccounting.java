package dev.ratecache.appserver.accounting;

import dev.ratecache.appserver.accounting.AppCacheCounters.AppCacheSnapshot;
import dev.ratecache.appserver.accounting.DatabaseCounters.DatabaseSnapshot;
import dev.ratecache.appserver.config.OriginProperties;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;

/**
 * What the {@code /items} resource did: its answers by method and status, the database statements
 * behind them and the app cache's view. The requests themselves are also counted with the other
 * endpoints' under {@value OriginAccounting#ITEMS}.
 *
 * <p>Bounded: four methods and the statuses the resource answers (a few, plus any injected one).
 */
@Component
public class ItemsAccounting {

    private final ConcurrentMap<String, ConcurrentMap<Integer, AtomicLong>> answers = new ConcurrentHashMap<>();
    private final DatabaseCounters database;
    private final AppCacheCounters appCache;
    private final String appCacheMode;

    public ItemsAccounting(DatabaseCounters database, AppCacheCounters appCache, OriginProperties properties) {
        this.database = database;
        this.appCache = appCache;
        this.appCacheMode = properties.appCache().name().toLowerCase(Locale.ROOT);
    }

    public void answered(String method, int status) {
        answers.computeIfAbsent(method, m -> new ConcurrentHashMap<>())
                .computeIfAbsent(status, s -> new AtomicLong())
                .incrementAndGet();
    }

    public ItemsSnapshot snapshot() {
        Map<String, Map<String, Long>> requests = new TreeMap<>();
        answers.forEach((method, byStatus) -> {
            Map<String, Long> counts = new TreeMap<>();
            byStatus.forEach((status, count) -> counts.put(String.valueOf(status), count.get()));
            requests.put(method, counts);
        });
        return new ItemsSnapshot(requests, database.snapshot(), appCache.snapshot(appCacheMode));
    }

    public void reset() {
        // Zeroed rather than removed, so a meter or a reader holding a method's map keeps seeing it.
        answers.values().forEach(byStatus -> byStatus.values().forEach(count -> count.set(0)));
        database.reset();
        appCache.reset();
    }

    /**
     * The {@code items} part of {@code GET /actuator/origin}.
     *
     * @param requests answers by method, then by status, for example {@code {"GET":{"200":2,"304":1}}}
     * @param database the statements sent to the database
     * @param appCache the app-level cache ({@code mode} is {@code off} or {@code redis})
     */
    public record ItemsSnapshot(Map<String, Map<String, Long>> requests, DatabaseSnapshot database,
            AppCacheSnapshot appCache) {
    }
}
