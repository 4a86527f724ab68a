package dev.ratecache.suite.nginx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.spec.Balance;
import dev.ratecache.suite.spec.EdgeBalance;
import dev.ratecache.suite.spec.FleetLimit;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.spec.Quota;
import dev.ratecache.suite.spec.TlsFiles;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * gixy (gixy-ng from PyPI, installed by ./run-tests.sh test into .tools/) finds nothing in the
 * rendered configs: with the defaults, with every optional part on, with everything off, with two
 * edges sharded behind the balancer, and for every identity combination that nginx -t checks
 * (EveryCombinationPassesNginxTest). gixy takes a second or so to start: each test renders its
 * configs into one folder tree and lints them all in one run.
 */
@StackTest
@LongTest
public class GixyLintTest {

    static Path gixy() {
        String configured = System.getProperty("gixy.bin");
        Path bin = configured != null ? Path.of(configured) : Repo.root().resolve(".tools/gixy/bin/gixy");
        assertThat(bin).as("gixy is not installed: ./run-tests.sh test installs gixy-ng into .tools/gixy").isExecutable();
        return bin;
    }

    @Test
    void renderedConfigsHaveNoGixyFindings() throws Exception {
        dev.ratecache.suite.spec.TlsFiles tls = dev.ratecache.suite.nginx.ThrowawayCa.write(
                TestDirs.fresh(getClass(), "tls"), List.of());
        Path quotaTiers = TestDirs.fresh(getClass(), "quota-tiers").resolve("tiers.txt");
        Files.writeString(quotaTiers, "gold 10 20 nodelay quota=100/h gold-1\nfree 1 2 queue quota=none free-1\n");
        Map<String, StackSwitches> variants = Map.of(
                "defaults", new StackSwitches(),
                // TLS where clients connect, with HSTS and the cleartext port's redirect: alone, and at the balancer.
                "tls", new StackSwitches().tls(true).hsts(true).httpPort(18080).throwawayTls(tls),
                "tls-edges", new StackSwitches().tls(true).hsts(true).http2(false).httpPort(18080).edges(2).throwawayTls(tls),
                "everything-on", new StackSwitches().limitConn(50).rejectStatus(503)
                        .frontMode(LimitMode.parse("delay=50")).backMode(LimitMode.NODELAY)
                        .freshness("/hare", 3).balance(Balance.LEAST_CONN)
                        .origins(List.of(URI.create("http://127.0.0.1:18081"), URI.create("http://127.0.0.1:18082"))),
                "everything-off", new StackSwitches().frontLimit(false).backLimit(false).cache(false),
                // Two edges behind the balancer: the edges with real-ip, the balancer with the URI hash.
                "edges", new StackSwitches().edges(2).edgeBalance(EdgeBalance.URI_HASH),
                // The fleet's limit: the balancer's client hash by key, and the edges' Lua and Redis with tiers.
                "fleet-client-hash", new StackSwitches().edges(3).fleetLimit(FleetLimit.CLIENT_HASH)
                        .limitKey(LimitKey.parse("header:X-Api-Key")),
                "fleet-shared", new StackSwitches().edges(3).fleetLimit(FleetLimit.SHARED).frontRate(10).frontBurst(5)
                        .limitKey(LimitKey.parse("header:X-Api-Key")).allow(List.of("10.0.0.0/8")),
                // Quotas per tier at the edge, and behind it with --limit-scope misses (the edge hiding the back's RateLimit).
                "quota-tiers", new StackSwitches().quota("1000/d", Quota.Window.SLIDING)
                        .limitKey(LimitKey.parse("header:X-Api-Key")).tiers(quotaTiers),
                "quota-misses", new StackSwitches().quota("1000/d", Quota.Window.FIXED).limitScope(LimitScope.MISSES)
                        .limitKey(LimitKey.parse("header:X-Api-Key")).tiers(quotaTiers));
        Rendered rendered = new Rendered(TestDirs.fresh(getClass(), "variants"));
        for (var variant : variants.entrySet()) {
            for (Tier tier : Tier.values()) {
                rendered.add(variant.getKey() + "-" + tier.id(), tier, variant.getValue());
            }
        }
        // The balancer's config does not change with the front and back ends' switches, nor the back end's with TLS,
        // nor with a quota counted at the edge (quota-tiers' back end is the defaults').
        assertThat(rendered.distinct()).hasSizeGreaterThanOrEqualTo(2 * variants.size() - 1);
        lint(rendered.distinct());
    }

