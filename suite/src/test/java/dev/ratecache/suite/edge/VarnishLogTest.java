package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * A Varnish tier's requests as events, on lines varnishncsa wrote with {@link VarnishLog#FORMAT} for
 * VarnishEventsTest's tiers (front-access.log and back-access.log of its stack): the front's key is
 * the peer's address (%h), the back's the address its VCL logs (the client's, not the front's).
 */
class VarnishLogTest {
    private static final String MISS = """
            {"start":"1795751962.938301","us":167970,"key":"","host":"127.0.8.1","method":"GET","uri":"/hare?t=1","status":200,"bytes":78,"handling":"miss","cache":"MISS","limit":"PASSED","fetch":"0.164535"}""";
    private static final String HIT = """
            {"start":"1795751963.107187","us":52,"key":"","host":"127.0.8.1","method":"GET","uri":"/hare?t=1","status":200,"bytes":78,"handling":"hit","cache":"HIT","limit":"PASSED","fetch":""}""";
    private static final String BYPASS = """
            {"start":"1795751963.108011","us":109952,"key":"","host":"127.0.8.2","method":"GET","uri":"/hare?t=2","status":200,"bytes":78,"handling":"pass","cache":"BYPASS","limit":"PASSED","fetch":"0.109448"}""";
    private static final String REJECTED = """
            {"start":"1795751963.334121","us":67,"key":"","host":"127.0.8.3","method":"GET","uri":"/hare?t=8","status":429,"bytes":18,"handling":"synth","cache":"","limit":"REJECTED","fetch":""}""";
    /** From grace: the hit starts a background fetch (so a Fetch timestamp) but asked the back tier nothing itself. */
    private static final String STALE = """
            {"start":"1795751964.597120","us":532,"key":"","host":"127.0.8.21","method":"GET","uri":"/swr?t=13","status":200,"bytes":77,"handling":"hit","cache":"STALE","limit":"PASSED","fetch":"0.000491"}""";
    private static final String BACK = """
            {"start":"1795751962.938625","us":167524,"key":"127.0.8.1","host":"127.0.0.1","method":"GET","uri":"/hare?t=1","status":200,"bytes":78,"handling":"pass","cache":"","limit":"PASSED","fetch":"0.164044"}""";
    /** The back tier's share of that grace hit: its refresh, which the origin answered 304. */
    private static final String REFRESH = """
            {"start":"1795751964.597417","us":12290,"key":"127.0.8.21","host":"127.0.0.1","method":"GET","uri":"/swr?t=13","status":304,"bytes":0,"handling":"pass","cache":"","limit":"PASSED","fetch":"0.012245"}""";

    private static List<EdgeEvent> read(TestInfo test, String... lines) throws IOException {
        Path log = TestDirs.fresh(test).resolve("front-access.log");
        Files.write(log, List.of(lines));
        return VarnishLog.read(log);
    }

    private static EdgeEvent one(TestInfo test, String line) throws IOException {
        return read(test, line).get(0);
    }

    @Test
    void aMissArrivedAtItsStartAndEndedWithItsResponseAfterTheFetch(TestInfo test) throws IOException {
        EdgeEvent miss = one(test, MISS);

        // 1795751962.938301 s and 167970 us later: 1795751963.106271 s.
        assertThat(miss).isEqualTo(new EdgeEvent(1795751962938L, 1795751963106L, "127.0.8.1", "GET", "/hare?t=1", 200,
                78, EdgeEvent.Limit.PASSED, EdgeEvent.Cache.MISS, "200", 164, ""));
    }

    @Test
    void aHitNeverWentUpstream(TestInfo test) throws IOException {
        EdgeEvent hit = one(test, HIT);

        assertThat(hit.cache()).isEqualTo(EdgeEvent.Cache.HIT);
        assertThat(hit.wentUpstream()).isFalse();
        assertThat(hit.upstreamMs()).isZero();
    }

    @Test
    void aPassedRequestWithAuthorizationIsABypassThatWentUpstream(TestInfo test) throws IOException {
        EdgeEvent bypass = one(test, BYPASS);

        assertThat(bypass.cache()).isEqualTo(EdgeEvent.Cache.BYPASS);
        assertThat(bypass.upstreamStatus()).isEqualTo("200");
        assertThat(bypass.upstreamMs()).isEqualTo(109);
    }

    @Test
    void aRejectionIs429FromTheLimitWithNoUpstreamAndNoCache(TestInfo test) throws IOException {
        assertThat(one(test, REJECTED)).isEqualTo(new EdgeEvent(1795751963334L, 1795751963334L, "127.0.8.3", "GET",
                "/hare?t=8", 429, 18, EdgeEvent.Limit.REJECTED, EdgeEvent.Cache.NONE, "", 0, ""));
    }

    @Test
    void anAnswerFromGraceIsStaleAndLeavesItsRefreshToItsOwnFetch(TestInfo test) throws IOException {
        EdgeEvent stale = one(test, STALE);

        assertThat(stale.cache()).isEqualTo(EdgeEvent.Cache.STALE);
        assertThat(stale.wentUpstream()).isFalse();
        assertThat(stale.upstreamMs()).isZero();
    }

    @Test
    void theBackTiersEventsHaveTheOriginsStatusAndTime(TestInfo test) throws IOException {
        List<EdgeEvent> back = read(test, BACK, REFRESH);

        assertThat(back).extracting(EdgeEvent::key, EdgeEvent::upstreamStatus, EdgeEvent::upstreamMs, EdgeEvent::cache)
                .containsExactly(tuple("127.0.8.1", "200", 164L, EdgeEvent.Cache.NONE),
                        tuple("127.0.8.21", "304", 12L, EdgeEvent.Cache.NONE));
    }

    @Test
    void aTierWithoutALimitHasNone(TestInfo test) throws IOException {
        assertThat(one(test, MISS.replace("\"limit\":\"PASSED\"", "\"limit\":\"\"")).limit()).isEqualTo(EdgeEvent.Limit.NONE);
    }

    @Test
    void aLineThatDoesNotReadIsAnErrorNamingItsLine(TestInfo test) {
        assertThatThrownBy(() -> read(test, MISS, HIT.replace("\"HIT\"", "\"MAYBE\"")))
                .isInstanceOf(IOException.class).hasMessageContaining("front-access.log, line 2")
                .hasMessageContaining("MAYBE");
        assertThatThrownBy(() -> read(test, MISS.replace("\"start\":\"1795751962.938301\"", "\"start\":\"\"")))
                .isInstanceOf(IOException.class).hasMessageContaining("line 1");
    }
}
