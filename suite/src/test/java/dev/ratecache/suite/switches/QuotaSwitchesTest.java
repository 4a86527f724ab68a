package dev.ratecache.suite.switches;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.spec.Quota;
import dev.ratecache.suite.spec.TierPorts;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** --quota and --quota-window: the forms taken, the refusals, and what nginx's edge renders of them. */
class QuotaSwitchesTest {
    private static final TierPorts PORTS = new dev.ratecache.suite.stack.StackPorts().front(10_080).origin(10_081, 10_082);

    @Test
    void aQuotaIsNPerMinuteHourDayOrSeconds() {
        assertThat(Quota.parse("1000/d", Quota.Window.SLIDING)).isEqualTo(new Quota(1000, 86_400, Quota.Window.SLIDING));
        assertThat(Quota.parse("5/h", Quota.Window.FIXED).policyItem()).isEqualTo("\"hourly\";q=5;w=3600");
        assertThat(Quota.parse("30/m", Quota.Window.FIXED).policyName()).isEqualTo("minutely");
        assertThat(Quota.parse("600/60s", Quota.Window.CALENDAR).policyName()).isEqualTo("minutely");
        assertThat(Quota.parse("600/90s", Quota.Window.CALENDAR).policyItem()).isEqualTo("\"quota\";q=600;w=90");
        assertThat(Quota.parse("600/60s", Quota.Window.FIXED).flag()).isEqualTo("600/m");
    }

    @Test
    void anythingElseIsRefusedNamingTheForm() {
        for (String bad : new String[] {"1000", "0/d", "1000/w", "-1/d", "1000/0s", "1000/ d", "10/2678401s", "a\u0007/d"}) {
            assertThatThrownBy(() -> Quota.parse(bad, Quota.Window.SLIDING)).as(bad)
                    .hasMessageContaining("is not a quota").hasMessageNotContaining("\u0007");
        }
        assertThat(new StackSwitches().quota("7/week", Quota.Window.SLIDING).problems())
                .containsExactly("--quota: '7/week' is not a quota: use " + Quota.FORM);
    }

    @Test
    void aQuotaNeedsThePerClientLimitItSitsBeside() {
        assertThat(new StackSwitches().quota("5/m", Quota.Window.SLIDING).frontLimit(false).problems())
                .containsExactly("--quota sits beside the per-client burst limit, which --no-front-limit turns off: drop"
                        + " one of them");
        // Counted behind the edge cache with scope misses: taken, by address as by key.
        assertThat(new StackSwitches().quota("5/m", Quota.Window.SLIDING).limitScope(LimitScope.MISSES).problems()).isEmpty();
        assertThat(new StackSwitches().quota("5/m", Quota.Window.SLIDING).limitScope(LimitScope.MISSES)
                .limitKey(LimitKey.parse("header:X-Api-Key")).problems()).isEmpty();
        assertThat(new StackSwitches().quota(null, Quota.Window.FIXED).problems())
                .containsExactly("--quota-window goes with --quota (or a tier's quota= in --tiers): add --quota N/WINDOW ("
                        + Quota.FORM + ")");
        assertThat(new StackSwitches().quota("100/172800s", Quota.Window.CALENDAR).problems())
                .containsExactly("--quota-window calendar restarts at each UTC midnight, so its window is a day at most"
                        + " (got 100/172800s): give fixed or sliding for a longer one");
        assertThat(new StackSwitches().quota("100/172800s", Quota.Window.FIXED).problems()).isEmpty();
        // Its Redis is named as the fleet's is.
        assertThat(new StackSwitches().quota("5/m", Quota.Window.SLIDING).fleetRedis("127.0.0.1:6390").problems()).isEmpty();
    }

    @Test
    void onlyNginxsEdgeCountsAQuotaSoFar() {
        StackSwitches s = new StackSwitches().quota("5/m", Quota.Window.SLIDING);
        assertThat(EdgeProduct.HAPROXY.refusal(s, PORTS)).hasValueSatisfying(r -> assertThat(r).startsWith("--quota is"));
        assertThat(EdgeProduct.VARNISH.refusal(s, PORTS)).isPresent();
        assertThat(EdgeProduct.NGINX.refusal(s, PORTS)).isEmpty();
    }

