package dev.ratecache.appserver.api;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Holds the request thread for an answer's delay. Sleeping on it, rather than answering later
 * from elsewhere, is the point: the fixed Tomcat thread pool is the origin capacity that the
 * tiers in front are measured against.
 */
final class RequestThread {

    private RequestThread() {
    }

    static void hold(Duration delay) {
        try {
            TimeUnit.NANOSECONDS.sleep(delay.toNanos());
        }
        catch (InterruptedException ex) {
            // Only a shutdown interrupts; answer anyway and let the container finish stopping.
            Thread.currentThread().interrupt();
        }
    }
}
