package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The two HAProxy tiers as rendered from a spec: plain files, the spec's numbers in HAProxy's terms. */
class HaproxyRenderTest {
    /** Given, not chosen free: rendering binds no port. */
    static StackPorts ports() {
        return new StackPorts().front(10_080).origin(10_081, 10_082);
    }

    static StackSwitches nodelay() {
        return new StackSwitches().frontMode(LimitMode.NODELAY).backMode(LimitMode.NODELAY);
    }

    private String front(StackSwitches switches) throws IOException {
        return Files.readString(render(switches).get(0));
    }

    private String back(StackSwitches switches) throws IOException {
        return Files.readString(render(switches).get(1));
    }

    private List<Path> render(StackSwitches switches) throws IOException {
        return new HaproxyEdge(Repo.haproxyTemplates())
                .render(switches.spec(ports()), TestDirs.fresh(getClass(), "render"));
    }

    @Test
    void rendersOnePlainFilePerTierNamingItsTemplate() throws IOException {
        List<Path> files = render(nodelay());

        assertThat(files).extracting(f -> f.getFileName().toString()).containsExactly("front.cfg", "back.cfg");
        for (Path f : files) {
            String text = Files.readString(f);
            assertThat(text).startsWith("# Rendered from the template haproxy/" + f.getFileName())
                    .doesNotContain("This file is a template")
                    .doesNotContain("{{").doesNotContain("}}");
        }
    }

    @Test
    void frontLimitIsBurstPlusOneOverTheTimeTheRateTakesToRefillIt() throws IOException {
        // 100 r/s, burst 200: 201 requests over 2.01 s.
        String front = front(nodelay().frontRate(100).frontBurst(200));

        assertThat(front).contains("stick-table type ip size 1m expire 4020ms store http_req_rate(2010ms)")
                .contains("http-request track-sc0 src")
                .contains("if { sc_http_req_rate(0) gt 201 }");
    }

    @Test
    void rejectionCarriesTheRejectStatusAndRetryAfter() throws IOException {
        String front = front(nodelay().rejectStatus(503).retryAfter(7));

        assertThat(front).contains("http-request deny deny_status 503 hdr Retry-After 7 if");
    }

    @Test
    void limitComesBeforeTheCacheSoHitsCountToo() throws IOException {
        String front = front(nodelay());

        assertThat(front.indexOf("http-request deny")).isPositive().isLessThan(front.indexOf("http-request cache-use"));
    }

    @Test
    void cacheVariesAndSizesInMegabytesAndSkipsAuthorizationAndCookies() throws IOException {
        String front = front(nodelay().cacheSize("2g"));

        assertThat(front).contains("cache edge").contains("total-max-size 2048").contains("process-vary on")
                .contains("max-age 86400")
                .contains("if METH_GET { req.hdr(authorization) -m found } || METH_GET { req.hdr(cookie) -m found }")
                .contains("http-request cache-use edge unless { var(txn.private) -m bool }")
                .contains("http-response cache-store edge unless { var(txn.private) -m bool } || METH_GET !lifetime"
                        + " || METH_GET sets_cookie")
                .contains("set-var(txn.cache) str(HIT) if { res.cache_hit }")
                .contains("http-response set-header X-Cache-Status %[var(txn.cache)]");
    }

    @Test
    void eachTierLogsAJsonLinePerRequestKeyedByTheClientsAddress() throws IOException {
        String front = front(nodelay());
        String back = back(nodelay());

        assertThat(List.of(front, back)).allSatisfy(tier -> assertThat(tier)
                .contains("log stdout len 65535 format raw local0")
                .contains("log-format '{\"accept_ms\":%Ts%ms,")
                .contains("\"key\":\"%[var(txn.key)]\"")
                .contains("http-after-response set-var(txn.length) res.hdr(content-length)"));
        assertThat(front).contains("http-request set-var(txn.key) src");
        // Only the front reaches the back; what it appended last is the client's address.
        assertThat(back).contains("http-request set-var(txn.key) req.hdr(x-forwarded-for,-1)");
    }

