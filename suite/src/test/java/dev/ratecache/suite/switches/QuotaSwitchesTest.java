package dev.ratecache.suite.switches;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.spec.Quota;
import dev.ratecache.suite.spec.TierPorts;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

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
    void aQuotaNeedsThePerClientLimitItSitsBesideAndCountsAtTheEdge() {
        assertThat(new StackSwitches().quota("5/m", Quota.Window.SLIDING).frontLimit(false).problems())
                .containsExactly("--quota sits beside the per-client burst limit, which --no-front-limit turns off: drop"
                        + " one of them");
        assertThat(new StackSwitches().quota("5/m", Quota.Window.SLIDING).limitScope(LimitScope.MISSES).problems())
                .anySatisfy(p -> assertThat(p).startsWith("--quota is counted at the edge"));
        assertThat(new StackSwitches().quota(null, Quota.Window.FIXED).problems())
                .containsExactly("--quota-window goes with --quota: add --quota N/WINDOW (" + Quota.FORM + ")");
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
        assertThat(front.resolve("snippets/shared/lua-init.conf")).content().contains("limit = 600,", "window_ms = 60000,",
                "mode = 2,", "name = \"minutely\",", "quota-exceeded");
        assertThat(front.resolve("snippets/front/address-limit-policy.conf")).content()
                .contains("\"per-address\";q=100;w=1;ratecache-burst=200, \"minutely\";q=600;w=60");
        assertThat(front.resolve("snippets/shared/logging.conf")).content().contains("\"quota\":\"$quota_status\"");
        // The scripts beside the config, where lua_package_path and the script's path look.
        assertThat(front.resolve("lua/quota_window.lua")).exists();
        assertThat(front.resolve("lua/quota.lua")).exists();
        assertThat(front.resolve("lua/redis_script.lua")).exists();
        assertThat(front.resolve("lua/fleet_limit.lua")).doesNotExist();
        // The back tier counts no quota.
        assertThat(dir.resolve("back/snippets/shared/logging.conf")).content().doesNotContain("$quota_status\"");
    }
}
