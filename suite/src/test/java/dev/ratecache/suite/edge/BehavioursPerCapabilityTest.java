package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Repo;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each edge's stack test runs the behaviours of exactly the capabilities its edge declares: a
 * capability added without its tests, or tests of one the product lacks, fail here, before any
 * stack starts. What a product lacks has its own tests in its class (what it answers instead)
 * and in its refusal test (what the spec may not ask of it).
 */
class BehavioursPerCapabilityTest {
    private static final Map<Capability, Class<?>> BEHAVIOURS = Map.of(
            Capability.STALE_WHILE_REVALIDATE, EdgeStale.class,
            Capability.STALE_IF_ERROR, EdgeStale.class,
            Capability.CACHE_LOCK, EdgeCoalescing.class,
            Capability.PURGE, EdgePurge.class);

    static Stream<Arguments> edges() {
        return Stream.of(
                Arguments.of("haproxy", new HaproxyEdge(Repo.haproxyTemplates()), HaproxyEdgeTest.class),
                Arguments.of("varnish", new VarnishEdge(Repo.varnishTemplates()), VarnishEdgeTest.class),
                Arguments.of("envoy", EnvoyRenderTest.edge(), EnvoyEdgeTest.class));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("edges")
    void theStackTestRunsTheBehavioursOfEachCapabilityItsEdgeDeclaresAndNoOther(String name, Edge edge,
            Class<?> stackTest) {
        BEHAVIOURS.forEach((capability, behaviours) -> assertThat(behaviours.isAssignableFrom(stackTest))
                .as("%s runs %s exactly when %s declares %s", stackTest.getSimpleName(), behaviours.getSimpleName(),
                        name, capability)
                .isEqualTo(edge.capabilities().contains(capability)));
    }

    /**
     * Every edge runs the freshness rules, and the invalidation rules but Envoy's: its cache filter
     * does not invalidate on writes, which EnvoyEdgeTest asserts instead.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("edges")
    void everyEdgeRunsTheFreshnessAndInvalidationRules(String name, Edge edge, Class<?> stackTest) {
        assertThat(stackTest).isAssignableTo(EdgeFreshness.class);
        assertThat(EdgeInvalidation.class.isAssignableFrom(stackTest)).isEqualTo(!name.equals("envoy"));
    }
}