    @Test
    void theLimitDecidesOnceForTheDenyAndTheLog() throws IOException {
        String front = front(nodelay().frontRate(100).frontBurst(200));

        assertThat(front).contains("http-request set-var(txn.limit) str(PASSED)\n"
                + "  http-request set-var(txn.limit) str(REJECTED) if { sc_http_req_rate(0) gt 201 }")
                .contains("hdr Retry-After 1 if { var(txn.limit) -m str REJECTED }");
    }

    @Test
    void withoutCacheOrLimitTheFrontOnlyPasses() throws IOException {
        String front = front(nodelay().cache(false).frontLimit(false));

        assertThat(front).doesNotContain("cache edge").doesNotContain("cache-use").doesNotContain("stick-table")
                .doesNotContain("X-Cache-Status")
                .contains("server back 127.0.0.1:9080");
    }

    @Test
    void backLimitsEveryRequestOnOneConstantKey() throws IOException {
        // 10 r/s, burst 50: 51 requests over 5.1 s, for all clients together.
        String back = back(nodelay().backRate(10).backBurst(50));

        assertThat(back).contains("stick-table type string len 8 size 1 expire 10200ms store http_req_rate(5100ms)")
                .contains("http-request track-sc0 str(origin)")
                .contains("if { sc_http_req_rate(0) gt 51 }")
                .doesNotContain("track-sc0 src");
    }

    @Test
    void backSpreadsOverEveryOrigin() throws IOException {
        String back = back(nodelay().origins(List.of(URI.create("http://127.0.0.1:18081"),
                URI.create("http://10.0.0.2:18082"))));

        assertThat(back).contains("balance roundrobin").contains("server origin1 127.0.0.1:18081")
                .contains("server origin2 10.0.0.2:18082");
    }

    @Test
    void withoutOriginsTheBackProxiesTheSuitesOwn() throws IOException {
        assertThat(back(nodelay())).contains("server origin1 127.0.0.1:10081").contains("bind 127.0.0.1:9080");
    }

