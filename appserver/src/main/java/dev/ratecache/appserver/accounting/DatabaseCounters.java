package dev.ratecache.appserver.accounting;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.stereotype.Component;

/**
 * Statements the origin sent to its database, and requests it could not answer from it: what a
 * cache in front of it, or the app cache, saved is the difference between requests and these.
 */
@Component
public class DatabaseCounters {

    private final AtomicLong reads = new AtomicLong();
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong places = new AtomicLong();
    private final AtomicLong timeouts = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicReference<String> lastFailure = new AtomicReference<>();

    /** An /items read. */
    public void read() {
        reads.incrementAndGet();
    }

    /** An /items write. */
    public void wrote() {
        writes.incrementAndGet();
    }

    /** A /places query. */
    public void queriedPlaces() {
        places.incrementAndGet();
    }

    /** A request answered 504: no pooled connection freed up within the acquire timeout. */
    public void timedOut() {
        timeouts.incrementAndGet();
    }

    /** A request answered 502: the database failed or could not be reached; {@code what} in one line. */
    public void failed(String what) {
        failures.incrementAndGet();
        lastFailure.set(what);
    }

    public long reads() {
        return reads.get();
    }

    public long writes() {
        return writes.get();
    }

    public long places() {
        return places.get();
    }

    public long timeouts() {
        return timeouts.get();
    }

    public long failures() {
        return failures.get();
    }

    void reset() {
        reads.set(0);
        writes.set(0);
        places.set(0);
        timeouts.set(0);
        failures.set(0);
        lastFailure.set(null);
    }

    DatabaseSnapshot snapshot() {
        return new DatabaseSnapshot(reads(), writes());
    }

    String lastFailure() {
        return lastFailure.get();
    }

    /** The /items part; its field names are the JSON the suite parses. */
    public record DatabaseSnapshot(long reads, long writes) {
    }
}
