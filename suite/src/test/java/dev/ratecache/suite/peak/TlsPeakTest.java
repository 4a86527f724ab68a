package dev.ratecache.suite.peak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ratecache.suite.peak.TlsPeak.Kind;
import dev.ratecache.suite.peak.TlsPeak.Row;
import dev.ratecache.suite.peak.TlsPeak.Sample;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** peak --tls's ratios, table and ceiling config, from figures made up here: no process runs. */
class TlsPeakTest {
    private static Sample rate(double perSecond) {
        return new Sample(perSecond, (long) perSecond, 0, 10);
    }

    @Test
    void eachRoundIsOverItsOwnCeilingAndTheMedianIsOfThoseRatios() {
        Row row = new Row(Kind.TLS_FULL, "openssl s_time -new", List.of(rate(300), rate(500), rate(200)),
                List.of(rate(600), rate(500), rate(400)));
        assertThat(row.ratios()).containsExactly(0.5, 1.0, 0.5);
        assertThat(row.medianRatio()).isEqualTo(0.5);
        assertThat(row.ratio().min()).isEqualTo(0.5);
        assertThat(row.ratio().max()).isEqualTo(1.0);
        // The ratio of medians would be 300 / 500 = 0.6: a round's drift falls on its own ceiling.
        assertThat(row.medianFront() / row.medianCeiling()).isEqualTo(0.6, within(1e-9));
        assertThat(new Row(Kind.HTTP2, "h2load", List.of(new Sample(1, 1, 0, 20), new Sample(1, 1, 0, 10)),
                List.of(new Sample(1, 1, 0, 5), new Sample(1, 1, 0, 8))).cpuRatios()).containsExactly(0.25, 0.8);
    }

    @Test
    void aCeilingThatAnsweredNothingGivesZeroNotInfinity() {
        Row row = new Row(Kind.HTTP2, "h2load -c5 -m10", List.of(rate(100)), List.of(rate(0)));
        assertThat(row.medianRatio()).isZero();
    }

    @Test
    void failuresOfTheFrontAndTheCeilingCountTogether() {
        Row row = new Row(Kind.TLS_RESUMED, "openssl s_time -reuse", List.of(new Sample(10, 10, 2, 1)),
                List.of(new Sample(10, 10, 3, 1)));
        assertThat(row.failures()).isEqualTo(5);
    }

    @Test
    void eachRowSetsTheModelsRateForItsOwnCpuBesideTheFrontsRate() {
        Row predicted = new Row(Kind.TLS_FULL, "openssl s_time -new", List.of(new Sample(500, 500, 0, 900, 400)),
                List.of(new Sample(600, 600, 0, 800, 600)));
        Row not = new Row(Kind.HTTP2, "h2load", List.of(new Sample(50, 50, 0, 20)), List.of(new Sample(100, 100, 0, 8)));

        String table = TlsPeak.table(new TlsPeak.Outcome(78, "TLSv1.3", List.of(predicted, not), List.of()));

        assertThat(table.lines().filter(l -> l.startsWith("TLS full handshake")).findFirst().orElseThrow())
                .endsWith("       400    +25%");
        assertThat(table.lines().filter(l -> l.startsWith("HTTP/2")).findFirst().orElseThrow()).endsWith("-       -");
    }

    @Test
    void theTableHasEveryRowWithItsClientRatioAndCpu() {
        List<Row> rows = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            rows.add(new Row(kind, "client-" + kind.ordinal(), List.of(new Sample(50, 50, 0, 20)),
                    List.of(new Sample(100, 100, 0, 8))));
        }
        String table = TlsPeak.table(new TlsPeak.Outcome(78, "TLSv1.3 TLS_AES_256_GCM_SHA384, certificate ECDSA P-256",
                rows, List.of()));
        assertThat(table).contains("body 78 bytes", "ECDSA P-256", "cleartext keep-alive HIT",
                "TLS keep-alive HIT (HTTP/1.1)", "TLS resumed handshake per request", "TLS full handshake per request",
                "HTTP/2 HIT, multiplexed", "client-4");
        assertThat(table.lines().filter(l -> l.contains(" 0.50 ") && l.contains("20.0") && l.contains("8.0")
                && l.contains(" 0.40 ")))
                .hasSize(Kind.values().length);
    }

    @Test
    void namesTheCertificatesKeyAsItsHandshakeSigns() throws Exception {
        KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
        ec.initialize(new ECGenParameterSpec("secp256r1"));
        assertThat(TlsPeak.key(ec.generateKeyPair().getPublic())).isEqualTo("ECDSA P-256");
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        assertThat(TlsPeak.key(rsa.generateKeyPair().getPublic())).isEqualTo("RSA 2048");
    }

    @Test
    void theTlsCeilingIncludesTheFrontsOwnTlsSnippets() {
        String config = CeilingServer.tlsConfig("1", 8443, 3, true);
        assertThat(config).contains("listen 127.0.0.1:8443 ssl http2;", "return 200 'xxx';", "keepalive_requests 10000;");
        for (String snippet : CeilingServer.TLS_SNIPPETS) {
            assertThat(config).contains("    include " + snippet + ";");
        }
        assertThat(CeilingServer.tlsConfig("1", 8443, 3, false)).contains("listen 127.0.0.1:8443 ssl;");
        // The cleartext ceiling is as it was.
        assertThat(CeilingServer.config("1", 8080, 3)).contains("listen 127.0.0.1:8080;").doesNotContain("ssl", "include");
    }
}
