package dev.ratecache.suite.jmeter;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import dev.ratecache.jtl.Jtl;
import dev.ratecache.jtl.Lateness;
import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.Repo;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * replay.jmx, run headless by the assembled JMeter against a small HTTP server of the test's own,
 * which records where each request came from and when it arrived. No stack: these tests are about
 * the plan (schedule, source addresses, JTL columns), not about nginx.
 *
 * <p>Timing tolerance: JMeter and the test share a 2-core machine that may be busy with other
 * work. A thread's first request pays for its HTTP client and connection (and, early in the run,
 * class loading and compilation in a JVM that has just started), measured at up to about 190 ms
 * late on this machine when 40 rows each went to a fresh thread, and 253 ms with two busy loops
 * and two other test forks on its two cores. So a start up to {@value #LATE_MS} ms after its due
 * time is on schedule here; what the tests rule out are the seconds a closed model would add (a
 * row due 1.2 s into a 2 s answer would start 800 ms late behind it), and early starts.
 */
@StackTest
class ReplayPlanTest {
    private static final String HEADER = "offset_ms,address,method,uri,client";
    /** p99 lateness allowed, see the class comment. */
    private static final long LATE_MS = 600;
    /** The slowest of a run's rows: one row held up on a loaded machine moves only it. */
    private static final long SLOWEST_LATE_MS = 2000;
    /**
     * How early a sample may seem: none, as the timer sleeps until the due time on the clock JMeter
     * stamps samples with; 2 ms for that clock being nanoTime-based and re-synced to the wall clock.
     */
    private static final long EARLY_MS = 2;
    private static final long SLOW_MS = 2_000;

    /** One request of a schedule, as the replay command writes it. */
    private record Row(long offsetMs, String address, String method, String uri, String client) {}

    /** A request as the server saw it; {@code key}: its X-Api-Key header, null when it had none. */
    private record Arrival(String uri, String address, int port, long atMs, String key) {}

    private final Map<String, Arrival> arrivals = new ConcurrentHashMap<>();
    /** When each request to /warmup arrived. */
    private final List<Long> warmups = new java.util.concurrent.CopyOnWriteArrayList<>();
    private TestServer server;
    private Path dir;

    @BeforeEach
    void startServer(TestInfo test) throws IOException {
        dir = TestDirs.fresh(test);
        server = TestServer.start("/", this::handle);
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    private void handle(HttpExchange exchange) throws IOException {
        long at = System.currentTimeMillis();
        String uri = exchange.getRequestURI().toString();
        if (uri.startsWith("/warmup")) {
            warmups.add(at);
        }
        List<String> keys = exchange.getRequestHeaders().get("X-Api-Key");
        arrivals.put(uri, new Arrival(uri, exchange.getRemoteAddress().getAddress().getHostAddress(),
                exchange.getRemoteAddress().getPort(), at, keys == null ? null : String.join("|", keys)));
        if (uri.startsWith("/slow")) {
            try {
                Thread.sleep(SLOW_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        byte[] body = "ok\n".getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("X-Cache-Status", "MISS");
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(200, head ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            if (!head) {
                out.write(body);
            }
        }
    }

    /** A keyed schedule, as the replay command writes it for a log with a key field. */
    private Path keyedSchedule(List<Row> rows, List<String> keys) throws IOException {
        Path file = dir.resolve("schedule.csv");
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
                CSVPrinter csv = new CSVPrinter(out, CSVFormat.DEFAULT.builder().setRecordSeparator("\n").get())) {
            out.write(HEADER + ",key\n");
            for (int i = 0; i < rows.size(); i++) {
                Row r = rows.get(i);
                csv.printRecord(r.offsetMs(), r.address(), r.method(), r.uri(), r.client(), keys.get(i));
            }
        }
        return file;
    }

    private Path schedule(List<Row> rows) throws IOException {
        Path file = dir.resolve("schedule.csv");
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
                CSVPrinter csv = new CSVPrinter(out, CSVFormat.DEFAULT.builder().setRecordSeparator("\n").get())) {
            out.write(HEADER + "\n");
            for (Row r : rows) {
                csv.printRecord(r.offsetMs(), r.address(), r.method(), r.uri(), r.client());
            }
        }
        return file;
    }

    private JMeter.Run replay(List<Row> rows, String... properties) throws Exception {
        Map<String, String> props = new java.util.LinkedHashMap<>(Map.of("host", "127.0.0.1",
                "port", String.valueOf(server.port()), "schedule", schedule(rows).toString()));
        for (int i = 0; i + 1 < properties.length; i += 2) {
            props.put(properties[i], properties[i + 1]);
        }
        JMeter.Run run = JMeter.assembled().run(Repo.plans().resolve("replay.jmx"), props, dir.resolve("jmeter"));
        assertThat(run.exitCode()).as(why(run)).isZero();
        return run;
    }

    private static String why(JMeter.Run run) throws IOException {
        Path out = run.log().resolveSibling("jmeter.out");
        return "JMeter exit " + run.exitCode() + "; " + out + ":\n" + (Files.exists(out) ? Files.readString(out) : "");
    }

    /** The JTL's samples by the URL's path and query, which the tests keep unique per row. */
    private static Map<String, Sample> byUri(List<Sample> samples) {
        return samples.stream().collect(Collectors.toMap(ReplayPlanTest::byUriKey, Function.identity()));
    }

    private static void assertEveryRowWasSentOnceAsScheduled(List<Row> rows, List<Sample> samples) {
        assertThat(samples).hasSameSizeAs(rows);
        Map<String, Sample> sent = byUri(samples);
        long start = samples.stream().mapToLong(s -> s.scheduledAt()).min().orElseThrow() - rows.get(0).offsetMs();
        assertThat(rows).allSatisfy(row -> {
            Sample s = sent.get(row.uri());
            assertThat(s).as(row.uri()).isNotNull();
            assertThat(s.scheduledAt()).as("scheduledAt of " + row.uri()).isEqualTo(start + row.offsetMs());
            assertThat(s.client()).as("client of " + row.uri()).isEqualTo(row.client());
            assertThat(s.label()).isEqualTo(row.uri().replaceFirst("\\?.*", ""));
        });
    }

    @Test
    @LongTest
    void eachRequestLeavesFromItsRowsAddress() throws Exception {
        // Three clients taking turns, on one thread: every request goes from another address than
        // the one before it, so a connection kept alive for the previous client must not be reused.
        List<Row> rows = new ArrayList<>();
        String[][] clients = {{"127.16.0.7", "203.0.113.7"}, {"127.16.0.8", "198.51.100.8"}, {"127.16.1.9", "2001:db8::9"}};
        for (int i = 0; i < 9; i++) {
            String[] c = clients[i % 3];
            rows.add(new Row(i * 50L, c[0], i == 4 ? "HEAD" : "GET", "/r" + i + "?n=" + i + (i == 2 ? "&list=a,b" : ""), c[1]));
        }

        JMeter.Run run = replay(rows, "threads", "1");

        assertThat(Files.readAllLines(run.jtl()).get(0)).isEqualTo(Jtl.HEADER);
        List<Sample> samples = Jtl.read(run.jtl());
        assertThat(samples).allSatisfy(s -> assertThat(s.responseCode()).as(s.url()).isEqualTo("200"));
        assertEveryRowWasSentOnceAsScheduled(rows, samples);
        assertThat(arrivals).hasSameSizeAs(rows);
        assertThat(rows).allSatisfy(row ->
                assertThat(arrivals.get(row.uri()).address()).as("source of " + row.uri()).isEqualTo(row.address()));
        assertThat(arrivals.values()).extracting(Arrival::address).containsOnly("127.16.0.7", "127.16.0.8", "127.16.1.9");
        // HttpClient 4 keys kept-alive connections by route, source address included: each client
        // keeps one connection from its own address, as a browser would.
        Map<String, Long> connectionsPerAddress = arrivals.values().stream().collect(Collectors.groupingBy(
                Arrival::address, Collectors.mapping(Arrival::port, Collectors.collectingAndThen(Collectors.toSet(), s -> (long) s.size()))));
        assertThat(connectionsPerAddress).containsOnly(
                Map.entry("127.16.0.7", 1L), Map.entry("127.16.0.8", 1L), Map.entry("127.16.1.9", 1L));
        assertThat(samples).extracting(Sample::cacheStatus).containsOnly("MISS");
    }

    @Test
    @LongTest
    void aRowsKeyGoesInTheKeyHeaderAndARowWithoutOneSendsNoSuchHeader() throws Exception {
        // One thread, so a row without a key follows one with a key on the same thread: the key
        // must not stay behind from the row before.
        List<String> keys = List.of("k-free-1", "", "k-pro,2", "", "k-free-1", "");
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            rows.add(new Row(i * 50L, "127.16.0.1", "GET", "/k" + i, "203.0.113.1"));
        }
        Path file = keyedSchedule(rows, keys);

        JMeter.Run run = JMeter.assembled().run(Repo.plans().resolve("replay.jmx"), Map.of("host", "127.0.0.1",
                "port", String.valueOf(server.port()), "schedule", file.toString(), "threads", "1",
                "key_header", "X-Api-Key"), dir.resolve("jmeter"));

        assertThat(run.exitCode()).as(why(run)).isZero();
        List<Sample> samples = Jtl.read(run.jtl());
        assertEveryRowWasSentOnceAsScheduled(rows, samples);
        for (int i = 0; i < rows.size(); i++) {
            Arrival a = arrivals.get(rows.get(i).uri());
            assertThat(a.key()).as("X-Api-Key of " + a.uri()).isEqualTo(keys.get(i).isEmpty() ? null : keys.get(i));
            assertThat(a.address()).isEqualTo("127.16.0.1");
            assertThat(byUri(samples).get(rows.get(i).uri()).key()).as("JTL key of " + a.uri()).isEqualTo(keys.get(i));
        }
    }

    @Test
    @LongTest
    void aScheduleWithoutTheKeyColumnSendsNoKeyHeaderAndLeavesTheJtlKeyEmpty() throws Exception {
        List<Row> rows = List.of(new Row(0, "127.16.0.1", "GET", "/a", "one"), new Row(50, "127.16.0.2", "GET", "/b", "two"));

        JMeter.Run run = replay(rows, "key_header", "X-Api-Key");

        assertThat(arrivals.values()).extracting(Arrival::key).containsOnlyNulls();
        assertThat(Jtl.read(run.jtl())).extracting(Sample::key).containsOnly("");
    }

    @Test
    void requestsStartOnScheduleAndNeverEarly() throws Exception {
        // A 40 s log of 40 requests from three clients, replayed at speed 10: 40 rows over 4 s.
        Random random = new Random(7);
        List<Long> logMs = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            logMs.add((long) random.nextInt(40_000));
        }
        logMs.sort(null);
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < logMs.size(); i++) {
            rows.add(new Row(logMs.get(i) / 10, "127.16.0." + (1 + i % 3), "GET", "/p" + i + "?i=" + i, "client-" + i % 3));
        }

        JMeter.Run run = replay(rows);

        List<Sample> samples = Jtl.read(run.jtl());
        assertEveryRowWasSentOnceAsScheduled(rows, samples);
        Lateness lateness = Lateness.of(samples);
        assertThat(lateness.scheduled()).isEqualTo(40);
        // The typical row within LATE_MS; the slowest of 40 (the p99) within a wider bound: beside a CI
        // run and two builds (load 15) one row started 748 ms late while the median was 35 ms. A
        // schedule that slid moves the median; serializing behind a slow answer is the next test's.
        assertThat(lateness.p50Ms()).as(lateness.describe()).isLessThan(LATE_MS);
        assertThat(lateness.p99Ms()).as(lateness.describe()).isLessThan(SLOWEST_LATE_MS);
        assertThat(lateness.earliestMs()).as(lateness.describe()).isGreaterThanOrEqualTo(-EARLY_MS);
        // The server's clock agrees: no request arrived before its due time.
        assertThat(samples).allSatisfy(s -> assertThat(arrivals.get(byUriKey(s)).atMs())
                .as("arrival of " + s.url()).isGreaterThanOrEqualTo(s.scheduledAt() - EARLY_MS));
        Files.writeString(dir.resolve("lateness.txt"), lateness.describe() + "\n");
    }

    @Test
    @LongTest
    void aSlowRequestDoesNotDelayTheRowsAfterIt() throws Exception {
        // /slow takes 2 s; six more rows are due while it is answered, one from the same client.
        List<Row> rows = new ArrayList<>(List.of(new Row(0, "127.16.0.1", "GET", "/slow?n=0", "slowpoke")));
        for (int i = 1; i <= 6; i++) {
            rows.add(new Row(i * 200L, "127.16.0." + (i % 2 + 1), "GET", "/quick" + i, i % 2 == 0 ? "slowpoke" : "other"));
        }

        JMeter.Run run = replay(rows, "threads", "4");

        List<Sample> samples = Jtl.read(run.jtl());
        assertEveryRowWasSentOnceAsScheduled(rows, samples);
        Map<String, Sample> sent = byUri(samples);
        Sample slow = sent.get("/slow?n=0");
        assertThat(slow.elapsed()).isGreaterThanOrEqualTo(SLOW_MS);
        for (Row row : rows.subList(1, rows.size())) {
            Sample quick = sent.get(row.uri());
            assertThat(quick.lateness()).as("lateness of " + row.uri()).isBetween(-EARLY_MS, LATE_MS);
            assertThat(quick.end()).as(row.uri() + " done before /slow").isLessThan(slow.end());
        }
    }

    @Test
    @LongTest
    void whenEveryThreadIsBusyTheLatenessShowsIt() throws Exception {
        // The same as above with one thread: the rows behind /slow can only start when it is done,
        // and the JTL must say so (this is what makes the lateness figures worth reading).
        List<Row> rows = new ArrayList<>(List.of(new Row(0, "127.16.0.1", "GET", "/slow?n=0", "slowpoke")));
        rows.add(new Row(200, "127.16.0.2", "GET", "/quick1", "other"));

        JMeter.Run run = replay(rows, "threads", "1");

        List<Sample> samples = Jtl.read(run.jtl());
        assertEveryRowWasSentOnceAsScheduled(rows, samples);
        assertThat(byUri(samples).get("/quick1").lateness()).isGreaterThanOrEqualTo(SLOW_MS - 200);
        assertThat(Lateness.of(samples).maxMs()).isGreaterThanOrEqualTo(SLOW_MS - 200);
    }

    @Test
    @LongTest
    void theWarmUpRequestsGoToTheirUrlBeforeTheStartAndNoneIsRecorded() throws Exception {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            rows.add(new Row(i * 100L, "127.16.0." + (i + 1), "GET", "/r" + i, "client-" + i));
        }

        JMeter.Run run = replay(rows, "warmup_url", "http://127.0.0.1:" + server.port() + "/warmup", "warmup_requests", "7");

        List<Sample> samples = Jtl.read(run.jtl());
        assertEveryRowWasSentOnceAsScheduled(rows, samples);
        assertThat(warmups).hasSize(7);
        long firstDue = samples.stream().mapToLong(Sample::scheduledAt).min().orElseThrow();
        assertThat(warmups).allSatisfy(at -> assertThat(at).isLessThan(firstDue));
        Files.writeString(dir.resolve("lateness.txt"), Lateness.of(samples).describe() + "\n");
    }

    @Test
    @LongTest
    void aWarmUpUrlThatNothingAnswersDoesNotStopTheReplay() throws Exception {
        List<Row> rows = List.of(new Row(0, "127.16.0.1", "GET", "/a", "one"), new Row(50, "127.16.0.2", "GET", "/b", "two"));

        JMeter.Run run = replay(rows, "warmup_url", "http://127.0.0.1:" + dev.ratecache.proc.Ports.free() + "/");

        assertEveryRowWasSentOnceAsScheduled(rows, Jtl.read(run.jtl()));
    }

    @Test
    @LongTest
    void aWarmUpUrlThatIsNoHttpUrlEndsTheRunBeforeAnyRequest() throws Exception {
        Path file = schedule(List.of(new Row(0, "127.16.0.1", "GET", "/a", "one")));
        JMeter.Run run = JMeter.assembled().run(Repo.plans().resolve("replay.jmx"),
                Map.of("host", "127.0.0.1", "port", String.valueOf(server.port()), "schedule", file.toString(),
                        "warmup_url", "ftp://127.0.0.1/"), dir.resolve("jmeter"));

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(Files.readString(run.log().resolveSibling("jmeter.out")))
                .contains("Invalid JMeter properties: warmup_url=ftp://127.0.0.1/ (expected url). No request was sent.");
        assertThat(arrivals).isEmpty();
    }

    @Test
    @LongTest
    void aScheduleWithAnotherHeaderEndsTheRunBeforeAnyRequest() throws Exception {
        Path file = Files.writeString(dir.resolve("schedule.csv"), "time,ip,method,uri\n0,127.16.0.1,GET,/x\n");
        JMeter.Run run = JMeter.assembled().run(Repo.plans().resolve("replay.jmx"),
                Map.of("host", "127.0.0.1", "port", String.valueOf(server.port()), "schedule", file.toString()),
                dir.resolve("jmeter"));

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(Files.readString(run.log().resolveSibling("jmeter.out")))
                .contains("Invalid JMeter properties: schedule=" + file + " (expected a readable CSV file starting with the line "
                        + HEADER + " or " + HEADER + ",key). No request was sent.");
        assertThat(arrivals).isEmpty();
    }

    private static String byUriKey(Sample s) {
        return s.url().replaceFirst("^https?://[^/]+", "");
    }
}
