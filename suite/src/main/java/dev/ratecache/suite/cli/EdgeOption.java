package dev.ratecache.suite.cli;

/** What --edge says in the help of every command that starts the tiers (a run, replay, up). */
final class EdgeOption {
    static final String HELP = "${COMPLETION-CANDIDATES}. The product of both tiers, from its folder of configs (its"
            + " README says what it does and how it differs from nginx). A default the product cannot honour becomes"
            + " its nearest, said in one line (nodelay for a product that only rejects, no cache for one without);"
            + " a switch you give that it cannot run is refused in one line, with the reason.";

    private EdgeOption() {}
}
