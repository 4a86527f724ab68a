package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.suite.edge.EdgeEvent;
import dev.ratecache.suite.edge.EventFile;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * --matrix edges under the quick profile, through each product's real tiers, the origin and
 * JMeter: the flood at 2x from one address through nginx, HAProxy and Varnish, one run for the
 * class. What is asserted is what each product's own log and the wire show, not a rate to the
 * request: the machine is shared.
 */
@StackTest
@LongTest
class EdgesMatrixStackTest {
    private static final List<String> PRODUCTS = List.of("nginx", "haproxy", "varnish");
    private static final List<String> CELL_NAMES = PRODUCTS.stream().map(p -> "edges/" + p + ".flood-2x-one").toList();
    private static MatrixRun matrix;

    @BeforeAll
    static void runTheFloodFromOneAddressThroughEachEdge() throws Exception {
        // Nothing queues (the matrix runs nodelay), so the last arrivals' answers need no 10 s drain.
        matrix = MatrixRun.of(EdgesMatrixStackTest.class, "edges", CELL_NAMES, "-Jdrain=4");
    }

    private static Path cellDir(String product) {
        return matrix.run.resolve("cells/edges-" + product + ".flood-2x-one");
    }

    @Test
    void everyProductsCellRunsThroughItsOwnTiersAndTheExitCodeIsTheChecks() throws Exception {
        assertThat(matrix.cells.keySet()).as(matrix.output()).containsExactlyInAnyOrderElementsOf(CELL_NAMES);
        for (String product : PRODUCTS) {
            JsonNode cell = matrix.cells.get("edges/" + product + ".flood-2x-one");
            assertThat(cell.get("status").asText()).as(product + "\n" + matrix.output()).isEqualTo("ok");
            assertThat(cell.get("edge").asText()).isEqualTo(product);
        }
        assertThat(cellDir("haproxy").resolve("haproxy/front.cfg")).isRegularFile();
        assertThat(cellDir("varnish").resolve("varnish/front.vcl")).isRegularFile();
        boolean anyFailed = matrix.checks.values().stream().anyMatch(c -> !c.get("passed").asBoolean());
        assertThat(matrix.exitCode).as(matrix.output()).isEqualTo(anyFailed ? 1 : 0);
    }

    @Test
    void eachFrontLoggedEveryRequestTheClientSentAndRejectedSomeOfTheFlood() throws Exception {
        for (String product : PRODUCTS) {
            List<EdgeEvent> front = EventFile.read(cellDir(product).resolve("events/front.jsonl"));
            // What reached the tier: every sample with an HTTP status, and perhaps some without one. One
            // JMeter gave up on as the plan's drain ended ("Socket closed", nothing sent) never did; but
            // HAProxy closes a connection after its 429, and on a busy machine the close can reach the
            // client before it reads the answer the tier logged (6 of 800 beside two busy loops).
            List<dev.ratecache.jtl.Sample> samples = dev.ratecache.jtl.Jtl.read(cellDir(product).resolve(
                    "jmeter/results.jtl"));
            long sent = samples.stream().filter(s -> s.responseCode().matches("\\d{3}")).count();
            assertThat(sent).as(product).isGreaterThan(0);
            assertThat(front.stream().filter(e -> e.uri().startsWith("/hare")).count()).as(product)
                    .isBetween(sent, (long) samples.size());
            assertThat(front).as(product).anyMatch(e -> e.limit() == EdgeEvent.Limit.REJECTED && e.status() == 429
                    && !e.wentUpstream());
        }
        // HAProxy's cache has no lock: the burst's misses all reach the back, whose limit answers most of
        // them 429, which is not stored; and its window counts the rejected requests too, so it admits
        // none again while the flood lasts. The two others answer the flood from their cache.
        for (String product : List.of("nginx", "varnish")) {
            assertThat(EventFile.read(cellDir(product).resolve("events/front.jsonl"))).as(product)
                    .anyMatch(e -> e.cache() == EdgeEvent.Cache.HIT);
        }
    }

    @Test
    void nginxsLeakyBucketKeepsThePerClientPromiseAndEveryProductIsJudged() {
        for (String product : PRODUCTS) {
            String text = "edges/" + product + ".flood-2x-one: no client admitted more than the front's rate + burst (300)"
                    + " in any one second";
            assertThat(matrix.checks).as(matrix.output()).containsKey(text);
        }
        assertThat(matrix.checks.get("edges/nginx.flood-2x-one: no client admitted more than the front's rate + burst"
                + " (300) in any one second").get("passed").asBoolean()).as(matrix.output()).isTrue();
    }

    @Test
    void theReportSaysWhatEachLimiterDidToTheFloodAndWhatEachProductCannotDo() throws Exception {
        String md = Files.readString(matrix.run.resolve("report.md"));
        assertThat(md).contains("## Edges compared")
                .contains("edges/nginx.flood-2x-one: nginx's leaky bucket (limit_req), flooded at 2x the rate from one"
                        + " address, admitted")
                .contains("edges/haproxy.flood-2x-one: HAProxy's sliding-window counter (http_req_rate), flooded at 2x")
                .contains("edges/varnish.flood-2x-one: Varnish's token bucket (vsthrottle), flooded at 2x")
                .contains("HAProxy cannot queue or delay").contains("Varnish cannot queue or delay");
        List<String> promiseLines = new ArrayList<>();
        md.lines().filter(l -> l.matches("- (nginx|HAProxy|Varnish) (kept|broke) the per-client promise.*"))
                .forEach(promiseLines::add);
        assertThat(promiseLines).as(md).hasSize(3);
    }
}
