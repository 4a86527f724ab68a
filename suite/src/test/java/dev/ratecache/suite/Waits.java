package dev.ratecache.suite;

import java.time.Duration;

/**
 * Deliberate waits: the few places where a test must let time pass and cannot poll for what it
 * waits for, because looking would change it. Asking a client's cache whether an entry is still
 * fresh means a request that revalidates it and counts in the client's statistics; asking the
 * front end whether a client's rate-limit bucket has drained means a request that fills it again.
 * Everywhere else a test waits for the condition itself, with Awaitility.
 *
 * <p>This is the one place the tests sleep. A sleep can only oversleep, so each wait is the time
 * the thing needs at the most, plus a little.
 */
public final class Waits {
    /** Past the longest a cache keeps a whole-second freshness lifetime fresh. */
    private static final Duration WHOLE_SECOND_MARGIN = Duration.ofMillis(1100);

    private Waits() {}

    /**
     * Lets an entry with freshness lifetime {@code maxAge} expire. Freshness is counted in whole
     * seconds (nginx's clock, a response's Date header), so an entry stored late in a second
     * stays fresh until nearly {@code maxAge} + 1 s after it was stored.
     */
    public static void outlast(Duration maxAge) {
        past(maxAge.plus(WHOLE_SECOND_MARGIN));
    }

    /** Lets {@code time} pass, for a state that no test can see without disturbing it. */
    public static void past(Duration time) {
        try {
            Thread.sleep(time.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while letting " + time + " pass", e);
        }
    }
}
