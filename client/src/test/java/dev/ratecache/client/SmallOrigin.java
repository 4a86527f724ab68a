package dev.ratecache.client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.ratecache.proc.Ports;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An origin of the tests' own (the JDK's HttpServer on loopback) that sends exactly the headers a
 * test gives a path: the suite's origin adds its own stale permissions to every response. Each
 * path answers 200 with ETag "v1", a 304 to a request that has it, or a status the test sets; a
 * request can be held until the test lets it go. It counts what reached it.
 */
final class SmallOrigin implements AutoCloseable {
    /** How one path answers: its Cache-Control, the Age it claims (null: none), and on a 304 too. */
    record Path(String cacheControl, Integer age, Integer ageOn304) {}

    /** One request as the origin saw it: when it arrived (System.nanoTime), and what was answered. */
    record Seen(String path, boolean conditional, String authorization, long atNanos, AtomicInteger status) {
        Seen(String path, boolean conditional, String authorization) {
            this(path, conditional, authorization, System.nanoTime(), new AtomicInteger());
        }

        int answered() {
            return status.get();
        }
    }

    /**
     * A quota as the suite's edge announces it: {@code limit} requests per fixed window of
     * {@code windowSeconds}, starting at the first request after the last window ended; admitted
     * requests count. Every answer carries both policies (the burst item and the quota) in
     * RateLimit-Policy and the quota's RateLimit with t rounded up to whole seconds; a request
     * over the quota is the edge's 429 with Retry-After and the quota-exceeded problem.
     */
    private static final class Quota {
        final String name;
        final int limit;
        final long windowNanos;
        long windowStart = Long.MIN_VALUE;
        int admitted;

        Quota(String name, int limit, int windowSeconds) {
            this.name = name;
            this.limit = limit;
            this.windowNanos = windowSeconds * 1_000_000_000L;
        }
    }

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final Map<String, Path> paths = new ConcurrentHashMap<>();
    private final Map<String, Integer> failing = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch> holding = new ConcurrentHashMap<>();
    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private final Map<String, Quota> quotas = new ConcurrentHashMap<>();

    SmallOrigin() throws IOException {
        server = HttpServer.create(new InetSocketAddress(Ports.LOOPBACK, 0), 0);
        server.setExecutor(threads);
        server.createContext("/", this::handle);
        server.start();
    }

    String url(String path) {
        return "http://" + Ports.LOOPBACK + ":" + server.getAddress().getPort() + path;
    }

    /** {@code path} answers with {@code cacheControl} and, when not null, {@code Age: age} (on a 304 {@code ageOn304}). */
    SmallOrigin serve(String path, String cacheControl, Integer age, Integer ageOn304) {
        paths.put(path, new Path(cacheControl, age, ageOn304));
        return this;
    }

    /** {@code path} answers under a quota of {@code limit} requests per {@code windowSeconds}, policy {@code name}. */
    SmallOrigin quota(String path, String name, int limit, int windowSeconds) {
        quotas.put(path, new Quota(name, limit, windowSeconds));
        return this;
    }

    /** From now on {@code path} answers {@code status} with no cache headers. */
    void fail(String path, int status) {
        failing.put(path, status);
    }

    /** Conditional requests to {@code path} wait until the returned latch is counted down. */
    CountDownLatch holdRevalidations(String path) {
        CountDownLatch latch = new CountDownLatch(1);
        holding.put(path, latch);
        return latch;
    }

    List<Seen> seen(String path) {
        return seen.stream().filter(s -> s.path().equals(path)).toList();
    }

    long requests(String path) {
        return seen(path).size();
    }

    long revalidations(String path) {
        return seen(path).stream().filter(Seen::conditional).count();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String etag = exchange.getRequestHeaders().getFirst("If-None-Match");
            boolean conditional = "\"v1\"".equals(etag);
            Seen request = new Seen(path, conditional, exchange.getRequestHeaders().getFirst("Authorization"));
            seen.add(request);
            Quota quota = quotas.get(path);
            if (quota != null) {
                answerUnderQuota(exchange, quota, request);
                return;
            }
            CountDownLatch hold = holding.get(path);
            if (conditional && hold != null && !hold.await(30, TimeUnit.SECONDS)) {
                throw new IOException("held for 30 s: the test never let the revalidation go");
            }
            Integer failure = failing.get(path);
            Path p = paths.get(path);
            if (failure != null || p == null) {
                request.status().set(failure != null ? failure : 404);
                exchange.sendResponseHeaders(request.answered(), -1);
                return;
            }
            exchange.getResponseHeaders().add("Cache-Control", p.cacheControl());
            exchange.getResponseHeaders().add("ETag", "\"v1\"");
            Integer age = conditional ? p.ageOn304() : p.age();
            if (age != null) {
                exchange.getResponseHeaders().add("Age", age.toString());
            }
            if (conditional) {
                request.status().set(304);
                exchange.sendResponseHeaders(304, -1);
                return;
            }
            request.status().set(200);
            byte[] body = ("{\"path\":\"" + path + "\"}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void answerUnderQuota(HttpExchange exchange, Quota q, Seen request) throws IOException {
        long now = request.atNanos();
        int status;
        long remaining;
        long reset;
        synchronized (q) {
            if (q.windowStart == Long.MIN_VALUE || now - q.windowStart >= q.windowNanos) {
                q.windowStart = now;
                q.admitted = 0;
            }
            status = q.admitted < q.limit ? 200 : 429;
            if (status == 200) {
                q.admitted++;
            }
            remaining = q.limit - q.admitted;
            reset = -Math.floorDiv(-(q.windowStart + q.windowNanos - now), 1_000_000_000L);
        }
        var headers = exchange.getResponseHeaders();
        headers.add("RateLimit-Policy", "\"anonymous\";q=100;w=1;ratecache-burst=200, \"" + q.name + "\";q=" + q.limit
                + ";w=" + q.windowNanos / 1_000_000_000L);
        headers.add("RateLimit", "\"" + q.name + "\";r=" + remaining + ";t=" + reset);
        headers.add("Cache-Control", "no-store");
        byte[] body;
        if (status == 429) {
            headers.add("Retry-After", Long.toString(reset));
            headers.add("Content-Type", "application/problem+json");
            body = ("{\"type\":\"https://iana.org/assignments/http-problem-types#quota-exceeded\","
                    + "\"title\":\"Request cannot be satisfied as assigned quota has been exceeded\",\"status\":429,"
                    + "\"violated-policies\":[\"" + q.name + "\"]}").getBytes(StandardCharsets.UTF_8);
        } else {
            headers.add("Content-Type", "application/json");
            body = "{}".getBytes(StandardCharsets.UTF_8);
        }
        // Set before the answer leaves, so a test that has its response sees it.
        request.status().set(status);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** Stops answering: connections are refused from now on. */
    void stop() {
        server.stop(0);
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
