package dev.ratecache.client.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.client.RateCacheClient;
import dev.ratecache.client.ResponseSource;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpRequest;

/** What the factory does before anything reaches the wire (SpringRequestFactoryTest sends requests). */
class RateCacheRequestFactoryTest {
    @Test
    void theSourceHeaderReadsBackAsTheResponsesSourceAndAnythingElseAsNone() {
        HttpHeaders headers = new HttpHeaders();
        assertThat(RateCacheRequestFactory.sourceOf(headers)).isNull();

        headers.set(RateCacheRequestFactory.SOURCE_HEADER, "STALE_WHILE_REVALIDATING");
        assertThat(RateCacheRequestFactory.sourceOf(headers)).isEqualTo(ResponseSource.STALE_WHILE_REVALIDATING);

        headers.set(RateCacheRequestFactory.SOURCE_HEADER, "from a proxy of its own");
        assertThat(RateCacheRequestFactory.sourceOf(headers)).isNull();
    }

    @Test
    void aRequestIsTheMethodAndUriSpringAskedFor() throws Exception {
        try (RateCacheClient client = RateCacheClient.create()) {
            RateCacheRequestFactory factory = new RateCacheRequestFactory(client);
            ClientHttpRequest request = factory.createRequest(URI.create("http://api.example/items/1"), HttpMethod.PUT);

            assertThat(factory.client()).isSameAs(client);
            assertThat(request.getMethod()).isEqualTo(HttpMethod.PUT);
            assertThat(request.getURI()).isEqualTo(URI.create("http://api.example/items/1"));
            assertThatThrownBy(() -> new RateCacheRequestFactory(null)).isInstanceOf(NullPointerException.class);
        }
    }
}