    static StackSwitches keyed(String key) {
        return nodelay().frontRate(1).frontBurst(4).limitKey(LimitKey.parse(key));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "header:X-Api-Key | http-request set-var(txn.limit_key) req.fhdr(X-Api-Key,1)",
        "cookie:api_key   | http-request set-var(txn.limit_key) req.cook(api_key)",
        "arg:key          | http-request set-var(txn.limit_key) url_param(key)"})
    void aKeyedLimitCountsTheValidKeyElseTheAddress(String key, String read) throws IOException {
        String front = front(keyed(key));

        assertThat(front).contains("stick-table type string len 257 size 1m expire 10000ms store http_req_rate(5000ms)")
                .contains(read + "\n")
                .contains("http-request track-sc0 str(k),concat(,txn.limit_key) if limit_key_valid\n")
                .contains("http-request track-sc0 src if !limit_key_valid\n")
                .doesNotContain("http-request return status 401");
    }

    @Test
    void aValidKeyIsAtMost256BytesWithoutControlCharactersAsNginxsEdgeHasIt() throws IOException {
        assertThat(front(keyed("header:X-Api-Key")))
                .contains("acl limit_key_valid var(txn.limit_key) -m reg '^[^\\x00-\\x1f\\x7f]{1,256}$'");
        assertThat(front(keyed("arg:key"))).contains("acl limit_key_valid var(txn.limit_key) -m reg"
                + " '^(?!.*%([01][0-9A-Fa-f]|7[Ff]))[^\\x00-\\x1f\\x7f]{1,256}$'");
    }

    @Test
    void missingKeyRejectAnswers401WithOneLineBeforeAnyLimitCounts() throws IOException {
        String front = front(keyed("header:X-Api-Key").missingKey(MissingKey.REJECT));

        assertThat(front).contains("http-request return status 401 content-type \"text/plain\" string \"401 Unauthorized:"
                        + " send a valid API key in the header X-Api-Key (at most 256 bytes, no control characters)\\n\""
                        + " hdr WWW-Authenticate 'ApiKey header=\"X-Api-Key\"' if !limit_key_valid")
                .doesNotContain("track-sc0 src");
        assertThat(front.indexOf("status 401")).isLessThan(front.indexOf("track-sc0"));
    }

    @Test
    void theAddressCeilingIsASecondTableOnTheAddressWithItsOwnWindow() throws IOException {
        // auto: ten times the front's 1 r/s, burst 4, so rate 10, burst 40: 41 over 4.1 s.
        String auto = front(keyed("header:X-Api-Key"));
        String set = front(keyed("header:X-Api-Key").addressCeiling(AddressCeiling.parse("3,5")));

        assertThat(auto).contains("backend address_ceiling\n"
                        + "  stick-table type ip size 1m expire 8200ms store http_req_rate(4100ms)")
                .contains("http-request track-sc1 src table address_ceiling\n")
                .contains("http-request set-var(txn.limit) str(REJECTED) if { sc_http_req_rate(1) gt 41 }");
        // 3 r/s, burst 5: 6 over 2 s.
        assertThat(set).contains("store http_req_rate(2000ms)").contains("if { sc_http_req_rate(1) gt 6 }");
        assertThat(front(keyed("header:X-Api-Key").addressCeiling(AddressCeiling.OFF)))
                .doesNotContain("address_ceiling").doesNotContain("sc_http_req_rate(1)");
        assertThat(front(nodelay())).doesNotContain("address_ceiling");
    }

    @Test
    void anAllowedNetworkIsNeitherCountedNorCeiledAndHasNoOutcome() throws IOException {
        String byAddress = front(nodelay().allow(List.of("127.0.9.0/24", "10.0.0.0/8")));
        String byKey = front(keyed("header:X-Api-Key").allow(List.of("127.0.9.0/24")));

        assertThat(byAddress).contains("acl limit_exempt src 127.0.9.0/24 10.0.0.0/8\n")
                .contains("http-request track-sc0 src if !limit_exempt\n")
                .contains("http-request set-var(txn.limit) str(PASSED) if !limit_exempt\n");
        assertThat(byKey).contains("track-sc0 str(k),concat(,txn.limit_key) if limit_key_valid !limit_exempt\n")
                .contains("track-sc0 src if !limit_key_valid !limit_exempt\n")
                .contains("track-sc1 src table address_ceiling if !limit_exempt\n");
    }

    @Test
    void theLogKeepsTheAddressWhenTheLimitIsKeyedAsNginxsDoes() throws IOException {
        assertThat(front(keyed("header:X-Api-Key"))).contains("http-request set-var(txn.key) src\n")
                .doesNotContain("set-var(txn.key) req.");
    }

    /** --tls with a certificate and key of the test's own: their text is all rendering reads. */
    private static StackSwitches tls(Path dir) throws IOException {
        Path certificate = Files.writeString(dir.resolve("cert.pem"), "-----BEGIN CERTIFICATE-----\nleaf\n-----END CERTIFICATE-----\n");
        Path key = Files.writeString(dir.resolve("key.pem"), "-----BEGIN PRIVATE KEY-----\nkey\n-----END PRIVATE KEY-----\n");
        return nodelay().tls(true).tlsFiles(certificate, key);
    }

    @Test
    void tlsBindsTheFrontWithOneOwnerOnlyPemOfCertificateThenKeyAndOffersHttp2() throws IOException {
        Path dir = TestDirs.fresh(getClass(), "tls");
        List<Path> files = new HaproxyEdge(Repo.haproxyTemplates()).render(tls(dir).spec(ports()), dir.resolve("haproxy"));
        String front = Files.readString(files.get(0));
        Path pem = dir.resolve("haproxy/tls/haproxy.pem");

        assertThat(front).contains("  bind 127.0.0.1:10080 ssl crt " + pem.toAbsolutePath() + " alpn h2,http/1.1\n")
                .contains("ssl-default-bind-options ssl-min-ver TLSv1.2 prefer-client-ciphers no-tls-tickets")
                .doesNotContain("Strict-Transport-Security").doesNotContain("https_redirect");
        assertThat(Files.readString(pem)).isEqualTo("-----BEGIN CERTIFICATE-----\nleaf\n-----END CERTIFICATE-----\n"
                + "-----BEGIN PRIVATE KEY-----\nkey\n-----END PRIVATE KEY-----\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(pem))).isEqualTo("rw-------");
        // The back tier stays cleartext on the loopback.
        assertThat(Files.readString(files.get(1))).doesNotContain("ssl");
    }

    @Test
    void noHttp2OffersNoAlpnAndHstsAndTheHttpPortAreRenderedWhenAsked() throws IOException {
        Path dir = TestDirs.fresh(getClass(), "tls-options");
        String front = Files.readString(new HaproxyEdge(Repo.haproxyTemplates())
                .render(tls(dir).http2(false).hsts(true).httpPort(10_079).spec(ports()), dir.resolve("haproxy")).get(0));

        assertThat(front).containsPattern("bind 127\\.0\\.0\\.1:10080 ssl crt \\S+haproxy\\.pem\n")
                .contains("http-after-response set-header Strict-Transport-Security \"max-age=31536000\"")
                .contains("frontend https_redirect\n  bind 127.0.0.1:10079\n"
                        + "  http-request redirect location https://%[req.hdr(host),host_only]:10080%[capture.req.uri] code 301");
    }

    @Test
    void aCertificateFileHoldingItsKeyIsWrittenOnce() throws IOException {
        Path dir = TestDirs.fresh(getClass(), "tls-one-file");
        Path both = Files.writeString(dir.resolve("both.pem"), "CERT\nKEY\n");
        new HaproxyEdge(Repo.haproxyTemplates()).render(nodelay().tls(true).tlsFiles(both, both).spec(ports()), dir);

        assertThat(Files.readString(dir.resolve("tls/haproxy.pem"))).isEqualTo("CERT\nKEY\n");
    }

    @Test
    void tlsWithoutACertificateYetIsNotRendered() {
        assertThatThrownBy(() -> render(nodelay().tls(true))).isInstanceOf(IOException.class)
                .hasMessageContaining("--tls has no certificate yet");
    }

    @Test
    void limitConnCountsRequestsInFlightPerAddressAfterTheRateLimitAndBeforeTheCache() throws IOException {
        String front = front(nodelay().limitConn(3).rejectStatus(503).retryAfter(7));

        assertThat(front).contains("backend conn_limit\n  stick-table type ip size 1m expire 10s store conn_cur\n")
                .contains("  http-request track-sc2 src table conn_limit\n"
                        + "  http-request deny deny_status 503 hdr Retry-After 7 if { sc_conn_cur(2) gt 3 }\n");
        assertThat(front.indexOf("track-sc2")).isGreaterThan(front.lastIndexOf("sc_http_req_rate(0)"))
                .isLessThan(front.indexOf("http-request cache-use"));
        // Its rejections are no rate limit's: the log's limit outcome stays the rate limit's, as nginx's limit_req_status.
        assertThat(front).doesNotContain("set-var(txn.limit) str(REJECTED) if { sc_conn_cur");
        assertThat(front(nodelay())).doesNotContain("conn_limit").doesNotContain("sc_conn_cur");
    }

    @Test
    void freshnessIsGivenAtTheBackOnlyWhereTheOriginSaysNothingFromAMapOfLowercasedPaths() throws IOException {
        Path dir = TestDirs.fresh(getClass(), "freshness");
        List<Path> files = new HaproxyEdge(Repo.haproxyTemplates())
                .render(nodelay().freshness("/hare", 3).freshness("/Snail", 60).spec(ports()), dir);
        String back = Files.readString(files.get(1));
        Path map = dir.resolve("freshness.map");

        assertThat(Files.readAllLines(map)).filteredOn(l -> !l.startsWith("#")).containsExactly("/hare 3", "/snail 60");
        assertThat(back).contains("http-request set-var(txn.freshness) path,lower,map_str_int(" + map.toAbsolutePath() + ")\n")
                .contains("http-response set-var(txn.freshness_fallback) bool(true) if { var(txn.freshness) -m found }"
                        + " !{ res.hdr(cache-control) -m found } !{ res.hdr(expires) -m found }")
                .contains("http-response set-header Cache-Control \"max-age=%[var(txn.freshness)]\" if { var(txn.freshness_fallback) -m bool }")
                .contains("http-response set-header Expires \"%[date,add(txn.freshness),http_date]\" if { var(txn.freshness_fallback) -m bool }");
        assertThat(Files.readString(files.get(0))).doesNotContain("txn.freshness");
        assertThat(back(nodelay())).doesNotContain("txn.freshness");
    }

    /** --tiers with pro (10 r/s, burst 20: 21 over 2.1 s) and free, keyed by a header, front 1 r/s burst 4. */
    static StackSwitches tiered(Path dir, String... extraLines) throws IOException {
        List<String> lines = new java.util.ArrayList<>(List.of("pro 10 20 nodelay pro-1,pro-2", "free 2 3 nodelay free-1"));
        lines.addAll(List.of(extraLines));
        return keyed("header:X-Api-Key").tiers(Files.write(dir.resolve("tiers.txt"), lines));
    }

    @Test
    void eachTierOfKeysHasItsOwnTableAndThresholdAndEveryOtherKeyIsAnonymousAtTheFrontsLimit() throws IOException {
        Path dir = TestDirs.fresh(getClass(), "tiers");
        String front = Files.readString(new HaproxyEdge(Repo.haproxyTemplates())
                .render(tiered(dir).spec(ports()), dir.resolve("haproxy")).get(0));
        Path map = dir.resolve("haproxy/tiers.map");

        assertThat(Files.readAllLines(map)).filteredOn(l -> !l.startsWith("#"))
                .containsExactly("pro-1 pro", "pro-2 pro", "free-1 free");
        assertThat(front).contains("http-request set-var(txn.limit_tier) str(anonymous)\n"
                        + "  http-request set-var(txn.limit_tier) var(txn.limit_key),map_str(" + map.toAbsolutePath()
                        + ",anonymous) if limit_key_valid\n")
                .contains("backend limit_tier_pro\n"
                        + "  stick-table type string len 257 size 1m expire 4200ms store http_req_rate(2100ms)\n")
                .contains("backend limit_tier_free\n"
                        + "  stick-table type string len 257 size 1m expire 4000ms store http_req_rate(2000ms)\n")
                .contains("http-request track-sc0 str(k),concat(,txn.limit_key) table limit_tier_pro if limit_key_valid"
                        + " { var(txn.limit_tier) -m str pro }\n")
                .contains("http-request track-sc0 str(k),concat(,txn.limit_key) if limit_key_valid"
                        + " { var(txn.limit_tier) -m str anonymous }\n")
                .contains("http-request track-sc0 src if !limit_key_valid\n")
                .contains("if { sc_http_req_rate(0) gt 21 } { var(txn.limit_tier) -m str pro }\n")
                .contains("if { sc_http_req_rate(0) gt 4 } { var(txn.limit_tier) -m str free }\n")
                // The front's 1 r/s, burst 4, in the frontend's own table, and the address ceiling beside
                // (auto: ten times the largest tier's, pro's, so 100 r/s, burst 200).
                .contains("if { sc_http_req_rate(0) gt 5 } { var(txn.limit_tier) -m str anonymous }\n")
                .contains("  stick-table type string len 257 size 1m expire 10000ms store http_req_rate(5000ms)\n")
                .contains("if { sc_http_req_rate(1) gt 201 }");
    }

    @Test
    void anAnonymousTierInTheFileReplacesTheFrontsLimit() throws IOException {
        Path dir = TestDirs.fresh(getClass(), "tiers-anonymous");
        String front = Files.readString(new HaproxyEdge(Repo.haproxyTemplates())
                .render(tiered(dir, "anonymous 3 8 nodelay").spec(ports()), dir.resolve("haproxy")).get(0));

        // 3 r/s, burst 8: 9 over 3 s, in the frontend's own table.
        assertThat(front).contains("or the address.\n"
                        + "  stick-table type string len 257 size 1m expire 6000ms store http_req_rate(3000ms)\n")
                .doesNotContain("limit_tier_anonymous")
                .contains("if { sc_http_req_rate(0) gt 9 } { var(txn.limit_tier) -m str anonymous }\n");
    }

    @Test
    void limitScopeMissesCountsEachClientAtTheBackOnTheKeyAndAddressTheFrontPasses() throws IOException {
        Path dir = TestDirs.fresh(getClass(), "misses");
        List<Path> files = new HaproxyEdge(Repo.haproxyTemplates()).render(tiered(dir)
                .limitScope(LimitScope.MISSES).allow(List.of("127.0.9.0/24")).spec(ports()), dir.resolve("haproxy"));
        String front = Files.readString(files.get(0));
        String back = Files.readString(files.get(1));

        // The front reads and checks the key, passes it on, and counts nothing.
        assertThat(front).contains("http-request set-var(txn.limit_key) req.fhdr(X-Api-Key,1)\n")
                .contains("  http-request del-header X-Limit-Key\n"
                        + "  http-request set-header X-Limit-Key %[var(txn.limit_key)] if limit_key_valid\n")
                .doesNotContain("track-sc").doesNotContain("stick-table").doesNotContain("set-var(txn.limit)");
        assertThat(back).contains("  acl from_front src 127.0.0.1\n"
                        + "  http-request set-var(txn.client) src\n"
                        + "  http-request set-var(txn.client) req.hdr_ip(x-forwarded-for,-1) if from_front"
                        + " { req.hdr(x-forwarded-for) -m found }\n")
                .contains("http-request set-var(txn.limit_key) req.fhdr(x-limit-key,1) if from_front\n")
                .contains("acl limit_exempt var(txn.client) -m ip 127.0.9.0/24\n")
                .contains("track-sc0 str(k),concat(,txn.limit_key) table limit_tier_pro if limit_key_valid"
                        + " { var(txn.limit_tier) -m str pro } !limit_exempt\n")
                .contains("track-sc0 str(k),concat(,txn.limit_key) table per_client if limit_key_valid"
                        + " { var(txn.limit_tier) -m str anonymous } !limit_exempt\n")
                .contains("http-request track-sc0 var(txn.client) table per_client if !limit_key_valid !limit_exempt\n")
                .contains("http-request track-sc1 var(txn.client) table address_ceiling if !limit_exempt\n")
                .contains("backend per_client\n")
                .contains("backend limit_tier_pro\n").contains("backend address_ceiling\n")
                // The origin's limit keeps the frontend's own table, as sc2, after the client's.
                .contains("http-request track-sc2 str(origin)\n").contains("if { sc_http_req_rate(2) gt 51 }");
        assertThat(back.indexOf("track-sc0")).isLessThan(back.indexOf("track-sc2"));
    }

    @Test
    void withLimitScopeMissesAMissingKeyIsStill401AtTheFrontAndAnAddressIsCountedAtTheBack() throws IOException {
        StackSwitches keyed = keyed("header:X-Api-Key").missingKey(MissingKey.REJECT).limitScope(LimitScope.MISSES);
        StackSwitches byAddress = nodelay().frontRate(1).frontBurst(4).limitScope(LimitScope.MISSES);

        assertThat(front(keyed)).contains("http-request return status 401");
        assertThat(back(keyed)).doesNotContain("return status 401")
                .doesNotContain("track-sc0 var(txn.client) table per_client if !limit_key_valid");
        assertThat(front(byAddress)).doesNotContain("X-Limit-Key").doesNotContain("track-sc");
        assertThat(back(byAddress)).contains("backend per_client\n"
                        + "  stick-table type ip size 1m expire 10000ms store http_req_rate(5000ms)\n")
                .contains("http-request track-sc0 var(txn.client) table per_client\n")
                .contains("if { sc_http_req_rate(0) gt 5 }");
    }
}
