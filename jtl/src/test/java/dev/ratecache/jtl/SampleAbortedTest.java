package dev.ratecache.jtl;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SampleAbortedTest {

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            java.net.SocketException | Socket closed | true
            java.net.SocketException | Socket is closed | true
            java.lang.IllegalStateException | Connection pool shut down | true
            org.apache.http.impl.conn.ConnectionShutdownException | Connection has been shut down | true
            org.apache.http.impl.conn.ConnectionShutdownException | Connection already shutdown | true
            org.apache.http.impl.execchain.RequestAbortedException | Request aborted | true
            org.apache.http.impl.execchain.RequestAbortedException | Request execution failed | true
            java.net.SocketException | Connection reset | false
            java.net.SocketException | Broken pipe | false
            org.apache.http.NoHttpResponseException | 127.0.0.1:8080 failed to respond | false
            """)
    void jmetersOwnAbortsAreKnownByTheirWordsAndTheServersFailuresAreNot(String code, String message, boolean own) {
        Sample s = new Sample(1, 1, "/", "Non HTTP response code: " + code, "Non HTTP response message: " + message, "",
                false, 0, 1, "", "", "");
        assertThat(s.abortedByJMeter()).isEqualTo(own);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"200", "429", "502"})
    void anAnswerIsNeverAnAbort(String status) {
        assertThat(Sample.of(1, 1, status, status.equals("200")).abortedByJMeter()).isFalse();
    }
}
