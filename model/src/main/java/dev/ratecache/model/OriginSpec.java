package dev.ratecache.model;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The origin: a pool of request threads in front of one FIFO queue (like Tomcat's executor with
 * an unbounded accept queue), each path holding a thread for its service delay.
 *
 * @param threads request threads, at least 1
 * @param paths   the paths it serves; an unknown path is an error
 */
public record OriginSpec(int threads, Map<String, PathSpec> paths) {

    public OriginSpec {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1");
        }
        paths = Map.copyOf(paths);
    }

    /** The suite's origin: /hare 100 ms fresh 3 s, /tortoise 2 s fresh 10 s, /snail 5 s fresh 60 s. */
    public static OriginSpec suite(int threads) {
        Map<String, PathSpec> paths = new LinkedHashMap<>();
        paths.put("/hare", new PathSpec(100, Freshness.maxAge(3)));
        paths.put("/tortoise", new PathSpec(2000, Freshness.maxAge(10)));
        paths.put("/snail", new PathSpec(5000, Freshness.maxAge(60)));
        return new OriginSpec(threads, paths);
    }

    PathSpec path(String path) {
        PathSpec p = paths.get(path);
        if (p == null) {
            throw new IllegalArgumentException("the origin does not serve " + path);
        }
        return p;
    }
}
