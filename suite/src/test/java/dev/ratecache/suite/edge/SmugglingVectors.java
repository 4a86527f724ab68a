package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.origin.OriginCounters;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.TestDirs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The classic request-smuggling (desync) vectors sent through an edge product's two tiers to the
 * suite's origin over raw sockets, byte for byte: CL.TE, TE.CL, obfuscated Transfer-Encoding,
 * duplicate Content-Length, obs-fold, chunk edge cases, bare LF and CR, HTTP/1.0 keep-alive and
 * over-long heads. Where one parser frames a body differently from the next, a request hidden in
 * the body (always {@code /snail}) reaches the origin as its own.
 *
 * <p>One stack per class: every vector is sent once before the tests, one after the other, each on
 * a connection of its own, followed on it by a plain request that closes it, so that reading ends
 * when the tier closes rather than at a timeout. The tiers are then stopped, which writes out
 * their logs, and each test checks its vector against them and against the origin's counters
 * read around it. docs/smuggling.md holds what each product did.
 */
@ExtendWith(SharedOrigin.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class SmugglingVectors {
    /** How many vectors each product's class sends: for the docs' table of everything tried (docs/resilience.md). */
    public static long count() {
        return vectors().count();
    }

    /** A vector: the bytes sent, with {@link #MARKED} where its marker goes. */
    record Vector(String name, String bytes) {}

    /** Where each vector's marker goes: the query of each of its targets. */
    private static final String MARKED = "smuggle=##";
    private static final String HOST = "Host: edge\r\n";
    /** A request hidden in a body: it must never reach the origin as one of its own. */
    private static final String HIDDEN = "GET /snail?" + MARKED + " HTTP/1.1\r\n" + HOST + "\r\n";
    /** The body of a chunked POST whose one chunk is the hidden request. */
    private static final String HIDDEN_IN_A_CHUNK = Integer.toHexString(HIDDEN.length() + 2) + "\r\n" + HIDDEN
            + "\r\n\r\n0\r\n\r\n";
    private static final String POST = "POST /board?" + MARKED + " HTTP/1.1\r\n" + HOST;
    /** Sent after each vector: what a well-behaved client would send next on the connection. */
    private static final String LAST = "GET /brief?" + MARKED + " HTTP/1.1\r\n" + HOST + "Connection: close\r\n\r\n";
    private static final String LONG = "a".repeat(70_000);

    /** A POST whose Content-Length frames all of {@code body}, with {@code headers} before it. */
    private static String post(String headers, String body) {
        return POST + "Content-Length: " + body.length() + "\r\n" + headers + "\r\n" + body;
    }

    /** A POST with {@code headers} that ends with a chunked body hiding the request. */
    private static String chunked(String headers) {
        return POST + headers + "\r\n" + HIDDEN_IN_A_CHUNK;
    }

    static Stream<Vector> vectors() {
        return Stream.of(
                new Vector("baseline: a hidden GET in a body framed by Content-Length alone", post("", HIDDEN)),
                new Vector("CL.TE: Content-Length and chunked, the hidden GET after the last chunk",
                        post("Transfer-Encoding: chunked\r\n", "0\r\n\r\n" + HIDDEN)),
                new Vector("TE.CL: chunked and Content-Length 4, the hidden GET in the chunk",
                        chunked("Content-Length: 4\r\nTransfer-Encoding: chunked\r\n")),
                new Vector("TE.TE: Transfer-Encoding xchunked", post("Transfer-Encoding: xchunked\r\n", "0\r\n\r\n" + HIDDEN)),
                new Vector("TE.TE: a space before the colon", post("Transfer-Encoding : chunked\r\n", "0\r\n\r\n" + HIDDEN)),
                new Vector("TE.TE: chunked, identity", post("Transfer-Encoding: chunked, identity\r\n", "0\r\n\r\n" + HIDDEN)),
                new Vector("TE.TE: identity, chunked", chunked("Content-Length: 4\r\nTransfer-Encoding: identity, chunked\r\n")),
                new Vector("TE.TE: a tab before the value", post("Transfer-Encoding:\tchunked\r\n", "0\r\n\r\n" + HIDDEN)),
                new Vector("TE.TE: a vertical tab after the value",
                        post("Transfer-Encoding: chunked\u000b\r\n", "0\r\n\r\n" + HIDDEN)),
                new Vector("TE.TE: two Transfer-Encoding headers, chunked and x",
                        post("Transfer-Encoding: chunked\r\nTransfer-Encoding: x\r\n", "0\r\n\r\n" + HIDDEN)),
                new Vector("TE.TE: chunked in capitals", post("Transfer-Encoding: CHUNKED\r\n", "0\r\n\r\n" + HIDDEN)),
                new Vector("TE in HTTP/1.0 with Content-Length",
                        post("Transfer-Encoding: chunked\r\n", "0\r\n\r\n" + HIDDEN).replace(" HTTP/1.1\r\n", " HTTP/1.0\r\n")),
                new Vector("CL.CL: two equal Content-Length headers",
                        post("Content-Length: " + HIDDEN.length() + "\r\n", HIDDEN)),
                new Vector("CL.CL: two different Content-Length headers",
                        POST + "Content-Length: 0\r\nContent-Length: " + HIDDEN.length() + "\r\n\r\n" + HIDDEN),
                new Vector("CL.CL: a comma-listed Content-Length",
                        POST + "Content-Length: 0, " + HIDDEN.length() + "\r\n\r\n" + HIDDEN),
                new Vector("CL: a signed Content-Length", POST + "Content-Length: +" + HIDDEN.length() + "\r\n\r\n" + HIDDEN),
                new Vector("obs-fold: Transfer-Encoding folded onto a second line",
                        post("Transfer-Encoding:\r\n chunked\r\n", "0\r\n\r\n" + HIDDEN)),
                new Vector("obs-fold: a folded header before Content-Length",
                        post("X-Folded: a\r\n b\r\n", HIDDEN)),
                new Vector("chunk size: hex overflow", POST + "Transfer-Encoding: chunked\r\n\r\n"
                        + "10000000000000001\r\n" + HIDDEN + "\r\n0\r\n\r\n"),
                new Vector("chunk size: negative", POST + "Transfer-Encoding: chunked\r\n\r\n-1\r\n" + HIDDEN + "\r\n0\r\n\r\n"),
                new Vector("chunk size: a 0x prefix", POST + "Transfer-Encoding: chunked\r\n\r\n0x"
                        + Integer.toHexString(HIDDEN.length()) + "\r\n" + HIDDEN + "\r\n0\r\n\r\n"),
                new Vector("chunk extension: 64 KiB long", POST + "Transfer-Encoding: chunked\r\n\r\n1;a=" + "b".repeat(65_536)
                        + "\r\nx\r\n0\r\n\r\n"),
                new Vector("chunk data: no CRLF after it", POST + "Transfer-Encoding: chunked\r\n\r\n1\r\nx" + HIDDEN
                        + "0\r\n\r\n"),
                new Vector("chunk size: ended by a bare LF", POST + "Transfer-Encoding: chunked\r\n\r\n"
                        + "2\nxx\r\n" + HIDDEN_IN_A_CHUNK),
                new Vector("bare LF: every line of the head", "GET /quick?" + MARKED + " HTTP/1.1\nHost: edge\n\n"),
                new Vector("bare CR: ending a header line", "GET /quick?" + MARKED + " HTTP/1.1\r\nHost: edge\rX-Hidden: 1\r\n\r\n"),
                new Vector("HTTP/1.0 with keep-alive", "GET /quick?" + MARKED + " HTTP/1.0\r\n" + HOST + "Connection: keep-alive\r\n\r\n"),
                new Vector("over-long request line: 70 KB", "GET /quick?pad=" + LONG + "&" + MARKED + " HTTP/1.1\r\n" + HOST + "\r\n"),
                new Vector("over-long header: 70 KB", "GET /quick?" + MARKED + " HTTP/1.1\r\n" + HOST + "X-Pad: " + LONG + "\r\n\r\n"));
    }

    /**
     * What one vector's connection brought: the statuses the client read, and the origin's counts
     * around it; {@code from} and {@code until} in epoch milliseconds, until the next vector's start.
     */
    private record Sent(String source, long from, long until, List<Integer> statuses, boolean timedOut,
            OriginCounters before, OriginCounters after) {}

    private final Map<String, Sent> sent = new LinkedHashMap<>();
    private List<EdgeEvent> front;
    private List<EdgeEvent> back;

    /** The product under test. */
    abstract Edge edge();

    /** The first two parts of the loopback addresses this class sends from, one per vector. */
    abstract String pool();

    /** Whether the front logs a request it refuses before it could read its head whole. */
    boolean logsUnreadRequests() {
        return true;
    }

    /**
     * Whether the tiers pass a request's head on before they have read its body (Envoy streams it):
     * a body found malformed is then refused after the back tier began passing it on, and the back
     * broke that request off (its status 0: no answer of the origin's went back), which the origin
     * counted or not as the reset raced its read.
     */
    boolean streamsRequestBodies() {
        return false;
    }

    /**
     * The statuses the back logs for a request broken off when the body it was streaming turned out
     * malformed: 0 (no answer, Envoy's), or what the product logs instead (Traefik's back: its own
     * 500, or 499 when the front gave up first).
     */
    java.util.Set<Integer> brokenOffStatuses() {
        return java.util.Set.of(0);
    }

    /** What the client reads of a request broken off that way, besides a 4xx: none but 501 by default. */
    boolean brokenOffAnswer(int status) {
        return false;
    }

    /**
     * Whether the front frames a request with both Content-Length and Transfer-Encoding: chunked by
     * its chunks and keeps the connection open after answering it, reading what follows the last
     * chunk as the client's next request, which it logs and passes on (Go's HTTP server). RFC 9112
     * section 6.1 says it MUST close the connection instead; the tiers still agree on every request,
     * so nothing is hidden from the front's log, but behind a proxy that frames by Content-Length
     * this is the CL.TE desync. docs/smuggling.md says so.
     */
    boolean readsOnAfterBothLengths() {
        return false;
    }

    /**
     * The switches the vectors go through. No back limit: its queue (no nodelay) would pace the
     * vectors, and no vector is about limits. A short client timeout ends a request a tier waits on
     * for more body.
     */
    StackSwitches switches() {
        return new StackSwitches().backLimit(false).clientTimeout(1);
    }

    @BeforeAll
    void sendEveryVector(OriginServer origin) throws Exception {
        StackPorts ports = StackPorts.free().origin(origin.port(), origin.managementPort());
        Edge.Running stack = edge().start(switches().spec(ports), TestDirs.fresh(getClass(), "stack"));
        try {
            List<Vector> all = vectors().toList();
            OriginCounters before = origin.counters();
            for (int i = 0; i < all.size(); i++) {
                String bytes = (all.get(i).bytes() + LAST).replace(MARKED, marker(i));
                long from = System.currentTimeMillis();
                String source = pool() + ".0." + (i + 1);
                Exchange exchange = exchange(source, ports.front(), bytes);
                OriginCounters after = streamsRequestBodies() ? settled(origin) : origin.counters();
                sent.put(all.get(i).name(), new Sent(source, from, System.currentTimeMillis(), exchange.statuses(),
                        exchange.timedOut(), before, after));
                before = after;
            }
        } finally {
            stack.close();
        }
        front = stack.frontEvents();
        back = stack.backEvents();
    }

    /**
     * The origin's counters once nothing is in flight and two readings a quarter second apart agree:
     * a request the back broke off mid-body may be counted a moment after the client read its
     * answer, and would otherwise fall to the next vector.
     */
    private static OriginCounters settled(OriginServer origin) throws IOException {
        OriginCounters[] last = {origin.counters()};
        org.awaitility.Awaitility.await().pollDelay(java.time.Duration.ofMillis(250))
                .pollInterval(java.time.Duration.ofMillis(250)).atMost(java.time.Duration.ofSeconds(10)).until(() -> {
                    OriginCounters now = origin.counters();
                    boolean quiet = now.total().inFlight() == 0 && now.total().requests() == last[0].total().requests();
                    last[0] = now;
                    return quiet;
                });
        return last[0];
    }

    /**
     * What each vector got, as a table in the class's folder (findings.md): what docs/smuggling.md
     * was written from, and what to compare it with when a product's answers change.
     */
    @AfterAll
    void writeFindings() throws IOException {
        if (front == null) {
            return;
        }
        List<String> rows = new ArrayList<>(List.of("| vector | answers | refused by | origin saw |", "| --- | --- | --- | --- |"));
        List<Vector> all = vectors().toList();
        for (int i = 0; i < all.size(); i++) {
            Sent s = sent.get(all.get(i).name());
            rows.add("| " + all.get(i).name() + " | " + s.statuses() + (s.timedOut() ? " (then held open)" : "")
                    + " | " + refusers(s, i) + " | " + reachedOrigin(s) + " |");
        }
        Files.write(TestDirs.of(getClass(), "stack").resolve("findings.md"), rows);
    }

    /**
     * One test per vector, named for it. Dynamic tests rather than a parameterised one: SharedOrigin
     * resets the origin before each test, reseeding its items, which cost about 0.3 s a vector here
     * and reset nothing these tests read.
     */
    @TestFactory
    Stream<DynamicTest> theOriginSeesExactlyWhatTheFrontLoggedAndNothingHidden() {
        return vectors().map(v -> DynamicTest.dynamicTest(v.name(), () -> {
            try {
                check(v);
            } catch (AssertionError e) {
                // Surefire's report names a dynamic test by its index alone.
                throw new AssertionError(v.name() + ": " + e.getMessage(), e);
            }
        }));
    }

    private void check(Vector vector) {
        int index = vectors().toList().indexOf(vector);
        Sent s = sent.get(vector.name());
        List<EdgeEvent> logged = frontOf(s);
        List<Integer> read = new ArrayList<>(s.statuses());

        // What follows the last chunk of a request with both lengths, read as the client's next request.
        boolean nextRequest = readsOnAfterBothLengths() && logged.stream().anyMatch(e -> e.uri().startsWith("/snail"));
        if (!nextRequest) {
            // Else the front waited on the hidden request's origin (5 s), past the client's patience.
            assertThat(s.timedOut()).as("the tiers closed the connection (no timeout)").isFalse();
        }
        // A status 0 is a request the front closed the connection on without an answer.
        // Read by the client: what the front answered before it gave up waiting (all of it, but with a next request).
        long gaveUp = nextRequest ? logged.stream().filter(e -> e.uri().startsWith("/snail"))
                .mapToLong(EdgeEvent::arrivalMs).min().orElseThrow() : Long.MAX_VALUE;
        logged.stream().filter(e -> e.status() != 0 && e.arrivalMs() < gaveUp)
                .forEach(e -> assertThat(read.remove((Integer) e.status()))
                        .as("the client read the %d the front logged", e.status()).isTrue());
        // A head the front could not read (400, 431) or a transfer coding it does not implement (501).
        assertThat(read).as("answers the front did not log").allMatch(status -> !logsUnreadRequests()
                && (status == 400 || status == 431 || status == 501));
        assertThat(s.statuses()).as("each refusal is a 4xx, or 501 for a transfer coding the tier does not implement"
                + " (RFC 9112 section 6.1), or the product's own answer to a body it broke off")
                .allMatch(status -> status < 500 || status == 501 || brokenOffAnswer(status));
        assertThat(logged.stream().filter(e -> e.status() >= 400))
                .as("refusals by the front or the back, none passed to the origin")
                .noneMatch(e -> reachedTheOrigin(e, index) && !(streamsRequestBodies() && brokenOff(e, index)));
        if (!nextRequest) {
            assertThat(delta(s).getOrDefault("snail", 0L)).as("the hidden request at the origin").isZero();
        }
        List<EdgeEvent> reached = logged.stream().filter(e -> reachedTheOrigin(e, index)).toList();
        if (streamsRequestBodies()) {
            // A request the back broke off may have been reset before the origin counted it: each endpoint's count
            // lies between the requests answered and those plus the broken-off ones.
            Map<String, Long> atLeast = endpoints(reached.stream().filter(e -> !brokenOff(e, index)).toList());
            Map<String, Long> atMost = endpoints(reached);
            Map<String, Long> counted = delta(s);
            assertThat(atMost.keySet()).as("the origin's endpoints, among those the front's requests reached")
                    .containsAll(counted.keySet());
            atMost.forEach((endpoint, most) -> assertThat(counted.getOrDefault(endpoint, 0L))
                    .as("the origin's requests to %s, against the front's that reached it", endpoint)
                    .isBetween(atLeast.getOrDefault(endpoint, 0L), most));
        } else {
            assertThat(delta(s)).as("the origin's requests per endpoint, against the front's that reached it")
                    .isEqualTo(endpoints(reached));
            assertThat(s.after().total().requests() - s.before().total().requests())
                    .as("the origin's requests in all").isEqualTo(reached.size());
        }
        assertThat(backOf(index)).as("the back's requests, each one the front logged")
                .allSatisfy(b -> assertThat(logged).anySatisfy(f -> assertThat(f.uri()).isEqualTo(b.uri())));
    }

    /** As long as the placeholder it replaces, so that every length a vector states stays true. */
    private static String marker(int index) {
        return String.format("smuggle=%02d", index);
    }

    /**
     * What the front logged of a vector: by its own client address, each vector's own; by when it
     * ended only for a line with no address, which HAProxy's front writes ("-") of a request it could
     * not parse. Not by time alone: nginx stamps a line after the client has read the answer, so a
     * vector's last line can end a millisecond into the next vector's time.
     */
    private List<EdgeEvent> frontOf(Sent s) {
        return front.stream().filter(e -> s.source().equals(e.key()) || !e.key().matches("[0-9a-fA-F.:]+")
                && e.endMs() >= s.from() && e.endMs() < s.until()).toList();
    }

    /** What the back logged of vector {@code index}: its targets are the only ones with its marker. */
    private List<EdgeEvent> backOf(int index) {
        return back.stream().filter(e -> e.uri().endsWith(marker(index))).toList();
    }

    /**
     * The back's line for the front's {@code event}, if the front passed it on: found by its target,
     * not by the front's upstream status, which nginx's front leaves empty for a write it passes on
     * from a script (njs/edge_invalidation.js).
     */
    private Optional<EdgeEvent> backFor(EdgeEvent event, int index) {
        return backOf(index).stream().filter(b -> b.uri().equals(event.uri())).findFirst();
    }

    /** Whether the back tier broke {@code event}'s request off before the origin's answer ({@link #brokenOffStatuses}). */
    private boolean brokenOff(EdgeEvent event, int index) {
        return backFor(event, index).map(b -> brokenOffStatuses().contains(b.status())).orElse(false);
    }

    private boolean reachedTheOrigin(EdgeEvent event, int index) {
        return backFor(event, index).map(EdgeEvent::wentUpstream).orElse(false);
    }

    /** The statuses the client read that the front did not log. */
    private List<Integer> unlogged(Sent s) {
        List<Integer> unlogged = new ArrayList<>(s.statuses());
        frontOf(s).forEach(e -> unlogged.remove((Integer) e.status()));
        return unlogged;
    }

    /**
     * Which tier answered each refusal (4xx or 5xx), or closed without one: the front, the back or
     * the origin, as their logs tell; an answer the front did not log is its own.
     */
    private String refusers(Sent s, int index) {
        List<String> who = new ArrayList<>();
        for (EdgeEvent e : frontOf(s)) {
            if (e.status() == 0) {
                who.add("closed by the front, no answer");
            } else if (e.status() >= 400) {
                who.add(e.status() + " " + (backFor(e, index).isEmpty() ? "front" : reachedTheOrigin(e, index) ? "origin" : "back"));
            }
        }
        unlogged(s).forEach(status -> who.add(status + " front, not logged"));
        if (s.statuses().isEmpty() && who.isEmpty()) {
            who.add("closed by the front, no answer, not logged");
        }
        return who.isEmpty() ? "-" : String.join(", ", who);
    }

    private String reachedOrigin(Sent s) {
        return delta(s).toString();
    }

    private static Map<String, Long> delta(Sent s) {
        Map<String, Long> d = new TreeMap<>();
        s.after().endpoints().forEach((name, count) -> {
            long n = count.requests() - s.before().requests(name);
            if (n != 0) {
                d.put(name, n);
            }
        });
        return d;
    }

    /** The origin's endpoint of each event, counted: the first segment of its target. */
    private static Map<String, Long> endpoints(List<EdgeEvent> events) {
        Map<String, Long> counts = new TreeMap<>();
        for (EdgeEvent e : events) {
            counts.merge(e.uri().replaceFirst("^/([^/?]*).*$", "$1"), 1L, Long::sum);
        }
        return counts;
    }

    private static List<Integer> sorted(List<Integer> statuses) {
        return statuses.stream().sorted().toList();
    }

    private record Exchange(List<Integer> statuses, boolean timedOut) {}

    /**
     * Writes {@code request} as it is from {@code source} and reads until the tier closes; a tier
     * still silent after a few seconds is recorded as holding the connection open.
     */
    private static Exchange exchange(String source, int port, String request) throws IOException {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(source), 0));
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            socket.setSoTimeout(3000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            ByteArrayOutputStream read = new ByteArrayOutputStream();
            boolean timedOut = false;
            try {
                InputStream in = socket.getInputStream();
                byte[] buffer = new byte[8192];
                for (int n; (n = in.read(buffer)) > 0; ) {
                    read.write(buffer, 0, n);
                }
            } catch (SocketTimeoutException e) {
                timedOut = true;
            } catch (IOException e) {
                // A reset after the answers (a tier closing with unread bytes): what was read stands.
            }
            return new Exchange(statuses(read.toString(StandardCharsets.ISO_8859_1)), timedOut);
        }
    }

    /** The status of each response in {@code read}, framed by its Content-Length or chunks. */
    static List<Integer> statuses(String read) {
        List<Integer> statuses = new ArrayList<>();
        int at = 0;
        while (read.startsWith("HTTP/1.", at)) {
            int headEnd = read.indexOf("\r\n\r\n", at);
            if (headEnd < 0) {
                break;
            }
            String head = read.substring(at, headEnd);
            int status = Integer.parseInt(head.substring(9, 12));
            statuses.add(status);
            Map<String, String> headers = new HashMap<>();
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0) {
                    headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
                }
            }
            at = headEnd + 4;
            if (status == 204 || status == 304) {
                continue;
            }
            if (headers.containsKey("content-length")) {
                at += Integer.parseInt(headers.get("content-length"));
            } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                while (true) {
                    int lineEnd = read.indexOf("\r\n", at);
                    int size = Integer.parseInt(read.substring(at, lineEnd).split(";")[0].trim(), 16);
                    at = lineEnd + 2 + size + 2;
                    if (size == 0) {
                        break;
                    }
                }
            } else {
                break;
            }
        }
        return statuses;
    }
}
