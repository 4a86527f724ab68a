package dev.ratecache.testkit;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * What a test needs from the machine (njs, redis-server, Chromium, root for network namespaces).
 * On a developer's machine a missing one skips the test, saying why. Under CI ({@code CI=true}),
 * where {@code ./run-tests.sh test} has installed everything, a missing one fails it instead: a
 * skip there would hide an install step that is missing.
 */
public final class Required {
    private Required() {}

    /** Whether this JVM runs under CI: the environment's {@code CI} is {@code true}. */
    public static boolean underCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /** Goes on when {@code present}; otherwise skips, or fails under CI, with {@code why}. */
    public static void that(boolean present, String why) {
        if (present) {
            return;
        }
        if (underCi()) {
            Assertions.fail(why + " (CI=true: ./run-tests.sh test installs it, so its absence is an install bug)");
        }
        Assumptions.abort(why);
    }

    /** Whether this JVM runs as root (network namespaces, nginx's workers as nobody). */
    public static boolean root() {
        return "root".equals(System.getProperty("user.name"));
    }
}
