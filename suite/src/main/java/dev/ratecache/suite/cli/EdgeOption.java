package dev.ratecache.suite.cli;

/** What --edge says in the help of every command that starts the tiers (a run, replay, up). */
final class EdgeOption {
    static final String HELP = "${COMPLETION-CANDIDATES}. The product of both tiers: nginx, haproxy (HAProxy 2.6: its"
            + " stick-table rate and memory cache) or varnish (Varnish 7.1: vsthrottle, grace and coalescing)."
            + " HAProxy and Varnish reject over a limit and never queue: give --front-mode nodelay and"
            + " --back-mode nodelay; a switch they cannot run is refused in one line, with the reason.";

    private EdgeOption() {}
}
