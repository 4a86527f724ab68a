package dev.ratecache.suite.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratecache.model.HaproxyReqRate;
import dev.ratecache.model.LimitReqStatus;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.proc.Poll;
import dev.ratecache.proc.Ports;
import dev.ratecache.suite.edge.BareHaproxyCache;
import dev.ratecache.testkit.StackTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HAProxy request-rate model against HAProxy 2.6 itself: one client's burst and streams go
 * through a real HAProxy limiting as the suite configures it, and the model, fed the times HAProxy
 * logged, must give every request HAProxy's decision and read the rate HAProxy read.
 *
 * <p>Times: the first rule stores {@code date(0,ms)}, the thread's date cached for the poll-loop
 * iteration, read from the same gettimeofday as the {@code now_ms} freq_ctr counts with (one
 * thread, so no other thread's clock moves {@code global_now_ms}). The log line is written at the
 * request's end, so the lines are put back in processing order: by that time, then by the rate
 * read, which only grows within a millisecond for one key.
 */
@StackTest
class HaproxyReqRateAgainstHaproxyTest {

    /** One second, as {@code http_req_rate(1s)}; a test of a few seconds crosses several periods. */
    static final long PERIOD_MS = 1000;
    static final long LIMIT = 5;
    static final long EXPIRE_MS = 10_000;

    @TempDir
    static Path dir;

    static ManagedProcess haproxy;
    static int port;

    @BeforeAll
    static void startHaproxy() throws IOException {
        port = Ports.free();
        // Each request is answered by HAProxy itself (return / deny), so no origin is needed, and
        // its decision, the rate it read and its time are logged raw to stdout.
        String config = """
                global
                  nbthread 1
                  log stdout format raw local0
                defaults
                  mode http
                  log global
                  # The start-up probe's empty connection is no request.
                  option dontlognull
                  timeout connect 5s
                  timeout client 30s
                  timeout server 30s
                frontend limit
                  bind %s:%d
                  log-format "%%[var(txn.now)] %%ST %%[var(txn.rate)] %%[var(txn.id)] %%ci"
                  stick-table type string size 1m expire %dms store http_req_rate(%dms)
                  http-request set-var(txn.now) date(0,ms)
                  http-request set-var(txn.id) req.hdr(x-id)
                  http-request track-sc0 src
                  http-request set-var(txn.rate) sc_http_req_rate(0)
                  http-request deny deny_status 429 if { sc_http_req_rate(0) gt %d }
                  http-request return status 200
                """.formatted(Ports.LOOPBACK, port, EXPIRE_MS, PERIOD_MS, LIMIT);
        Path cfg = dir.resolve("haproxy.cfg");
        Files.writeString(cfg, config);
        haproxy = ManagedProcess.start("haproxy", List.of(BareHaproxyCache.binary(), "-db", "-f", cfg.toString()),
                dir, dir.resolve("access.log"), dir.resolve("haproxy.log"));
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        while (!Ports.accepting(port)) {
            if (!haproxy.isAlive() || Instant.now().isAfter(deadline)) {
                throw new IOException("haproxy did not start on port " + port + ": " + haproxy.logTail(5));
            }
            Poll.pause(50);
        }
    }

    @AfterAll
    static void stopHaproxy() {
        if (haproxy != null) {
            haproxy.close();
        }
    }

    /** One logged request: HAProxy's time, status, the rate it read, the request's id and client. */
    record Line(long nowMs, int status, long rate, String id, String client) {
        static Line parse(String line) {
            String[] f = line.split(" ");
            return new Line(Long.parseLong(f[0]), Integer.parseInt(f[1]), Long.parseLong(f[2]), f[3], f[4]);
        }

        LimitReqStatus decision() {
            return status == 429 ? LimitReqStatus.REJECTED : LimitReqStatus.PASSED;
        }
    }

    /** One compared request: what the model decided and read at the logged time. */
    record Row(Line line, LimitReqStatus model, long modelRate, boolean matched, boolean tolerated) {
    }

    /** The shifts tried for a request the clocks may have put off, nearest first. */
    static final int[] SHIFTS_MS = {-1, 1, -2, 2};

    /**
     * The model's decisions and rates for {@code lines} at {@code times}, from an empty table. A
     * denied request is counted like a passed one, so no decision changes the state and one pass
     * gives every request's decision.
     */
    static List<Row> replay(List<Line> lines, long[] times) {
        HaproxyReqRate model = new HaproxyReqRate(PERIOD_MS, LIMIT, EXPIRE_MS);
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Line l = lines.get(i);
            LimitReqStatus d = model.decide(l.client(), times[i]).status();
            long rate = model.rate(l.client(), times[i]);
            boolean same = d == l.decision() && rate == l.rate();
            rows.add(new Row(l, d, rate, same, false));
        }
        return rows;
    }

    /**
     * Every request compared. A mismatch is tolerated only where moving that one request by 1 or 2
     * ms gives HAProxy's decision and rate: HAProxy's logged date and its now_ms come from one
     * gettimeofday, so they should agree to the millisecond, but a step of the system clock during
     * the run moves now_ms's offset from the date, and with it the even millisecond a period starts
     * on. Nothing else is forgiven.
     */
    static List<Row> compare(List<Line> log) {
        List<Line> lines = new ArrayList<>(log);
        lines.sort(Comparator.comparingLong(Line::nowMs).thenComparingLong(Line::rate));
        long[] times = lines.stream().mapToLong(Line::nowMs).toArray();
        List<Row> rows = new ArrayList<>(replay(lines, times));
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).matched()) {
                continue;
            }
            for (int shift : SHIFTS_MS) {
                long[] moved = times.clone();
                moved[i] += shift;
                Row r = replay(lines, moved).get(i);
                if (r.matched()) {
                    rows.set(i, new Row(r.line(), r.model(), r.modelRate(), false, true));
                    break;
                }
            }
        }
        return rows;
    }

    static String describe(List<Row> rows) {
        StringBuilder b = new StringBuilder();
        long t0 = rows.isEmpty() ? 0 : rows.get(0).line().nowMs();
        b.append("ms after ").append(t0).append(System.lineSeparator());
        for (Row r : rows) {
            b.append(String.format("%6d %-6s haproxy=%-8s rate=%3d model=%-8s rate=%3d %s%n",
                    r.line().nowMs() - t0, r.line().id(), r.line().decision(), r.line().rate(), r.model(),
                    r.modelRate(), r.matched() ? "" : r.tolerated() ? "(boundary)" : "MISMATCH"));
        }
        return b.toString();
    }

    List<Line> awaitLog(int count) throws IOException {
        Path file = dir.resolve("access.log");
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(50))
                .until(() -> Files.exists(file) && Files.readAllLines(file).size() >= count);
        return Files.readAllLines(file).stream().map(Line::parse).toList();
    }

    /**
     * A burst of eight, then a stream at 8 a second for two seconds (over the limit of 5 a
     * second: refused, the refused counting too), then one at 3 a second that the sliding window
     * lets through only once the stream's period has slid out.
     */
    static List<Traffic.Planned> plan() {
        return Traffic.burstThenStreams("127.16.0.5", "h-");
    }

    @Test
    void burstAndStreamsMatchHaproxy() throws Exception {
        List<Traffic.Planned> plan = plan();
        Map<String, Integer> wire = Traffic.send(port, plan, System.currentTimeMillis() + 50);
        List<Line> log = awaitLog(plan.size());
        assertThat(log).hasSize(plan.size());
        List<Row> rows = compare(log);
        String table = describe(rows);
        System.out.println("haproxy:\n" + table);

        assertThat(rows).as(table).allMatch(r -> r.matched() || r.tolerated());
        long exact = rows.stream().filter(Row::matched).count();
        System.out.printf("exact %d of %d, boundary %d%n", exact, rows.size(), rows.size() - exact);
        // What the client got is what HAProxy logged: 429 for a denial, 200 otherwise.
        for (Row r : rows) {
            assertThat(wire.get(r.line().id())).as(r.line().id()).isEqualTo(r.line().status());
        }
        // The plan reaches both decisions; the rates compared above carry the previous period's
        // weight, so the sliding estimate is compared, not only a count.
        assertThat(rows.stream().map(Row::model).collect(Collectors.toSet()))
                .containsExactlyInAnyOrder(LimitReqStatus.PASSED, LimitReqStatus.REJECTED);
    }
}
