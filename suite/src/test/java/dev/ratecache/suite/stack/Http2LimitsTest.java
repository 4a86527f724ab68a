package dev.ratecache.suite.stack;

import dev.ratecache.suite.edge.NginxEdge;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.suite.AccessLog;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the front end's limits count when a client multiplexes: nginx runs limit_conn and limit_req
 * once per request, and each HTTP/2 stream is a request of its own, so --limit-conn caps streams
 * in flight per address whatever the number of TCP connections, and --front-rate counts every
 * stream. h2load drives the wire: with -c 1 it opens exactly one connection, and it tells the
 * protocol ALPN chose, which a test checks so that "one HTTP/2 connection" is a fact, not a hope.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class Http2LimitsTest {
    /** The limit_req bucket: 1 r/s with a burst of 2, nodelay, so a fresh bucket admits 3 at once. */
    private static final int RATE = 1;
    private static final int BURST = 2;

    private static Stack conn;
    private static Stack rateOneConnection;
    private static Stack rateManyConnections;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        conn = Stacks.around(origin, TestDirs.fresh(Http2LimitsTest.class, "conn"), new StackSwitches()
                .tls(true).limitConn(2).frontLimit(false).cache(false));
        // Two stacks with the same limit: each comparison starts from a full bucket of its own,
        // since every h2load connection comes from 127.0.0.1.
        rateOneConnection = Stacks.around(origin, TestDirs.fresh(Http2LimitsTest.class, "rate-h2"), rateSwitches());
        rateManyConnections = Stacks.around(origin, TestDirs.fresh(Http2LimitsTest.class, "rate-h1"), rateSwitches());
    }

    private static StackSwitches rateSwitches() {
        return new StackSwitches().tls(true).frontRate(RATE).frontBurst(BURST).frontMode(LimitMode.NODELAY).cache(false);
    }

    @AfterAll
    static void stop() {
        Stacks.closeAll(conn, rateOneConnection, rateManyConnections);
    }

    @Test
    void limitConnCountsStreamsOfOneHttp2ConnectionNotTheConnection() throws Exception {
        // /slow takes 1.5 s: all six streams are in flight together, so the count is exact.
        H2load run = H2load.run(conn, "slow", 6, 1, 6, false);

        assertThat(run.protocol()).isEqualTo("h2");
        assertThat(run.logged(200)).hasSize(2);
        assertThat(run.logged(429)).hasSize(4)
                .allSatisfy(l -> assertThat(l.path("limit_conn").asText()).isEqualTo("REJECTED"));
        assertThat(run.success()).hasValue(2);
        assertThat(run.clientErrors()).isEqualTo(4);
    }

    @Test
    void limitConnNeverTripsOnOneHttp11ConnectionEvenWithPipelining() throws Exception {
        // The same client sends three at once on one HTTP/1.1 connection; nginx answers a
        // connection's requests one after another, so no more than one is ever counted.
        H2load run = H2load.run(conn, "slow", 3, 1, 3, true);

        assertThat(run.protocol()).isEqualTo("http/1.1");
        assertThat(run.logged(200)).hasSize(3)
                .allSatisfy(l -> assertThat(l.path("limit_conn").asText()).isEqualTo("PASSED"));
        assertThat(run.clientErrors()).isZero();
    }

    @Test
    void limitReqCountsEachStreamOfOneHttp2ConnectionAsARequest() throws Exception {
        H2load run = H2load.run(rateOneConnection, "hare", 10, 1, 10, false);

        assertThat(run.protocol()).isEqualTo("h2");
        assertLimitReqAdmittedTheBucketAndRejectedTheRest(run);
    }

    @Test
    void limitReqCountsRequestsOverSeparateConnectionsTheSame() throws Exception {
        H2load run = H2load.run(rateManyConnections, "hare", 10, 10, 1, true);

        assertThat(run.protocol()).isEqualTo("http/1.1");
        assertLimitReqAdmittedTheBucketAndRejectedTheRest(run);
    }

    /**
     * A full bucket admits 1 + burst at once; a refill of {@link #RATE} a second may admit one
     * more for each second the run took, so the upper bound grows with the measured time.
     */
    private static void assertLimitReqAdmittedTheBucketAndRejectedTheRest(H2load run) {
        long admitted = run.logged(200).size();
        long ceiling = 1 + BURST + RATE * (long) Math.ceil(run.elapsed().toMillis() / 1000.0);

        assertThat(admitted).isBetween(1L + BURST, ceiling);
        assertThat(run.logged(429)).hasSize(run.requests() - (int) admitted).isNotEmpty()
                .allSatisfy(l -> assertThat(l.path("limit_req").asText()).isEqualTo("REJECTED"));
        assertThat(run.clientErrors()).isEqualTo(run.requests() - admitted);
        run.success().ifPresent(success -> assertThat(success).isEqualTo(admitted));
    }

    /**
     * One h2load run to a URL of its own: the protocol ALPN chose, its own tally of the answers,
     * the wall time of the whole run (an upper bound on the time between the first and last
     * request), and the front end's access-log line for each request, which tells every status.
     *
     * @param success answers in 2xx; unknown over HTTP/1.1, where h2load 1.52 counts no status
     *     from a status line without a reason phrase ("HTTP/1.1 200 ", which the origin sends and
     *     nginx passes on), so the access log alone tells those
     * @param clientErrors answers in 4xx, which nginx's own 429 always carries a reason for
     */
    record H2load(String protocol, int requests, OptionalLong success, long clientErrors, Duration elapsed,
            List<JsonNode> lines) {
        private static final Pattern DONE = Pattern.compile("requests: (\\d+) total, \\d+ started, (\\d+) done");
        private static final Pattern CLASSES = Pattern.compile("status codes: (\\d+) 2xx, \\d+ 3xx, (\\d+) 4xx, \\d+ 5xx");
        private static final Pattern PROTOCOL = Pattern.compile("Application protocol: (\\S+)");

        static H2load run(Stack stack, String endpoint, int requests, int connections, int streams, boolean http11)
                throws Exception {
            String path = Stacks.fresh(endpoint);
            List<String> command = new ArrayList<>(List.of("h2load", "-n", String.valueOf(requests),
                    "-c", String.valueOf(connections), "-m", String.valueOf(streams)));
            if (http11) {
                command.add("--h1");
            }
            command.add(stack.frontUri() + path);
            long started = System.nanoTime();
            ManagedProcess.Outcome out = ManagedProcess.run(command, Duration.ofSeconds(60));
            Duration elapsed = Duration.ofNanos(System.nanoTime() - started);

            assertThat(out.exitCode()).as(out.text()).isZero();
            Matcher done = find(DONE, out);
            assertThat(done.group(2)).as(out.text()).isEqualTo(done.group(1)).isEqualTo(String.valueOf(requests));
            String protocol = find(PROTOCOL, out).group(1);
            Matcher classes = find(CLASSES, out);
            return new H2load(protocol, requests,
                    http11 ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(classes.group(1))),
                    Long.parseLong(classes.group(2)), elapsed,
                    AccessLog.linesFor(stack.tiers(NginxEdge.Tiers.class).front().accessLog(), path, requests));
        }

        /** The logged requests answered with {@code status}. */
        List<JsonNode> logged(int status) {
            return lines.stream().filter(l -> l.path("status").asInt() == status).toList();
        }

        private static Matcher find(Pattern pattern, ManagedProcess.Outcome out) {
            Matcher m = pattern.matcher(out.stdout());
            assertThat(m.find()).as("h2load printed no match for %s:%n%s", pattern, out.text()).isTrue();
            return m;
        }
    }
}
