package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.suite.switches.AddressCeiling;
import dev.ratecache.suite.switches.LimitKey;
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
 * {@code envoy --mode validate} accepts both tiers' configs, without a warning of its config, whatever
 * shapes them: each tier's limit on or off, the cache on or off, the rejection status and
 * Retry-After, one origin or two, a key in a header with a ceiling or none, an allow-list, the
 * per-client limit at the back (--limit-scope misses), --freshness. (--tls: EnvoySwitchesTest starts it.)
 */
@StackTest
@LongTest
class EnvoyConfigCheckTest {

    private Path tiersFile() throws java.io.IOException {
        return java.nio.file.Files.write(TestDirs.fresh(getClass(), "tiers-file").resolve("tiers.txt"),
                List.of("pro 10 20 nodelay pro.1,pro+2/x=", "anonymous 2 3 nodelay"));
    }

    @Test
    void everyRenderedConfigPassesEnvoysValidateMode() throws Exception {
        List<URI> twoOrigins = List.of(URI.create("http://127.0.0.1:18081"), URI.create("http://127.0.0.1:18082"));
        List<StackSwitches> all = List.of(EnvoyRenderTest.nodelay(),
                EnvoyRenderTest.nodelay().frontLimit(false),
                EnvoyRenderTest.nodelay().backLimit(false),
                EnvoyRenderTest.nodelay().cache(false),
                EnvoyRenderTest.nodelay().frontLimit(false).backLimit(false).cache(false),
                EnvoyRenderTest.nodelay().rejectStatus(503).retryAfter(30),
                EnvoyRenderTest.nodelay().origins(twoOrigins),
                EnvoyRenderTest.nodelay().limitKey(LimitKey.parse("header:X-Api-Key"))
                        .allow(List.of("127.0.9.0/24", "::1/128")),
                EnvoyRenderTest.nodelay().limitKey(LimitKey.parse("header:X-Api-Key")).addressCeiling(AddressCeiling.OFF),
                EnvoyRenderTest.nodelay().limitKey(LimitKey.parse("header:X-Api-Key"))
                        .limitScope(dev.ratecache.suite.spec.LimitScope.MISSES),
                EnvoyRenderTest.nodelay().limitScope(dev.ratecache.suite.spec.LimitScope.MISSES).backLimit(false),
                EnvoyRenderTest.nodelay().freshness("/bare", 60).freshness("/Other", 5),
                EnvoyRenderTest.nodelay().limitKey(LimitKey.parse("header:X-Api-Key")).tiers(tiersFile()));
        EnvoyEdge edge = EnvoyRenderTest.edge();
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (int i = 0; i < all.size(); i++) {
            Path dir = TestDirs.fresh(getClass(), "combination-" + i);
            for (Path file : edge.render(all.get(i).spec(EnvoyRenderTest.ports()), dir)) {
                List<String> command = new ArrayList<>(EnvoyEdge.command(file));
                command.addAll(List.of("--mode", "validate"));
                ManagedProcess.Outcome check = ManagedProcess.run(command, Duration.ofSeconds(60));
                // A deprecated or ignored field is a warning of the config logger: it fails too.
                if (check.exitCode() != 0 || check.text().contains("][warning][config]")) {
                    failures.add(file + ": " + check.text().strip());
                }
                checked++;
            }
        }
        assertThat(failures).isEmpty();
        assertThat(checked).isEqualTo(2 * all.size());
    }
}
