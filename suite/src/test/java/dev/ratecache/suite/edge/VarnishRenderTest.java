package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Repo;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.switches.AddressCeiling;
import dev.ratecache.suite.switches.MissingKey;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The two Varnish tiers as rendered from a spec: plain VCL files, the spec's numbers in Varnish's terms. */
class VarnishRenderTest {

    private String front(StackSwitches switches) throws IOException {
        return Files.readString(render(switches).get(0));
    }

    private String back(StackSwitches switches) throws IOException {
        return Files.readString(render(switches).get(1));
    }

    private List<Path> render(StackSwitches switches) throws IOException {
        return new VarnishEdge(Repo.varnishTemplates())
                .render(switches.spec(HaproxyRenderTest.ports()), TestDirs.fresh(getClass(), "render"));
    }

    @Test
    void rendersOnePlainFilePerTierNamingItsTemplate() throws IOException {
        List<Path> files = render(HaproxyRenderTest.nodelay());

        assertThat(files).extracting(f -> f.getFileName().toString()).containsExactly("front.vcl", "back.vcl");
        for (Path f : files) {
            String text = Files.readString(f);
            assertThat(text).startsWith("# Rendered from the template varnish/" + f.getFileName())
                    .contains("\nvcl 4.1;\n")
                    .doesNotContain("This file is a template")
                    .doesNotContain("{{").doesNotContain("}}");
        }
    }

    @Test
    void frontLimitIsBurstPlusOneTokensRefilledAtTheRate() throws IOException {
        // 100 r/s, burst 200: 201 tokens over 2.01 s.
        String front = front(HaproxyRenderTest.nodelay().frontRate(100).frontBurst(200));

        assertThat(front).contains("import vsthrottle;")
                .contains("if (vsthrottle.is_denied(client.identity, 201, 2010ms)) {")
                .contains("return (synth(429));");
    }

    @Test
    void rejectionCarriesTheRejectStatusAndRetryAfterOnlyWhenMarkedByTheLimit() throws IOException {
        String front = front(HaproxyRenderTest.nodelay().rejectStatus(503).retryAfter(7));

        assertThat(front).contains("return (synth(503));")
                .contains("if (req.http.X-Ratecache-Limited) {\n    set resp.http.Retry-After = \"7\";");
        // Varnish's built-in vcl_synth would overwrite it with 5, and add it to every synthetic answer.
        String synth = front.substring(front.indexOf("sub vcl_synth {"));
        assertThat(synth.substring(0, synth.indexOf("\n}\n"))).endsWith("return (deliver);");
        // A client cannot mark its own request.
        assertThat(front.indexOf("unset req.http.X-Ratecache-Limited;")).isPositive()
                .isLessThan(front.indexOf("set req.http.X-Ratecache-Limited = \"1\";"));
    }

    @Test
    void eachTierLogsTheClientsAddressAsTheKeyAndTheLimitsOutcome() throws IOException {
        String front = front(HaproxyRenderTest.nodelay());
        String back = back(HaproxyRenderTest.nodelay());

        // The front's key is the peer's address, which varnishncsa has of its own (%h): no VCL work on a HIT.
        assertThat(front).doesNotContain("std.log(\"key:\"");
        // Behind the front the last X-Forwarded-For value is the front's own address; the client's is the one before.
        assertThat(back).contains("std.log(\"key:\" + regsub(req.http.X-Forwarded-For,");
        // Logged before the limit, which may end vcl_recv.
        assertThat(back.indexOf("std.log(\"key:\"")).isPositive().isLessThan(back.indexOf("vsthrottle.is_denied"));
        assertThat(List.of(front, back)).allSatisfy(tier ->
            assertThat(tier).contains("    std.log(\"limit:REJECTED\");\n    return (synth(429));")
                    .contains("  std.log(\"limit:PASSED\");\n}"));
    }

