package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.StackTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The per-endpoint headers that show how the tiers treat an origin's own: framing, Age, gzip, hop-by-hop. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
    "management.server.port=0",
    "origin.endpoints.framed.x-frame-options=SAMEORIGIN",
    "origin.endpoints.framed.content-security-policy=frame-ancestors 'self'",
    "origin.endpoints.aged.age=7",
    "origin.endpoints.zipped.gzip=true",
    "origin.endpoints.hopping.hop-by-hop-header=X-Hop"
})
@StackTest
class EndpointExtraHeadersTest {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    private HttpResponse<byte[]> get(String path, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
        for (int i = 0; i + 1 < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return CLIENT.send(request.build(), BodyHandlers.ofByteArray());
    }

    @Test
    void framingHeadersAreSentOnlyWhereConfigured() throws Exception {
        HttpResponse<byte[]> framed = get("/framed");
        HttpResponse<byte[]> hare = get("/hare");

        assertThat(framed.headers().allValues("X-Frame-Options")).containsExactly("SAMEORIGIN");
        assertThat(framed.headers().allValues("Content-Security-Policy")).containsExactly("frame-ancestors 'self'");
        assertThat(hare.headers().firstValue("X-Frame-Options")).isEmpty();
        assertThat(hare.headers().firstValue("Content-Security-Policy")).isEmpty();
    }

    @Test
    void ageIsSentInWholeSecondsOnlyWhereConfigured() throws Exception {
        assertThat(get("/aged").headers().allValues("Age")).containsExactly("7");
        assertThat(get("/hare").headers().firstValue("Age")).isEmpty();
    }

    @Test
    void hopByHopHeaderIsSentAndNamedInConnectionOnlyWhereConfigured() throws Exception {
        HttpResponse<byte[]> hopping = get("/hopping");

        assertThat(hopping.headers().allValues("X-Hop")).containsExactly("hop");
        assertThat(hopping.headers().allValues("Connection")).containsExactly("X-Hop");
        assertThat(get("/hare").headers().firstValue("X-Hop")).isEmpty();
    }

    @Test
    void gzipEndpointAnswersEachEncodingWithItsOwnStrongTagAndVary() throws Exception {
        HttpResponse<byte[]> gzipped = get("/zipped", "Accept-Encoding", "gzip, deflate");
        HttpResponse<byte[]> identity = get("/zipped");

        assertThat(gzipped.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(gzipped.headers().firstValue("ETag")).hasValue("\"zipped-v1+gzip\"");
        assertThat(gzipped.headers().allValues("Vary")).containsExactly("Accept-Encoding");
        assertThat(gunzip(gzipped.body())).contains("\"endpoint\":\"zipped\"");
        assertThat(identity.headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(identity.headers().firstValue("ETag")).hasValue("\"zipped-v1\"");
        assertThat(identity.headers().allValues("Vary")).containsExactly("Accept-Encoding");
        assertThat(new String(identity.body(), StandardCharsets.UTF_8)).contains("\"endpoint\":\"zipped\"");
    }

    @Test
    void gzipRepresentationIsRevalidatedWithItsOwnTag() throws Exception {
        HttpResponse<byte[]> gzipTag = get("/zipped", "Accept-Encoding", "gzip", "If-None-Match", "\"zipped-v1+gzip\"");
        HttpResponse<byte[]> identityTagForGzip = get("/zipped", "Accept-Encoding", "gzip", "If-None-Match", "\"zipped-v1\"");

        assertThat(gzipTag.statusCode()).isEqualTo(304);
        assertThat(gzipTag.headers().firstValue("ETag")).hasValue("\"zipped-v1+gzip\"");
        assertThat(identityTagForGzip.statusCode()).isEqualTo(200);
    }

    @Test
    void gzipRefusedWithZeroQualityOrNotOfferedGetsIdentity() throws Exception {
        assertThat(get("/zipped", "Accept-Encoding", "gzip;q=0, identity").headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(get("/hare", "Accept-Encoding", "gzip").headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(get("/hare", "Accept-Encoding", "gzip").headers().firstValue("Vary")).isEmpty();
    }

    private static String gunzip(byte[] body) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
