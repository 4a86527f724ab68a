package dev.ratecache.suite.peak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** openssl s_time's text output (OpenSSL 3.0, Debian) read back into numbers; the marks shortened. */
class STimeTest {
    /** -new against nginx 1.22 with the suite's TLS snippets: every connection a full handshake ('*'). */
    private static final String FULL = """
            Collecting connection statistics for 2 seconds
            ************************************************

            1459 connections in 1.15s; 1268.70 connections/user sec, bytes read 223227
            1459 connections in 3 real seconds, 153 bytes read per connection
            """;

    /** -reuse: 'r' for each connection whose session nginx's cache resumed. */
    private static final String RESUMED = """


            Now timing with session id reuse.
            starting
            rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr*rrrrrrrr

            6078 connections in 0.82s; 7412.20 connections/user sec, bytes read 929934
            6078 connections in 3 real seconds, 153 bytes read per connection
            """;

    @Test
    void readsTheConnectionsAndWhatEachRead() {
        STime.Result r = STime.parse(FULL);
        assertThat(r.connections()).isEqualTo(1459);
        assertThat(r.bytesPerConnection()).isEqualTo(153);
        assertThat(r.resumed()).isZero();
        // s_time's own rates are per second of its CPU, or over whole seconds: the caller times the run.
        assertThat(r.connectionsPerSecond()).isNaN();
        assertThat(r.timed(2.5).connectionsPerSecond()).isEqualTo(1459 / 2.5, within(1e-9));
    }

    @Test
    void countsTheResumedSessionsFromTheMarks() {
        STime.Result r = STime.parse(RESUMED);
        assertThat(r.connections()).isEqualTo(6078);
        // "starting" and "Now timing ..." are words, not marks.
        assertThat(r.resumed()).isEqualTo(50);
    }

    @Test
    void refusesWhatIsNotItsOutput() {
        assertThatThrownBy(() -> STime.parse("connect: Connection refused\nconnect:errno=111\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not openssl s_time's output").hasMessageContaining("Connection refused");
    }
}
