package dev.ratecache.appserver.items;

import java.util.Optional;
import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Service;

/**
 * The items as the API reads and writes them: the database behind an optional cache-aside.
 *
 * <p>With {@code origin.app-cache=redis} a read looks in Redis first and, on a miss, reads the
 * database and stores the item there; a write goes to the database and then evicts, so the next
 * read fetches the new version. A missing item is not cached, so a later POST cannot be hidden by
 * a cached absence. With {@code off} the annotations are inert (caching is not enabled) and every
 * read is a query.
 */
@Service
public class ItemCatalog {

    /** The cache's name, and so the prefix of its Redis keys ({@code items::42}). */
    public static final String CACHE = "items";

    private final ItemStore store;

    ItemCatalog(ItemStore store) {
        this.store = store;
    }

    @Cacheable(cacheNames = CACHE, key = "#id", unless = "#result == null")
    public Optional<Item> find(long id) {
        return store.find(id);
    }

    @CacheEvict(cacheNames = CACHE, key = "#id")
    public Optional<Item> update(long id, String name) {
        return store.update(id, name);
    }

    @CacheEvict(cacheNames = CACHE, key = "#id")
    public boolean delete(long id) {
        return store.delete(id);
    }

    public Item create(String name) {
        return store.create(name);
    }
}
