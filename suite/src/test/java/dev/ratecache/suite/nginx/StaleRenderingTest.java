package dev.ratecache.suite.nginx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Repo;
import dev.ratecache.testkit.TestDirs;
import dev.ratecache.suite.stack.StackPorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** What --stale puts into each tier's rendered config. */
class StaleRenderingTest {

    private String rendered(Tier tier, NginxSwitches switches, String file) throws IOException {
        Path conf = TestDirs.fresh(getClass(), tier.id() + "-" + switches.stale + "-" + switches.rejectStatus);
        new NginxRenderer(Repo.nginxTemplates()).render(tier, switches, new StackPorts(), conf);
        Path path = conf.resolve(file);
        return Files.isRegularFile(path) ? Files.readString(path) : "";
    }

    @Test
    void rfcServesNoStaleOfItsOwnAndTheBackEndDropsOriginErrors() throws IOException {
        NginxSwitches rfc = new NginxSwitches();

        assertThat(rendered(Tier.FRONT, rfc, "snippets/front/cache.conf"))
                .contains("\nproxy_cache_use_stale off;").doesNotContain("updating http_");
        assertThat(rendered(Tier.BACK, rfc, "back-end.conf")).contains("include snippets/back/origin-errors.conf;");
        assertThat(rendered(Tier.BACK, rfc, "snippets/back/origin-errors.conf"))
                .contains("\nerror_page 500 502 503 504 = @drop_connection;");
    }

    @Test
    void theBackEndsOwn503RejectionsAreNotDropped() throws IOException {
        assertThat(rendered(Tier.BACK, new NginxSwitches().rejectStatus(503), "snippets/back/origin-errors.conf"))
                .contains("\nerror_page 500 502 504 = @drop_connection;");
    }

    @Test
    void protectiveServesStaleOnAnyFailureAndTheBackEndPassesOriginErrorsOn() throws IOException {
        NginxSwitches protective = new NginxSwitches().stale(StaleMode.PROTECTIVE);

        assertThat(rendered(Tier.FRONT, protective, "snippets/front/cache.conf"))
                .contains("\nproxy_cache_use_stale error timeout updating http_500 http_502 http_503 http_504 http_429;");
        assertThat(rendered(Tier.BACK, protective, "back-end.conf")).doesNotContain("back/origin-errors.conf");
    }

    @Test
    void withoutTheEdgeCacheNothingIsDropped() throws IOException {
        assertThat(rendered(Tier.BACK, new NginxSwitches().cache(false), "back-end.conf"))
                .doesNotContain("back/origin-errors.conf");
    }
}
