package dev.ratecache.appserver.api;

import java.time.Instant;

/** The small JSON body of every 200; {@code servedAt} shows whether a cache answered instead. */
record OriginResponse(String endpoint, String version, Instant servedAt) {
}
