package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.switches.AddressCeiling;
import dev.ratecache.suite.switches.MissingKey;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code varnishd -C} compiles both tiers' VCL, whatever shapes it: each tier's limit on or off,
 * the cache on or off, the rejection status and Retry-After, purge ranges, one origin or two, each
 * key kind with a ceiling or none, a 401 for a missing key, an allow-list, --limit-conn, --freshness, --tiers,
 * --limit-scope misses.
 */
@StackTest
@LongTest
class VarnishConfigCheckTest {

    @Test
    void everyRenderedConfigPassesVarnishdC() throws Exception {
        Path tiers = VarnishRenderTest.tiersFile(getClass(), "tiers", "free 5 10 nodelay free-1,free-2",
                "pro 50 100 nodelay pro+1/=,p.r~o:2@x");
        // Each switch alone away from the default, as HaproxyConfigCheckTest does, and each distinct
        // file once: a compile runs the C compiler, about a second on a busy machine.
        List<StackSwitches> all = List.of(HaproxyRenderTest.nodelay(),
                HaproxyRenderTest.nodelay().frontLimit(false),
                HaproxyRenderTest.nodelay().backLimit(false),
                HaproxyRenderTest.nodelay().cache(false),
                HaproxyRenderTest.nodelay().frontLimit(false).backLimit(false).cache(false),
                HaproxyRenderTest.nodelay().rejectStatus(503).retryAfter(30),
                HaproxyRenderTest.nodelay().purgeAllow(List.of("10.0.0.0/8", "::1", "192.168.1.7")),
                HaproxyRenderTest.nodelay().origins(List.of(URI.create("http://127.0.0.1:18081"),
                        URI.create("http://127.0.0.1:18082"))),
                // Each key kind once, with what stands beside a key: the ceiling, the 401, the allow-list.
                HaproxyRenderTest.keyed("header:X-Api-Key").allow(List.of("127.0.9.0/24", "::1/128")),
                HaproxyRenderTest.keyed("cookie:api_key").missingKey(MissingKey.REJECT),
                HaproxyRenderTest.keyed("arg:key").addressCeiling(AddressCeiling.OFF),
                // The switches only nginx rendered at first, several to a combination where they touch different files:
                // --limit-conn beside the rate limit (the front) with --freshness (the back); --tiers with an
                // allow-list at the front, and behind it with --limit-scope misses (then the edge reads and
                // passes the key); by address, misses without the origin's limit (the back).
                HaproxyRenderTest.nodelay().limitConn(50).freshness("/hare", 3).freshness("/a%20b{c}", 60),
                HaproxyRenderTest.keyed("header:X-Api-Key").tiers(tiers).allow(List.of("127.0.9.0/24")),
                HaproxyRenderTest.keyed("header:X-Api-Key").tiers(tiers).allow(List.of("127.0.9.0/24"))
                        .limitScope(LimitScope.MISSES),
                HaproxyRenderTest.nodelay().limitScope(LimitScope.MISSES).backLimit(false));
        VarnishEdge edge = new VarnishEdge(Repo.varnishTemplates());
        List<String> failures = new ArrayList<>();
        Set<String> checked = new HashSet<>();
        for (int i = 0; i < all.size(); i++) {
            Path dir = TestDirs.fresh(getClass(), "combination-" + i);
            for (Path file : edge.render(all.get(i).spec(HaproxyRenderTest.ports()), dir)) {
                if (!checked.add(Files.readString(file))) {
                    continue;
                }
                ManagedProcess.Outcome check = ManagedProcess.run(
                        List.of(VarnishEdge.binary(), "-C", "-f", file.toString()), Duration.ofSeconds(60));
                if (check.exitCode() != 0) {
                    // -C prints the whole generated C on success; VCC's complaint is at the end.
                    String text = check.text().strip();
                    failures.add(file + ": " + text.substring(Math.max(0, text.length() - 2000)));
                }
            }
        }
        assertThat(failures).isEmpty();
        // Twelve fronts (default, no limit, no cache, neither, 503, purge ranges, the three keyed,
        // --limit-conn, --tiers, passing the key for misses; by address, misses leaves the front as without a
        // limit) and seven
        // backs (default, no limit, 503, two origins, --freshness, the two misses).
        assertThat(checked).hasSize(19);
    }
}
