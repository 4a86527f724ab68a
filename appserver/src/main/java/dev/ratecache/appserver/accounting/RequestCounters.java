package dev.ratecache.appserver.accounting;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** Requests, 304s and concurrency of one endpoint, or of all of them together. */
public final class RequestCounters {

    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong notModified = new AtomicLong();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger peakInFlight = new AtomicInteger();

    void started() {
        requests.incrementAndGet();
        int now = inFlight.incrementAndGet();
        peakInFlight.accumulateAndGet(now, Math::max);
    }

    /** One request counted once it was answered, never seen in flight. */
    void answered() {
        requests.incrementAndGet();
    }

    void answeredNotModified() {
        notModified.incrementAndGet();
    }

    void finished() {
        inFlight.decrementAndGet();
    }

    /** Zeroes the totals; requests still running stay in flight, so the new peak starts there. */
    void reset() {
        requests.set(0);
        notModified.set(0);
        peakInFlight.set(inFlight.get());
    }

    public long requests() {
        return requests.get();
    }

    public long notModified() {
        return notModified.get();
    }

    public int inFlight() {
        return inFlight.get();
    }

    public int peakInFlight() {
        return peakInFlight.get();
    }

    public Counts snapshot() {
        return new Counts(requests(), notModified(), inFlight(), peakInFlight());
    }
}
