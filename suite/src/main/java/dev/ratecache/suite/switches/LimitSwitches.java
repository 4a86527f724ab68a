package dev.ratecache.suite.switches;

import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.spec.Quota;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The rate limits of both tiers: the per-client limit at the front (its rate, burst and mode,
 * what it counts by, its tiers of keys, the networks it spares, which requests it counts) and the
 * limit for the whole origin at the back, and how a rejection is answered. A group of
 * {@link StackSwitches}, which checks them all in one place.
 */
final class LimitSwitches implements WholeNumber.Flags {
    @Option(names = "--front-limit", negatable = true, fallbackValue = "true",
            description = "Per-client rate limit at the front end (--no-front-limit turns it off). Default: on.")
    boolean frontLimit = true;

    @Option(names = "--front-rate", paramLabel = "R", description = "Front end rate, requests/s per client. Default: ${DEFAULT-VALUE}.")
    int frontRate = 100;

    @Option(names = "--front-burst", paramLabel = "N", description = "Front end burst, requests. Default: ${DEFAULT-VALUE}.")
    int frontBurst = 200;

    @Option(names = "--front-mode", paramLabel = "MODE", converter = StackSwitches.LimitModeConverter.class,
            description = "Front end burst handling: queue, nodelay or delay=N. Default: queue.")
    LimitMode frontMode = LimitMode.QUEUE;

    @Option(names = "--limit-key", paramLabel = "KEY", converter = StackSwitches.LimitKeyConverter.class,
            description = "What the per-client limit counts by: addr (the client's address), header:NAME, cookie:NAME or"
                    + " arg:NAME (a key the client sends). A key over 256 bytes or with control characters counts as"
                    + " missing. Default: addr.")
    LimitKey limitKey = LimitKey.ADDR;

    @Option(names = "--missing-key", paramLabel = "ACTION", converter = StackSwitches.MissingKeyConverter.class,
            description = "A request without a valid key: addr (limited by its address, at the anonymous tier's rate)"
                    + " or reject (401 with a one-line body). Default: addr.")
    MissingKey missingKey = MissingKey.ADDR;

    @Option(names = "--address-ceiling", paramLabel = "auto|off|RATE[,BURST]", converter = StackSwitches.AddressCeilingConverter.class,
            description = "With a key other than addr, a per-address limit kept beside the key's, so that a client"
                    + " cannot rotate keys to escape it: auto (ten times the most generous tier's rate and burst),"
                    + " RATE[,BURST] (burst twice the rate if left out) or off. Default: auto.")
    AddressCeiling addressCeiling = AddressCeiling.AUTO;

    @Option(names = "--tiers", paramLabel = "FILE",
            description = "Tiers of keys, each its own limit: one a line, NAME RATE BURST MODE [quota=N/WINDOW] KEYS (KEYS"
                    + " comma-separated or @FILE, one a line). quota= gives the tier its own quota in --quota's form, or"
                    + " none; a tier without it takes --quota. Unknown keys get the tier named anonymous, or the"
                    + " --front-rate limit. Needs a --limit-key other than addr.")
    Path tiers;

    /**
     * Tiers given in code rather than by a file (a tiers cell's own): what {@link #limitTiers()} gives
     * while no --tiers file is named. Not a flag.
     */
    List<LimitTier> givenTiers = List.of();

    @Option(names = "--allow", paramLabel = "CIDR", split = ",",
            description = "Networks never limited per client (the back end's limit for the whole origin still applies).")
    List<String> allow = new ArrayList<>();

    @Option(names = "--limit-scope", paramLabel = "SCOPE", converter = StackSwitches.LimitScopeConverter.class,
            description = "Which requests count against the per-client limit and quotas: all (counted at the edge, before"
                    + " its cache) or misses (counted at the back end, so edge-cache hits are free). Default: all.")
    LimitScope limitScope = LimitScope.ALL;

    @Option(names = "--back-limit", negatable = true, fallbackValue = "true",
            description = "Rate limit for the app server as a whole at the back end (--no-back-limit turns it off). Default: on.")
    boolean backLimit = true;

    @Option(names = "--back-rate", paramLabel = "R", description = "Back end rate, requests/s for all clients together. Default: ${DEFAULT-VALUE}.")
    int backRate = 10;

    @Option(names = "--back-burst", paramLabel = "N", description = "Back end burst, requests. Default: ${DEFAULT-VALUE}.")
    int backBurst = 50;

    @Option(names = "--back-mode", paramLabel = "MODE", converter = StackSwitches.LimitModeConverter.class,
            description = "Back end burst handling: queue, nodelay or delay=N. Default: queue.")
    LimitMode backMode = LimitMode.QUEUE;

    @Option(names = "--reject-status", paramLabel = "CODE",
            description = "Status of a rate-limit rejection: 429 or 503 (nginx's default, as in the reference experiment). Default: ${DEFAULT-VALUE}.")
    int rejectStatus = 429;

    @Option(names = "--retry-after", paramLabel = "SECONDS", description = "Retry-After sent with every rejection. Default: ${DEFAULT-VALUE}.")
    int retryAfter = 1;

    @Option(names = "--limit-conn", paramLabel = "N",
            description = "Concurrent connections per client at the front end; 0 is off. Default: off.")
    int limitConn = 0;

    @Option(names = "--quota", paramLabel = "N/WINDOW",
            description = "A quota per client beside the burst limit: at most N requests a minute (N/m), hour (N/h),"
                    + " day (N/d) or any window in seconds (N/600s), counted for every edge together in Redis (the suite"
                    + " starts its own unless --fleet-redis names one). An exhausted quota answers 429 with Retry-After"
                    + " and a problem+json body; every answer says what is left in RateLimit. A tier of --tiers may"
                    + " have its own (quota=). With --limit-scope misses the back end counts it, so that edge-cache hits"
                    + " cost none. Default: none.")
    String quota;

    @Option(names = "--quota-window", paramLabel = "MODE", converter = StackSwitches.QuotaWindowConverter.class,
            description = "How the quotas' windows (--quota's and the tiers') lie in time: sliding (a sliding-window counter over two fixed windows;"
                    + " exact for even traffic, at most 2N - 1 in a sliding window in the worst case), fixed (from the"
                    + " Unix epoch) or calendar (from each UTC midnight). Default: sliding.")
    Quota.Window quotaWindow = Quota.Window.SLIDING;

    @Override
    public Map<String, WholeNumber> wholeNumbers() {
        return StackSwitches.WHOLE_NUMBERS;
    }
}
