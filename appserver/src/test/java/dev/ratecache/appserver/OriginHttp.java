package dev.ratecache.appserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** Real HTTP to the origin on 127.0.0.1, on either of its ports. */
final class OriginHttp {

    private static final ObjectMapper JSON = new ObjectMapper();

    // HTTP/1.1 so that concurrent requests use concurrent connections, as JMeter's do.
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private final int port;

    OriginHttp(int port) {
        this.port = port;
    }

    HttpResponse<String> get(String path, String... headers) {
        return send(request(path, headers).GET().build());
    }

    HttpResponse<String> head(String path) {
        return send(request(path).method("HEAD", HttpRequest.BodyPublishers.noBody()).build());
    }

    CompletableFuture<HttpResponse<String>> getAsync(String path) {
        return CLIENT.sendAsync(request(path).GET().build(), BodyHandlers.ofString());
    }

    HttpResponse<String> postJson(String path, String json) {
        return send(request(path, "Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    HttpResponse<String> put(String path, String body) {
        return send(request(path).PUT(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    HttpResponse<String> putJson(String path, String json) {
        return send(request(path, "Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    HttpResponse<String> delete(String path) {
        return send(request(path).DELETE().build());
    }

    /** Any method, e.g. an extension method such as REPORT, with a small body. */
    HttpResponse<String> method(String method, String path) {
        return send(request(path).method(method, HttpRequest.BodyPublishers.ofString("{}")).build());
    }

    JsonNode getJson(String path) {
        HttpResponse<String> response = get(path);
        if (response.statusCode() != 200) {
            throw new IllegalStateException(path + " answered " + response.statusCode());
        }
        return json(response.body());
    }

    static JsonNode json(String body) {
        try {
            return JSON.readTree(body);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private HttpRequest.Builder request(String path, String... headers) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30));
        if (headers.length > 0) {
            builder.headers(headers);
        }
        return builder;
    }

    private static HttpResponse<String> send(HttpRequest request) {
        try {
            return CLIENT.send(request, BodyHandlers.ofString());
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
