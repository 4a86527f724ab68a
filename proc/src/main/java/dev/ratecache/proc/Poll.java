package dev.ratecache.proc;

/**
 * The one pause between two looks at something that is coming up (a port that starts accepting, a
 * PID file, a PING answered): the suite waits on readiness, polling, never on a fixed time.
 */
public final class Poll {
    private Poll() {}

    /** Waits {@code millis} before the next look; an interrupt ends the wait as an unchecked failure. */
    public static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a process to come up", e);
        }
    }
}