    @Test
    void limitComesBeforeTheCacheSoHitsCountToo() throws IOException {
        String front = front(HaproxyRenderTest.nodelay());

        assertThat(front.indexOf("vsthrottle.is_denied")).isPositive()
                .isLessThan(front.indexOf("req.method == \"PURGE\""))
                .isLessThan(front.indexOf("req.http.Authorization || req.http.Cookie"));
    }

    @Test
    void cachePassesAuthorizationAndCookiesAndNamesEachOutcome() throws IOException {
        String front = front(HaproxyRenderTest.nodelay());

        assertThat(front).contains("if (req.http.Authorization || req.http.Cookie) {\n    return (pass);")
                .contains("  if (obj.hits > 0) {\n    if (obj.ttl > 0s) {\n      set resp.http.X-Cache-Status = \"HIT\";\n"
                        + "    } else {\n      set resp.http.X-Cache-Status = \"STALE\";")
                .contains("} else if (req.http.Authorization || req.http.Cookie) {\n"
                        + "    set resp.http.X-Cache-Status = \"BYPASS\";")
                .contains("set resp.http.X-Cache-Status = \"MISS\";");
        // Only the markers a tier sets are removed from a client's request: each costs a HIT.
        assertThat(front).contains("unset req.http.X-Ratecache-Limited;").doesNotContain("X-Ratecache-Pass")
                .doesNotContain("X-Ratecache-Conn");
        assertThat(front(HaproxyRenderTest.nodelay().limitConn(3))).contains("unset req.http.X-Ratecache-Conn;");
    }

    @Test
    void graceIsOnlyWhatTheOriginAllowed() throws IOException {
        String front = front(HaproxyRenderTest.nodelay());

        assertThat(front).contains("if (beresp.http.Cache-Control !~ \"stale-while-revalidate=\") {\n"
                        + "    set beresp.grace = 0s;")
                .contains("stale-if-error=([0-9]+)")
                .contains("if (beresp.status >= 500 && bereq.is_bgfetch) {\n    return (abandon);");
    }

    @Test
    void purgeIsAllowedFromEachAddressAndRangeOfTheSpec() throws IOException {
        assertThat(front(HaproxyRenderTest.nodelay())).contains("acl purge {\n  \"127.0.0.1\";\n}");
        assertThat(front(HaproxyRenderTest.nodelay().purgeAllow(List.of("10.0.0.0/8", "::1"))))
                .contains("acl purge {\n  \"10.0.0.0\"/8;\n  \"::1\";\n}")
                .contains("if (client.ip !~ purge) {\n      return (synth(403));");
    }

    @Test
    void withoutCacheOrLimitTheFrontOnlyPasses() throws IOException {
        String front = front(HaproxyRenderTest.nodelay().cache(false).frontLimit(false));

        assertThat(front).doesNotContain("import vsthrottle").doesNotContain("is_denied").doesNotContain("X-Cache-Status").doesNotContain("acl purge")
                .doesNotContain("beresp.grace")
                .contains("sub vcl_recv {\n  return (pass);\n}")
                .contains(".port = \"9080\";");
    }

    @Test
    void backLimitsEveryRequestOnOneConstantKeyAndStoresNothing() throws IOException {
        // 10 r/s, burst 50: 51 tokens over 5.1 s, for all clients together.
        String back = back(HaproxyRenderTest.nodelay().backRate(10).backBurst(50));

        assertThat(back).contains("if (vsthrottle.is_denied(\"origin\", 51, 5100ms)) {")
                .doesNotContain("client.identity")
                .contains("return (pass);");
    }

    @Test
    void backWithoutALimitImportsNoVsthrottle() throws IOException {
        assertThat(back(HaproxyRenderTest.nodelay().backLimit(false))).doesNotContain("import vsthrottle")
                .doesNotContain("is_denied");
    }

