package dev.ratecache.appserver.accounting;

import java.util.Map;

/** The body of {@code GET /actuator/origin}. */
public record OriginSnapshot(Counts total, Map<String, Counts> endpoints) {
}
