package dev.ratecache.suite.switches;

import dev.ratecache.suite.spec.EdgeBalance;
import dev.ratecache.suite.spec.FleetLimit;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Several front tiers (edges) behind a balancer, and how the per-client limit holds across them.
 * A group of {@link StackSwitches}, which checks them all in one place.
 */
final class FleetSwitches implements WholeNumber.Flags {
    @Option(names = "--edges", paramLabel = "N",
            description = "Front end tiers (edges), each its own nginx with its own cache and per-client limit, behind one"
                    + " balancing nginx on the front port; 1 is no balancer. Default: ${DEFAULT-VALUE}.")
    int edges = 1;

    @Option(names = "--edge-balance", paramLabel = "METHOD", converter = StackSwitches.EdgeBalanceConverter.class,
            description = "With --edges N > 1, how the balancer spreads requests: round-robin (independent caches) or"
                    + " uri-hash (hash $request_uri consistent: each URL cached on one edge). A matrix run given --edges"
                    + " without it runs each edge-cache cell both ways. Default: round-robin.")
    EdgeBalance edgeBalance = EdgeBalance.ROUND_ROBIN;

    @Option(names = "--fleet-limit", paramLabel = "STRATEGY", converter = StackSwitches.FleetLimitConverter.class,
            description = "With --edges N > 1, how the per-client limit holds across the edges: per-edge (each counts"
                    + " alone: a client gets up to N times its limit), client-hash (the balancer sends each client to"
                    + " one edge), split (each edge rate/N and burst/N) or shared (one bucket per client in Redis,"
                    + " each edge falling back to its split limit when Redis fails). Default: ${DEFAULT-VALUE}.")
    FleetLimit fleetLimit = FleetLimit.PER_EDGE;

    @Option(names = "--fleet-redis", paramLabel = "HOST:PORT",
            description = "With --fleet-limit shared, the Redis the edges share; without it the suite starts its own"
                    + " redis-server on a free port.")
    String fleetRedis;

    @Option(names = "--fleet-redis-timeout", paramLabel = "MS",
            description = "With --fleet-limit shared, how long an edge waits on Redis (connect, send, read) before it"
                    + " falls back to its split limit. Default: ${DEFAULT-VALUE}.")
    int fleetRedisTimeout = 50;

    @Override
    public Map<String, WholeNumber> wholeNumbers() {
        return StackSwitches.WHOLE_NUMBERS;
    }
}
