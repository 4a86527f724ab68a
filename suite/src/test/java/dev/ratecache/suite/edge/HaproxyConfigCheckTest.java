package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.nginx.ThrowawayCa;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.spec.TlsFiles;
import dev.ratecache.suite.switches.AddressCeiling;
import dev.ratecache.suite.switches.MissingKey;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code haproxy -c -dW} accepts both tiers' configs, without a warning, whatever shapes them: each
 * tier's limit on or off, the cache on or off, the rejection status and Retry-After, one origin or two, each key kind
 * with a ceiling or none, a 401 for a missing key, an allow-list, TLS with and without HTTP/2, HSTS and the
 * cleartext port, --limit-conn, --freshness, --tiers, --limit-scope misses.
 */
@StackTest
@LongTest
class HaproxyConfigCheckTest {

    @Test
    void everyRenderedConfigPassesHaproxyC() throws Exception {
        // Each switch alone away from the default: each shapes its own lines, so their products add nothing
        // but seconds (a check costs about 0.2 s of CPU).
        TlsFiles ca = ThrowawayCa.write(TestDirs.fresh(getClass(), "ca"), List.of());
        List<URI> twoOrigins = List.of(URI.create("http://127.0.0.1:18081"), URI.create("http://127.0.0.1:18082"));
        List<StackSwitches> all = List.of(HaproxyRenderTest.nodelay(),
                HaproxyRenderTest.nodelay().frontLimit(false),
                HaproxyRenderTest.nodelay().backLimit(false),
                HaproxyRenderTest.nodelay().cache(false),
                HaproxyRenderTest.nodelay().frontLimit(false).backLimit(false).cache(false),
                HaproxyRenderTest.nodelay().rejectStatus(503).retryAfter(30),
                HaproxyRenderTest.nodelay().origins(twoOrigins),
                // Each key kind once, with what stands beside a key: the ceiling, the 401, the allow-list.
                HaproxyRenderTest.keyed("header:X-Api-Key").allow(List.of("127.0.9.0/24", "::1/128")),
                HaproxyRenderTest.keyed("cookie:api_key").missingKey(MissingKey.REJECT),
                HaproxyRenderTest.keyed("arg:key").addressCeiling(AddressCeiling.OFF),
                // TLS with everything that stands beside it, and without HTTP/2: HAProxy loads the PEM to check it.
                HaproxyRenderTest.nodelay().tls(true).tlsFiles(ca.certificate(), ca.key()).hsts(true).httpPort(10_079),
                HaproxyRenderTest.nodelay().tls(true).tlsFiles(ca.certificate(), ca.key()).http2(false),
                HaproxyRenderTest.nodelay().limitConn(3),
                HaproxyRenderTest.nodelay().freshness("/hare", 3).freshness("/snail", 60),
                HaproxyRenderTest.tiered(TestDirs.fresh(getClass(), "tiers"), "anonymous 3 8 nodelay"),
                // --limit-scope misses: by key with tiers, the allow-list and the 401; by address.
                HaproxyRenderTest.tiered(TestDirs.fresh(getClass(), "misses-tiers")).limitScope(LimitScope.MISSES)
                        .allow(List.of("127.0.9.0/24")).missingKey(MissingKey.REJECT),
                HaproxyRenderTest.nodelay().limitScope(LimitScope.MISSES));
        HaproxyEdge edge = new HaproxyEdge(Repo.haproxyTemplates());
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (int i = 0; i < all.size(); i++) {
            Path dir = TestDirs.fresh(getClass(), "combination-" + i);
            for (Path file : edge.render(all.get(i).spec(HaproxyRenderTest.ports()), dir)) {
                // -dW: a warning fails too; HAProxy only warns on, for one, "process-vary maybe" and ignores the line.
                ManagedProcess.Outcome check = ManagedProcess.run(
                        List.of(HaproxyEdge.binary(), "-c", "-dW", "-f", file.toString()), Duration.ofSeconds(30));
                if (check.exitCode() != 0) {
                    failures.add(file + ": " + check.text().strip());
                }
                checked++;
            }
        }
        assertThat(failures).isEmpty();
        assertThat(checked).isEqualTo(2 * all.size());
    }
}
