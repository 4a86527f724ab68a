package dev.ratecache.suite.origin;

import java.time.Duration;

/**
 * One endpoint of the suite's origin, served at {@code /name}: how long it holds a request thread
 * ({@code origin.endpoints.NAME.delay}) and how long its answer is fresh ({@code .max-age}).
 */
public record Endpoint(String name, Duration delay, Duration maxAge) {

    public String path() {
        return "/" + name;
    }
}
