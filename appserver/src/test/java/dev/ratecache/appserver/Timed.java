package dev.ratecache.appserver;

import java.time.Duration;
import java.util.function.Supplier;

/** A result together with the wall time it took. */
record Timed<T>(T result, Duration elapsed) {

    static <T> Timed<T> of(Supplier<T> action) {
        long start = System.nanoTime();
        T result = action.get();
        return new Timed<>(result, Duration.ofNanos(System.nanoTime() - start));
    }
}
