package dev.ratecache.model;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The suite's origin and edge cache as the model's own tests take them, written out here: the model
 * reads no configuration, and what the suite runs is set by application.yml and nginx/ (the suite's
 * Predictor reads them from there).
 */
final class SuiteFixture {
    private SuiteFixture() {}

    /** The suite's origin: /hare 100 ms fresh 3 s, /tortoise 2 s fresh 10 s, /snail 5 s fresh 60 s. */
    static OriginSpec origin(int threads) {
        Map<String, PathSpec> paths = new LinkedHashMap<>();
        paths.put("/hare", new PathSpec(100, Freshness.maxAge(3)));
        paths.put("/tortoise", new PathSpec(2000, Freshness.maxAge(10)));
        paths.put("/snail", new PathSpec(5000, Freshness.maxAge(60)));
        return new OriginSpec(threads, paths);
    }

    /** The suite's edge: lock on with 5 s timeout and age, background update on, inactive=10m. */
    static EdgeCacheSpec edge() {
        return new EdgeCacheSpec(true, 5000, 5000, false, true, 600_000);
    }
}