    @Test
    void backSpreadsOverEveryOriginRoundRobin() throws IOException {
        String back = back(HaproxyRenderTest.nodelay().origins(List.of(URI.create("http://127.0.0.1:18081"),
                URI.create("http://10.0.0.2:18082"))));

        assertThat(back).contains("import directors;").contains("new origins = directors.round_robin();")
                .contains("backend origin1 {\n  .host = \"127.0.0.1\";\n  .port = \"18081\";")
                .contains("backend origin2 {\n  .host = \"10.0.0.2\";\n  .port = \"18082\";")
                .contains("origins.add_backend(origin1);").contains("origins.add_backend(origin2);")
                .contains("set req.backend_hint = origins.backend();");
    }

    @Test
    void withoutOriginsTheBackProxiesTheSuitesOwn() throws IOException {
        assertThat(back(HaproxyRenderTest.nodelay())).contains(".port = \"10081\";");
    }

    @Test
    void aKeyedLimitThrottlesTheValidKeyElseTheAddressAndNeverPassesItOn() throws IOException {
        String header = front(HaproxyRenderTest.keyed("header:X-Api-Key"));

        assertThat(header).contains("set req.http.X-Ratecache-Key = req.http.X-Api-Key;\n")
                .contains("if (req.http.X-Ratecache-Key ~ \"^[^\\x00-\\x1f\\x7f]{1,256}$\") {\n"
                        + "    set req.http.X-Ratecache-Key = \"k\" + req.http.X-Ratecache-Key;\n  } else {\n")
                .contains("set req.http.X-Ratecache-Key = \"a\" + client.identity;\n")
                .contains("if (vsthrottle.is_denied(req.http.X-Ratecache-Key, 5, 5000ms)) {")
                .contains("  call ratecache_client_limit;\n  unset req.http.X-Ratecache-Key;\n")
                .doesNotContain("import cookie;").doesNotContain("synth(401)");
    }

    @Test
    void aCookieKeyIsReadWithTheCookieVmodAndAnArgumentKeyWithRegsub() throws IOException {
        String cookie = front(HaproxyRenderTest.keyed("cookie:api_key"));
        String arg = front(HaproxyRenderTest.keyed("arg:key"));

        assertThat(cookie).contains("import cookie;").contains("cookie.parse(req.http.Cookie);\n"
                + "  set req.http.X-Ratecache-Key = cookie.get(\"api_key\");");
        assertThat(arg).contains("if (req.url ~ \"^[^?]*\\?([^&]*&)*key=\") {\n"
                        + "    set req.http.X-Ratecache-Key = regsub(req.url, \"^[^?]*\\?(?:[^&]*&)*?key=([^&]*).*$\", \"\\1\");")
                .contains("if (req.http.X-Ratecache-Key ~ \"^(?!.*%([01][0-9A-Fa-f]|7[Ff]))[^\\x00-\\x1f\\x7f]{1,256}$\")");
        assertThat(back(HaproxyRenderTest.keyed("cookie:api_key"))).doesNotContain("import cookie;");
    }

    @Test
    void missingKeyRejectAnswers401WithOneLineAndTheChallenge() throws IOException {
        String front = front(HaproxyRenderTest.keyed("header:X-Api-Key").missingKey(MissingKey.REJECT));

        assertThat(front).contains("set req.http.X-Ratecache-Missing-Key = \"1\";\n    return (synth(401));")
                .contains("set resp.http.WWW-Authenticate = {\"ApiKey header=\"X-Api-Key\"\"};")
                .contains("set resp.body = {\"401 Unauthorized: send a valid API key in the header X-Api-Key (at most"
                        + " 256 bytes, no control characters)\n\"};")
                .doesNotContain("\"a\" + client.identity");
        // Its vcl_synth comes before the markers' one, which would answer the reason phrase.
        assertThat(front.indexOf("X-Ratecache-Missing-Key && resp.status == 401"))
                .isLessThan(front.indexOf("set resp.body = resp.reason"));
    }

