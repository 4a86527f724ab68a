package dev.ratecache.client.bench;

import dev.ratecache.client.RateCacheClient;
import dev.ratecache.client.RateCacheResponse;
import dev.ratecache.client.ResponseSource;
import dev.ratecache.client.RetryPolicy;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import okhttp3.Cache;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.apache.hc.client5.http.cache.CacheResponseStatus;
import org.apache.hc.client5.http.cache.HttpCacheContext;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.cache.CacheConfig;
import org.apache.hc.client5.http.impl.cache.CachingHttpClients;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of one answered GET, single-threaded, for the same small JSON response (fresh for an
 * hour; not compressed, as the edge compresses nothing and this endpoint does not either):
 * from this library's memory cache, from its file-backed cache, from httpclient5-cache used
 * directly (the floor under the library's hit), from OkHttp's cache (always
 * on disk: it has no memory cache), and from the front end's edge cache over loopback (this
 * library with its cache off, so the HTTP round trip and nginx are what is added).
 *
 * <p>Run from the checkout's root (the stack is found from there):
 * {@code ./mvnw -B -pl client -am -Pbench package -DskipTests && java -jar client/target/benchmarks.jar}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 4, time = 2)
public class CacheHitBenchmark {
    private Stack stack;
    private Path dir;
    private String url;
    private RateCacheClient memory;
    private RateCacheClient file;
    private RateCacheClient edge;
    private CloseableHttpClient plainCaching;
    private OkHttpClient okhttp;
    private Request okRequest;

    @Setup
    public void start() throws IOException {
        // Under the checkout, not a 0700 temp folder: nginx's workers run as another user.
        dir = Repo.root().resolve("client/target/bench");
        Files.createDirectories(dir);
        stack = Stack.start(new StackSwitches().frontLimit(false).backLimit(false).workers("1"), StackPorts.free(),
                dir.resolve("stack"), 10,
                List.of("--origin.endpoints.bench.delay=0ms", "--origin.endpoints.bench.max-age=3600s"));
        url = stack.frontUri() + "/bench";
        memory = RateCacheClient.create();
        file = RateCacheClient.builder().cache(dir.resolve("library-cache"), 10L << 20).build();
        edge = RateCacheClient.builder().noCache().retryPolicy(RetryPolicy.none()).build();
        plainCaching = CachingHttpClients.custom()
                .setCacheConfig(CacheConfig.custom().setMaxObjectSize(1 << 20).setSharedCache(false).build()).build();
        okhttp = new OkHttpClient.Builder().cache(new Cache(dir.resolve("okhttp-cache").toFile(), 10L << 20)).build();
        okRequest = new Request.Builder().url(url).build();

        // Prime each cache, then check that what is measured really is a hit.
        for (RateCacheClient c : List.of(memory, file)) {
            c.get(url);
            require(c.get(url).source() == ResponseSource.CACHE, "library cache hit");
        }
        plainHit();
        HttpCacheContext context = HttpCacheContext.create();
        plainCaching.execute(new HttpGet(url), context, r -> EntityUtils.toByteArray(r.getEntity()));
        require(context.getCacheResponseStatus() == CacheResponseStatus.CACHE_HIT, "plain httpclient5-cache hit");
        edge.get(url);
        RateCacheResponse edgeHit = edge.get(url);
        require("HIT".equals(edgeHit.header("X-Cache-Status")), "edge cache HIT, got " + edgeHit.header("X-Cache-Status"));
        okHit();
        try (Response r = okhttp.newCall(okRequest).execute()) {
            require(r.cacheResponse() != null && r.networkResponse() == null, "OkHttp cache hit");
        }
    }

    private static void require(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("benchmark set-up: expected " + what);
        }
    }

    @Benchmark
    public byte[] libraryMemoryCacheHit() throws IOException {
        return memory.get(url).body();
    }

    @Benchmark
    public byte[] libraryFileCacheHit() throws IOException {
        return file.get(url).body();
    }

    /** httpclient5-cache as it comes: the floor under the library's own hit. */
    @Benchmark
    public byte[] httpclient5CacheHit() throws IOException {
        return plainHit();
    }

    private byte[] plainHit() throws IOException {
        return plainCaching.execute(new HttpGet(url), r -> EntityUtils.toByteArray(r.getEntity()));
    }

    @Benchmark
    public byte[] okHttpCacheHit() throws IOException {
        return okHit();
    }

    private byte[] okHit() throws IOException {
        try (Response r = okhttp.newCall(okRequest).execute()) {
            return r.body().bytes();
        }
    }

    @Benchmark
    public byte[] edgeCacheHitOverLoopback() throws IOException {
        return edge.get(url).body();
    }

    @TearDown
    public void stop() throws IOException {
        memory.close();
        file.close();
        edge.close();
        plainCaching.close();
        okhttp.dispatcher().executorService().shutdown();
        okhttp.connectionPool().evictAll();
        okhttp.cache().close();
        stack.close();
    }
}
