package dev.ratecache.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.client.driver.LoadDriver;
import dev.ratecache.jtl.Jtl;
import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.testkit.StackTest;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

@StackTest
@ExtendWith(SharedOrigin.class)
class LoadDriverTest {
    private static Stack stack;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        stack = TestStacks.open(origin);
    }

    private static int run(StringWriter out, StringWriter err, String... args) {
        CommandLine cli = LoadDriver.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void driverRunsItsUsersThroughTheLibraryAndWritesTheJsonSummaryAndAJtl(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("out/library.json");
        Path jtl = dir.resolve("out/results.jtl");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int exit = run(out, err, "--url", stack.frontUri().toString(), "--path", "/hare", "--path", "/tortoise",
                "--users", "3", "--loops", "4", "--think", "10ms", "--json", json.toString(), "--jtl", jtl.toString());

        assertThat(exit).as(err.toString()).isZero();
        assertThat(out.toString()).contains("samples 24").contains("library: requests 24");
        JsonNode s = new ObjectMapper().readTree(json.toFile());
        assertThat(s.path("samples").asLong()).isEqualTo(24);
        assertThat(s.path("rejected").asLong()).isZero();
        assertThat(s.path("otherErrors").asLong()).isZero();
        for (String field : new String[] {"throughputPerSec", "meanMs", "minMs", "maxMs", "p50Ms", "p90Ms", "p95Ms", "p99Ms", "wallMs"}) {
            assertThat(s.has(field)).as(field).isTrue();
        }
        assertThat(s.path("p50Ms").asDouble()).isLessThanOrEqualTo(s.path("p99Ms").asDouble());
        JsonNode lib = s.path("library");
        assertThat(lib.path("requests").asLong()).isEqualTo(24);
        assertThat(lib.path("hits").asLong() + lib.path("validations").asLong() + lib.path("staleWhileRevalidating").asLong() + lib.path("staleIfError").asLong()
                + lib.path("misses").asLong() + lib.path("failures").asLong()).isEqualTo(24);
        // Each user's private cache: the origin saw what the library sent to the network, no more.
        assertThat(stack.origin().counters().total().requests()).isEqualTo(lib.path("networkRequests").asLong());
        // /tortoise is fresh for 10 s: one request per user, whatever the loops.
        assertThat(stack.origin().counters().requests("tortoise")).isEqualTo(3);
        // The JTL: one sample per request, fresh hits marked as JMeter marks its cache manager's.
        List<Sample> samples = Jtl.read(jtl);
        assertThat(samples).hasSize(24);
        assertThat(samples).extracting(Sample::label).containsOnly("/hare", "/tortoise");
        assertThat(samples).extracting(Sample::threadName).containsOnly("user-1", "user-2", "user-3");
        JtlSummary fromJtl = JtlSummary.of(samples);
        // Answered from the cache alone: fresh hits, and (a busy machine's run outlasting /hare's freshness)
        // stale ones revalidated in the background.
        assertThat(fromJtl.clientCacheHits()).isEqualTo(lib.path("hits").asLong()
                + lib.path("staleWhileRevalidating").asLong()).isPositive();
        assertThat(fromJtl.p95Ms()).isEqualTo(s.path("p95Ms").asLong());
        assertThat(samples).extracting(Sample::responseCode).containsOnly("200");
        JsonNode config = s.path("config");
        assertThat(config.path("paths")).extracting(JsonNode::asText).containsExactly("/hare", "/tortoise");
        assertThat(config.path("users").asInt()).isEqualTo(3);
        assertThat(config.path("thinkMs").asLong()).isEqualTo(10);
        assertThat(config.path("cache").asText()).isEqualTo("private");
        assertThat(config.path("throttlePerSec").isNull()).isTrue();
    }

    @Test
    void badFlagIsReportedOnOneLine() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int exit = run(out, err, "--users", "0", "--path", "hare");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString().strip()).doesNotContain("\n")
                .startsWith("client-driver: ").contains("--users").contains("--path");
    }
}
