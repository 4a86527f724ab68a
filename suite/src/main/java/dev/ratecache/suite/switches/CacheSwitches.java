package dev.ratecache.suite.switches;

import dev.ratecache.suite.spec.AgeSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The edge cache at the front: its size, when it serves stale, Age, the freshness the back gives
 * paths, and who may purge. A group of {@link StackSwitches}, which checks them all in one place.
 */
final class CacheSwitches {
    @Option(names = "--cache", negatable = true, fallbackValue = "true",
            description = "Edge cache at the front end (--no-cache turns it off). Default: on.")
    boolean cache = true;

    @Option(names = "--cache-size", paramLabel = "SIZE", description = "Edge cache size on disk, e.g. 100m, 2g. Default: ${DEFAULT-VALUE}.")
    String cacheSize = "100m";

    @Option(names = "--background-update", negatable = true, fallbackValue = "true",
            description = "Refresh an expired edge-cache entry in the background while serving the stale one"
                    + " (--no-background-update makes the client wait for the revalidation). Default: on.")
    boolean backgroundUpdate = true;

    @Option(names = "--age", negatable = true, fallbackValue = "true",
            description = "Send Age on every answer from the edge cache (RFC 9111 section 5.1), so that a client"
                    + " cache behind it counts freshness right (--no-age saves the work on each cache hit, far more by"
                    + " njs than by the native module: peak --breakdown measures it). Default: on.")
    boolean age = true;

    @Option(names = "--age-source", paramLabel = "SOURCE", converter = StackSwitches.AgeSourceConverter.class,
            description = "What counts the edge's Age: native (nginx/modules/age, which ./run-tests.sh builds against"
                    + " Debian's nginx), njs (nginx/njs/age.js) or auto (native when it is built, else njs)."
                    + " Default: auto.")
    AgeSource ageSource = AgeSource.AUTO;

    @Option(names = "--stale", paramLabel = "MODE", converter = StackSwitches.StaleModeConverter.class,
            description = "When the edge cache serves expired entries: rfc (only as the origin's stale-while-revalidate"
                    + " and stale-if-error allow) or protective (whenever the origin fails or an entry is being refreshed,"
                    + " whatever the origin allowed: availability over correctness). Default: rfc.")
    StaleMode stale = StaleMode.RFC;

    @Option(names = "--freshness", paramLabel = "PATH=SECONDS",
            description = "Freshness the back end gives PATH when the origin sends no Cache-Control; repeatable, e.g. --freshness /hare=3 --freshness /tortoise=10.")
    Map<String, Integer> freshness = new LinkedHashMap<>();

    @Option(names = "--purge-allow", paramLabel = "ADDRESS", split = ",",
            description = "Addresses allowed to PURGE a URL from the edge cache. Default: 127.0.0.1.")
    List<String> purgeAllow = new ArrayList<>(List.of("127.0.0.1"));
}
