package dev.ratecache.suite.cli;

import dev.ratecache.suite.edge.Capability;
import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;

/**
 * The suite's defaults made to fit the edge product chosen: a default is the suite's choice, not
 * the user's, so a product that cannot honour one gets its nearest, said in one line, where a flag
 * the user gave would be refused. The limits' mode: nginx's default queue, which HAProxy, Varnish
 * and Traefik cannot do (they only reject), becomes nodelay. The edge cache: on by default, off for a
 * product that has none (Traefik), so that its limits run and the cache's cells are left out.
 */
final class EdgeDefaults {
    private EdgeDefaults() {}

    /** Fits {@code switches} to {@code edge}; a line for each default that changed. */
    static List<String> fit(EdgeProduct edge, StackSwitches switches, CommandLine.ParseResult parsed) {
        List<String> notes = new ArrayList<>();
        if (!edge.adapter().capabilities().contains(Capability.QUEUE_DELAY)) {
            modes(edge, switches, parsed).ifPresent(notes::add);
        }
        if (!edge.adapter().capabilities().contains(Capability.CACHE) && !parsed.hasMatchedOption("--cache")
                && switches.cache()) {
            switches.cache(false);
            notes.add("note: " + edge.displayName() + " has no HTTP cache: --cache defaults to off with --edge " + edge
                    + ", and cells with the edge cache on are left out (give --no-cache to choose)");
        }
        return notes;
    }

    private static Optional<String> modes(EdgeProduct edge, StackSwitches switches, CommandLine.ParseResult parsed) {
        List<String> changed = new ArrayList<>();
        if (!parsed.hasMatchedOption("--front-mode") && switches.frontMode().kind() != LimitMode.Kind.NODELAY) {
            switches.frontMode(LimitMode.NODELAY);
            changed.add("--front-mode");
        }
        if (!parsed.hasMatchedOption("--back-mode") && switches.backMode().kind() != LimitMode.Kind.NODELAY) {
            switches.backMode(LimitMode.NODELAY);
            changed.add("--back-mode");
        }
        return changed.isEmpty() ? Optional.empty() : Optional.of("note: " + edge.displayName()
                + " only rejects past its limit and never queues: " + String.join(" and ", changed)
                + (changed.size() == 1 ? " defaults" : " default") + " to nodelay with --edge " + edge
                + " (give " + (changed.size() == 1 ? "it" : "them") + " to choose)");
    }
}
