package dev.ratecache.suite.spec;

/**
 * How the balancing nginx in front of several edges ({@code --edges N}) spreads requests:
 * round robin (each edge keeps an independent cache of everything) or by a consistent hash of
 * the URI (each URL lives on one edge: the cache is sharded).
 */
public enum EdgeBalance {
    ROUND_ROBIN("round-robin"),
    URI_HASH("uri-hash");

    private final String flag;

    EdgeBalance(String flag) {
        this.flag = flag;
    }

    @Override
    public String toString() {
        return flag;
    }
}
