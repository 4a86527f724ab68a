package dev.ratecache.appserver.accounting;

import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;

/**
 * Statements the origin sent to its database: what a cache in front of it, or the app cache,
 * saved is the difference between requests and these.
 */
@Component
public class DatabaseCounters {

    private final AtomicLong reads = new AtomicLong();
    private final AtomicLong writes = new AtomicLong();

    public void read() {
        reads.incrementAndGet();
    }

    public void wrote() {
        writes.incrementAndGet();
    }

    public long reads() {
        return reads.get();
    }

    public long writes() {
        return writes.get();
    }

    void reset() {
        reads.set(0);
        writes.set(0);
    }

    DatabaseSnapshot snapshot() {
        return new DatabaseSnapshot(reads(), writes());
    }

    /** Its field names are the JSON the suite parses. */
    public record DatabaseSnapshot(long reads, long writes) {
    }
}
