package dev.ratecache.model;

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

    PathSpec path(String path) {
        PathSpec p = paths.get(path);
        if (p == null) {
            throw new IllegalArgumentException("the origin does not serve " + path);
        }
        return p;
    }
}
