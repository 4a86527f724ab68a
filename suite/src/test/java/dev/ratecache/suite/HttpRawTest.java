package dev.ratecache.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.testkit.StackTest;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** How {@link Http#raw} reads a response, against a canned one from a local socket: no nginx. */
@StackTest
class HttpRawTest {

    /** Answers one request on 127.0.0.1 with {@code response} and returns what it read. */
    private static Http.Raw answeredWith(String response) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            CompletableFuture<Void> served = CompletableFuture.runAsync(() -> {
                try (Socket client = server.accept()) {
                    BufferedReader request = new BufferedReader(
                            new InputStreamReader(client.getInputStream(), StandardCharsets.US_ASCII));
                    for (String line = request.readLine(); line != null && !line.isEmpty(); line = request.readLine()) {
                        // the request's head, up to its blank line
                    }
                    OutputStream out = client.getOutputStream();
                    out.write(response.getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Http.Raw raw = Http.raw("127.0.0.1", server.getLocalPort(), "GET", "/canned");
            served.get(10, TimeUnit.SECONDS);
            return raw;
        }
    }

    @Test
    void headerSentTwiceKeepsBothCopiesInOrder() throws Exception {
        Http.Raw raw = answeredWith("HTTP/1.1 200 OK\r\n"
                + "X-Frame-Options: DENY\r\n"
                + "Content-Length: 5\r\n"
                + "x-frame-options: SAMEORIGIN\r\n"
                + "\r\n"
                + "hello");

        assertThat(raw.status()).isEqualTo(200);
        assertThat(raw.allValues("X-Frame-Options")).containsExactly("DENY", "SAMEORIGIN");
        assertThat(raw.headers().get("x-frame-options")).containsExactly("DENY", "SAMEORIGIN");
        assertThat(raw.body()).isEqualTo("hello");
    }

    @Test
    void singleValueOfAHeaderSentTwiceIsRefusedNotGuessed() throws Exception {
        Http.Raw raw = answeredWith("HTTP/1.1 200 OK\r\n"
                + "Referrer-Policy: no-referrer\r\n"
                + "Referrer-Policy: no-referrer\r\n"
                + "Content-Length: 0\r\n"
                + "\r\n");

        assertThatThrownBy(() -> raw.header("referrer-policy"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("2 times");
    }

    @Test
    void headerSentOnceHasOneValueWhateverTheCaseOfItsName() throws Exception {
        Http.Raw raw = answeredWith("HTTP/1.1 404 Not Found\r\n"
                + "content-type: text/plain\r\n"
                + "Transfer-Encoding: chunked\r\n"
                + "\r\n"
                + "3\r\nnot\r\n6\r\n found\r\n0\r\n\r\n");

        assertThat(raw.status()).isEqualTo(404);
        assertThat(raw.header("Content-Type")).isEqualTo("text/plain");
        assertThat(raw.allValues("CONTENT-TYPE")).containsExactly("text/plain");
        assertThat(raw.header("X-Absent")).isNull();
        assertThat(raw.allValues("X-Absent")).isEmpty();
        assertThat(raw.body()).isEqualTo("not found");
    }
}
