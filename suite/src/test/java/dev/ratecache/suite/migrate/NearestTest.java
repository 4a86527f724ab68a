package dev.ratecache.suite.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.model.EdgeCacheSpec;
import dev.ratecache.model.LimitSpec;
import dev.ratecache.suite.edge.Capability;
import dev.ratecache.suite.edge.Edge;
import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.edge.LiveCounters;
import dev.ratecache.suite.edge.SlowClient;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.StackSwitches;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The nearest config asks nothing of a product but its adapter's refusals: an adapter migrate has never
 * seen (here a registered one with other refusals) gets its nearest switches, each step for its own line.
 */
class NearestTest {

    /** A registered adapter with the refusals {@code refusal} gives in place of its own. */
    record Refusing(Edge inner, Function<StackSpec, Optional<String>> refusal) implements Edge {
        @Override public String name() { return "other"; }
        @Override public Set<Capability> capabilities() { return inner.capabilities(); }
        @Override public Optional<String> refusal(StackSpec spec) { return refusal.apply(spec); }
        @Override public List<Path> render(StackSpec spec, Path dir) throws IOException { return inner.render(spec, dir); }
        @Override public Running start(StackSpec spec, Path dir) throws IOException { throw new UnsupportedOperationException(); }
        @Override public String slowClientBound(SlowClient attack, StackSpec spec) { return inner.slowClientBound(attack, spec); }
        @Override public Optional<String> notInstalled() { return Optional.empty(); }
        @Override public String version() { return "other 1.0"; }
        @Override public LiveCounters liveCounters(Running tiers, StackSpec spec, Path dir, int rejectStatus) {
            throw new UnsupportedOperationException();
        }
        @Override public String runFolderGuide() { return ""; }
        @Override public String displayName() { return "Other"; }
        @Override public String limiter() { return inner.limiter(); }
        @Override public LimitSpec limiterModel(int rate, int burst, dev.ratecache.suite.switches.LimitMode mode, int status) {
            return inner.limiterModel(rate, burst, mode, status);
        }
        @Override public EdgeCacheSpec cacheModel(StackSpec spec) { return inner.cacheModel(spec); }
    }

    /** No cache, no cookie key, 429 only: refused in that order, as a product without them would. */
    static Optional<String> noCacheNoCookie429(StackSpec spec) {
        if (spec.cache().on()) {
            return Optional.of("Other has no cache: give --no-cache");
        }
        if (!spec.key().byAddress()) {
            return Optional.of("Other keys on the address only: give --limit-key addr");
        }
        if (spec.rejectStatus() != 429) {
            return Optional.of("Other refuses with 429 only: give --reject-status 429");
        }
        return Optional.empty();
    }

    @Test
    void eachStepIsTakenForTheAdaptersOwnRefusalInItsOrder() {
        Edge other = new Refusing(EdgeProduct.DEFAULT.declared(), NearestTest::noCacheNoCookie429);
        StackSwitches given = new StackSwitches().limitKey(LimitKey.parse("cookie:session")).rejectStatus(503);
        Nearest nearest = Nearest.of(other, given, new StackPorts()).orElseThrow();
        // A step is taken only when it changes the refusal: the cache's line comes first, and only --no-cache answers it.
        assertThat(nearest.changes()).containsExactly(
                new Nearest.Change("--no-cache", "Other has no cache: give --no-cache"),
                new Nearest.Change("--limit-key addr", "Other keys on the address only: give --limit-key addr"),
                new Nearest.Change("--reject-status 429", "Other refuses with 429 only: give --reject-status 429"));
        assertThat(nearest.switches().cache()).isFalse();
        assertThat(nearest.switches().rejectStatus()).isEqualTo(429);
        // The user's switches are theirs: the nearest is a copy.
        assertThat(given.cache()).isTrue();
        assertThat(given.rejectStatus()).isEqualTo(503);
    }

    @Test
    void aRefusalNoStepAnswersLeavesNoNearestConfig() {
        Edge never = new Refusing(EdgeProduct.DEFAULT.declared(), spec -> Optional.of("Other runs nothing"));
        assertThat(Nearest.of(never, new StackSwitches(), new StackPorts())).isEmpty();
    }

    @Test
    void aProductThatRunsTheSwitchesTakesThemAsTheyAre() {
        Nearest nearest = Nearest.of(EdgeProduct.DEFAULT.declared(), new StackSwitches(), new StackPorts()).orElseThrow();
        assertThat(nearest.changes()).isEmpty();
    }
}