    @Test
    void theAddressCeilingIsASecondBucketOnTheBareAddress() throws IOException {
        // auto: ten times 1 r/s, burst 4: 41 tokens over 4.1 s.
        String front = front(HaproxyRenderTest.keyed("header:X-Api-Key"));

        assertThat(front).contains("if (vsthrottle.is_denied(client.identity, 41, 4100ms)) {");
        assertThat(front(HaproxyRenderTest.keyed("header:X-Api-Key").addressCeiling(AddressCeiling.OFF)))
                .doesNotContain("client.identity, 41");
        assertThat(front(HaproxyRenderTest.nodelay())).contains("vsthrottle.is_denied(client.identity,")
                .doesNotContain("X-Ratecache-Key");
    }

    @Test
    void anAllowedNetworkSkipsTheWholeClientLimit() throws IOException {
        String front = front(HaproxyRenderTest.nodelay().allow(List.of("127.0.9.0/24", "::1/128")));

        assertThat(front).contains("acl limit_exempt {\n  \"127.0.9.0\"/24;\n  \"::1\"/128;\n}")
                .contains("  if (client.ip !~ limit_exempt) {\n    call ratecache_client_limit;\n  }");
    }

    @Test
    void theFrontLogsNoKeyWhenTheLimitIsKeyedSoTheLogKeepsTheAddressAsNginxsDoes() throws IOException {
        // The key is a credential, which no log should hold; the events' key is varnishncsa's %h.
        assertThat(front(HaproxyRenderTest.keyed("header:X-Api-Key"))).doesNotContain("std.log(\"key:\"")
                .doesNotContain("std.log(\"key:\" + req.http.X-Api-Key");
    }

    @Test
    void limitConnTakesATokenPerRequestAfterTheRateLimitAndGivesItBackOnEveryWayOut() throws IOException {
        String front = front(HaproxyRenderTest.nodelay().limitConn(7));

        assertThat(front).contains("if (vsthrottle.is_denied(\"c\" + client.identity, 7, 1d)) {\n"
                        + "    set req.http.X-Ratecache-Limited = \"1\";\n    std.log(\"conn:REJECTED\");\n"
                        + "    return (synth(429));")
                .contains("vsthrottle.return_token(\"c\" + client.identity, 7, 1d);")
                .contains("sub vcl_deliver {\n  call ratecache_conn_release;\n}")
                .contains("sub vcl_pipe {\n  call ratecache_conn_release;\n}");
        // nginx checks limit_req before limit_conn.
        assertThat(front.indexOf("vsthrottle.is_denied(client.identity")).isPositive()
                .isLessThan(front.indexOf("vsthrottle.is_denied(\"c\""));
        // A synthetic answer gives the token back before the markers' vcl_synth ends it with deliver.
        String synth = front.substring(front.indexOf("sub vcl_synth {"));
        assertThat(synth.indexOf("call ratecache_conn_release;")).isPositive()
                .isLessThan(synth.indexOf("return (deliver);"));
        // Only a request that took a token gives one back, and a client cannot say it took one.
        assertThat(front.indexOf("unset req.http.X-Ratecache-Conn;")).isPositive()
                .isLessThan(front.indexOf("set req.http.X-Ratecache-Conn = \"1\";"));
        assertThat(front(HaproxyRenderTest.nodelay())).doesNotContain("X-Ratecache-Conn =").doesNotContain("return_token");
    }

    @Test
    void limitConnAloneStillImportsVsthrottle() throws IOException {
        assertThat(front(HaproxyRenderTest.nodelay().frontLimit(false).limitConn(3))).contains("import vsthrottle;")
                .contains("vsthrottle.is_denied(\"c\" + client.identity, 3, 1d)");
    }

