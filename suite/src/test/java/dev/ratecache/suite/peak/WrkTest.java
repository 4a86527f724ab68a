package dev.ratecache.suite.peak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** wrk's text output (Debian's wrk 4.1, with --latency) read back into numbers. */
class WrkTest {
    /** A HIT run of ./run-tests.sh peak, as wrk printed it. */
    private static final String HIT = """
            Running 3s test @ http://127.0.0.1:27080/peak
              1 threads and 50 connections
              Thread Stats   Avg      Stdev     Max   +/- Stdev
                Latency   805.61us    0.93ms  14.67ms   95.68%
                Req/Sec    71.51k     6.76k   80.57k    83.33%
              Latency Distribution
                 50%  701.00us
                 75%  763.00us
                 90%    0.95ms
                 99%    4.86ms
              213098 requests in 3.00s, 96.74MB read
            Requests/sec:  71015.39
            Transfer/sec:     32.24MB
            """;

    /** A rejection run: wrk adds a line for non-2xx/3xx responses and one for socket errors. */
    private static final String REJECTED = """
            Running 1m test @ http://127.0.0.1:27080/peak
              2 threads and 50 connections
              Thread Stats   Avg      Stdev     Max   +/- Stdev
                Latency     1.20ms    2.10ms    1.02s    98.00%
                Req/Sec    40.00k     2.00k   45.00k    70.00%
              Latency Distribution
                 50%  555.00us
                 75%  700.00us
                 90%    1.00ms
                 99%    1.50s
              4800000 requests in 1.00m, 2.00GB read
              Socket errors: connect 0, read 3, write 0, timeout 2
              Non-2xx or 3xx responses: 4799940
            Requests/sec:  80000.00
            Transfer/sec:     34.00MB
            """;

    @Test
    void readsThroughputCountAndLatencies() {
        Wrk.Result r = Wrk.parse(HIT);
        assertThat(r.requestsPerSecond()).isEqualTo(71015.39);
        assertThat(r.requests()).isEqualTo(213098);
        assertThat(r.seconds()).isEqualTo(3.0, within(1e-9));
        assertThat(r.latencyAvg()).isEqualTo(0.80561, within(1e-9));
        assertThat(r.latencyP50()).isEqualTo(0.701, within(1e-9));
        assertThat(r.latencyP99()).isEqualTo(4.86, within(1e-9));
        assertThat(r.non2xx()).isZero();
        assertThat(r.socketErrors()).isZero();
    }

    @Test
    void readsRejectionsSocketErrorsAndEveryTimeUnit() {
        Wrk.Result r = Wrk.parse(REJECTED);
        assertThat(r.requestsPerSecond()).isEqualTo(80000.0);
        assertThat(r.seconds()).isEqualTo(60.0, within(1e-9));
        assertThat(r.non2xx()).isEqualTo(4799940);
        assertThat(r.non2xxShare()).isGreaterThan(0.99);
        assertThat(r.socketErrors()).isEqualTo(5);
        assertThat(r.latencyAvg()).isEqualTo(1.2, within(1e-9));
        assertThat(r.latencyP50()).isEqualTo(0.555, within(1e-9));
        assertThat(r.latencyP99()).isEqualTo(1500.0, within(1e-9));
    }

    @Test
    void somethingElseIsRefusedQuotingIt() {
        assertThatThrownBy(() -> Wrk.parse("unable to connect to 127.0.0.1:1 Connection refused\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not wrk's output").hasMessageContaining("Connection refused");
    }
}
