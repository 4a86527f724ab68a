package dev.ratecache.suite.matrix;

import dev.ratecache.suite.origin.Endpoint;
import dev.ratecache.suite.origin.OriginDefaults;
import dev.ratecache.suite.origin.SpringDuration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How big a matrix run is. {@code default} is the reference experiment's sizes; {@code quick}
 * scales it down for CI and a first look (fewer requests, and the origin's delays and freshness
 * lifetimes divided by ten, so the cache and rate-limit effects keep their shape); {@code full}
 * is the default sizes run three times each. Each {@link Plan} holds its own sizes per profile.
 */
public enum Profile {
    // The origin's defaults (application.yml) divided by ten; freshness is whole seconds, so /hare's 0.3 s is 1 s.
    QUICK(List.of(new Endpoint("hare", Duration.ofMillis(10), Duration.ofSeconds(1)),
            new Endpoint("tortoise", Duration.ofMillis(200), Duration.ofSeconds(1)),
            new Endpoint("snail", Duration.ofMillis(500), Duration.ofSeconds(6))), 1, 0.2),
    DEFAULT(List.of(), 1, 1),
    FULL(List.of(), 3, 1);

    private final List<Endpoint> ownEndpoints;
    private final int repeats;
    private final double timeScale;

    Profile(List<Endpoint> ownEndpoints, int repeats, double timeScale) {
        this.ownEndpoints = ownEndpoints;
        this.repeats = repeats;
        this.timeScale = timeScale;
    }

    /** Arguments for the suite's own origin: the endpoints this profile sets itself. */
    public List<String> originArgs() {
        List<String> args = new ArrayList<>();
        for (Endpoint e : ownEndpoints) {
            args.add("--origin.endpoints." + e.name() + ".delay=" + SpringDuration.format(e.delay()));
            args.add("--origin.endpoints." + e.name() + ".max-age=" + SpringDuration.format(e.maxAge()));
        }
        return List.copyOf(args);
    }

    /** The suite's origin's endpoints as this profile runs them: the origin's defaults, overridden by {@link #originArgs()}. */
    public List<Endpoint> endpoints() {
        Map<String, Endpoint> byName = new LinkedHashMap<>();
        OriginDefaults.get().endpoints().forEach(e -> byName.put(e.name(), e));
        ownEndpoints.forEach(e -> byName.put(e.name(), e));
        return List.copyOf(byName.values());
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
