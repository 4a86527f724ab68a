package dev.ratecache.appserver.items;

import java.time.Instant;

/**
 * One row of the items table, as the API sends it and as the app cache stores it (JSON both ways).
 *
 * @param version 1 when seeded or created, plus one for every write since
 */
public record Item(long id, String name, long version, Instant updatedAt) {

    /** The strong ETag of this version, quoted as the header carries it. */
    public String entityTag() {
        return "\"item-" + id + "-v" + version + "\"";
    }
}
