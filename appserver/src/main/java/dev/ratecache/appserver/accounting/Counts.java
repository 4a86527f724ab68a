package dev.ratecache.appserver.accounting;

/** A point-in-time copy of {@link RequestCounters}; its field names are the JSON the suite parses. */
public record Counts(long requests, long notModified, int inFlight, int peakInFlight) {
}