    @Test
    void theEdgeAsksRedisAfterTheBurstLimitAndNamesBothPolicies() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "render");
        StackSwitches s = new StackSwitches().quota("600/60s", Quota.Window.CALENDAR);
        new dev.ratecache.suite.edge.NginxEdge(dev.ratecache.suite.Repo.nginxTemplates()).render(s.spec(PORTS), dir);
        Path front = dir.resolve("front");
        assertThat(front.resolve("snippets/shared/quota.conf")).content().contains("access_by_lua_block {\n  quota.check()\n}",
                "add_header RateLimit $quota_ratelimit always;");
        assertThat(front.resolve("snippets/shared/lua-init.conf")).content().contains("mode = 2,",
                "[\"per-address\"] = { limit = 600, window_ms = 60000, name = \"minutely\", fallback_limit = 600,",
                "quota-exceeded").doesNotContain(" tier = ");
        assertThat(front.resolve("snippets/front/address-limit-policy.conf")).content()
                .contains("\"per-address\";q=100;w=1;ratecache-burst=200, \"minutely\";q=600;w=60");
        assertThat(front.resolve("snippets/shared/logging.conf")).content().contains("\"quota\":\"$quota_status\"");
        // The scripts beside the config, where lua_package_path and the script's path look.
        assertThat(front.resolve("lua/quota_window.lua")).exists();
        assertThat(front.resolve("lua/quota.lua")).exists();
        assertThat(front.resolve("lua/redis_script.lua")).exists();
        assertThat(front.resolve("lua/fleet_limit.lua")).doesNotExist();
        // The back tier counts no quota, and the edge has nothing of the back's to hide.
        assertThat(dir.resolve("back/snippets/shared/logging.conf")).content().doesNotContain("$quota_status\"");
        assertThat(dir.resolve("back/snippets/shared/quota.conf")).doesNotExist();
        assertThat(front.resolve("snippets/front/quota-from-back.conf")).doesNotExist();
    }

    private static Path tiersFile(Path dir) throws IOException {
        Files.createDirectories(dir);
        return Files.writeString(dir.resolve("tiers.txt"), """
                gold    10 20 nodelay quota=3/h  k-gold
                silver  10 20 nodelay            k-silver
                partner 10 20 nodelay quota=none k-partner
                """);
    }

    private static StackSwitches keyed(Path tiers) {
        return new StackSwitches().limitKey(LimitKey.parse("header:X-Api-Key")).tiers(tiers);
    }

    @Test
    void aTierTakesItsOwnQuotaOrNoneOrElseTheQuotaFlagsAndEachIsRenderedWithItsPolicy() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "tiers");
        StackSwitches s = keyed(tiersFile(dir)).quota("5/m", Quota.Window.FIXED);
        assertThat(s.problems()).isEmpty();
        new dev.ratecache.suite.edge.NginxEdge(dev.ratecache.suite.Repo.nginxTemplates()).render(s.spec(PORTS), dir.resolve("conf"));
        Path front = dir.resolve("conf/front");
        // Each tier at its quota, found by the tier the per-client limit finds; partner has none, so it is not listed.
        assertThat(front.resolve("snippets/shared/lua-init.conf")).content().contains("tier = \"limit_tier\",",
                "default_tier = \"anonymous\",", "mode = 1,",
                "[\"gold\"] = { limit = 3, window_ms = 3600000, name = \"hourly\", fallback_limit = 3,",
                "[\"silver\"] = { limit = 5, window_ms = 60000, name = \"minutely\", fallback_limit = 5,",
                "[\"anonymous\"] = { limit = 5, window_ms = 60000, name = \"minutely\",",
                "\"violated-policies\":[\"hourly\"]").doesNotContain("[\"partner\"]");
        // RateLimit-Policy per tier names the tier's own quota.
        assertThat(front.resolve("snippets/front/rate-limit-policy-value.conf")).content().contains(
                "\"0:gold\"  '\"gold\";q=10;w=1;ratecache-burst=20, \"hourly\";q=3;w=3600,",
                "\"0:silver\"  '\"silver\";q=10;w=1;ratecache-burst=20, \"minutely\";q=5;w=60,",
                "\"0:partner\"  '\"partner\";q=10;w=1;ratecache-burst=20, \"address-ceiling\"");

        // Quotas in the tiers file alone: the tiers without one have none.
        StackSwitches alone = keyed(dir.resolve("tiers.txt")).quota(null, Quota.Window.CALENDAR);
        assertThat(alone.problems()).isEmpty();
        assertThat(alone.spec(PORTS).hasQuota()).isTrue();
        assertThat(alone.describe()).contains("quotas per tier calendar");
        new dev.ratecache.suite.edge.NginxEdge(dev.ratecache.suite.Repo.nginxTemplates()).render(alone.spec(PORTS),
                dir.resolve("alone"));
        assertThat(dir.resolve("alone/front/snippets/shared/lua-init.conf")).content().contains("mode = 2,",
                "[\"gold\"] = { limit = 3,").doesNotContain("[\"silver\"]", "[\"anonymous\"]");
        assertThat(dir.resolve("alone/front/snippets/front/rate-limit-policy-value.conf")).content().contains(
                "\"0:silver\"  '\"silver\";q=10;w=1;ratecache-burst=20, \"address-ceiling\"");
    }

    @Test
    void aTiersQuotaIsRefusedWhereTheFlagsQuotaWouldBe(TestInfo test) throws Exception {
        Path tiers = tiersFile(TestDirs.fresh(test));
        assertThat(keyed(tiers).frontLimit(false).problems()).containsExactly("A tier's quota= (--tiers) sits beside the"
                + " per-client burst limit, which --no-front-limit turns off: drop one of them");
        Files.writeString(tiers, "gold 10 20 nodelay quota=5/172800s k-gold\n");
        assertThat(keyed(tiers).quota(null, Quota.Window.CALENDAR).problems()).containsExactly("--quota-window calendar"
                + " restarts at each UTC midnight, so its window is a day at most (got tier 'gold' of tiers.txt:"
                + " quota=5/172800s): give fixed or sliding for a longer one");
        // Its Redis is named as --quota's is.
        assertThat(keyed(tiers).fleetRedis("127.0.0.1:6390").problems()).isEmpty();
        StackSwitches s = keyed(tiers);
        assertThat(EdgeProduct.HAPROXY.refusal(s, PORTS)).hasValueSatisfying(r -> assertThat(r).startsWith("A tier's quota="));
        assertThat(EdgeProduct.VARNISH.refusal(s, PORTS)).hasValueSatisfying(r -> assertThat(r).startsWith("A tier's quota="));
    }

    @Test
    void withScopeMissesTheBackEndCountsTheQuotaAndTheEdgeSendsOnlyWhatTheBackSaidOfThisRequest() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "misses");
        StackSwitches s = keyed(tiersFile(dir)).quota("5/h", Quota.Window.FIXED).limitScope(LimitScope.MISSES);
        assertThat(s.problems()).isEmpty();
        new dev.ratecache.suite.edge.NginxEdge(dev.ratecache.suite.Repo.nginxTemplates()).render(s.spec(PORTS), dir.resolve("conf"));
        Path front = dir.resolve("conf/front");
        Path back = dir.resolve("conf/back");
        // The back end loads Lua, counts each tier's quota on the passed key, and logs it.
        assertThat(back.resolve("back-end.conf")).content().contains("include snippets/shared/lua-module.conf;",
                "include snippets/shared/lua-init.conf;", "include snippets/shared/quota-zone.conf;",
                "include snippets/shared/quota.conf;");
        assertThat(back.resolve("snippets/shared/lua-init.conf")).content().contains("key = \"limit_identity\",",
                "tier = \"limit_tier\",", "[\"gold\"] = { limit = 3, window_ms = 3600000, name = \"hourly\", fallback_limit = 3,");
        assertThat(back.resolve("snippets/shared/limit-key.conf")).content().contains("map $edge_limit_key $limit_key_given");
        assertThat(back.resolve("snippets/shared/logging.conf")).content().contains("\"quota\":\"$quota_status\"");
        assertThat(back.resolve("lua/quota.lua")).exists();
        // The edge counts none: it hides the back's stored RateLimit and sends the back's only on a request that reached it.
        assertThat(front.resolve("front-end.conf")).content().doesNotContain("lua-module.conf", "quota.conf;")
                .contains("include snippets/front/quota-from-back.conf;");
        assertThat(front.resolve("snippets/front/quota-from-back.conf")).content().contains("proxy_hide_header RateLimit;",
                "add_header RateLimit $quota_ratelimit_from_back always;");
        assertThat(front.resolve("snippets/front/quota-from-back-value.conf")).content().contains("HIT          \"\";",
                "default      $upstream_http_ratelimit;");
        assertThat(front.resolve("snippets/shared/logging.conf")).content().doesNotContain("$quota_status\"");
        // Both policies are still named by the edge, on every answer.
        assertThat(front.resolve("snippets/front/rate-limit-policy-value.conf")).content()
                .contains("'\"gold\";q=10;w=1;ratecache-burst=20, \"hourly\";q=3;w=3600,");
    }
}