    @Test
    void tlsWithoutHstsHasNoOtherGixyFinding() throws Exception {
        Rendered rendered = new Rendered(TestDirs.fresh(getClass(), "tls-without-hsts"));
        StackSwitches s = new StackSwitches().tls(true)
                .throwawayTls(ThrowawayCa.write(TestDirs.fresh(getClass(), "tls-without-hsts-ca"), List.of()));
        rendered.add("front", Tier.FRONT, s);
        rendered.add("balancer", Tier.BALANCER, s.copy().edges(2));
        // gixy asks for HSTS wherever TLS is on; the suite sends it only with --hsts, since a browser that
        // sees it from a throwaway certificate refuses the host for a year (snippets/shared/hsts.conf).
        lint(rendered.distinct(), "hsts_header");
    }

    @Test
    void everyIdentityCombinationHasNoGixyFindings() throws Exception {
        Path tiers = EveryCombinationPassesNginxTest.tiersFile(TestDirs.fresh(getClass(), "tiers-file"));
        List<StackSwitches> all = EveryCombinationPassesNginxTest.identityCombinations(tiers);
        Rendered rendered = new Rendered(TestDirs.fresh(getClass(), "identity"));
        for (int i = 0; i < all.size(); i++) {
            for (Tier tier : List.of(Tier.FRONT, Tier.BACK)) {
                rendered.add(i + "-" + tier.id(), tier, all.get(i));
            }
        }
        // The back end ignores the key switches unless it counts the misses: many configs are alike.
        assertThat(rendered.distinct()).hasSizeBetween(all.size(), 2 * all.size());
        lint(rendered.distinct());
    }

    /**
     * Configs rendered under one folder, each tier in a folder of its own, keeping only those whose
     * directives differ from every earlier one's (the comments, which name the switches, set aside).
     */
    private static final class Rendered {
        private final Path root;
        private final StackPorts ports = portsWithout443();
        private final Map<String, Path> byDirectives = new LinkedHashMap<>();

        Rendered(Path root) {
            this.root = root;
        }

        /**
         * Free ports none of which has "443" in it: gixy-ng's weak_ssl_tls check takes any listen
         * with 443 in its arguments for a TLS server (plugins/weak_ssl_tls.py), so a status server
         * on, say, 14430 got "missing ssl_protocols" now and then.
         */
        private static StackPorts portsWithout443() {
            StackPorts ports = StackPorts.free();
            while (String.join(" ", ports.flags()).contains("443")) {
                ports = StackPorts.free();
            }
            return ports;
        }

        void add(String name, Tier tier, StackSwitches switches) throws IOException {
            Path dir = root.resolve(name);
            Path conf = new NginxRenderer(Repo.nginxTemplates()).render(tier, switches.spec(ports), dir);
            StringBuilder directives = new StringBuilder();
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                    directives.append("== ").append(dir.relativize(f)).append('\n');
                    Files.readAllLines(f, StandardCharsets.UTF_8).stream().filter(l -> !l.strip().startsWith("#"))
                            .forEach(l -> directives.append(l).append('\n'));
                }
            }
            byDirectives.putIfAbsent(directives.toString(), conf);
        }

        List<Path> distinct() {
            return List.copyOf(byDirectives.values());
        }
    }

    /** One gixy run over {@code confs}: no finding in any, and gixy says it looked at each. */
    public static void lint(List<Path> confs, String... skips) throws Exception {
        List<String> command = new ArrayList<>(List.of(gixy().toString()));
        if (skips.length > 0) {
            command.addAll(List.of("--skips", String.join(",", skips)));
        }
        confs.forEach(c -> command.add(c.toString()));
        ManagedProcess.Outcome gixy = ManagedProcess.run(command, Duration.ofMinutes(10));
        String report = gixy.text();
        assertThat(report).as(report).contains("Total issues:").doesNotContain("Problem:");
        for (Path conf : confs) {
            assertThat(report).as("gixy's report names " + conf).contains("File path: " + conf + "\n");
        }
        assertThat(gixy.exitCode()).as(report).isZero();
    }
}
