package dev.ratecache.suite.nginx;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * nginx's stub_status page, parsed:
 * <pre>
 * Active connections: 2
 * server accepts handled requests
 *  10 10 25
 * Reading: 0 Writing: 1 Waiting: 1
 * </pre>
 * https://nginx.org/en/docs/http/ngx_http_stub_status_module.html#data. The suite's tiers serve it
 * at {@link #PATH} on their status ports; {@code up}'s status line, the faults' injector and the
 * attacks' connection count all read it here.
 *
 * @param active   open client connections, idle ones and the status request's own included
 * @param requests client requests since the master started (the status page's own included)
 * @param reading  connections reading a request's header
 * @param writing  connections with a request under way (its body read, or its answer written)
 * @param waiting  connections idle between requests (keep-alive)
 */
public record StubStatus(long active, long accepts, long handled, long requests, long reading, long writing,
        long waiting) {
    public static final String PATH = "/nginx_status";
    private static final Pattern PAGE = Pattern.compile("Active connections:\\s*(\\d+)\\s+server accepts handled"
            + " requests\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+Reading:\\s*(\\d+)\\s+Writing:\\s*(\\d+)\\s+Waiting:\\s*(\\d+)");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    /** The counters of a stub_status page; empty when the text is not one. */
    public static Optional<StubStatus> parse(String page) {
        Matcher m = PAGE.matcher(page == null ? "" : page);
        if (!m.find()) {
            return Optional.empty();
        }
        long[] v = new long[7];
        for (int i = 0; i < v.length; i++) {
            v[i] = Long.parseLong(m.group(i + 1));
        }
        return Optional.of(new StubStatus(v[0], v[1], v[2], v[3], v[4], v[5], v[6]));
    }

    /**
     * The page of the tier whose status port on the loopback is {@code port}; empty when it does not
     * answer within a second, or not with a stub_status page: a missed reading, which the callers
     * (a poll, a sampler) take again.
     */
    public static Optional<StubStatus> fetch(int port) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + PATH))
                    .timeout(Duration.ofSeconds(1)).build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? parse(r.body()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
