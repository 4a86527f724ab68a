package dev.ratecache.suite.migrate;

import dev.ratecache.suite.edge.Edge;
import dev.ratecache.suite.spec.TierPorts;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.MissingKey;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.suite.switches.StaleMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The target product's nearest config to a user's switches: the switches as given, with what the
 * product refuses given up one step at a time, each step taken only when the product's own refusal
 * names what it gives up (its refusal line changes). Nothing here knows a product: every reason is
 * the adapter's own refusal line.
 *
 * @param switches what the target's config is rendered from
 * @param changes  what was given up, in order, each with the product's reason
 */
public record Nearest(StackSwitches switches, List<Change> changes) {

    /** One step: the flags given in place of the user's, and the product's refusal that asked it. */
    public record Change(String flags, String why) {}

    /** A step migrate may take: the flags it gives, whether the switches ask what it gives up, and how. */
    private record Step(String flags, Predicate<StackSwitches> asks, Consumer<StackSwitches> give) {}

    private static final List<Step> STEPS = List.of(
            new Step("--front-mode nodelay",
                    s -> s.frontLimit() && !s.frontMode().equals(LimitMode.NODELAY), s -> s.frontMode(LimitMode.NODELAY)),
            new Step("--back-mode nodelay",
                    s -> s.backLimit() && !s.backMode().equals(LimitMode.NODELAY), s -> s.backMode(LimitMode.NODELAY)),
            new Step("no --quota", s -> s.quota().isPresent(), s -> s.quota(null, dev.ratecache.suite.spec.Quota.Window.SLIDING)),
            new Step("--edges 1", s -> s.edges() > 1, s -> s.edges(1)),
            // Asked whatever the switches say: a spec already rfc changes nothing, and its refusal stays.
            new Step("--stale rfc", s -> true, s -> s.stale(StaleMode.RFC)),
            new Step("--no-tls", StackSwitches::tls, s -> s.tls(false)),
            new Step("--missing-key addr", s -> s.missingKey() != MissingKey.ADDR, s -> s.missingKey(MissingKey.ADDR)),
            new Step("--limit-key addr", s -> !s.limitKey().byAddress(), s -> s.limitKey(LimitKey.ADDR)),
            new Step("--retry-after 1", s -> s.retryAfter() != 1, s -> s.retryAfter(1)),
            new Step("--limit-conn 0", s -> s.limitConn() > 0, s -> s.limitConn(0)),
            new Step("--reject-status 429", s -> s.rejectStatus() != 429, s -> s.rejectStatus(429)),
            new Step("--no-cache", StackSwitches::cache, s -> s.cache(false)));

    /**
     * The nearest switches {@code target} runs, from {@code given}; empty when no step makes it run
     * them (the caller says the product's refusal).
     */
    public static Optional<Nearest> of(Edge target, StackSwitches given, TierPorts ports) {
        StackSwitches now = given.copy();
        List<Change> changes = new ArrayList<>();
        Optional<String> refusal = target.refusal(now.spec(ports));
        while (refusal.isPresent()) {
            Optional<String> before = refusal;
            boolean stepped = false;
            for (Step step : STEPS) {
                if (!step.asks().test(now)) {
                    continue;
                }
                StackSwitches tried = now.copy();
                step.give().accept(tried);
                Optional<String> after = target.refusal(tried.spec(ports));
                if (!after.equals(before)) {
                    changes.add(new Change(step.flags(), before.get()));
                    now = tried;
                    refusal = after;
                    stepped = true;
                    break;
                }
            }
            if (!stepped) {
                return Optional.empty();
            }
        }
        return Optional.of(new Nearest(now, List.copyOf(changes)));
    }
}
