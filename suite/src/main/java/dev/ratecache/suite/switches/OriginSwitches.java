package dev.ratecache.suite.switches;

import dev.ratecache.suite.spec.Balance;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The origins behind the back tier: the suite's own, or the user's, and how the back spreads
 * requests over several. A group of {@link StackSwitches}, which checks them all in one place.
 */
final class OriginSwitches {
    @Option(names = "--origin", paramLabel = "URL", converter = StackSwitches.OriginConverter.class,
            description = "Proxy to this HTTP origin (http://host:port) instead of starting the suite's own; repeatable for several origins.")
    List<URI> origins = new ArrayList<>();

    @Option(names = "--balance", paramLabel = "METHOD", converter = StackSwitches.BalanceConverter.class,
            description = "How the back end spreads requests over several origins: round-robin or least-conn. Default: round-robin.")
    Balance balance = Balance.ROUND_ROBIN;
}
