package dev.ratecache.suite;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/** Real HTTP on 127.0.0.1, as the tests need it: plain GETs, concurrent bursts, and a chosen source address. */
public final class Http {
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    /** Clients for TLS tiers, by the authority (host:port) they serve: each trusts its stack's CA alone. */
    private static final Map<String, HttpClient> TLS_CLIENTS = new java.util.concurrent.ConcurrentHashMap<>();

    private Http() {}

    /**
     * From now on, requests to {@code base}'s host and port go over TLS trusting {@code context}
     * (a stack's CA), in HTTP/2 where the tier offers it (ALPN): the same helpers then serve
     * cleartext and TLS tiers alike, and behaviour tests run over HTTP/2 unchanged.
     */
    public static void trust(URI base, javax.net.ssl.SSLContext context) {
        TLS_CLIENTS.put(base.getAuthority(), HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_2)
                .connectTimeout(Duration.ofSeconds(5))
                .sslContext(context)
                .build());
    }

    private static HttpClient client(URI uri) {
        return "https".equals(uri.getScheme()) ? TLS_CLIENTS.getOrDefault(uri.getAuthority(), CLIENT) : CLIENT;
    }

    public static HttpResponse<String> get(URI base, String path, String... headers) {
        return send(request(base, path, headers).GET().build());
    }

    public static HttpResponse<String> send(HttpRequest request) {
        try {
            return client(request.uri()).send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(request.method() + " " + request.uri() + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    public static HttpRequest.Builder request(URI base, String path, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60));
        for (int i = 0; i + 1 < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return b;
    }

    /** Sends all {@code paths} at once (one connection each) and waits for every answer. */
    public static List<HttpResponse<String>> burst(URI base, List<String> paths, String... headers) {
        List<CompletableFuture<HttpResponse<String>>> futures = new ArrayList<>();
        for (String path : paths) {
            futures.add(client(base).sendAsync(request(base, path, headers).GET().build(), HttpResponse.BodyHandlers.ofString()));
        }
        return futures.stream().map(CompletableFuture::join).toList();
    }

    private static byte[] readChunks(java.io.InputStream in) throws IOException {
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        for (String size = readLine(in); size != null; size = readLine(in)) {
            int n = Integer.parseInt(size.split(";")[0].trim(), 16);
            if (n == 0) {
                readLine(in);
                break;
            }
            body.write(in.readNBytes(n));
            readLine(in);
        }
        return body.toByteArray();
    }

    private static String readLine(java.io.InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != -1; c = in.read()) {
            if (c == '\n') {
                int end = line.length();
                return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
            }
            line.append((char) c);
        }
        return line.length() == 0 ? null : line.toString();
    }

    /**
     * A response read off a raw socket. {@code headers} keeps every copy of every header, in the
     * order they came, under names that match whatever their case: a header sent twice shows as
     * two values, so a test can tell "once" from "twice".
     */
    public record Raw(int status, Map<String, List<String>> headers, String body) {
        public Raw {
            Map<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            headers.forEach((name, values) -> copy.computeIfAbsent(name, n -> new ArrayList<>()).addAll(values));
            copy.replaceAll((name, values) -> List.copyOf(values));
            headers = Collections.unmodifiableMap(copy);
        }

        /** Every value of header {@code name}, in the order they came; empty if it was not sent. */
        public List<String> allValues(String name) {
            return headers.getOrDefault(name, List.of());
        }

        /**
         * The value of header {@code name}, or null if it was not sent. A header sent more than once
         * has no single value: that fails, rather than picking one copy and hiding the other.
         */
        public String header(String name) {
            List<String> values = allValues(name);
            if (values.size() > 1) {
                throw new AssertionError("header " + name + " was sent " + values.size() + " times: " + values);
            }
            return values.isEmpty() ? null : values.get(0);
        }
    }

    /**
     * One request from a chosen source address (e.g. 127.0.0.2): the JDK's client cannot bind one.
     * {@code headers} are extra request header lines.
     */
    public static Raw raw(String sourceAddress, int port, String method, String path, String... headers) {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(sourceAddress), 0));
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            socket.setSoTimeout(60_000);
            StringBuilder request = new StringBuilder(method + " " + path + " HTTP/1.1\r\nConnection: close\r\n");
            if (java.util.Arrays.stream(headers).noneMatch(h -> h.toLowerCase().startsWith("host:"))) {
                request.append("Host: 127.0.0.1:").append(port).append("\r\n");
            }
            for (String h : headers) {
                request.append(h).append("\r\n");
            }
            OutputStream out = socket.getOutputStream();
            out.write(request.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
            out.flush();
            java.io.InputStream in = new java.io.BufferedInputStream(socket.getInputStream());
            String statusLine = readLine(in);
            if (statusLine == null) {
                throw new IOException("no response");
            }
            return read(in, statusLine, method);
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + path + " from " + sourceAddress + " failed: " + e, e);
        }
    }

    /**
     * Reads the rest of a response whose status line has been read: every header line, then
     * exactly the body. nginx may keep the connection open after the body (e.g. during a
     * background cache refresh), so reading to EOF would measure the wrong thing.
     */
    private static Raw read(java.io.InputStream in, String statusLine, String method) throws IOException {
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        Map<String, List<String>> responseHeaders = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String line = readLine(in); line != null && !line.isEmpty(); line = readLine(in)) {
            int colon = line.indexOf(':');
            responseHeaders.computeIfAbsent(line.substring(0, colon).trim(), name -> new ArrayList<>())
                    .add(line.substring(colon + 1).trim());
        }
        Raw head = new Raw(status, responseHeaders, "");
        String length = head.header("Content-Length");
        byte[] bytes;
        if (method.equals("HEAD") || status == 304 || status == 204) {
            bytes = new byte[0];
        } else if (length != null) {
            bytes = in.readNBytes(Integer.parseInt(length));
        } else if ("chunked".equalsIgnoreCase(head.header("Transfer-Encoding"))) {
            bytes = readChunks(in);
        } else {
            bytes = in.readAllBytes();
        }
        return new Raw(status, responseHeaders, new String(bytes, StandardCharsets.UTF_8));
    }
}
