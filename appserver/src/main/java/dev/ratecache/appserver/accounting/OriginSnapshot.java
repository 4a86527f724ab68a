package dev.ratecache.appserver.accounting;

import dev.ratecache.appserver.accounting.ItemsAccounting.ItemsSnapshot;
import java.util.Map;

/** The body of {@code GET /actuator/origin}; {@code items} details the database-backed resource. */
public record OriginSnapshot(Counts total, Map<String, Counts> endpoints, ItemsSnapshot items) {
}
