package dev.ratecache.suite.spec;

/**
 * Where the per-client limit counts ({@code --limit-scope}): {@code all} at the edge, before the
 * cache, so every request costs quota; {@code misses} at the back end, behind the cache, so only
 * what reaches the origin does (an edge HIT is free).
 */
public enum LimitScope {
    ALL("all"),
    MISSES("misses");

    private final String flag;

    LimitScope(String flag) {
        this.flag = flag;
    }

    @Override
    public String toString() {
        return flag;
    }
}
