package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Repo;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.AddressCeiling;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.MissingKey;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The two Envoy tiers as rendered from a spec: plain files, the spec's numbers in Envoy's terms, and its refusals. */
class EnvoyRenderTest {
    /** Given, not chosen free: rendering binds no port. */
    static StackPorts ports() {
        return new StackPorts().front(10_080).origin(10_081, 10_082);
    }

    static StackSwitches nodelay() {
        return new StackSwitches().frontMode(LimitMode.NODELAY).backMode(LimitMode.NODELAY);
    }

    static EnvoyEdge edge() {
        return new EnvoyEdge(Repo.root().resolve("envoy"));
    }

    private List<Path> render(StackSwitches switches) throws IOException {
        return edge().render(switches.spec(ports()), TestDirs.fresh(getClass(), "render"));
    }

    private String front(StackSwitches switches) throws IOException {
        return Files.readString(render(switches).get(0));
    }

    private String back(StackSwitches switches) throws IOException {
        return Files.readString(render(switches).get(1));
    }

    @Test
    void rendersOnePlainFilePerTierNamingItsTemplate() throws IOException {
        List<Path> files = render(nodelay());

        assertThat(files).extracting(f -> f.getFileName().toString()).containsExactly("front.yaml", "back.yaml");
        for (Path f : files) {
            assertThat(Files.readString(f)).startsWith("# Rendered from the template envoy/" + f.getFileName())
                    .doesNotContain("This file is a template").doesNotContainPattern("\\{\\{[#/^>]?\\s*\\w");
        }
    }

    @Test
    void theFrontLimitIsBurstPlusOneTokensRefilledAtTheRatePerAddress() throws IOException {
        String front = front(nodelay().frontRate(100).frontBurst(200));

        assertThat(front).contains("- remote_address: {}")
                .contains("- entries: [{key: remote_address}]\n"
                        + "                token_bucket: {max_tokens: 201, tokens_per_fill: 100, fill_interval: 1s}")
                .contains("max_dynamic_descriptors: " + EnvoyEdge.MAX_CLIENTS)
                .contains("always_consume_default_token_bucket: false")
                .contains("status: {code: 429}")
                .contains("header: {key: Retry-After, value: \"1\"}");
    }

    @Test
    void aKeyInAHeaderHasItsOwnBucketAndTheAddressACeiling() throws IOException {
        String front = front(nodelay().frontRate(1).frontBurst(4).limitKey(LimitKey.parse("header:X-Api-Key"))
                .addressCeiling(AddressCeiling.parse("10,40")));

        assertThat(front).contains("request_headers: {header_name: \"X-Api-Key\", descriptor_key: key}")
                .contains("headers: [{name: \"X-Api-Key\", present_match: true, invert_match: true}]")
                .contains("- entries: [{key: key}]\n"
                        + "                token_bucket: {max_tokens: 5, tokens_per_fill: 1, fill_interval: 1s}")
                .contains("- entries: [{key: ceiling, value: \"yes\"}, {key: remote_address}]\n"
                        + "                token_bucket: {max_tokens: 41, tokens_per_fill: 10, fill_interval: 1s}");
    }

    @Test
    void theBackHoldsOneBucketForTheOriginAndSpreadsOverEveryOrigin() throws IOException {
        String back = back(nodelay().backRate(10).backBurst(50)
                .origins(List.of(URI.create("http://127.0.0.1:18081"), URI.create("http://127.0.0.2:18082"))));

        assertThat(back).contains("token_bucket: {max_tokens: 51, tokens_per_fill: 10, fill_interval: 1s}")
                .contains("socket_address: {address: 127.0.0.1, port_value: 18081}")
                .contains("socket_address: {address: 127.0.0.2, port_value: 18082}")
                .doesNotContain("- entries:");
    }

    @Test
    void withoutLimitsOrCacheNeitherFilterIsRendered() throws IOException {
        StackSwitches bare = nodelay().frontLimit(false).backLimit(false).cache(false);

        assertThat(front(bare)).doesNotContain("local_ratelimit").doesNotContain("envoy.filters.http.cache")
                .contains("limited: \"off\"");
        assertThat(back(bare)).doesNotContain("local_ratelimit").contains("limited: \"off\"");
    }

