package dev.ratecache.suite.matrix;

import java.util.List;
import java.util.Map;

/**
 * How big a matrix run is. {@code default} is the reference experiment's sizes; {@code quick}
 * scales it down for CI and a first look (fewer requests, and the origin's delays and freshness
 * lifetimes divided by ten, so the cache and rate-limit effects keep their shape); {@code full}
 * is the default sizes run three times each.
 */
public enum Profile {
    QUICK(Map.of(
            "stress", Map.of("users", "100", "loops", "2", "rampup", "1"),
            "load", Map.of("users", "5", "loops", "4", "rampup", "0")),
            List.of("--origin.endpoints.hare.delay=10ms", "--origin.endpoints.hare.max-age=1s",
                    "--origin.endpoints.tortoise.delay=200ms", "--origin.endpoints.tortoise.max-age=1s",
                    "--origin.endpoints.snail.delay=500ms", "--origin.endpoints.snail.max-age=6s"),
            1),
    DEFAULT(Map.of(
            "stress", Map.of("users", "100", "loops", "10", "rampup", "5"),
            "load", Map.of("users", "10", "loops", "10", "rampup", "0")),
            List.of(), 1),
    FULL(DEFAULT.plans, DEFAULT.originArgs, 3);

    public static final String ACCEPTED = "quick, default or full";

    private final Map<String, Map<String, String>> plans;
    private final List<String> originArgs;
    private final int repeats;

    Profile(Map<String, Map<String, String>> plans, List<String> originArgs, int repeats) {
        this.plans = plans;
        this.originArgs = originArgs;
        this.repeats = repeats;
    }

    public static Profile parse(String text) {
        for (Profile p : values()) {
            if (p.name().equalsIgnoreCase(text.trim())) {
                return p;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a profile: use " + ACCEPTED);
    }

    /** The JMeter properties that size {@code plan} (empty for a user's own plan). */
    public Map<String, String> sizes(String plan) {
        return plans.getOrDefault(plan, Map.of());
    }

    /** Arguments for the suite's own origin. */
    public List<String> originArgs() {
        return originArgs;
    }

    public int repeats() {
        return repeats;
    }

    @Override
    public String toString() {
        return name().toLowerCase();
    }
}
