package dev.ratecache.suite.matrix;

import java.util.List;

/**
 * How big a matrix run is. {@code default} is the reference experiment's sizes; {@code quick}
 * scales it down for CI and a first look (fewer requests, and the origin's delays and freshness
 * lifetimes divided by ten, so the cache and rate-limit effects keep their shape); {@code full}
 * is the default sizes run three times each. Each {@link Plan} holds its own sizes per profile.
 */
public enum Profile {
    QUICK(List.of("--origin.endpoints.hare.delay=10ms", "--origin.endpoints.hare.max-age=1s",
            "--origin.endpoints.tortoise.delay=200ms", "--origin.endpoints.tortoise.max-age=1s",
            "--origin.endpoints.snail.delay=500ms", "--origin.endpoints.snail.max-age=6s"), 1, 0.2),
    DEFAULT(List.of(), 1, 1),
    FULL(List.of(), 3, 1);

    public static final String ACCEPTED = "quick, default or full";

    private final List<String> originArgs;
    private final int repeats;
    private final double timeScale;

    Profile(List<String> originArgs, int repeats, double timeScale) {
        this.originArgs = originArgs;
        this.repeats = repeats;
        this.timeScale = timeScale;
    }

    public static Profile parse(String text) {
        for (Profile p : values()) {
            if (p.name().equalsIgnoreCase(text.trim())) {
                return p;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a profile: use " + ACCEPTED);
    }

    /** Arguments for the suite's own origin. */
    public List<String> originArgs() {
        return originArgs;
    }

    public int repeats() {
        return repeats;
    }

    /** How long a cell takes compared with the default profile's (for the time-left guess). */
    public double timeScale() {
        return timeScale;
    }

    @Override
    public String toString() {
        return name().toLowerCase();
    }
}