    @Test
    void anAllowedNetworkHasAFilterChainWithoutTheLimit() throws IOException {
        String front = front(nodelay().allow(List.of("127.0.12.0/24", "10.1.2.3")));

        assertThat(front).contains("- name: allowed\n      filter_chain_match:")
                .contains("- {address_prefix: \"127.0.12.0\", prefix_len: 24}")
                .contains("- {address_prefix: \"10.1.2.3\", prefix_len: 32}")
                .contains("- name: clients");
        assertThat(front.split("envoy.filters.http.local_ratelimit", -1)).hasSize(2);
    }

    @Test
    void withLimitScopeMissesThePerClientLimitCountsAtTheBackByTheAddressTheFrontPassed() throws IOException {
        StackSwitches misses = nodelay().limitKey(LimitKey.parse("header:X-Api-Key")).limitScope(LimitScope.MISSES);
        String front = front(misses);
        String back = back(misses);

        // The front only caches and names the client; the back counts what reached it, the client first.
        assertThat(front).doesNotContain("local_ratelimit").contains("limited: \"off\"")
                .contains("key: x-ratecache-client, value: \"%DOWNSTREAM_REMOTE_ADDRESS_WITHOUT_PORT%\"");
        assertThat(back).contains("stat_prefix: client_limit").contains("limited: \"on\"")
                .contains("- request_headers: {header_name: x-ratecache-client, descriptor_key: remote_address}")
                .contains("- request_headers: {header_name: \"X-Api-Key\", descriptor_key: key}")
                .contains("enable_x_ratelimit_headers: \"OFF\"").doesNotContain("remote_address: {}");
        assertThat(back.indexOf("stat_prefix: client_limit")).isLessThan(back.indexOf("stat_prefix: origin_limit"));
        assertThat(front(nodelay())).contains("enable_x_ratelimit_headers: \"DRAFT_VERSION_03\"")
                .contains("- remote_address: {}");
    }

    @Test
    void tlsTerminatesAtTheFrontWithTheCertificateInForceAndOffersHttp2() throws IOException {
        Path dir = TestDirs.fresh(getClass(), "tls");
        Path certificate = Files.writeString(dir.resolve("edge.crt"), "certificate");
        Path key = Files.writeString(dir.resolve("edge.key"), "key");
        String front = front(nodelay().tls(true).tlsFiles(certificate, key));

        assertThat(front).contains("name: envoy.transport_sockets.tls")
                .contains("certificate_chain: {filename: \"" + certificate.toAbsolutePath() + "\"}")
                .contains("private_key: {filename: \"" + key.toAbsolutePath() + "\"}")
                .contains("tls_minimum_protocol_version: TLSv1_2").contains("alpn_protocols: [h2, http/1.1]")
                .contains("disable_stateless_session_resumption: true")
                .doesNotContain("Strict-Transport-Security").doesNotContain("https_redirect");
        assertThat(front(nodelay())).doesNotContain("transport_socket");
    }

    @Test
    void hstsOnEveryAnswerAndTheCleartextPortRedirectsToTheTlsOne() throws IOException {
        Path dir = TestDirs.fresh(getClass(), "tls-options");
        Path certificate = Files.writeString(dir.resolve("edge.crt"), "certificate");
        String front = front(nodelay().tls(true).tlsFiles(certificate, certificate).http2(false).hsts(true)
                .httpPort(10_079));

        assertThat(front).contains("alpn_protocols: [http/1.1]")
                .contains("header: {key: Strict-Transport-Security, value: \"max-age=31536000\"}")
                .contains("socket_address: {address: 127.0.0.1, port_value: 10079}")
                .contains("redirect: {https_redirect: true, port_redirect: " + ports().front()
                        + ", response_code: MOVED_PERMANENTLY}");
    }

    @Test
    void freshnessIsARouteAtTheBackGivingMaxAgeToAnAnswerWithoutALifetime() throws IOException {
        String back = back(nodelay().freshness("/bare", 60));

        assertThat(back).contains("""
                              - match:
                                  path: "/bare"
                                  case_sensitive: false
                """).contains("'max-age=60'").contains("append_action: ADD_IF_ABSENT")
                .contains("!('expires' in response.headers)");
        assertThat(back.indexOf("path: \"/bare\"")).isLessThan(back.indexOf("match: {prefix: \"/\"}"));
        assertThat(back(nodelay())).doesNotContain("case_sensitive");
    }

