package dev.ratecache.appserver.places;

import dev.ratecache.appserver.accounting.DatabaseCounters;
import java.util.List;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Repository;

/**
 * The places table's two queries, each one indexed statement, counted. With
 * {@code origin.app-cache=redis} each is cache-aside in Redis under its query
 * ({@code places::code=1227}), as /items reads are: the rows never change while the origin runs,
 * so nothing evicts them and the TTL alone ends an entry. With {@code off} the annotations are
 * inert and every request is a query.
 */
@Repository
public class PlaceStore {

    private static final RowMapper<Place> PLACE = (row, n) -> new Place(row.getString("code"), row.getString("town"),
            row.getString("region"));

    /** The cache's name, and so the prefix of its Redis keys. */
    public static final String CACHE = "places";

    private final JdbcTemplate jdbc;
    private final DatabaseCounters counters;

    PlaceStore(JdbcTemplate jdbc, DatabaseCounters counters) {
        this.jdbc = jdbc;
        this.counters = counters;
    }

    /** The towns that share a postal code: about 5. */
    @Cacheable(cacheNames = CACHE, key = "'code=' + #code")
    public List<Place> byCode(String code) {
        return query("code", code);
    }

    /** The towns of a region: about 50. */
    @Cacheable(cacheNames = CACHE, key = "'region=' + #region")
    public List<Place> byRegion(String region) {
        return query("region", region);
    }

    private List<Place> query(String column, String value) {
        counters.queriedPlaces();
        return jdbc.query("SELECT code, town, region FROM places WHERE " + column + " = ? ORDER BY town, id", PLACE,
                value);
    }
}
