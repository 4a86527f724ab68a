package dev.ratecache.suite.switches;

import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The connections between tiers and to clients, and nginx's worker processes. A group of
 * {@link StackSwitches}, which checks them all in one place.
 */
final class ConnectionSwitches implements WholeNumber.Flags {
    @Option(names = "--keepalive", paramLabel = "N", description = "Idle kept-alive connections each tier holds to the next. Default: ${DEFAULT-VALUE}.")
    int keepalive = 32;

    @Option(names = "--read-timeout", paramLabel = "SECONDS", description = "How long a tier waits for the next one's response. Default: ${DEFAULT-VALUE}.")
    int readTimeout = 60;

    @Option(names = "--client-timeout", paramLabel = "SECONDS",
            description = "How long a tier waits on a client that stalls while sending its headers or body, or reading the response. Default: ${DEFAULT-VALUE}.")
    int clientTimeout = 10;

    @Option(names = "--workers", paramLabel = "N|auto", description = "nginx worker processes per tier. Default: ${DEFAULT-VALUE}.")
    String workers = "auto";

    @Override
    public Map<String, WholeNumber> wholeNumbers() {
        return StackSwitches.WHOLE_NUMBERS;
    }
}