    @Test
    void freshnessGivesALifetimeAtTheBackOnlyWhereTheOriginGaveNone() throws IOException {
        String back = back(HaproxyRenderTest.nodelay().freshness("/Hare", 3).freshness("/tortoise", 10));

        assertThat(back).contains("if (!beresp.http.Cache-Control && !beresp.http.Expires\n")
                .contains("    if (std.tolower(regsub(bereq.url, \"\\?.*$\", \"\")) == \"/hare\") {\n"
                        + "      set beresp.http.Cache-Control = \"max-age=3\";\n"
                        + "      set beresp.http.Expires = now + 3s;\n")
                .contains("== \"/tortoise\") {\n      set beresp.http.Cache-Control = \"max-age=10\";");
        assertThat(front(HaproxyRenderTest.nodelay().freshness("/hare", 3))).doesNotContain("max-age=3");
        assertThat(back(HaproxyRenderTest.nodelay())).doesNotContain("beresp.http.Expires =");
    }

    @Test
    void freshnessIsRenderedNotRefused() {
        assertThat(new VarnishEdge(Repo.varnishTemplates())
                .refusal(HaproxyRenderTest.nodelay().freshness("/hare", 3).spec(HaproxyRenderTest.ports()))).isEmpty();
    }

    /** A tiers file in a folder of its own, {@code name}, its lines as given. */
    static Path tiersFile(Class<?> owner, String name, String... lines) throws IOException {
        Path file = TestDirs.fresh(owner, name).resolve("tiers.txt");
        Files.writeString(file, String.join("\n", lines) + "\n");
        return file;
    }

    @Test
    void eachTierOfKeysHasItsOwnBucketAndEveryOtherKeyTheAnonymousTiers() throws IOException {
        // free: 5 r/s burst 10, 11 tokens over 2.2 s; pro: 50 r/s burst 100, 101 over 2.02 s; anonymous
        // (the front's 1 r/s burst 4): 5 over 5 s.
        String front = front(HaproxyRenderTest.keyed("header:X-Api-Key")
                .tiers(tiersFile(getClass(), "tiers", "free 5 10 nodelay free-1,free-2", "pro 50 100 nodelay pro+1/=")));

        assertThat(front).contains("import str;")
                .contains("  set req.http.X-Ratecache-Tier = \"anonymous\";\n"
                        + "  if (req.http.X-Ratecache-Key ~ \"^k[A-Za-z0-9._~+/=:@-]+$\") {\n"
                        + "    if (str.contains(\" kfree-1 kfree-2 \", \" \" + req.http.X-Ratecache-Key + \" \")) {\n"
                        + "      set req.http.X-Ratecache-Tier = \"free\";\n    }\n"
                        + "    if (str.contains(\" kpro+1/= \", \" \" + req.http.X-Ratecache-Key + \" \")) {\n"
                        + "      set req.http.X-Ratecache-Tier = \"pro\";\n    }\n  }\n")
                .contains("if (req.http.X-Ratecache-Tier == \"free\" && vsthrottle.is_denied(req.http.X-Ratecache-Key, 11, 2200ms)) {")
                .contains("if (req.http.X-Ratecache-Tier == \"pro\" && vsthrottle.is_denied(req.http.X-Ratecache-Key, 101, 2020ms)) {")
                .contains("if (req.http.X-Ratecache-Tier == \"anonymous\" && vsthrottle.is_denied(req.http.X-Ratecache-Key, 5, 5000ms)) {")
                // The ceiling, auto: ten times the most generous tier, pro's.
                .contains("vsthrottle.is_denied(client.identity, 1001, 2002ms)")
                .contains("unset req.http.X-Ratecache-Tier;")
                .doesNotContain("vsthrottle.is_denied(req.http.X-Ratecache-Key, 5, 5000ms)) {\n    set req.http.X-Ratecache-Limited = \"1\";\n"
                        + "    std.log(\"limit:REJECTED\");\n    return (synth(429));\n  }\n  if (vsthrottle");
        // The tier is found after the key is read and checked, and before the limit counts it.
        assertThat(front.indexOf("set req.http.X-Ratecache-Tier = \"anonymous\"")).isGreaterThan(front.indexOf("\"a\" + client.identity"))
                .isLessThan(front.indexOf("  call ratecache_client_limit;"));
        assertThat(front(HaproxyRenderTest.keyed("header:X-Api-Key"))).doesNotContain("import str;").doesNotContain("X-Ratecache-Tier");
    }

