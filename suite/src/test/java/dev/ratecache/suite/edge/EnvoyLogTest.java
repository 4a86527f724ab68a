package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * An Envoy tier's access log as events, on lines EnvoyEventsTest's tiers wrote (front-access.log
 * and back-access.log of its stack), in envoy/snippets/shared/access-log.yaml's format.
 */
class EnvoyLogTest {
    /** The cache filter fetched it itself: no upstream host, no upstream timings. */
    private static final String MISS = """
            {"address":"127.0.23.1","bytes":78,"cache":"MISS","duration_ms":191,"flags":"-","limited":"on","method":"GET","start_ms":"1795977040367","status":200,"upstream":null,"upstream_ms":null,"uri":"/hare?t=1"}""";
    private static final String HIT = """
            {"address":"127.0.23.1","bytes":78,"cache":"HIT","duration_ms":0,"flags":"RFCF","limited":"on","method":"GET","start_ms":"1795977040562","status":200,"upstream":null,"upstream_ms":null,"uri":"/hare?t=1"}""";
    private static final String BYPASS = """
            {"address":"127.0.23.2","bytes":78,"cache":"BYPASS","duration_ms":174,"flags":"-","limited":"on","method":"GET","start_ms":"1795977040565","status":200,"upstream":"127.0.0.1:27156","upstream_ms":173,"uri":"/hare?t=2"}""";
    private static final String REJECTED = """
            {"address":"127.0.23.3","bytes":18,"cache":null,"duration_ms":0,"flags":"RL","limited":"on","method":"GET","start_ms":"1795977040780","status":429,"upstream":null,"upstream_ms":null,"uri":"/hare?t=11"}""";
    private static final String ALLOWED = """
            {"address":"127.0.12.1","bytes":78,"cache":"MISS","duration_ms":120,"flags":"-","limited":"off","method":"GET","start_ms":"1795977040367","status":200,"upstream":null,"upstream_ms":null,"uri":"/hare?t=5"}""";
    private static final String BACK = """
            {"address":"127.0.23.1","bytes":78,"cache":null,"duration_ms":189,"flags":"-","limited":"on","method":"GET","start_ms":"1795977040368","status":200,"upstream":"127.0.0.1:23544","upstream_ms":188,"uri":"/hare?t=1"}""";

    private static List<EdgeEvent> read(TestInfo test, String... lines) throws IOException {
        Path log = TestDirs.fresh(test).resolve("front-access.log");
        Files.write(log, List.of(lines));
        return EnvoyLog.read(log);
    }

    private static EdgeEvent one(TestInfo test, String line) throws IOException {
        return read(test, line).get(0);
    }

    @Test
    void aMissTheCacheFetchedItselfWentUpstreamForItsWholeDuration(TestInfo test) throws IOException {
        assertThat(one(test, MISS)).isEqualTo(new EdgeEvent(1795977040367L, 1795977040558L, "127.0.23.1", "GET",
                "/hare?t=1", 200, 78, EdgeEvent.Limit.PASSED, EdgeEvent.Cache.MISS, "200", 191, ""));
    }

    @Test
    void aHitNeverWentUpstream(TestInfo test) throws IOException {
        EdgeEvent hit = one(test, HIT);

        assertThat(hit.cache()).isEqualTo(EdgeEvent.Cache.HIT);
        assertThat(hit.wentUpstream()).isFalse();
        assertThat(hit.upstreamMs()).isZero();
        assertThat(hit.arrivalMs()).isEqualTo(hit.endMs()).isEqualTo(1795977040562L);
    }

    @Test
    void aBypassWentUpstreamThroughTheRouterForItsUpstreamTime(TestInfo test) throws IOException {
        EdgeEvent bypass = one(test, BYPASS);

        assertThat(bypass.cache()).isEqualTo(EdgeEvent.Cache.BYPASS);
        assertThat(bypass.upstreamStatus()).isEqualTo("200");
        assertThat(bypass.upstreamMs()).isEqualTo(173);
        assertThat(bypass.upstreamArrivalMs()).isBetween(bypass.arrivalMs(), bypass.endMs());
    }

    @Test
    void aRefusalOfTheRateLimitIsRejectedAndWentNowhere(TestInfo test) throws IOException {
        EdgeEvent rejected = one(test, REJECTED);

        assertThat(rejected.limit()).isEqualTo(EdgeEvent.Limit.REJECTED);
        assertThat(rejected.cache()).isEqualTo(EdgeEvent.Cache.NONE);
        assertThat(rejected.wentUpstream()).isFalse();
        assertThat(rejected.status()).isEqualTo(429);
    }

    @Test
    void aRequestOfAChainNoLimitCountsPassedNoLimit(TestInfo test) throws IOException {
        assertThat(one(test, ALLOWED).limit()).isEqualTo(EdgeEvent.Limit.NONE);
    }

    @Test
    void theBackTierKeysByTheAddressTheFrontPassed(TestInfo test) throws IOException {
        EdgeEvent back = one(test, BACK);

        assertThat(back.key()).isEqualTo("127.0.23.1");
        assertThat(back.cache()).isEqualTo(EdgeEvent.Cache.NONE);
        assertThat(back.upstreamMs()).isEqualTo(188);
    }

    @Test
    void linesThatAreNotObjectsAreSkippedAndTheRestReadInOrder(TestInfo test) throws IOException {
        assertThat(read(test, MISS, "", HIT)).extracting(EdgeEvent::cache)
                .containsExactly(EdgeEvent.Cache.MISS, EdgeEvent.Cache.HIT);
    }

    @Test
    void aLineThatDoesNotReadNamesItsFileAndLine(TestInfo test) {
        String badCache = HIT.replace("\"cache\":\"HIT\"", "\"cache\":\"STALE\"");
        String badStart = HIT.replace("\"start_ms\":\"1795977040562\"", "\"start_ms\":\"-\"");

        assertThatThrownBy(() -> read(test, MISS, badCache)).isInstanceOf(IOException.class)
                .hasMessageContaining("line 2").hasMessageContaining("field cache");
        assertThatThrownBy(() -> read(test, badStart)).isInstanceOf(IOException.class)
                .hasMessageContaining("line 1").hasMessageContaining("start_ms");
    }
}
