package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.model.LimitSpec;
import dev.ratecache.model.TraefikRateLimitSpec;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.spec.Balance;
import dev.ratecache.suite.spec.FleetLimit;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.AddressCeiling;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The two Traefik tiers as rendered from a spec: plain YAML files, the spec's numbers in Traefik's terms. */
class TraefikRenderTest {
    /** Given, not chosen free: rendering binds no port. */
    static StackPorts ports() {
        // A fleet's edges, then their status ports: given, as --edge-ports gives them, so that rendering binds none.
        return new StackPorts().front(10_080).origin(10_081, 10_082)
                .edgePorts(List.of(10_101, 10_102, 10_103, 10_201, 10_202, 10_203));
    }

    /** What Traefik runs of the default switches: no cache, both limits nodelay. */
    static StackSwitches runnable() {
        return new StackSwitches().frontMode(LimitMode.NODELAY).backMode(LimitMode.NODELAY).cache(false);
    }

    static TraefikEdge edge() {
        return new TraefikEdge(Repo.root().resolve("traefik"));
    }

    private List<Path> render(StackSwitches switches) throws IOException {
        return edge().render(switches.spec(ports()), TestDirs.fresh(getClass(), "render"));
    }

    private String file(StackSwitches switches, int index) throws IOException {
        return Files.readString(render(switches).get(index));
    }

    @Test
    void rendersAStaticAndADynamicFilePerTierNamingItsTemplate() throws IOException {
        List<Path> files = render(runnable());

        assertThat(files).extracting(f -> f.getParent().getFileName() + "/" + f.getFileName())
                .containsExactly("front/traefik.yml", "front/dynamic.yml", "back/traefik.yml", "back/dynamic.yml");
        for (Path f : files) {
            String text = Files.readString(f);
            assertThat(text).startsWith("# Rendered from the template traefik/" + f.getParent().getFileName() + "/"
                    + f.getFileName()).doesNotContain("This file is a template").doesNotContain("{{")
                    .doesNotContain("}}");
        }
        // Each static file names its own dynamic file and access log, by absolute path.
        assertThat(Files.readString(files.get(0))).contains("filename: \"" + files.get(1).toAbsolutePath() + "\"")
                .contains("front-access.log\"");
        assertThat(Files.readString(files.get(2))).contains("filename: \"" + files.get(3).toAbsolutePath() + "\"")
                .contains("back-access.log\"");
    }

    @Test
    void eachTierListensOnItsPortWithItsStatusOnTheLoopback() throws IOException {
        StackSpec spec = runnable().spec(ports());
        List<Path> files = edge().render(spec, TestDirs.fresh(getClass(), "ports"));

        assertThat(Files.readString(files.get(0))).contains("address: \"" + spec.ports().listen() + ":10080\"")
                .contains("address: \"127.0.0.1:" + spec.ports().frontStatus() + "\"")
                .doesNotContain("forwardedHeaders");
        assertThat(Files.readString(files.get(2))).contains("address: \"127.0.0.1:" + spec.ports().back() + "\"")
                .contains("address: \"127.0.0.1:" + spec.ports().backStatus() + "\"")
                .contains("trustedIPs: [\"127.0.0.1/32\"]");
        for (int dynamic : List.of(1, 3)) {
            assertThat(Files.readString(files.get(dynamic))).contains("""
                        status:
                          entryPoints: [status]
                          rule: "PathPrefix(`/api`)"
                          service: api@internal
                    """);
        }
    }

    @Test
    void theFrontLimitIsAverageRPerSecondAndABucketOfBurstPlusOneByTheAddress() throws IOException {
        String front = file(runnable().frontRate(100).frontBurst(200), 1);

        assertThat(front).contains("""
                    limited-by-address:
                      entryPoints: [web]
                      rule: "PathPrefix(`/`)"
                      priority: 100
                      middlewares: [per-client]
                      service: back-tier
                """).contains("""
                      rateLimit:
                        average: 100
                        period: 1s
                        burst: 201
                        sourceCriterion:
                """).contains("ipStrategy:\n            depth: 0")
                .contains("- url: \"http://127.0.0.1:9080\"");
    }