    @Test
    void eachTiersKeyHasADescriptorOfItsValueAtTheTiersNumbersAndAnyOtherKeyTheAnonymousTiers() throws IOException {
        Path dir = TestDirs.fresh(getClass(), "tiers");
        Path tiers = Files.write(dir.resolve("tiers.txt"), List.of("pro 10 20 nodelay pro.1,pro-2", "anonymous 2 3 nodelay"));
        String front = front(nodelay().limitKey(LimitKey.parse("header:X-Api-Key")).tiers(tiers));

        assertThat(front).contains("""
                              - entries: [{key: key}]
                                token_bucket: {max_tokens: 4, tokens_per_fill: 2, fill_interval: 1s}
                """).contains("""
                              - entries: [{key: key, value: "pro.1"}]
                                token_bucket: {max_tokens: 21, tokens_per_fill: 10, fill_interval: 1s}
                """).contains("- entries: [{key: key, value: \"pro-2\"}]");
    }

    @Test
    void aTierThatQueuesIsRefusedInOneLine() throws IOException {
        Path tiers = Files.write(TestDirs.fresh(getClass(), "tiers-queue").resolve("tiers.txt"),
                List.of("pro 10 20 queue pro-1"));

        assertThat(edge().refusal(nodelay().limitKey(LimitKey.parse("header:X-Api-Key")).tiers(tiers).spec(ports())))
                .hasValue("Envoy's local rate limit rejects and never queues or delays (--tiers: pro queue): give each"
                        + " tier nodelay in the tiers file, or use --edge nginx");
    }

    @Test
    void theCacheGoesPastRequestsWithCredentialsAndNamesItsOutcome() throws IOException {
        String front = front(nodelay());

        assertThat(front).contains("headers: [{name: authorization, present_match: true}]")
                .contains("headers: [{name: cookie, present_match: true}]")
                .contains("disabled: true")
                .contains("SimpleHttpCacheConfig")
                .contains("key: x-cache-status").contains("? 'HIT' :");
    }

    @Test
    void eachTiersAdminInterfaceIsOnItsStatusPortOnTheLoopback() throws IOException {
        StackPorts ports = ports();
        List<Path> files = edge().render(nodelay().spec(ports), TestDirs.fresh(getClass(), "admin"));

        assertThat(Files.readString(files.get(0)))
                .contains("socket_address: {address: 127.0.0.1, port_value: " + ports.frontStatus() + "}");
        assertThat(Files.readString(files.get(1)))
                .contains("socket_address: {address: 127.0.0.1, port_value: " + ports.backStatus() + "}");
    }

    @Test
    void whatEnvoyCannotDoIsRefusedInOneLine() {
        Map<StackSwitches, String> refused = Map.of(
                new StackSwitches(), "Envoy's local rate limit rejects and never queues or delays",
                nodelay().stale(dev.ratecache.suite.switches.StaleMode.PROTECTIVE), "Envoy's cache filter serves nothing stale",
                nodelay().edges(2), "Envoy cannot hold one per-client limit across --edges 2",
                nodelay().limitKey(LimitKey.parse("cookie:session")), "not a cookie's",
                nodelay().limitKey(LimitKey.parse("arg:key")), "--limit-key arg: is not in Envoy's adapter yet",
                nodelay().limitKey(LimitKey.parse("header:X-Api-Key")).missingKey(MissingKey.REJECT),
                "--missing-key reject is not in Envoy's adapter yet",
                nodelay().limitConn(5), "Envoy has no limit on one client's requests in flight",
                nodelay().limitScope(LimitScope.MISSES).allow(List.of("127.0.12.0/24")),
                "--allow with --limit-scope misses is not in Envoy's adapter yet");
        refused.forEach((switches, words) -> assertThat(edge().refusal(switches.spec(ports())))
                .hasValueSatisfying(line -> assertThat(line).contains(words).doesNotContain("\n")));
        assertThat(edge().refusal(nodelay().limitKey(LimitKey.parse("header:X-Api-Key")).spec(ports()))).isEmpty();
    }

    @Test
    void theAdminCountersAreReadPerTier() {
        String stats = "http.admin.downstream_rq_total: 7\nhttp.back.downstream_rq_total: 12\n"
                + "http.front.downstream_rq_total: 30\n";

        assertThat(EnvoyEdge.total(stats, "front")).isEqualTo(OptionalLong.of(30));
        assertThat(EnvoyEdge.total(stats, "back")).isEqualTo(OptionalLong.of(12));
        assertThat(EnvoyEdge.total("", "front")).isEmpty();
    }

    @Test
    void theModelIsTheRenderedBucket() {
        assertThat(edge().limiterModel(100, 200, LimitMode.NODELAY, 429))
                .isEqualTo(new dev.ratecache.model.EnvoyTokenBucketSpec(201, 100, 1000, EnvoyEdge.MAX_CLIENTS, 429));
    }
}
