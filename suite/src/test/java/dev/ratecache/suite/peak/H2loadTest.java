package dev.ratecache.suite.peak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** h2load's text output (Debian's nghttp2-client 1.52) read back into numbers. */
class H2loadTest {
    /** -c2 -m10 -n2000 against nginx 1.22 over TLS: every request answered. */
    private static final String RUN = """
            starting benchmark...
            spawning thread #0: 2 total client(s). 2000 total requests
            TLS Protocol: TLSv1.2
            Cipher: ECDHE-ECDSA-AES128-GCM-SHA256
            Server Temp Key: X25519 253 bits
            Application protocol: h2
            progress: 10% done
            progress: 100% done

            finished in 56.81ms, 35207.55 req/s, 2.62MB/s
            requests: 2000 total, 2000 started, 2000 done, 2000 succeeded, 0 failed, 0 errored, 0 timeout
            status codes: 2000 2xx, 0 3xx, 0 4xx, 0 5xx
            traffic: 152.44KB (156098) total, 97.66KB (100000) headers (space savings 49.49%), 19.53KB (20000) data
                                 min         max         mean         sd        +/- sd
            time for request:       68us       885us       410us       132us    70.65%
            time for connect:     3.19ms      5.09ms      4.14ms      1.34ms   100.00%
            time to 1st byte:     5.35ms      5.79ms      5.57ms       310us   100.00%
            req/s           :   17718.33    18353.80    18036.06      449.35   100.00%
            """;

    /**
     * -c5 -m10 -n25000 against an nginx whose keepalive_requests is 1000: each connection ends after
     * 1000 (GOAWAY) and h2load does not reconnect, so 20000 requests fail.
     */
    private static final String CUT_SHORT = """
            spawning thread #0: 5 total client(s). 25000 total requests
            TLS Protocol: TLSv1.2
            Cipher: ECDHE-ECDSA-AES128-GCM-SHA256
            Server Temp Key: X25519 253 bits
            Application protocol: h2
            Process Request Failure:3992
            Process Request Failure:19992

            finished in 80.28ms, 62282.79 req/s, 4.64MB/s
            requests: 25000 total, 5045 started, 5037 done, 5000 succeeded, 20000 failed, 20000 errored, 0 timeout
            status codes: 5000 2xx, 0 3xx, 0 4xx, 0 5xx
            """;

    @Test
    void readsTheRateFromTheAnsweredRequestsAndItsOwnTime() {
        H2load.Result r = H2load.parse(RUN);
        assertThat(r.seconds()).isEqualTo(0.05681, within(1e-12));
        assertThat(r.requests()).isEqualTo(2000);
        assertThat(r.succeeded()).isEqualTo(2000);
        assertThat(r.failed()).isZero();
        assertThat(r.requestsPerSecond()).isEqualTo(2000 / 0.05681, within(1e-6));
        assertThat(r.tls()).isEqualTo("TLSv1.2 ECDHE-ECDSA-AES128-GCM-SHA256");
        assertThat(r.application()).isEqualTo("h2");
    }

    @Test
    void failedRequestsCountOnceAndNeverAsAnswered() {
        H2load.Result r = H2load.parse(CUT_SHORT);
        // "failed" already counts the errored ones; the rate is of answers, not of h2load's own req/s.
        assertThat(r.failed()).isEqualTo(20000);
        assertThat(r.succeeded()).isEqualTo(5000);
        assertThat(r.requestsPerSecond()).isEqualTo(5000 / 0.08028, within(1e-6));
    }

    @Test
    void runsAddUpAndKeepWhatWasNegotiated() {
        H2load.Result both = new H2load.Result(0, 0, 0, 0, "", "").plus(H2load.parse(RUN)).plus(H2load.parse(CUT_SHORT));
        assertThat(both.succeeded()).isEqualTo(7000);
        assertThat(both.seconds()).isEqualTo(0.05681 + 0.08028, within(1e-12));
        assertThat(both.application()).isEqualTo("h2");
    }

    @Test
    void asManyRequestsInFlightAsWrks() {
        assertThat(H2load.connectionsFor(50, 10)).isEqualTo(5);
        assertThat(H2load.connectionsFor(55, 10)).isEqualTo(6);
        assertThat(H2load.connectionsFor(3, 10)).isEqualTo(1);
        assertThat(new H2load(5, 10).describe()).isEqualTo("h2load -c5 -m10");
    }

    @Test
    void refusesWhatIsNotItsOutput() {
        assertThatThrownBy(() -> H2load.parse("No protocol negotiated. Fallback behaviour may be activated\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not h2load's output");
    }
}
