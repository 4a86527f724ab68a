package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.nginx.NginxSwitches;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code haproxy -c} accepts both tiers' configs for every combination of what shapes them: each
 * tier's limit on or off, the cache on or off, the rejection status, one origin or two.
 */
@StackTest
class HaproxyConfigCheckTest {

    @Test
    void everyRenderedConfigPassesHaproxyC() throws Exception {
        List<NginxSwitches> all = new ArrayList<>();
        for (boolean front : new boolean[] {true, false})
            for (boolean back : new boolean[] {true, false})
                for (boolean cache : new boolean[] {true, false})
                    for (int status : new int[] {429, 503})
                        for (List<URI> origins : List.of(List.<URI>of(),
                                List.of(URI.create("http://127.0.0.1:18081"), URI.create("http://127.0.0.1:18082"))))
                            all.add(HaproxyRenderTest.nodelay().frontLimit(front).backLimit(back).cache(cache)
                                    .rejectStatus(status).origins(origins));
        HaproxyEdge edge = new HaproxyEdge(Repo.haproxyTemplates());
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (int i = 0; i < all.size(); i++) {
            Path dir = TestDirs.fresh(getClass(), "combination-" + i);
            for (Path file : edge.render(StackSpec.from(all.get(i), HaproxyRenderTest.ports()), dir)) {
                ManagedProcess.Outcome check = ManagedProcess.run(
                        List.of(HaproxyEdge.binary(), "-c", "-f", file.toString()), Duration.ofSeconds(30));
                if (check.exitCode() != 0) {
                    failures.add(file + ": " + check.text().strip());
                }
                checked++;
            }
        }
        assertThat(failures).isEmpty();
        assertThat(checked).isEqualTo(64);
    }
}
