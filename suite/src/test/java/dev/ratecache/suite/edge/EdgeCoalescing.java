package dev.ratecache.suite.edge;

import static dev.ratecache.suite.edge.EdgeStack.cacheStatus;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.stack.Stacks;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * An edge with a cache lock or request coalescing (capability CACHE_LOCK): misses of one object
 * while it is being fetched wait for that one fetch. slow takes 1.5 s at the origin. An edge
 * without it has its own test that each miss reaches the origin. nginx's edge: stack/EdgeCacheTest.
 */
interface EdgeCoalescing extends EdgeStack {

    /** {@code requests} GETs of {@code url} at once. */
    private List<Http.Raw> atOnce(int requests, String url) throws Exception {
        return EdgeBehaviours.atOnce(IntStream.range(0, requests)
                .mapToObj(i -> (Callable<Http.Raw>) () -> get(url)).toList());
    }

    /** A request that waited for another's fetch reached no origin: a HIT. */
    @Test
    default void missesOfOneObjectAtOnceReachTheOriginOnce() throws Exception {
        List<Http.Raw> answers = atOnce(3, Stacks.fresh("slow"));

        assertThat(answers).allSatisfy(a -> assertThat(a.status()).isEqualTo(200));
        assertThat(answers.stream().map(EdgeStack::cacheStatus)).containsExactlyInAnyOrder("MISS", "HIT", "HIT");
        assertThat(reached("slow")).isEqualTo(1);
    }
}
