package dev.ratecache.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The library over TLS: an edge with the suite's throwaway CA (--tls), trusted by that CA alone. */
@StackTest
@ExtendWith(SharedOrigin.class)
class TlsTest {
    private static Stack stack;
    private static Path ca;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        stack = TestStacks.start(origin, TlsTest.class, new StackSwitches().tls(true).frontLimit(false).backLimit(false));
        ca = stack.tls().orElseThrow().trust();
    }

    @AfterAll
    static void stop() {
        stack.close();
    }

    @Test
    void trustingTheEdgesCaItFetchesOverHttpsAndCachesAsOverCleartext() throws Exception {
        String url = stack.frontUri() + TestStacks.fresh("six");
        try (RateCacheClient client = RateCacheClient.builder().trustCertificates(ca).build()) {
            RateCacheResponse first = client.get(url);
            RateCacheResponse second = client.get(url);

            assertThat(url).startsWith("https://");
            assertThat(first.code()).isEqualTo(200);
            assertThat(first.source()).isEqualTo(ResponseSource.NETWORK);
            assertThat(second.source()).isEqualTo(ResponseSource.CACHE);
            assertThat(client.stats().networkCount()).isEqualTo(1);
        }
    }

    @Test
    void withTheJdksCasAloneTheThrowawayCertificateIsRefused() throws Exception {
        try (RateCacheClient client = RateCacheClient.create()) {
            assertThatThrownBy(() -> client.get(stack.frontUri() + "/hare")).isInstanceOf(SSLException.class);
        }
    }

    @Test
    void aFileWithoutCertificatesIsRefusedWhenTheClientIsBuilt() throws Exception {
        Path empty = Files.writeString(Files.createTempFile("no-certificates", ".pem"), "nothing here\n");

        assertThatThrownBy(() -> RateCacheClient.builder().trustCertificates(empty))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(empty + " holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
    }
}
