package dev.ratecache.testkit;

import java.util.List;

/** The processes this JVM started, directly or not, that still run: for tests that a stop left nothing behind. */
public final class Descendants {
    private Descendants() {}

    /** Those whose executable is named {@code name} (postgres: the postmaster and its backends). */
    public static List<ProcessHandle> running(String name) {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
                .filter(p -> p.info().command().map(c -> c.endsWith("/" + name)).orElse(false)).toList();
    }
}
