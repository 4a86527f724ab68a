package dev.ratecache.suite.nginx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.suite.Repo;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import dev.ratecache.suite.stack.StackPorts;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * gixy (gixy-ng from PyPI, installed by ./run-tests.sh test into .tools/) finds nothing in the
 * rendered configs: with the defaults, with every optional part on, with everything off, and
 * with two edges sharded behind the balancer.
 */
@StackTest
class GixyLintTest {

    static Path gixy() {
        String configured = System.getProperty("gixy.bin");
        Path bin = configured != null ? Path.of(configured) : Repo.root().resolve(".tools/gixy/bin/gixy");
        assertThat(bin).as("gixy is not installed: ./run-tests.sh test installs gixy-ng into .tools/gixy").isExecutable();
        return bin;
    }

    @Test
    void renderedConfigsHaveNoGixyFindings() throws Exception {
        Path tiers = EveryCombinationPassesNginxTest.tiersFile(TestDirs.fresh(getClass(), "tiers-file"));
        Map<String, NginxSwitches> variants = Map.of(
                // Limits by key: tiers, an allow-list, the 401 for a missing key, the policy headers.
                "keys", new NginxSwitches().limitKey(LimitKey.parse("header:X-Api-Key")).missingKey(MissingKey.REJECT)
                        .tiers(tiers).allow(List.of("10.0.0.0/8")),
                // The same behind the edge cache: the back end trusts the edge's key.
                "keys-misses", new NginxSwitches().limitKey(LimitKey.parse("arg:key")).tiers(tiers)
                        .addressCeiling(AddressCeiling.OFF).limitScope(LimitScope.MISSES),
                "defaults", new NginxSwitches(),
                "everything-on", new NginxSwitches().limitConn(50).rejectStatus(503)
                        .frontMode(LimitMode.parse("delay=50")).backMode(LimitMode.NODELAY)
                        .freshness("/hare", 3).balance(Balance.LEAST_CONN)
                        .origins(List.of(URI.create("http://127.0.0.1:18081"), URI.create("http://127.0.0.1:18082"))),
                "everything-off", new NginxSwitches().frontLimit(false).backLimit(false).cache(false),
                // Two edges behind the balancer: the edges with real-ip, the balancer with the URI hash.
                "edges", new NginxSwitches().edges(2).edgeBalance(EdgeBalance.URI_HASH));
        StackPorts ports = StackPorts.free();
        for (var variant : variants.entrySet()) {
            for (Tier tier : Tier.values()) {
                Path conf = new NginxRenderer(Repo.nginxTemplates()).render(tier, variant.getValue(), ports,
                        TestDirs.fresh(getClass(), variant.getKey() + "-" + tier.id()));
                ManagedProcess.Outcome gixy = ManagedProcess.run(List.of(gixy().toString(), conf.toString()),
                        Duration.ofSeconds(60));
                String report = gixy.text();
                assertThat(report).as(variant.getKey() + " " + tier.id() + ":\n" + report)
                        .contains("Total issues:")
                        .doesNotContain("Problem:");
                assertThat(gixy.exitCode()).as(report).isZero();
            }
        }
    }
}
