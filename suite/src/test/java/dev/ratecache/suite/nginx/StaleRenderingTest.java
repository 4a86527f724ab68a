package dev.ratecache.suite.nginx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Repo;
import dev.ratecache.suite.spec.AgeSource;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.suite.switches.StaleMode;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** What --stale puts into each tier's rendered config. */
class StaleRenderingTest {

    private String rendered(Tier tier, StackSwitches switches, String file) throws IOException {
        Path conf = TestDirs.fresh(getClass(), tier.id() + "-" + switches.stale() + "-" + switches.rejectStatus()
                + "-" + switches.ageSourceInForce());
        new NginxRenderer(Repo.nginxTemplates()).render(tier, switches.spec(new StackPorts()), conf);
        Path path = conf.resolve(file);
        return Files.isRegularFile(path) ? Files.readString(path) : "";
    }

    @Test
    void rfcServesNoStaleOfItsOwnAndTheBackEndDropsOriginErrors() throws IOException {
        StackSwitches rfc = new StackSwitches();

        assertThat(rendered(Tier.FRONT, rfc, "snippets/front/cache.conf"))
                .contains("\nproxy_cache_use_stale off;").doesNotContain("updating http_");
        assertThat(rendered(Tier.BACK, rfc, "back-end.conf")).contains("include snippets/back/origin-errors.conf;",
                "include snippets/back/stale-if-error-route.conf;");
        assertThat(rendered(Tier.BACK, rfc, "snippets/back/stale-if-error-route.conf"))
                .contains("\nif ($http_x_edge_stale_if_error = \"1\") {\n  return 420;\n}\n");
        assertThat(rendered(Tier.BACK, rfc, "snippets/back/origin-errors.conf"))
                .contains("\nerror_page 420 = @origin_stale_ok;", "\n  error_page 500 502 503 504 = @drop_connection;");
        assertThat(rendered(Tier.BACK, rfc, "snippets/back/origin-proxy.conf"))
                .contains("\nproxy_set_header X-Edge-Stale-If-Error \"\";");
    }

    @Test
    void theFrontEndSignalsAnEntryItMayServeStaleExactlyWithTheNativeModule() throws IOException {
        StackSwitches nativeModule = new StackSwitches().ageSource(AgeSource.NATIVE);

        assertThat(rendered(Tier.FRONT, nativeModule, "front-end.conf"))
                .contains("include snippets/front/stale-if-error-signal.conf;")
                .doesNotContain("stale-if-error-signal-value.conf");
        assertThat(rendered(Tier.FRONT, nativeModule, "snippets/front/stale-if-error-signal.conf"))
                .contains("\nproxy_set_header X-Edge-Stale-If-Error $upstream_cache_stale_if_error;");
    }

    @Test
    void withoutTheModuleTheFrontEndSignalsEveryExpiredEntryItHolds() throws IOException {
        StackSwitches plain = new StackSwitches().ageSource(AgeSource.NJS);

        assertThat(rendered(Tier.FRONT, plain, "front-end.conf"))
                .contains("include snippets/front/stale-if-error-signal.conf;",
                        "include snippets/front/stale-if-error-signal-value.conf;")
                .doesNotContain("age-module.conf");
        assertThat(rendered(Tier.FRONT, plain, "snippets/front/stale-if-error-signal.conf"))
                .contains("\nproxy_set_header X-Edge-Stale-If-Error $edge_stale_if_error;");
        assertThat(rendered(Tier.FRONT, plain, "snippets/front/stale-if-error-signal-value.conf"))
                .contains("map $upstream_cache_status $edge_stale_if_error {\n  EXPIRED  1;\n  default  0;\n}");
    }

    @Test
    void theBackEndsOwn503RejectionsAreNotDropped() throws IOException {
        assertThat(rendered(Tier.BACK, new StackSwitches().rejectStatus(503), "snippets/back/origin-errors.conf"))
                .contains("\n  error_page 500 502 504 = @drop_connection;");
    }

    @Test
    void protectiveServesStaleOnAnyFailureAndTheBackEndPassesOriginErrorsOn() throws IOException {
        StackSwitches protective = new StackSwitches().stale(StaleMode.PROTECTIVE);

        assertThat(rendered(Tier.FRONT, protective, "snippets/front/cache.conf"))
                .contains("\nproxy_cache_use_stale error timeout updating http_500 http_502 http_503 http_504 http_429;");
        assertThat(rendered(Tier.BACK, protective, "back-end.conf")).doesNotContain("back/origin-errors.conf");
        assertThat(rendered(Tier.FRONT, protective, "front-end.conf")).doesNotContain("stale-if-error-signal");
    }

    @Test
    void withoutTheEdgeCacheNothingIsDropped() throws IOException {
        assertThat(rendered(Tier.BACK, new StackSwitches().cache(false), "back-end.conf"))
                .doesNotContain("back/origin-errors.conf");
    }
}