    @Test
    void aTiersFilesOwnAnonymousLineIsTheAnonymousTier() throws IOException {
        String front = front(HaproxyRenderTest.keyed("header:X-Api-Key")
                .tiers(tiersFile(getClass(), "tiers", "free 5 10 nodelay free-1", "anonymous 2 3 nodelay")));

        assertThat(front).contains("X-Ratecache-Tier == \"anonymous\" && vsthrottle.is_denied(req.http.X-Ratecache-Key, 4, 2000ms)")
                .doesNotContain("5, 5000ms");
    }

    @Test
    void withLimitScopeMissesTheEdgePassesTheKeyAndTheBackLimitsEachClient() throws IOException {
        StackSwitches switches = HaproxyRenderTest.keyed("header:X-Api-Key").limitScope(LimitScope.MISSES);
        String front = front(switches);
        String back = back(switches);

        // The edge reads and checks the key, counts nothing, and replaces any X-Limit-Key a client sent.
        assertThat(front).doesNotContain("import vsthrottle").doesNotContain("is_denied")
                .contains("sub vcl_recv {\n  unset req.http.X-Limit-Key;\n  call ratecache_read_key;\n"
                        + "  if (req.http.X-Ratecache-Key ~ \"^[^\\x00-\\x1f\\x7f]{1,256}$\") {\n"
                        + "    set req.http.X-Limit-Key = req.http.X-Ratecache-Key;\n  }\n");
        // The back believes the key and X-Forwarded-For only from the edge; then the limit as the edge's would be.
        assertThat(back).contains("import vsthrottle;")
                .contains("acl ratecache_edge {\n  \"127.0.0.1\";\n}")
                .contains("  if (client.ip ~ ratecache_edge) {\n    set req.http.X-Ratecache-Key = req.http.X-Limit-Key;\n  }")
                .contains("    set client.identity = regsub(req.http.X-Forwarded-For,")
                .contains("if (vsthrottle.is_denied(req.http.X-Ratecache-Key, 5, 5000ms)) {")
                .contains("if (vsthrottle.is_denied(client.identity, 41, 4100ms)) {")
                .contains("set req.http.X-Ratecache-Key = \"a\" + client.identity;")
                .doesNotContain("synth(401)");
        // Before the origin's limit, so that a client over its own does not spend the origin's; and before the pass.
        assertThat(back.indexOf("vsthrottle.is_denied(req.http.X-Ratecache-Key")).isPositive()
                .isLessThan(back.indexOf("vsthrottle.is_denied(\"origin\""))
                .isLessThan(back.indexOf("return (pass);"));
        // The origin's limit logs the outcome: varnishncsa keeps a key's first value.
        assertThat(back).doesNotContain("  std.log(\"limit:PASSED\");\n}\n\n# --- The origin's limit");
    }

    @Test
    void withLimitScopeMissesAKeylessRequestIsStillRefusedAtTheEdgeAndAnAllowedClientKnownAtTheBack() throws IOException {
        StackSwitches switches = HaproxyRenderTest.keyed("header:X-Api-Key").limitScope(LimitScope.MISSES)
                .missingKey(MissingKey.REJECT).allow(List.of("127.0.9.0/24"));

        assertThat(front(switches)).contains("    set req.http.X-Ratecache-Missing-Key = \"1\";\n    return (synth(401));");
        assertThat(back(switches)).doesNotContain("synth(401)")
                .contains("if (std.ip(client.identity, \"0.0.0.0\", resolve = false) !~ limit_exempt) {");
    }
}
