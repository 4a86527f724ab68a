package dev.ratecache.client.spring;

import dev.ratecache.client.RateCacheClient;
import dev.ratecache.client.RateCacheResponse;
import dev.ratecache.client.ResponseSource;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.Objects;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.AbstractClientHttpRequest;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Spring's {@code RestClient} and {@code RestTemplate} through a {@link RateCacheClient}: every
 * request they send goes through the client's cache, pacing, throttle, retries and statistics, as
 * {@link RateCacheClient#execute} does.
 *
 * <pre>{@code
 * RateCacheClient client = RateCacheClient.builder().paceToPolicy(true).build();
 * RestClient rest = RestClient.builder().requestFactory(new RateCacheRequestFactory(client)).build();
 * ResponseEntity<String> r = rest.get().uri("https://api.example.com/hare").retrieve().toEntity(String.class);
 * r.getHeaders().getFirst(RateCacheRequestFactory.SOURCE_HEADER);   // NETWORK, then CACHE
 * client.stats();                                                      // requests=2 network=1 hits=1 ...
 * }</pre>
 *
 * <p>Each response carries one header more than the server sent, {@value #SOURCE_HEADER}, naming
 * its {@link ResponseSource}: Spring's responses have no other place for it. Bodies are read in
 * full before Spring sees them (the cache stores whole responses, and a retry needs the request's
 * body again), so this suits API calls, not downloads of unbounded size. Needs
 * {@code org.springframework:spring-web} 6.1 or newer on the class path, which the library leaves
 * to its users (an optional dependency). The factory does not own the client: close the client
 * when done.
 */
public final class RateCacheRequestFactory implements ClientHttpRequestFactory {
    /** The response header that says where the response came from: a {@link ResponseSource} name. */
    public static final String SOURCE_HEADER = "RateCache-Source";

    private final RateCacheClient client;

    /** Sends every request through {@code client}. */
    public RateCacheRequestFactory(RateCacheClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    /** The client every request goes through (its statistics, its cache). */
    public RateCacheClient client() {
        return client;
    }

    @Override
    public ClientHttpRequest createRequest(URI uri, HttpMethod method) {
        return new Request(client, Objects.requireNonNull(uri, "uri"), Objects.requireNonNull(method, "method"));
    }

    /** The source a response of this factory names in {@value #SOURCE_HEADER}, or null for none. */
    public static ResponseSource sourceOf(HttpHeaders headers) {
        String name = headers.getFirst(SOURCE_HEADER);
        if (name == null) {
            return null;
        }
        try {
            return ResponseSource.valueOf(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static final class Request extends AbstractClientHttpRequest {
        private final RateCacheClient client;
        private final URI uri;
        private final HttpMethod method;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();

        Request(RateCacheClient client, URI uri, HttpMethod method) {
            this.client = client;
            this.uri = uri;
            this.method = method;
        }

        @Override
        public HttpMethod getMethod() {
            return method;
        }

        @Override
        public URI getURI() {
            return uri;
        }

        @Override
        protected OutputStream getBodyInternal(HttpHeaders headers) {
            return body;
        }

        @Override
        protected ClientHttpResponse executeInternal(HttpHeaders headers) throws IOException {
            BasicClassicHttpRequest request = new BasicClassicHttpRequest(method.name(), uri);
            headers.forEach((name, values) -> {
                // HttpClient frames the body itself, and refuses a request that already says how.
                if (!HttpHeaders.CONTENT_LENGTH.equalsIgnoreCase(name) && !HttpHeaders.TRANSFER_ENCODING.equalsIgnoreCase(name)) {
                    for (String value : values) {
                        request.addHeader(name, value);
                    }
                }
            });
            byte[] bytes = body.toByteArray();
            // A byte array is repeatable: a retried PUT or DELETE sends the same body again.
            if (bytes.length > 0 || method == HttpMethod.POST || method == HttpMethod.PUT || method == HttpMethod.PATCH) {
                request.setEntity(new ByteArrayEntity(bytes, null));
            }
            return new Response(client.execute(request));
        }
    }

    private static final class Response implements ClientHttpResponse {
        private final RateCacheResponse response;
        private final HttpHeaders headers = new HttpHeaders();
        private InputStream body;

        Response(RateCacheResponse response) {
            this.response = response;
            for (Header h : response.headers()) {
                headers.add(h.getName(), h.getValue());
            }
            headers.set(SOURCE_HEADER, response.source().name());
        }

        @Override
        public HttpStatusCode getStatusCode() {
            return HttpStatusCode.valueOf(response.code());
        }

        @Override
        public String getStatusText() {
            return response.reason() == null ? "" : response.reason();
        }

        @Override
        public HttpHeaders getHeaders() {
            return headers;
        }

        @Override
        public InputStream getBody() {
            if (body == null) {
                body = new ByteArrayInputStream(response.body());
            }
            return body;
        }

        @Override
        public void close() {
            // The body was read in full, and the connection went back to the pool then.
        }
    }
}
