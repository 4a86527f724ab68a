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
 * A HAProxy tier's access log as events, on lines HaproxyEventsTest's tiers wrote (front-access.log
 * and back-access.log of its stack), in haproxy/snippets/shared/logging.cfg's format.
 */
class HaproxyLogTest {
    private static final String MISS = """
            {"accept_ms":1795751961853,"th":0,"ti":11,"treq":0,"tw":0,"tc":0,"tr":180,"ta":180,"key":"127.0.7.1","method":"GET","uri":"\\/hare?t=1","status":200,"sent":286,"length":"-","server":"back","limit":"PASSED","cache":"MISS"}""";
    private static final String HIT = """
            {"accept_ms":1795751962050,"th":0,"ti":0,"treq":0,"tw":0,"tc":0,"tr":0,"ta":0,"key":"127.0.7.1","method":"GET","uri":"\\/hare?t=1","status":200,"sent":290,"length":"-","server":"<CACHE>","limit":"PASSED","cache":"HIT"}""";
    private static final String BYPASS = """
            {"accept_ms":1795751962052,"th":0,"ti":0,"treq":0,"tw":0,"tc":0,"tr":112,"ta":112,"key":"127.0.7.2","method":"GET","uri":"\\/hare?t=2","status":200,"sent":286,"length":"-","server":"back","limit":"PASSED","cache":"BYPASS"}""";
    private static final String REJECTED = """
            {"accept_ms":1795751962269,"th":0,"ti":14,"treq":0,"tw":-1,"tc":-1,"tr":-1,"ta":0,"key":"127.0.7.3","method":"GET","uri":"\\/hare?t=9","status":429,"sent":76,"length":"0","server":"<NOSRV>","limit":"REJECTED","cache":"-"}""";
    private static final String BACK = """
            {"accept_ms":1795751961864,"th":0,"ti":0,"treq":0,"tw":0,"tc":4,"tr":170,"ta":181,"key":"127.0.7.1","method":"GET","uri":"\\/hare?t=1","status":200,"sent":286,"length":"-","server":"origin1","limit":"PASSED","cache":"-"}""";
    /** HAProxy's own notice at a soft stop, in the same output. */
    private static final String NOTICE = "Proxy front stopped (cumulated conns: FE: 14, BE: 0).";

    private static List<EdgeEvent> read(TestInfo test, String... lines) throws IOException {
        Path log = TestDirs.fresh(test).resolve("front-access.log");
        Files.write(log, List.of(lines));
        return HaproxyLog.read(log);
    }

    private static EdgeEvent one(TestInfo test, String line) throws IOException {
        return read(test, line).get(0);
    }

    @Test
    void aMissArrivedAfterTheIdleTimeOfItsConnectionAndWentToTheBackTier(TestInfo test) throws IOException {
        EdgeEvent miss = one(test, MISS);

        assertThat(miss).isEqualTo(new EdgeEvent(1795751961864L, 1795751962044L, "127.0.7.1", "GET", "/hare?t=1", 200,
                286, EdgeEvent.Limit.PASSED, EdgeEvent.Cache.MISS, "200", 180, ""));
    }

    @Test
    void aHitNeverWentUpstream(TestInfo test) throws IOException {
        EdgeEvent hit = one(test, HIT);

        assertThat(hit.cache()).isEqualTo(EdgeEvent.Cache.HIT);
        assertThat(hit.wentUpstream()).isFalse();
        assertThat(hit.upstreamMs()).isZero();
        assertThat(hit.arrivalMs()).isEqualTo(hit.endMs()).isEqualTo(1795751962050L);
    }

    @Test
    void aRequestWithAuthorizationIsABypassThatWentUpstream(TestInfo test) throws IOException {
        EdgeEvent bypass = one(test, BYPASS);

        assertThat(bypass.cache()).isEqualTo(EdgeEvent.Cache.BYPASS);
        assertThat(bypass.upstreamStatus()).isEqualTo("200");
        assertThat(bypass.upstreamMs()).isEqualTo(112);
    }

    @Test
    void aRejectionIs429FromTheLimitWithNoUpstreamAndNoCache(TestInfo test) throws IOException {
        EdgeEvent rejected = one(test, REJECTED);

        assertThat(rejected).isEqualTo(new EdgeEvent(1795751962283L, 1795751962283L, "127.0.7.3", "GET", "/hare?t=9",
                429, 0, EdgeEvent.Limit.REJECTED, EdgeEvent.Cache.NONE, "", 0, ""));
    }

    @Test
    void theBackTiersEventHasTheOriginsStatusAndTimeFromTheConnectOn(TestInfo test) throws IOException {
        EdgeEvent back = one(test, BACK);

        assertThat(back.key()).isEqualTo("127.0.7.1");
        assertThat(back.upstreamStatus()).isEqualTo("200");
        assertThat(back.upstreamMs()).isEqualTo(181);
        assertThat(back.upstreamArrivalMs()).isEqualTo(1795751961864L);
        assertThat(back.cache()).isEqualTo(EdgeEvent.Cache.NONE);
    }

    @Test
    void theTimeQueuedAndReceivingTheRequestIsNotTheUpstreams(TestInfo test) throws IOException {
        EdgeEvent queued = one(test, BACK.replace("\"treq\":0,\"tw\":0", "\"treq\":3,\"tw\":40").replace("\"ta\":181", "\"ta\":224"));

        assertThat(queued.upstreamMs()).isEqualTo(181);
    }

    @Test
    void theBodyIsTheAnswersContentLengthWhereItHasOne(TestInfo test) throws IOException {
        assertThat(one(test, MISS.replace("\"length\":\"-\"", "\"length\":\"78\"")).bytes()).isEqualTo(78);
    }

    @Test
    void aHeadRequestSentNoBody(TestInfo test) throws IOException {
        assertThat(one(test, MISS.replace("\"GET\"", "\"HEAD\"").replace("\"length\":\"-\"", "\"length\":\"78\"")).bytes())
                .isZero();
    }

    @Test
    void haproxysOwnNoticesAreNoRequests(TestInfo test) throws IOException {
        assertThat(read(test, MISS, HIT, NOTICE, "")).extracting(EdgeEvent::cache)
                .containsExactly(EdgeEvent.Cache.MISS, EdgeEvent.Cache.HIT);
    }

    @Test
    void aLineThatDoesNotReadIsAnErrorNamingItsLine(TestInfo test) {
        assertThatThrownBy(() -> read(test, MISS, MISS.replace("\"MISS\"", "\"MAYBE\"")))
                .isInstanceOf(IOException.class).hasMessageContaining("front-access.log, line 2")
                .hasMessageContaining("MAYBE");
        assertThatThrownBy(() -> read(test, MISS.substring(0, 80))).isInstanceOf(IOException.class)
                .hasMessageContaining("line 1");
    }

    @Test
    void aTierThatNeverLoggedHasNoLogToRead(TestInfo test) {
        assertThatThrownBy(() -> HaproxyLog.read(TestDirs.fresh(test).resolve("front-access.log")))
                .isInstanceOf(IOException.class).hasMessageContaining("no access log at");
    }
}
