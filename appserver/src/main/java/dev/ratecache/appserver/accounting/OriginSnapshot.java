package dev.ratecache.appserver.accounting;

import dev.ratecache.appserver.accounting.ItemsAccounting.ItemsSnapshot;
import java.util.Map;

/**
 * The body of {@code GET /actuator/origin}: {@code total} counts every request that reached the
 * origin, the {@code endpoints}' and {@code other}'s; {@code items} details the database-backed resource.
 */
public record OriginSnapshot(Counts total, Map<String, Counts> endpoints, Other other, ItemsSnapshot items) {

    /** Requests no endpoint took: unknown paths (404), methods an endpoint does not take (405). */
    public record Other(long requests) {
    }
}