    @Test
    void aFleetIsNginxsBalancerInFrontOfAnEdgeEachTrustingItsForwardedAddress() throws IOException {
        StackSpec spec = runnable().edges(3).fleetLimit(FleetLimit.PER_EDGE).spec(ports());
        // Each edge answers its readiness and API on a status port of its own, after the edges' ports.
        List<Path> files = edge().render(spec, TestDirs.fresh(getClass(), "fleet"));

        assertThat(files).extracting(f -> f.getParent().getFileName() + "/" + f.getFileName()).containsExactly(
                "balancer/edge-balancer.conf", "front-1/traefik.yml", "front-1/dynamic.yml", "front-2/traefik.yml",
                "front-2/dynamic.yml", "front-3/traefik.yml", "front-3/dynamic.yml", "back/traefik.yml",
                "back/dynamic.yml");
        List<Integer> edgePorts = spec.ports().edgePorts(3);
        for (int i = 0; i < 3; i++) {
            assertThat(Files.readString(files.get(1 + 2 * i))).contains("address: \"127.0.0.1:" + edgePorts.get(i) + "\"")
                    .contains("address: \"127.0.0.1:" + (10_201 + i) + "\"")
                    .contains("trustedIPs: [\"127.0.0.1/32\"]").contains("front-" + (i + 1) + "-access.log\"");
            // Each edge its own bucket at the full rate, by the address the balancer forwards.
            assertThat(Files.readString(files.get(2 + 2 * i))).contains("average: 100\n        period: 1s\n        burst: 201")
                    .contains("ipStrategy:\n            depth: 1").doesNotContain("redis:");
            assertThat(Files.readString(files.get(0))).contains("server 127.0.0.1:" + edgePorts.get(i) + ";");
        }
    }

    @Test
    void aSharedFleetLimitKeepsEachEdgesBucketsInTheFleetsRedis() throws IOException {
        String edge = file(runnable().edges(2).fleetLimit(FleetLimit.SHARED).fleetRedis("127.0.0.1:16379"), 2);

        assertThat(edge).contains("burst: 201\n").contains("""
                        redis:
                          endpoints: ["127.0.0.1:16379"]
                        sourceCriterion:
                """);
    }

    @Test
    void aSplitFleetLimitGivesEachEdgeTheRateOverNSecondsAndTheBurstOverN() throws IOException {
        String edge = file(runnable().frontRate(100).frontBurst(200).edges(3).fleetLimit(FleetLimit.SPLIT), 2);

        // 100 per 3 s is 33.3 r/s exactly; 200/3 rounds down to 66, and the bucket holds one more.
        assertThat(edge).contains("average: 100\n        period: 3s\n        burst: 67").doesNotContain("redis:");
    }

    @Test
    void tlsIsTheWebEntryPointsWithTheCertificateInForceAsTheDefaultOne() throws IOException {
        Path dir = TestDirs.fresh(getClass(), "tls");
        Path certificate = Files.writeString(dir.resolve("edge.crt"), "certificate");
        Path key = Files.writeString(dir.resolve("edge.key"), "key");
        List<Path> files = edge().render(runnable().tls(true).tlsFiles(certificate, key).spec(ports()), dir.resolve("t"));

        assertThat(Files.readString(files.get(0))).contains("opt-http-tls\n      tls: {}")
                .doesNotContain("http-redirect");
        assertThat(Files.readString(files.get(1))).contains("certFile: \"" + certificate.toAbsolutePath() + "\"")
                .contains("keyFile: \"" + key.toAbsolutePath() + "\"").contains("minVersion: VersionTLS12")
                .contains("alpnProtocols: [h2, http/1.1]").doesNotContain("stsSeconds");
        // The back tier stays in cleartext on the loopback.
        assertThat(Files.readString(files.get(2))).doesNotContain("tls: {}");
        assertThat(Files.readString(files.get(3))).doesNotContain("certFile");
    }

    @Test
    void hstsIsFirstInEveryChainAndTheCleartextPortRedirectsToTheTlsOne() throws IOException {
        Path dir = TestDirs.fresh(getClass(), "tls-options");
        Path certificate = Files.writeString(dir.resolve("edge.crt"), "certificate");
        List<Path> files = edge().render(runnable().tls(true).tlsFiles(certificate, certificate).http2(false).hsts(true)
                .httpPort(10_079).spec(ports()), dir.resolve("t"));

        assertThat(Files.readString(files.get(0))).contains("""
                  http-redirect:
                    address: "127.0.0.1:10079"
                """).contains("to: web\n          scheme: https\n          permanent: true");
        assertThat(Files.readString(files.get(1))).contains("alpnProtocols: [http/1.1]")
                .contains("stsSeconds: 31536000").contains("middlewares: [hsts, per-client]");
    }

    @Test
    void theBackLimitCountsEveryRequestAsOneSource() throws IOException {
        String back = file(runnable().backRate(10).backBurst(50), 3);

        assertThat(back).contains("limited-origin:").contains("middlewares: [one-source, origin-limit]")
                .contains("X-Ratecache-Origin-Limit: \"origin\"")
                .contains("average: 10\n        period: 1s\n        burst: 51")
                .contains("requestHeaderName: \"X-Ratecache-Origin-Limit\"")
                .contains("strategy: wrr")
                .contains("- url: \"http://127.0.0.1:10081\"");
    }

    @Test
    void withoutLimitsEachTierOnlyForwards() throws IOException {
        List<Path> files = render(runnable().frontLimit(false).backLimit(false));

        assertThat(Files.readString(files.get(1))).contains("unlimited:").contains("middlewares: []")
                .doesNotContain("rateLimit").doesNotContain("limited-");
        assertThat(Files.readString(files.get(3))).contains("origin:").contains("middlewares: []")
                .doesNotContain("rateLimit").doesNotContain("limited-");
    }

