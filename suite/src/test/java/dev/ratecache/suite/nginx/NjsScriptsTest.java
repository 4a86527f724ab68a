package dev.ratecache.suite.nginx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Repo;
import dev.ratecache.suite.TestDirs;
import dev.ratecache.suite.stack.StackPorts;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The njs scripts the snippets import land next to the rendered files, byte for byte. */
class NjsScriptsTest {

    @Test
    void everyScriptIsCopiedAsItIsIntoConfNjs() throws Exception {
        for (Tier tier : Tier.values()) {
            Path conf = TestDirs.fresh(getClass(), tier.id());
            new NginxRenderer(Repo.nginxTemplates()).render(tier, new NginxSwitches(), StackPorts.free(), conf);

            for (String script : new String[] {"edge_freshness.js", "edge_invalidation.js"}) {
                assertThat(conf.resolve("njs").resolve(script)).as(tier.id() + " " + script)
                        .hasSameBinaryContentAs(Repo.nginxTemplates().resolve("njs").resolve(script));
            }
        }
    }
}
