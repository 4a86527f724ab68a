package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.nginx.AddressCeiling;
import dev.ratecache.suite.nginx.MissingKey;
import dev.ratecache.suite.nginx.NginxSwitches;
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
 * key kind with a ceiling or none, a 401 for a missing key, an allow-list, --limit-conn, --freshness, --tiers.
 */
@StackTest
class VarnishConfigCheckTest {

    @Test
    void everyRenderedConfigPassesVarnishdC() throws Exception {
        Path tiers = VarnishRenderTest.tiersFile(getClass(), "tiers", "free 5 10 nodelay free-1,free-2",
                "pro 50 100 nodelay pro+1/=,p.r~o:2@x");
        Path anonymousLine = VarnishRenderTest.tiersFile(getClass(), "anonymous-line", "free 5 10 nodelay free-1",
                "anonymous 2 0 nodelay");
        // Each switch alone away from the default, as HaproxyConfigCheckTest does, and each distinct
        // file once: a compile runs the C compiler, about a second on a busy machine.
        List<NginxSwitches> all = List.of(HaproxyRenderTest.nodelay(),
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
                // --limit-conn beside the rate limit, and alone.
                HaproxyRenderTest.nodelay().limitConn(50),
                HaproxyRenderTest.nodelay().frontLimit(false).limitConn(2),
                // --freshness, at the back.
                HaproxyRenderTest.nodelay().freshness("/hare", 3).freshness("/a%20b{c}", 60),
                // --tiers, with the file's own anonymous line and without, beside an allow-list.
                HaproxyRenderTest.keyed("header:X-Api-Key").tiers(tiers).allow(List.of("127.0.9.0/24")),
                HaproxyRenderTest.keyed("arg:key").tiers(anonymousLine));
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
        // Thirteen fronts (default, no limit, no cache, neither, 503, purge ranges, the three keyed, the two
        // --limit-conn, the two tiered) and five backs (default, no limit, 503, two origins, --freshness).
        assertThat(checked).hasSize(18);
    }
}