    @Test
    void aKeyInAHeaderHasItsOwnRouterWithTheCeilingBesideIt() throws IOException {
        String front = file(runnable().frontRate(5).frontBurst(9).limitKey(LimitKey.parse("header:X-Api-Key"))
                .addressCeiling(AddressCeiling.parse("50,99")), 1);

        assertThat(front).contains("limited-by-key:")
                .contains("rule: 'HeaderRegexp(`X-Api-Key`, `^[^\\x00-\\x1f\\x7f]{1,256}$`)'")
                .contains("middlewares: [address-ceiling, per-key]")
                .contains("requestHeaderName: \"X-Api-Key\"")
                .contains("average: 50\n        period: 1s\n        burst: 100")
                // A request without a valid key is limited by its address, as nginx's edge does by default.
                .contains("limited-by-address:").contains("middlewares: [per-client]");
    }

    @Test
    void eachTierHasARouterForItsKeysAboveTheKeysOneAndAnyOtherKeyIsAnonymousAtTheFrontsLimit() throws IOException {
        Path dir = TestDirs.fresh(getClass(), "tiers");
        Path tiers = Files.write(dir.resolve("tiers.txt"), List.of("pro 10 20 nodelay pro.1,pro+2", "free 2 3 nodelay free-1"));
        String front = file(runnable().frontRate(1).frontBurst(4).limitKey(LimitKey.parse("header:X-Api-Key"))
                .tiers(tiers), 1);

        assertThat(front).contains("""
                    limited-tier-pro:
                      entryPoints: [web]
                      rule: 'HeaderRegexp(`X-Api-Key`, `^(pro\\.1|pro\\+2)$`)'
                      priority: 250
                      middlewares: [address-ceiling, tier-pro]
                """).contains("limited-tier-free:").contains("""
                    tier-pro:
                """).contains("average: 10\n        period: 1s\n        burst: 21")
                .contains("average: 2\n        period: 1s\n        burst: 4")
                // A valid key no tier lists: the key's own router, at the front's limit (anonymous).
                .contains("middlewares: [address-ceiling, per-key]").contains("average: 1\n        period: 1s\n        burst: 5");
    }

    @Test
    void aKeyIsALiteralInGosRegexp() {
        assertThat(TraefikEdge.literal("a.b+c(d)|e$")).isEqualTo("a\\.b\\+c\\(d\\)\\|e\\$");
        assertThat(TraefikEdge.literal("plain-key_1")).isEqualTo("plain-key_1");
    }

    @Test
    void allowedNetworksSkipThePerClientLimitOnARouterOfTheirOwn() throws IOException {
        String front = file(runnable().allow(List.of("127.0.9.0/24", "10.0.0.0/8")), 1);

        assertThat(front).contains("unlimited-allowed:")
                .contains("rule: 'ClientIP(`127.0.9.0/24`) || ClientIP(`10.0.0.0/8`)'")
                .contains("priority: 300");
    }

    @Test
    void requestsAtOnceAreInFlightRequestsByAddress() throws IOException {
        String front = file(runnable().limitConn(3), 1);

        assertThat(front).contains("inFlightReq:\n        amount: 3").contains("middlewares: [conn-limit, per-client]");
    }

    @Test
    void leastConnIsPowerOfTwoChoices() throws IOException {
        assertThat(file(runnable().balance(Balance.LEAST_CONN), 3)).contains("strategy: p2c");
    }

    @Test
    void timeoutsAndKeepaliveComeFromTheSpec() throws IOException {
        String front = file(runnable().clientTimeout(7).readTimeout(33).keepalive(16), 0);

        assertThat(front).contains("readTimeout: \"7s\"").contains("responseHeaderTimeout: \"33s\"")
                .contains("maxIdleConnsPerHost: 16");
    }

    @ParameterizedTest(name = "rate {0} burst {1}")
    @CsvSource({"100, 200", "10, 50", "1, 4", "3, 0", "7, 13", "1000, 1", "333, 999"})
    void theModelsBucketIsTheOneRendered(int rate, int burst) {
        TraefikEdge.Bucket rendered = TraefikEdge.Bucket.of(new StackSpec.Limit(rate, burst, StackSpec.Mode.NODELAY, 0));
        TraefikRateLimitSpec modelled = (TraefikRateLimitSpec) LimitSpec.traefik(rate, burst, 429);

        assertThat(modelled.average()).isEqualTo(rendered.average());
        assertThat(modelled.periodMs()).isEqualTo(1000);
        assertThat(modelled.burst()).isEqualTo(rendered.tokens());
        assertThat(edge().limiterModel(rate, burst, LimitMode.NODELAY, 429)).isEqualTo(modelled);
    }

    @Test
    void anOriginsUrlNamesItsPortEvenWhenItSaidNone() throws IOException {
        String back = file(runnable().origins(List.of(URI.create("http://127.0.0.1:10081/"))), 3);

        assertThat(back).contains("- url: \"http://127.0.0.1:10081\"");
    }
}
